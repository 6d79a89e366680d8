# make check, make check-extra and the suites they run; each suite writes
# TAP into $(CHECK_DIR) for tests/summarize.py.

## Tests:
##   make check         the line (LINE, 7.3 by default) whole, host and
##                      guest, and the other line's series (applies,
##                      checkpatch, its mutants apply); what .ci/run runs
##   make check-7.3 check-6.12   make check LINE=7.3, LINE=6.12
##   make check-extra   arm64 wiring, make deb/rpm/pacman, stock without
##                      CONFIG_GPUPRIO, an upstream (kernel.org) tarball
##   CHECK_DIR=dir      where make check writes its TAP ($OUT/check;
##                      LINE=6.12: $OUT/6.12/check)
##   CHECK_SUITES="..." what make check runs (default: the line's suites)
CHECK_DIR ?= $(LOUT)/check
# Each line's suites. 7.3, the one for upstream review, boots again under
# round robin and FAIR (check-policies); 6.12 checks that both lines' guests
# run the same gpunice files.
SUITES_7.3 := check-guest check-policies check-host check-amdgpu \
	check-patches check-mutants-list check-sched-modules
SUITES_6.12 := check-guest check-host check-amdgpu check-patches \
	check-mutants-list check-same-gpunice
# The other line's series is checked without building its kernel (it
# applies, checkpatch, kernel-doc, its mutants still apply), in its own
# results folder: its kernels boot in make check LINE=<that line>, so that
# .ci/run fits its time from a cold start on 2 cores (HACKING.md, Time and
# disk).
CHECK_SUITES ?= $(SUITES_$(LINE)) check-series-$(OTHER_LINE)
OTHER_CHECK_DIR := $(call lout,$(OTHER_LINE))/check
# The subdirectories of $(CHECK_DIR) with a guest of their own (the policy
# boots), and the other line's folder, for tests/summarize.py.
CHECK_SUBDIRS := $(if $(filter check-policies,$(CHECK_SUITES)),rr fair) \
	$(if $(filter check-series-$(OTHER_LINE),$(CHECK_SUITES)), \
		$(OTHER_LINE)=$(OTHER_CHECK_DIR))
# What make check-extra runs: a kernel tree each, too long for CI next to
# make check on 2 cores (see HACKING.md, Time and disk).
EXTRA_SUITES := check-arm64 check-deb check-rpm check-pacman check-deb-6.12 \
	check-nogpuprio check-ktar-6.12
# A suite that dies before writing its TAP still counts as a failure.
placeholder = echo "not ok 1 $(1) did not run to the end" > $(CHECK_DIR)/$(1).tap

.PHONY: check check-7.3 check-6.12 check-extra check-host check-amdgpu \
	check-policies check-mutants-list check-same-gpunice check-sched-modules \
	check-arm64 check-nogpuprio check-ktar check-ktar-6.12 check-series-7.3 \
	check-series-6.12
check: deps
	@rm -rf $(CHECK_DIR) && mkdir -p $(CHECK_DIR)
	@$(MAKE) -k --no-print-directory $(CHECK_SUITES) || true
	@tests/summarize.py $(if $(filter check-guest,$(CHECK_SUITES)),,--host-only) \
		$(CHECK_DIR) $(CHECK_SUBDIRS)
check-7.3 check-6.12: deps
	@$(MAKE) --no-print-directory LINE=$(@:check-%=%) check

# The other line's series checks (make check), in its results folder.
check-series-$(OTHER_LINE): | deps
	@rm -rf $(OTHER_CHECK_DIR) && mkdir -p $(OTHER_CHECK_DIR)
	@$(MAKE) -k --no-print-directory LINE=$(OTHER_LINE) \
		CHECK_DIR=$(OTHER_CHECK_DIR) check-patches check-mutants-list \
		|| true

# The same summary for the extra suites, in $(LOUT)/check-extra; they need
# the test kernel and initramfs, which they build like make check.
check-extra: deps
	@rm -rf $(LOUT)/check-extra && mkdir -p $(LOUT)/check-extra
	@$(MAKE) -k --no-print-directory $(EXTRA_SUITES) \
		CHECK_DIR=$(LOUT)/check-extra || true
	@tests/summarize.py --host-only $(LOUT)/check-extra

## Suites of make check, to run one alone:
##   make check-host    the host suites (tests/host/suites, tests/run-host.sh)
# The <gpuprio.h> matrix (tests/host/suites/12-gpuprio-header) compiles
# with g++, clang and musl-gcc too.
check-host: $(KSTAMP)
	@scripts/install-deps.sh g++ clang musl-tools
	@$(MAKE) -s --no-print-directory -C tools/gpunice O=$(GPUNICE_OUT) \
		CFLAGS="-O2 -Werror"
	@tests/run-host.sh $(CHECK_DIR) $(PRISTINE) $(GPUNICE_OUT)

##   make check-mutants-list  every mutant of the line's make mutants still
##                      applies to its tree (host-mutants); no build
check-mutants-list: $(KDIR)/.gpunice-files
	@mkdir -p $(CHECK_DIR)
	@$(call placeholder,host-mutants)
	@tests/mutants/mutants.py check --tap --line $(LINE) $(KDIR) \
		> $(CHECK_DIR)/host-mutants.tap || true

