## Packages:
##   make deb           linux-image (from KCONFIG_DEB, default the running
##                      kernel's config) and gpunice packages in $OUT/deb
##   make rpm           the same as rpm packages (binrpm-pkg) in $OUT/rpm
##   make pacman        the same as pacman packages (pacman-pkg) in
##                      $OUT/pacman; as a user, not root
##   KCONFIG_DEB=file DEB_CONFIG_ONLY=1 (only the config) LOCALMODCONFIG=1
##                      [LSMOD=file] (only loaded modules) KDEB_DEBUG_INFO=1
##                      LINE=6.12|7.3 (default: the line the config is for,
##                      scripts/config-line.sh; 7.3's packages in $OUT/7.3/)
# linux-image-<version>-gpuprio is built by the kernel's bindeb-pkg in its
# own tree $(LOUT)/deb/linux (scripts/make-deb.sh), from the line's source
# and series. Without /boot/config-*, the running kernel's /proc/config.gz.
KCONFIG_DEB ?= $(firstword $(wildcard /boot/config-$(shell uname -r)) \
	/proc/config.gz)
.PHONY: deb rpm pacman check-deb check-rpm check-pacman
# Without LINE on the command line, the config decides: the oldest line at
# least as new as the kernel that wrote it, so that olddefconfig drops as
# little of it as it can (a 6.12 config: 6.12; a 6.18 or 7.x one: 7.3).
# Either way the build says which line and why.
PKG_CONFIG := $(abspath $(KCONFIG_DEB))
# What a build of a chosen line says first; nothing when the config chose
# it, which has said so (PKG_LINE_SAID).
pkg_say_line = $(if $(PKG_LINE_SAID),,@set -- $$(scripts/config-line.sh \
	$(PKG_CONFIG)) && echo "  PKG     the $(LINE) line (LINE=$(LINE));" \
	"$(KCONFIG_DEB) is from Linux $$2")
ifeq ($(origin LINE),file)
deb rpm pacman: deps
	@set -- $$(scripts/config-line.sh $(PKG_CONFIG)) && \
	echo "  PKG     $(KCONFIG_DEB) is from Linux $$2: the $$1 line" \
		"(LINE=6.12 or LINE=7.3 chooses)" && \
	$(MAKE) --no-print-directory LINE=$$1 PKG_LINE_SAID=1 $@
else
deb: deps
	$(pkg_say_line)
	@JOBS=$(JOBS) scripts/make-deb.sh $(LTAR) $(PRISTINE) $(LOUT)/deb/linux \
		$(PKG_CONFIG)
	$(if $(DEB_CONFIG_ONLY),,@scripts/make-tool-deb.sh \
		$(LOUT)/deb/gpunice-build $(LOUT)/deb)
	$(if $(DEB_CONFIG_ONLY),,@echo "  DEB     install with: sudo apt install $(LOUT)/deb/*.deb")

# make rpm and make pacman: the same from the same config, with the kernel's
# binrpm-pkg (kernel-<release>, in $(LOUT)/rpm) and pacman-pkg
# (linux-gpuprio, in $(LOUT)/pacman, as a user: makepkg refuses root), and
# gpunice in the same format (scripts/make-tool-rpm.sh, make-tool-pacman.sh).
rpm pacman: deps
	$(pkg_say_line)
	@KPKG=$@ JOBS=$(JOBS) scripts/make-deb.sh $(LTAR) $(PRISTINE) \
		$(LOUT)/$@/linux $(PKG_CONFIG)
	$(if $(DEB_CONFIG_ONLY),,@scripts/make-tool-$@.sh $(LOUT)/$@/gpunice-build \
		$(LOUT)/$@)
	$(if $(DEB_CONFIG_ONLY),,@echo "  PKG     install with: $(if \
		$(filter rpm,$@),sudo dnf install $(LOUT)/rpm/*.rpm,sudo pacman \
		-U $(LOUT)/pacman/*.pkg.tar.zst)")
endif

##   make check-deb check-rpm check-pacman   (make check-extra) the packages
##                      from the small test config, inspected; LINE=7.3:
##                      the 7.3 line's
##   make check-deb-7.3 (make check-extra) make check-deb LINE=7.3
# The 7.3 line's results are named apart (host-deb-7.3), in the same
# $(CHECK_DIR) as the 6.12 line's.
LINE_TAP := $(if $(filter 7.3,$(LINE)),-7.3)
.PHONY: check-deb-7.3
check-deb-7.3:
	@$(MAKE) --no-print-directory LINE=7.3 check-deb
check-deb: $(KSTAMP)
	@$(call placeholder,host-deb$(LINE_TAP))
	@JOBS=$(JOBS) tests/deb-check.sh $(LTAR) $(PRISTINE) $(KDIR) \
		$(LOUT)/deb-check > $(CHECK_DIR)/host-deb$(LINE_TAP).tap
check-rpm check-pacman: $(KSTAMP)
	@$(call placeholder,host-$(@:check-%=%)$(LINE_TAP))
	@JOBS=$(JOBS) tests/pkg-check.sh $(@:check-%=%) $(LTAR) $(PRISTINE) \
		$(KDIR) $(LOUT)/$(@:check-%=%)-check \
		> $(CHECK_DIR)/host-$(@:check-%=%)$(LINE_TAP).tap
