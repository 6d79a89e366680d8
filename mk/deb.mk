## Packages:
##   make deb           linux-image (from KCONFIG_DEB, default the running
##                      kernel's config) and gpunice packages in $OUT/deb
##   make rpm           the same as rpm packages (binrpm-pkg) in $OUT/rpm
##   make pacman        the same as pacman packages (pacman-pkg) in
##                      $OUT/pacman; as a user, not root
##   KCONFIG_DEB=file DEB_CONFIG_ONLY=1 (only the config) LOCALMODCONFIG=1
##                      [LSMOD=file] (only loaded modules) KDEB_DEBUG_INFO=1
# linux-image-<version>-gpuprio is built by the kernel's bindeb-pkg in its
# own tree $(OUT)/deb/linux (scripts/make-deb.sh). Without /boot/config-*,
# the running kernel's /proc/config.gz.
KCONFIG_DEB ?= $(firstword $(wildcard /boot/config-$(shell uname -r)) \
	/proc/config.gz)
.PHONY: deb rpm pacman check-deb check-rpm check-pacman
deb: deps
	@$(only_612)
	@JOBS=$(JOBS) scripts/make-deb.sh $(KTAR) $(PRISTINE) $(OUT)/deb/linux \
		$(abspath $(KCONFIG_DEB))
	$(if $(DEB_CONFIG_ONLY),,@scripts/make-tool-deb.sh \
		$(OUT)/deb/gpunice-build $(OUT)/deb)
	$(if $(DEB_CONFIG_ONLY),,@echo "  DEB     install with: sudo apt install $(OUT)/deb/*.deb")

# make rpm and make pacman: the same from the same config, with the kernel's
# binrpm-pkg (kernel-<release>, in $(OUT)/rpm) and pacman-pkg
# (linux-gpuprio, in $(OUT)/pacman, as a user: makepkg refuses root), and
# gpunice in the same format (scripts/make-tool-rpm.sh, make-tool-pacman.sh).
rpm pacman: deps
	@$(only_612)
	@KPKG=$@ JOBS=$(JOBS) scripts/make-deb.sh $(KTAR) $(PRISTINE) \
		$(OUT)/$@/linux $(abspath $(KCONFIG_DEB))
	$(if $(DEB_CONFIG_ONLY),,@scripts/make-tool-$@.sh $(OUT)/$@/gpunice-build \
		$(OUT)/$@)
	$(if $(DEB_CONFIG_ONLY),,@echo "  PKG     install with: $(if \
		$(filter rpm,$@),sudo dnf install $(OUT)/rpm/*.rpm,sudo pacman \
		-U $(OUT)/pacman/*.pkg.tar.zst)")

##   make check-deb check-rpm check-pacman   (make check-extra) the packages
##                      from the small test config, inspected
check-deb: $(KSTAMP)
	@$(only_612)
	@$(call placeholder,host-deb)
	@JOBS=$(JOBS) tests/deb-check.sh $(KTAR) $(PRISTINE) $(KDIR) \
		$(OUT)/deb-check > $(CHECK_DIR)/host-deb.tap
check-rpm check-pacman: $(KSTAMP)
	@$(only_612)
	@$(call placeholder,host-$(@:check-%=%))
	@JOBS=$(JOBS) tests/pkg-check.sh $(@:check-%=%) $(KTAR) $(PRISTINE) \
		$(KDIR) $(OUT)/$(@:check-%=%)-check \
		> $(CHECK_DIR)/host-$(@:check-%=%).tap
