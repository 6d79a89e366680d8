# make check, make check-extra and the suites they run; each suite writes
# TAP into $(CHECK_DIR) for tests/summarize.py.

## Tests:
##   make check         the upstream line (7.3) whole, host and guest, and
##                      the 6.12 series' own checks (applies, checkpatch,
##                      its mutants apply); what .ci/run runs
##   make check-6.12    the 6.12 line's kernels: its test kernel's guest
##                      suites, the host suites on its headers, its amdgpu
##                      KUnit, one user space for both lines
##   make check-extra   arm64 wiring, make deb/rpm/pacman (deb on the 7.3
##                      line too), stock without CONFIG_GPUPRIO, an upstream
##                      (kernel.org) 6.12 tarball
##   CHECK_DIR=dir      where make check writes its TAP ($OUT/check)
##   CHECK_SUITES="..." what make check runs (default: check-patches
##                      check-mutants-list check-7.3; LINE=7.3: the suites
##                      of check-7.3)
CHECK_DIR ?= $(LOUT)/check
# The 7.3 line, the one for upstream review, is checked whole. The 6.12
# backport's series is checked without building its kernel (it applies,
# checkpatch, kernel-doc, its mutants still apply); its kernels boot in make
# check-6.12, so that .ci/run fits its time from a cold start on 2 cores
# (HACKING.md, Time and disk).
SUITES_73 := check-guest check-policies check-host check-amdgpu \
	check-patches check-mutants-list
ifeq ($(LINE),6.12)
CHECK_SUITES ?= check-patches check-mutants-list check-7.3
else
# make check LINE=7.3: the 7.3 line alone, as make check runs it.
CHECK_SUITES ?= $(SUITES_73)
endif
# What make check-6.12 runs, in $(OUT)/check-6.12.
SUITES_612 := check-guest check-host check-amdgpu check-same-gpunice
# The subdirectories of $(CHECK_DIR) with a guest of their own, for
# tests/summarize.py: the policy boots, and the 7.3 line's results.
CHECK_SUBDIRS := $(if $(filter check-policies,$(CHECK_SUITES)),rr fair) \
	$(if $(filter check-7.3,$(CHECK_SUITES)),7.3 7.3/rr 7.3/fair)
# What make check-extra runs: a kernel tree each, too long for CI next to
# make check on 2 cores (see HACKING.md, Time and disk).
EXTRA_SUITES := check-arm64 check-deb check-rpm check-pacman check-deb-7.3 \
	check-nogpuprio check-ktar
# A suite that dies before writing its TAP still counts as a failure.
placeholder = echo "not ok 1 $(1) did not run to the end" > $(CHECK_DIR)/$(1).tap

.PHONY: check check-6.12 check-extra check-host check-amdgpu check-7.3 \
	check-policies check-mutants-list check-same-gpunice kunit-7.3 \
	check-arm64 check-nogpuprio check-ktar
check: deps
	@rm -rf $(CHECK_DIR) && mkdir -p $(CHECK_DIR)
	@$(MAKE) -k --no-print-directory $(CHECK_SUITES) || true
	@tests/summarize.py $(if $(filter check-guest,$(CHECK_SUITES)),,--host-only) \
		$(CHECK_DIR) $(CHECK_SUBDIRS)

# The 6.12 line's kernels, booted: what make check leaves out for time.
check-6.12: deps
	@$(only_612)
	@rm -rf $(OUT)/check-6.12 && mkdir -p $(OUT)/check-6.12
	@$(MAKE) -k --no-print-directory CHECK_DIR=$(OUT)/check-6.12 \
		$(SUITES_612) || true
	@tests/summarize.py $(OUT)/check-6.12

# The same summary for the extra suites, in $(OUT)/check-extra; they need
# the test kernel and initramfs, which they build like make check.
check-extra: deps
	@$(only_612)
	@rm -rf $(OUT)/check-extra && mkdir -p $(OUT)/check-extra
	@$(MAKE) -k --no-print-directory $(EXTRA_SUITES) \
		CHECK_DIR=$(OUT)/check-extra || true
	@tests/summarize.py --host-only $(OUT)/check-extra

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
	@tests/mutants/mutants.py check --tap $(if $(filter 7.3,$(LINE)),--line \
		7.3) $(KDIR) > $(CHECK_DIR)/host-mutants.tap || true

