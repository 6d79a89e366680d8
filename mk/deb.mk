## Packages:
##   make deb           linux-image (from KCONFIG_DEB, default the running
##                      kernel's config) and gpunice packages in $OUT/deb
##   make rpm           the same as rpm packages (binrpm-pkg) in $OUT/rpm
##   make pacman        the same as pacman packages (pacman-pkg) in
##                      $OUT/pacman; as a user, not root
##   KCONFIG_DEB=file DEB_CONFIG_ONLY=1 (only the config) LOCALMODCONFIG=1
##                      [LSMOD=file] (only loaded modules) KDEB_DEBUG_INFO=1
##                      LINE=7.3|6.12 (6.12's packages in $OUT/6.12/)
# linux-image-<version>-gpuprio is built by the kernel's bindeb-pkg in its
# own tree $(LOUT)/deb/linux (scripts/make-deb.sh), from the line's source
# and series. Without /boot/config-*, the running kernel's /proc/config.gz.
KCONFIG_DEB ?= $(firstword $(wildcard /boot/config-$(shell uname -r)) \
	/proc/config.gz)
.PHONY: deb rpm pacman check-deb check-rpm check-pacman
PKG_CONFIG := $(abspath $(KCONFIG_DEB))
# What a package build says first: the line, and the line nearest to the
# config (scripts/config-line.sh: the oldest line at least as new as the
# kernel that wrote it, where olddefconfig drops the least) when that is
# another one.
pkg_say_line = @scripts/config-line.sh --say $(LINE) $(PKG_CONFIG)
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

##   make check-deb check-rpm check-pacman   (make check-extra) the packages
##                      from the small test config, inspected
##   make check-deb-6.12 (make check-extra) make check-deb LINE=6.12
# The 6.12 line's results are named apart (host-deb-6.12), in the same
# $(CHECK_DIR) as the 7.3 line's.
LINE_TAP := $(if $(filter 6.12,$(LINE)),-6.12)
.PHONY: check-deb-6.12
check-deb-6.12:
	@$(MAKE) --no-print-directory LINE=6.12 check-deb
check-deb: $(KSTAMP)
	@$(call placeholder,host-deb$(LINE_TAP))
	@JOBS=$(JOBS) tests/deb-check.sh $(LTAR) $(PRISTINE) $(KDIR) \
		$(LOUT)/deb-check > $(CHECK_DIR)/host-deb$(LINE_TAP).tap
check-rpm check-pacman: $(KSTAMP)
	@$(call placeholder,host-$(@:check-%=%)$(LINE_TAP))
	@JOBS=$(JOBS) tests/pkg-check.sh $(@:check-%=%) $(LTAR) $(PRISTINE) \
		$(KDIR) $(LOUT)/$(@:check-%=%)-check \
		> $(CHECK_DIR)/host-$(@:check-%=%)$(LINE_TAP).tap