##   make check-amdgpu  amdgpu built in its own tree, its KUnit booted
##                      (on 7.3 also under FAIR)
# amdgpu in a tree of its own ($(LOUT)/amdgpu, amdgpu built in): the objects
# the series touches compile warning-free, then the whole kernel boots in
# the guest to run amdgpu's KUnit suites (tests/amdgpu-kunit.sh). On 7.3
# it boots again under drm_sched's FAIR policy, where following a task
# grades an entity's weight by the task's GPU nice instead of moving it.
check-amdgpu: $(INITRD) | deps
	@mkdir -p $(CHECK_DIR)
	@$(call placeholder,host-amdgpu)
	@$(call placeholder,host-amdgpu-kunit)
	@tests/amdgpu-compile.sh $(LTAR) $(PRISTINE) $(LOUT)/amdgpu \
		> $(CHECK_DIR)/host-amdgpu.tap
	@JOBS=$(JOBS) tests/amdgpu-kunit.sh $(LOUT)/amdgpu $(INITRD) \
		$(CHECK_DIR)/amdgpu-kunit > $(CHECK_DIR)/host-amdgpu-kunit.tap
ifeq ($(LINE),7.3)
	@$(call placeholder,host-amdgpu-kunit-fair)
	@AMDGPU_KUNIT_ARGS=gpu_sched.sched_policy=2 JOBS=$(JOBS) \
		tests/amdgpu-kunit.sh $(LOUT)/amdgpu $(INITRD) \
		$(CHECK_DIR)/amdgpu-kunit-fair \
		> $(CHECK_DIR)/host-amdgpu-kunit-fair.tap
endif

##   make check-sched-modules  (7.3) drm_sched and its KUnit tests built as
##                      modules, in $OUT/sched-modules: modpost
# tests/sched-modules.sh: the test kernel builds them in, where a test that
# uses a symbol the kernel does not export goes unseen.
check-sched-modules: | deps
	@$(if $(filter 7.3,$(LINE)),,$(error make $@: LINE=7.3))
	@mkdir -p $(CHECK_DIR)
	@$(call placeholder,host-sched-modules)
	@JOBS=$(JOBS) tests/sched-modules.sh $(LTAR) $(PRISTINE) \
		$(LOUT)/sched-modules > $(CHECK_DIR)/host-sched-modules.tap

##   make check-same-gpunice  (make check LINE=6.12) both lines' guests
##                      run the same gpunice files
# Either line's files are built first if not yet (a test kernel each).
check-same-gpunice: | deps
	@$(MAKE) -s --no-print-directory guest-bin
	@$(MAKE) -s --no-print-directory LINE=$(OTHER_LINE) guest-bin
	@$(call placeholder,host-same-gpunice)
	@tests/same-gpunice.sh $(TESTBIN) \
		$(call lout,$(OTHER_LINE))/guest-bin \
		> $(CHECK_DIR)/host-same-gpunice.tap || true

##   make check-policies  (7.3) the test kernel again under round robin
##                      and FAIR, drm_sched's KUnit and simgpu, in
##                      $CHECK_DIR/rr and $CHECK_DIR/fair
# gpu_sched.sched_policy is read-only once booted: a boot per policy, with
# the suites whose results depend on it. tests/policy-boot.sh checks that
# each boot, the default one too, ran under its policy and ran drm_sched's
# KUnit suites.
check-policies: $(KSTAMP) $(INITRD)
	@mkdir -p $(CHECK_DIR)
	@$(call placeholder,host-policy-fifo)
	@tests/policy-boot.sh $(CHECK_DIR)/console.log 1 \
		> $(CHECK_DIR)/host-policy-fifo.tap || true
	@for p in rr:0 fair:2; do \
		d=$(CHECK_DIR)/$${p%:*}; mkdir -p $$d; \
		GUEST_APPEND="gpu_sched.sched_policy=$${p#*:} \
			gpunice.suites=70-simgpu,kunit $(GUEST_APPEND)" \
			tests/run-guest.sh $(BZIMAGE) $(INITRD) $$d; \
		tests/policy-boot.sh $$d/console.log $${p#*:} \
			> $$d/host-policy.tap; \
	done; true

## Suites of make check-extra, one by one:
##   make check-arm64   arm64 compile check of the syscall wiring
check-arm64: | deps
	@$(call placeholder,host-arm64)
	@tests/check-arm64.sh $(LTAR) $(PRISTINE) $(LOUT)/arm64 \
		> $(CHECK_DIR)/host-arm64.tap

##   make check-nogpuprio  off means stock: KUnit on a kernel without it
# tests/check-nogpuprio.sh: the test kernel without CONFIG_GPUPRIO
# (configs/no-gpuprio.config), built with OUT=$(OUT)/nogpuprio and booted
# with the usual initramfs to run only KUnit, whose driver suites then
# assert that nothing follows the CPU nice.
check-nogpuprio: $(INITRD)
	@$(call placeholder,host-nogpuprio)
	@$(MAKE) --no-print-directory kernel OUT=$(OUT)/nogpuprio \
		KCONFIG_EXTRA=configs/no-gpuprio.config
	@tests/check-nogpuprio.sh \
		$(call lout_in,$(OUT)/nogpuprio,$(LINE))/linux $(INITRD) \
		$(CHECK_DIR)/nogpuprio > $(CHECK_DIR)/host-nogpuprio.tap

##   make check-ktar-6.12  (make check-ktar LINE=6.12) the series on an
##                      upstream (kernel.org) 6.12 tarball
# tests/check-ktar.sh fetches one (KTAR_UPSTREAM names another): the series
# applies, the kernel builds, make patches passes, the core suites pass.
# Debian's 7.3 source is upstream's tarball already. make check-extra runs
# it on the 6.12 line (check-ktar-6.12).
check-ktar-6.12:
	@$(MAKE) --no-print-directory LINE=6.12 check-ktar
check-ktar: $(INITRD)
	@$(if $(filter 6.12,$(LINE)),,$(error make check-ktar: LINE=6.12))
	@$(call placeholder,host-ktar)
	@tests/check-ktar.sh $(OUT)/ktar $(INITRD) > $(CHECK_DIR)/host-ktar.tap