##   make check-amdgpu  amdgpu built in its own tree, its KUnit booted
##                      (LINE=7.3: in $OUT/7.3/amdgpu, also under FAIR)
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

##   make check-7.3     the Linux 7.3 line: make check LINE=7.3's suites, its
##                      results in $CHECK_DIR/7.3
# Its test kernel (Debian's linux-source-7.3 with patches/7.3) boots with
# every guest suite under drm_sched's default policy (FIFO), then again
# under round robin and FAIR (check-policies); the same gpunice binaries
# as the 6.12 guest's; its series through make patches.
check-7.3: | deps
	@$(only_612)
	@mkdir -p $(CHECK_DIR)/7.3
	@$(MAKE) -k --no-print-directory LINE=7.3 CHECK_DIR=$(CHECK_DIR)/7.3 \
		$(SUITES_73) || true

##   make check-same-gpunice  (make check-6.12) both lines' guests run the
##                      same gpunice files
# Either line's files are built first if not yet (a test kernel each).
check-same-gpunice: | deps
	@$(only_612)
	@$(MAKE) -s --no-print-directory guest-bin
	@$(MAKE) -s --no-print-directory LINE=7.3 guest-bin
	@$(call placeholder,host-same-gpunice)
	@tests/same-gpunice.sh $(TESTBIN) $(OUT)/7.3/guest-bin \
		> $(CHECK_DIR)/host-same-gpunice.tap || true

##   make check-policies  LINE=7.3: the test kernel again under round robin
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

##   make kunit-7.3     the 7.3 line's drm_sched KUnit alone, in a small
##                      KUnit kernel (kunit.py), under RR, FIFO and FAIR
# Faster than a test kernel for work on drm_sched (scripts/kunit-7.3.sh):
# patches/7.3/series committed on the pristine source as make tree does,
# then upstream's drm_sched KUnit suites and the series' own in QEMU, once
# per gpu_sched.sched_policy. Not in make check, which runs the same
# suites in the 7.3 test kernel (check-policies).
kunit-7.3: | deps
	@JOBS=$(JOBS) KTAR73='$(KTAR73)' scripts/kunit-7.3.sh $(OUT)

## Suites of make check-extra, one by one:
##   make check-arm64   arm64 compile check of the syscall wiring
check-arm64: | deps
	@$(only_612)
	@$(call placeholder,host-arm64)
	@tests/check-arm64.sh $(KTAR) $(PRISTINE) $(OUT)/arm64 \
		> $(CHECK_DIR)/host-arm64.tap

##   make check-nogpuprio  off means stock: KUnit on a kernel without it
# tests/check-nogpuprio.sh: the test kernel without CONFIG_GPUPRIO
# (configs/no-gpuprio.config), built in its own $(OUT)/nogpuprio and booted
# with the usual initramfs to run only KUnit, whose driver suites then
# assert that nothing follows the CPU nice.
NOGPUPRIO := $(OUT)/nogpuprio
check-nogpuprio: $(INITRD)
	@$(only_612)
	@$(call placeholder,host-nogpuprio)
	@$(MAKE) --no-print-directory kernel OUT=$(NOGPUPRIO) \
		KCONFIG_EXTRA=configs/no-gpuprio.config
	@tests/check-nogpuprio.sh $(NOGPUPRIO)/linux $(INITRD) \
		$(CHECK_DIR)/nogpuprio > $(CHECK_DIR)/host-nogpuprio.tap

##   make check-ktar    the series on an upstream (kernel.org) 6.12 tarball
# tests/check-ktar.sh fetches one (KTAR_UPSTREAM names another): the series
# applies, the kernel builds, make patches passes, the core suites pass.
check-ktar: $(INITRD)
	@$(call placeholder,host-ktar)
	@tests/check-ktar.sh $(OUT)/ktar $(INITRD) > $(CHECK_DIR)/host-ktar.tap
