# gpunice: GPU priority for Linux tasks.
#
# The kernel side is built from Debian's linux-source-6.12 with the project's
# new files and patches applied, and tested in a QEMU guest. Run 'make help'.

OUT	?= out
override OUT := $(abspath $(OUT))
KTAR	?= /usr/src/linux-source-6.12.tar.xz
KTAR73	?= /usr/src/linux-source-7.3.tar.xz
JOBS	?= $(shell nproc)
ARCH_CC	?= gcc

# The kernel line (patches/<line>/): 6.12 in $(OUT), 7.3 in $(OUT)/7.3, for
# kernel, initramfs, check-guest, patches, tree, refresh and mutants; every
# other target is 6.12's.
export LINE ?= 6.12
ifeq ($(LINE),6.12)
LOUT	:= $(OUT)
LTAR	:= $(KTAR)
else ifeq ($(LINE),7.3)
LOUT	:= $(OUT)/7.3
LTAR	:= $(KTAR73)
else
$(error LINE=$(LINE): the kernel lines are 6.12 and 7.3)
endif
# A target of the 6.12 line alone.
only_612 = $(if $(filter 6.12,$(LINE)),,$(error make $@ is for LINE=6.12 only))

KDIR	:= $(LOUT)/linux
PRISTINE := $(LOUT)/linux-pristine
HDRS	:= $(LOUT)/headers
TESTBIN	:= $(LOUT)/guest-bin
# Extra fragments (e.g. configs/debug.config) are merged after the base one.
KCONFIG	:= configs/gpuprio-test.config \
	$(if $(filter 7.3,$(LINE)),configs/line-7.3.config) $(KCONFIG_EXTRA)
# The kernel trees of make check share most of their objects (the test
# kernel's and amdgpu's core): ccache (make deps installs it) compiles each
# once. Its masquerading gcc comes first in the PATH of every kernel build,
# but only where its cache can be written: a package build runs as a user
# whose home may not exist (Debian's build daemons), and there ccache fails
# the compile instead of passing it through. That holds for a PATH that
# already has it, too (a caller's make, a user's profile): there it is removed.
CCACHE_USABLE := $(shell d="$$(ccache -k cache_dir 2>/dev/null)" && \
	mkdir -p "$$d/tmp" 2>/dev/null && test -w "$$d/tmp" && echo yes)
PATH_NO_CCACHE := $(subst $(eval) ,:,$(filter-out /usr/lib/ccache,$(subst :, ,$(PATH))))
ifeq ($(wildcard /usr/lib/ccache/gcc):$(CCACHE_USABLE),/usr/lib/ccache/gcc:yes)
export PATH := /usr/lib/ccache:$(PATH_NO_CCACHE)
else
export PATH := $(PATH_NO_CCACHE)
endif
BZIMAGE	:= $(KDIR)/arch/x86/boot/bzImage
INITRD	:= $(LOUT)/initramfs.cpio.gz

CFLAGS_USER := -O2 -Wall -Wextra -Werror -static -pthread
# kselftest_harness.h passes parameters that not every test uses.
CFLAGS_SELFTEST := $(CFLAGS_USER) -Wno-unused-parameter -Wno-clobbered

.PHONY: all demo install tool hwbench hw-report deb check-deb patches tree refresh check-arm64 check-amdgpu kunit-7.3 check-7.3 check-patches deps kernel headers guest-bin initramfs check check-host \
	check-guest vm clean help

all: kernel guest-bin

help:
	@echo 'Targets:'
	@echo '  make demo         build, boot and run the GPU nice walk-through'
	@echo '  make check        build everything, run all tests (host and guest)'
	@echo '  make check-debug  the guest tests on a lockdep/KASAN/UBSAN kernel'
	@echo '  make check-extra  arm64 wiring, make deb, stock without CONFIG_GPUPRIO,'
	@echo '                    an upstream (kernel.org) 6.12 tarball'
	@echo '  make bench        what the feature costs against its peers'
	@echo '  make effect       what GPU priority does to a frame rate (simgpu)'
	@echo '  make mutants      each hook disabled in turn: do the tests notice?'
	@echo '                    (MUTANTS="id ...", MUTANTS_DRY=1: check snippets only)'
	@echo '  make kunit-7.3    Linux 7.3 drm_sched KUnit with patches/7.3, under'
	@echo '                    the RR, FIFO and FAIR run-queue policies (QEMU)'
	@echo '  make kernel       build the patched test kernel'
	@echo '  make patches      the upstream series with cover letter in $(OUT)/patches'
	@echo '  make tree         the series as git branch "series" in $(OUT)/tree, to edit'
	@echo '  make refresh      write $(OUT)/tree back into patches/ and the new files'
	@echo '  make tool         gpunice alone and its tests: no root, no kernel'
	@echo '  make hwbench      the i915 hardware benchmark (needs libdrm-dev)'
	@echo '  make hw-report    $(OUT)/hw-report.txt, to attach to a hardware result'
	@echo '  make deb          linux-image (from KCONFIG_DEB, default the running'
	@echo '                    kernel'"'"'s config) and gpunice packages in $(OUT)/deb'
	@echo '  make rpm          the same as rpm packages (binrpm-pkg) in $(OUT)/rpm'
	@echo '  make pacman       the same as pacman packages (pacman-pkg) in'
	@echo '                    $(OUT)/pacman; as a user, not root'
	@echo '                    (all three: DEB_CONFIG_ONLY=1 makes only the config;'
	@echo '                    LOCALMODCONFIG=1 [LSMOD=file] keeps only loaded modules)'
	@echo '  make vm           boot the test kernel with a shell on the console'
	@echo '  make install      gpunice, man pages, completion, headers'
	@echo '                    (PREFIX=$(or $(PREFIX),/usr/local), DESTDIR)'
	@echo '  make clean        remove $(OUT)'
	@echo 'Building blocks (what make check runs, to run one alone):'
	@echo '  make deps         every Debian package any target needs (as root)'
	@echo '  make headers initramfs guest-bin   UAPI headers, guest programs, initramfs'
	@echo '  make check-guest  boot the test kernel and run the guest suites'
	@echo '  make check-host   the host suites (tests/run-host.sh)'
	@echo '  make check-amdgpu check-patches   amdgpu build and KUnit boot; make patches'
	@echo '  make check-7.3    make kunit-7.3 as TAP for make check'
	@echo '  make check-arm64 check-deb check-rpm check-pacman check-nogpuprio'
	@echo '  make check-ktar'
	@echo '                    the suites of make check-extra, one by one'
	@echo '  make mutants-check  every mutant snippet still applies'
	@echo 'Variables (current value or what it defaults to):'
	@echo '  OUT=$(OUT) JOBS=$(JOBS) KTAR=$(KTAR)'
	@echo '  LINE=$(LINE)   kernel line (6.12 or 7.3, in $$OUT/7.3) of kernel,'
	@echo '                    initramfs, check-guest, check, patches, tree, refresh'
	@echo '  KTAR73=$(KTAR73)'
	@echo '  ARCH_CC=$(ARCH_CC)  compiler of the guest programs'
	@echo '  KCONFIG_EXTRA=      config fragments merged after configs/gpuprio-test.config'
	@echo '  GUEST_APPEND=       kernel command line added, e.g. gpunice.suites=20-gpunice'
	@echo '                    kunit.filter_glob=gpuprio*'
	@echo '  GUEST_TIMEOUT=900 GUEST_SMP=2   seconds before a guest is killed; QEMU -smp'
	@echo '  CHECK_SUITES=$(CHECK_SUITES)'
	@echo '  EFFECT_RUNS=$(EFFECT_RUNS) EFFECT_SECONDS=$(EFFECT_SECONDS) EFFECT_ALLOW_MISSED=1'
	@echo '  BENCH_BOOTS=$(BENCH_BOOTS) BENCH_UPDATE_DOC=1 BENCH_ALLOW_MISSED=1'
	@echo '  MUTANTS="id ..." MUTANTS_DRY=1'
	@echo '  KCONFIG_DEB=$(KCONFIG_DEB) DEB_CONFIG_ONLY=1 LOCALMODCONFIG=1 LSMOD=file'
	@echo '                    KDEB_DEBUG_INFO=1'
	@echo '  PREFIX=/usr/local DESTDIR=   for make install'

# Every Debian package any target needs (scripts/install-deps.sh), once,
# as root; without root it only says what is missing. Debian's
# linux-source-6.12 only when KTAR is its tarball, linux-source-7.3 (from
# trixie-backports, pinned to that one package) only when KTAR73 is its.
deps:
	@KTAR='$(KTAR)' KTAR73='$(KTAR73)' scripts/install-deps.sh

# The tree is re-synced on every run; only changed files are rewritten.
$(KDIR)/.gpunice-files: FORCE | deps
	@scripts/sync-tree.sh $(LTAR) $(PRISTINE) $(KDIR)

$(KDIR)/.config: $(KCONFIG) | $(KDIR)/.gpunice-files
	@echo "  CONFIG  tinyconfig + $(KCONFIG)"
	@$(MAKE) -s -C $(KDIR) tinyconfig >/dev/null
	@cd $(KDIR) && scripts/kconfig/merge_config.sh -m -Q .config \
		$(addprefix $(CURDIR)/,$(KCONFIG)) >/dev/null
	@$(MAKE) -s -C $(KDIR) olddefconfig >/dev/null
	@cat $(KCONFIG) | scripts/check-config.sh - $(KDIR)/.config

kernel: $(KDIR)/.config
	@echo "  BUILD   kernel (incremental; from scratch: README, Time and disk)"
	@$(MAKE) -s -C $(KDIR) -j$(JOBS) bzImage
	@$(MAKE) -s -C $(KDIR) headers_install INSTALL_HDR_PATH=$(HDRS)

headers: kernel

# Static test programs for the guest, built against the patched headers.
SELFTEST_DIR := tools/testing/selftests/gpuprio
GUEST_PROGS := $(TESTBIN)/gpuprio_test

$(TESTBIN)/gpuprio_test: $(SELFTEST_DIR)/gpuprio_test.c kernel
	@mkdir -p $(TESTBIN)
	@echo "  CC      $@"
	@$(ARCH_CC) $(CFLAGS_SELFTEST) -isystem $(HDRS)/include \
		-iquote $(KDIR)/$(SELFTEST_DIR) -o $@ $<

# The fuzzer and the stress test of the guest (suites 30 and 40).
GUEST_PROGS += $(TESTBIN)/gpuprio_fuzz $(TESTBIN)/gpuprio_stress
$(TESTBIN)/gpuprio_fuzz $(TESTBIN)/gpuprio_stress: $(TESTBIN)/%: \
		tests/guest/%.c tests/lib/gpu_nice_text.h tests/lib/tap.h kernel
	@mkdir -p $(TESTBIN)
	@echo "  CC      $@"
	@$(ARCH_CC) $(CFLAGS_USER) -isystem $(HDRS)/include -o $@ $<

# The test kernel's gpuprio syscall numbers, from its generated uapi
# headers (the tests' one copy, tests/gpuprio-nr.sh), and the seccomp guard
# that kills a process issuing them, built with the same headers (suite
# 20-gpunice).
GUEST_PROGS += $(TESTBIN)/gpuprio-nr $(TESTBIN)/nosys-guard
$(TESTBIN)/gpuprio-nr: tests/gpuprio-nr.sh kernel
	@mkdir -p $(TESTBIN)
	@tests/gpuprio-nr.sh $(HDRS)/include >$@.tmp && mv $@.tmp $@
$(TESTBIN)/nosys-guard: tests/host/nosys-guard.c kernel
	@mkdir -p $(TESTBIN)
	@echo "  CC      $@"
	@$(ARCH_CC) $(CFLAGS_USER) -isystem $(HDRS)/include -o $@ $<

# gpunice and its example, static, under the names the guest tests use.
GPUNICE_OUT := $(OUT)/gpunice
# On the 7.3 line the guest's copies take the calls' numbers from that
# kernel's headers: the fallback numbers of <gpuprio.h> are 6.12's.
ifeq ($(LINE),6.12)
GUEST_GPUNICE_OUT := $(GPUNICE_OUT)
GUEST_GPUNICE_CFLAGS :=
else
GUEST_GPUNICE_OUT := $(LOUT)/gpunice
GUEST_GPUNICE_CFLAGS := -isystem $(HDRS)/include
$(TESTBIN)/gpunice: kernel
endif
$(TESTBIN)/gpunice $(TESTBIN)/gpuprio-tabs $(TESTBIN)/gpuprio-threads: FORCE
	@mkdir -p $(TESTBIN)
	@$(MAKE) -s --no-print-directory -C tools/gpunice static \
		O=$(GUEST_GPUNICE_OUT) CFLAGS="-O2 -Werror $(GUEST_GPUNICE_CFLAGS)"
	@for p in gpunice gpuprio-tabs gpuprio-threads; do \
		cmp -s $(GUEST_GPUNICE_OUT)/$$p-static $(TESTBIN)/$$p || \
		cp $(GUEST_GPUNICE_OUT)/$$p-static $(TESTBIN)/$$p; done
GUEST_PROGS += $(TESTBIN)/gpunice $(TESTBIN)/gpuprio-tabs \
	$(TESTBIN)/gpuprio-threads

# --- simgpu ----------------------------------------------------------------
# The simulated GPU of tests/simgpu: test equipment, never in the series. An
# out-of-tree module built in $(OUT)/simgpu against the test kernel (and
# copied there, so that the repository gets no build products), loaded in
# the guest from /tests/bin/simgpu.ko; simgpu_test is its guest suite's
# program (tests/guest/suites/70-simgpu).
SIMGPU_SRC := tests/simgpu/Kbuild tests/simgpu/simgpu.c tests/simgpu/simgpu_drm.h
SIMGPU_OUT := $(OUT)/simgpu
$(TESTBIN)/simgpu.ko: $(SIMGPU_SRC) kernel
	@mkdir -p $(SIMGPU_OUT) $(TESTBIN)
	@for f in $(SIMGPU_SRC); do \
		cmp -s $$f $(SIMGPU_OUT)/$${f##*/} || cp $$f $(SIMGPU_OUT)/; done
	@test $(KDIR)/Module.symvers -nt $(KDIR)/vmlinux || \
		$(MAKE) -s -C $(KDIR) -j$(JOBS) modules
	@$(MAKE) -s -C $(KDIR) M=$(SIMGPU_OUT) modules
	@cmp -s $(SIMGPU_OUT)/simgpu.ko $@ || cp $(SIMGPU_OUT)/simgpu.ko $@
$(TESTBIN)/simgpu_test: tests/simgpu/simgpu_test.c tests/simgpu/simgpu_drm.h \
		tests/lib/tap.h kernel
	@mkdir -p $(TESTBIN)
	@echo "  CC      $@"
	@$(ARCH_CC) $(CFLAGS_USER) -isystem $(HDRS)/include \
		-iquote tests/simgpu -I tools/gpunice/include -o $@ $<
# simgpu is written for 6.12's drm_sched: not on the 7.3 line yet.
ifeq ($(LINE),6.12)
GUEST_PROGS += $(TESTBIN)/simgpu.ko $(TESTBIN)/simgpu_test
endif
# --- end of simgpu ---------------------------------------------------------

guest-bin: $(GUEST_PROGS)

initramfs: guest-bin
	@scripts/mkinitramfs.sh $(INITRD) $(TESTBIN) tests/guest $(KDIR)

check-guest: kernel initramfs
	@GUEST_APPEND="$(if $(filter 6.12,$(LINE)),$$(tests/i915-mock-params.sh \
		$(KDIR))) $(GUEST_APPEND)" \
		tests/run-guest.sh $(BZIMAGE) $(INITRD) $(LOUT)/check

# arm64 compile check of the syscall wiring (cross compiler from Debian).
check-arm64: | deps
	@$(only_612)
	@$(call placeholder,host-arm64)
	@tests/check-arm64.sh $(KTAR) $(PRISTINE) $(OUT)/arm64 \
		> $(CHECK_DIR)/host-arm64.tap

# Linux 7.3 (Debian's linux-source-7.3): patches/7.3/series committed on the
# pristine source as make tree does, then upstream's drm_sched KUnit suites
# and the series' own in QEMU, once per gpu_sched.sched_policy
# (scripts/kunit-7.3.sh). Its time: README, Time and disk.
kunit-7.3: | deps
	@JOBS=$(JOBS) KTAR73='$(KTAR73)' scripts/kunit-7.3.sh $(OUT)

# The same in make check, as host-kunit-7.3.
check-7.3: | deps
	@$(call placeholder,host-kunit-7.3)
	@JOBS=$(JOBS) KTAR73='$(KTAR73)' scripts/kunit-7.3.sh $(OUT) \
		> $(CHECK_DIR)/host-kunit-7.3.tap 2>&1 || true

# amdgpu in a tree of its own ($(OUT)/amdgpu, amdgpu built in): the objects
# the series touches compile warning-free, then the whole kernel boots in
# the guest to run amdgpu's KUnit suites (tests/amdgpu-kunit.sh).
check-amdgpu: initramfs | deps
	@$(only_612)
	@$(call placeholder,host-amdgpu)
	@$(call placeholder,host-amdgpu-kunit)
	@tests/amdgpu-compile.sh $(KTAR) $(PRISTINE) $(OUT)/amdgpu \
		> $(CHECK_DIR)/host-amdgpu.tap
	@JOBS=$(JOBS) tests/amdgpu-kunit.sh $(OUT)/amdgpu $(INITRD) \
		$(CHECK_DIR)/amdgpu-kunit > $(CHECK_DIR)/host-amdgpu-kunit.tap

# The <gpuprio.h> matrix (tests/host/gpuprio-header.sh) compiles with g++,
# clang and musl-gcc too.
check-host: kernel
	@$(only_612)
	@scripts/install-deps.sh g++ clang musl-tools
	@$(MAKE) -s --no-print-directory -C tools/gpunice O=$(GPUNICE_OUT) \
		CFLAGS="-O2 -Werror"
	@tests/run-host.sh $(OUT)/check $(PRISTINE) $(GPUNICE_OUT)
	@$(call placeholder,host-mutants)
	@tests/mutants/mutants.py check --tap $(KDIR) \
		> $(CHECK_DIR)/host-mutants.tap || true

# What make check runs; each writes TAP into $(CHECK_DIR) for summarize.py.
CHECK_DIR ?= $(LOUT)/check
ifeq ($(LINE),6.12)
CHECK_SUITES ?= check-guest check-host check-amdgpu check-patches check-7.3
else
# make check LINE=7.3: the 7.3 line's guest and series (not in make check).
CHECK_SUITES ?= check-guest check-patches
endif
# What make check-extra runs: a kernel tree each, too long for CI next to
# make check-debug on 2 cores (see README, Time and disk).
EXTRA_SUITES := check-arm64 check-deb check-rpm check-pacman check-nogpuprio \
	check-ktar
# A suite that dies before writing its TAP still counts as a failure.
placeholder = echo "not ok 1 $(1) did not run to the end" > $(CHECK_DIR)/$(1).tap

check: deps
	@rm -rf $(CHECK_DIR) && mkdir -p $(CHECK_DIR)
	@$(MAKE) -k --no-print-directory $(CHECK_SUITES) || true
	@tests/summarize.py $(CHECK_DIR)

# The same summary for the extra suites, in $(OUT)/check-extra; they need
# the test kernel and initramfs, which they build like make check.
.PHONY: check-extra
check-extra: deps
	@$(only_612)
	@rm -rf $(OUT)/check-extra && mkdir -p $(OUT)/check-extra
	@$(MAKE) -k --no-print-directory $(EXTRA_SUITES) \
		CHECK_DIR=$(OUT)/check-extra || true
	@tests/summarize.py --host-only $(OUT)/check-extra

demo: deps
	@$(only_612)
	@scripts/timed-steps.sh "$(MAKE) --no-print-directory kernel" \
		"$(MAKE) --no-print-directory initramfs" \
		"tests/demo.sh $(BZIMAGE) $(INITRD) $(OUT)/demo"

# The upstream series: git format-patch output with the cover letter, checked
# to apply with git am to a clean tree and to equal the tested tree. It needs
# the synced tree, not a built kernel.
patches: $(KDIR)/.gpunice-files
	@scripts/make-patches.sh $(PRISTINE) $(KDIR) $(LOUT)/patch-work \
		$(LOUT)/patches > $(LOUT)/patches.tap; \
	rc=$$?; grep -v '^ok' $(LOUT)/patches.tap; \
	echo "  PATCHES $(LOUT)/patches ($$(grep -c '^ok' $(LOUT)/patches.tap) checks passed)"; \
	exit $$rc

# --- make check-debug -------------------------------------------------------
# The same tests on a debug kernel (configs/debug.config: lockdep, KASAN,
# UBSAN, ...) built in its own $(OUT)/debug, with the fuzzer and the stress
# test run longer (gpunice.long=1 on the guest's command line), on two CPUs
# (the debug kernel is SMP and preemptible). Any lockdep, KASAN, UBSAN, BUG
# or WARNING line fails the run (tests/summarize.py).
.PHONY: check-debug
check-debug: deps
	@GUEST_APPEND="$(GUEST_APPEND) gpunice.long=1" \
		GUEST_TIMEOUT=$${GUEST_TIMEOUT:-1800} \
		GUEST_SMP=$${GUEST_SMP:-2,sockets=2} \
		$(MAKE) --no-print-directory check OUT=$(OUT)/debug \
		KCONFIG_EXTRA=configs/debug.config \
		CHECK_SUITES="check-guest check-host"
# --- end of make check-debug ------------------------------------------------

# --- make bench -------------------------------------------------------------
# What the feature costs, against its peers in the same run (docs/
# BENCHMARKS.md). Two kernels of their own, both with configs/bench.config
# (CONFIG_BLOCK, for ioprio): $(OUT)/bench-on with the feature and
# $(OUT)/bench-nogpuprio without it (configs/no-gpuprio.config), built one
# after the other, booted in turn with gpunice.bench (tests/guest/init).
# Results, CSV and the plot in $(OUT)/bench. BENCH_BOOTS: boots per kernel.
# BENCH_UPDATE_DOC=1 also rewrites the figures in docs/BENCHMARKS.md, but
# only when every target was met: a missed one fails the run;
# BENCH_ALLOW_MISSED=1 only reports it (exploration).
# gpuprio_bench is also in the make check guest (suite 60, a quick smoke run).
GUEST_PROGS += $(TESTBIN)/gpuprio_bench
guest-bin: $(TESTBIN)/gpuprio_bench
$(TESTBIN)/gpuprio_bench: tests/bench/gpuprio_bench.c tests/lib/tap.h kernel
	@mkdir -p $(TESTBIN)
	@echo "  CC      $@"
	@$(ARCH_CC) $(CFLAGS_USER) -isystem $(HDRS)/include -o $@ $<

BENCH_ON := $(OUT)/bench-on
BENCH_OFF := $(OUT)/bench-nogpuprio
BENCH_BOOTS ?= 3
.PHONY: bench
bench: deps
	@$(only_612)
	@$(MAKE) --no-print-directory kernel initramfs OUT=$(BENCH_ON) \
		KCONFIG_EXTRA="configs/bench.config"
	@$(MAKE) --no-print-directory kernel OUT=$(BENCH_OFF) \
		KCONFIG_EXTRA="configs/bench.config configs/no-gpuprio.config"
	@rm -rf $(OUT)/bench && mkdir -p $(OUT)/bench
	@tests/bench/run-bench.sh $(BENCH_ON)/linux/arch/x86/boot/bzImage \
		$(BENCH_OFF)/linux/arch/x86/boot/bzImage \
		$(BENCH_ON)/initramfs.cpio.gz $(BENCH_ON)/linux $(OUT)/bench \
		$(BENCH_BOOTS)
	@tests/bench/report.py $(OUT)/bench \
		$(if $(BENCH_UPDATE_DOC),--doc docs/BENCHMARKS.md) \
		$(if $(filter 1,$(BENCH_ALLOW_MISSED)),--allow-missed)
# --- end of make bench ------------------------------------------------------

# --- make check-nogpuprio ---------------------------------------------------
# Off means stock (tests/check-nogpuprio.sh): the test kernel without
# CONFIG_GPUPRIO (configs/no-gpuprio.config), built in its own
# $(OUT)/nogpuprio and booted with the usual initramfs to run only KUnit,
# whose driver suites then assert that nothing follows the CPU nice.
NOGPUPRIO := $(OUT)/nogpuprio
.PHONY: check-nogpuprio check-ktar
check-nogpuprio: initramfs
	@$(only_612)
	@$(call placeholder,host-nogpuprio)
	@$(MAKE) --no-print-directory kernel OUT=$(NOGPUPRIO) \
		KCONFIG_EXTRA=configs/no-gpuprio.config
	@tests/check-nogpuprio.sh $(NOGPUPRIO)/linux $(INITRD) \
		$(CHECK_DIR)/nogpuprio > $(CHECK_DIR)/host-nogpuprio.tap
# --- end of make check-nogpuprio --------------------------------------------

# KTAR= with an upstream 6.12 tarball instead of Debian's patched source
# (tests/check-ktar.sh fetches one; KTAR_UPSTREAM names another): the series
# applies, the kernel builds, make patches passes, the core suites pass.
check-ktar: initramfs
	@$(call placeholder,host-ktar)
	@tests/check-ktar.sh $(OUT)/ktar $(INITRD) > $(CHECK_DIR)/host-ktar.tap

# --- make effect ------------------------------------------------------------
# What GPU priority does to a foreground app's frame rate, on simgpu, the
# simulated GPU behind a real drm_gpu_scheduler (tests/simgpu), and the
# GPU time shares of busy clients: the test kernel boots with gpunice.effect
# (tests/guest/effect.sh runs tests/simgpu/gpuload in every scenario), then
# again with gpu_sched.sched_policy=0 for the round-robin rows;
# tests/effect/report.py prints the tables and, when every run was valid
# and every target met, writes them with the plot into docs/EFFECT.md. A
# void run or a missed target fails. Not in make check. EFFECT_RUNS: runs
# per scenario (medians), EFFECT_SECONDS: seconds per run,
# EFFECT_ALLOW_MISSED=1: a missed target is only reported (for
# exploration; docs/EFFECT.md is still left alone).
GUEST_PROGS += $(TESTBIN)/gpuload
guest-bin: $(TESTBIN)/gpuload
$(TESTBIN)/gpuload: tests/simgpu/gpuload.c tests/simgpu/simgpu_drm.h \
		tools/gpunice/include/gpuprio.h kernel
	@mkdir -p $(TESTBIN)
	@echo "  CC      $@"
	@$(ARCH_CC) $(CFLAGS_USER) -isystem $(HDRS)/include \
		-I tools/gpunice/include -iquote tests/simgpu -o $@ $<

EFFECT_RUNS ?= 3
EFFECT_SECONDS ?= 5
EFFECT_ALLOW_MISSED ?=
.PHONY: effect
effect: deps
	@$(only_612)
	@$(MAKE) --no-print-directory kernel initramfs
	@rm -rf $(OUT)/effect && mkdir -p $(OUT)/effect
	@tests/effect/run-effect.sh $(BZIMAGE) $(INITRD) $(OUT)/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS)
	@tests/effect/report.py $(OUT)/effect --doc docs/EFFECT.md \
		$(if $(filter 1,$(EFFECT_ALLOW_MISSED)),--allow-missed)
# --- end of make effect -----------------------------------------------------

# --- make mutants -----------------------------------------------------------
# Tests that can fail (tests/mutants/README): for each hook of the series, a
# kernel with that hook reduced to stock behaviour, built incrementally in a
# copy of the test tree ($(OUT)/mutants/linux) and booted with only the
# suites that should notice; one line per mutant, killed or survived, and
# "mutants: K killed, S survived, H hardware-only". MUTANTS="id ..." runs
# some of them; MUTANTS_DRY=1 or make mutants-check only checks that every
# snippet applies once and reverts (make check's host-mutants does too).
# The amdgpu tree is synced and configured as check-amdgpu does. Not in
# make check: its time is in the README (Time and disk).
.PHONY: mutants mutants-check
ifneq ($(MUTANTS_DRY),)
mutants: mutants-check
else
mutants: kernel initramfs
	@tests/amdgpu-compile.sh $(LTAR) $(PRISTINE) $(OUT)/amdgpu \
		> $(OUT)/amdgpu-compile.tap || \
		{ cat $(OUT)/amdgpu-compile.tap; exit 1; }
	@tests/mutants/mutants.py run --tree $(KDIR) --work $(OUT)/mutants \
		--bin $(TESTBIN) --jobs $(JOBS) --amdgpu $(OUT)/amdgpu \
		--initrd $(INITRD) $(MUTANTS)
endif
mutants-check: $(KDIR)/.gpunice-files
	@tests/mutants/mutants.py check $(KDIR) $(MUTANTS)
# --- end of make mutants ----------------------------------------------------

check-patches: kernel
	@$(call placeholder,host-patches)
	@scripts/make-patches.sh $(PRISTINE) $(KDIR) $(LOUT)/patch-work \
		$(LOUT)/patches > $(CHECK_DIR)/host-patches.tap \
		2> $(CHECK_DIR)/host-patches.err || true
	@sed 's/^/# /' $(CHECK_DIR)/host-patches.err >> $(CHECK_DIR)/host-patches.tap
ifeq ($(LINE),6.12)
	@$(call placeholder,host-series-roundtrip)
	@tests/host/series-roundtrip.sh $(PRISTINE) $(OUT)/patch-work/upstream \
		> $(CHECK_DIR)/host-series-roundtrip.tap 2>&1 || true
endif

# The series as a git branch to edit (HACKING.md), and back.
tree: $(KDIR)/.gpunice-files
	@scripts/series-tree.sh $(PRISTINE) $(LOUT)/patch-work/upstream $(LOUT)/tree
refresh:
	@scripts/series-refresh.sh $(LOUT)/tree $(CURDIR)

# gpunice, its man pages, bash completion and the headers (tools/gpunice).
install:
	@$(MAKE) --no-print-directory -C tools/gpunice install \
		O=$(GPUNICE_OUT) PREFIX=$(or $(PREFIX),/usr/local) DESTDIR=$(DESTDIR)

# --- make tool ---------------------------------------------------------------
# gpunice alone, with its host tests and man page lint: no root, no apt, no
# kernel tree (tests/host/gpunice.sh never issues the syscalls on the host).
tool:
	@$(MAKE) -s --no-print-directory -C tools/gpunice O=$(GPUNICE_OUT) \
		CFLAGS="-O2 -Werror"
	@mkdir -p $(OUT)/check-tool
	@tests/host/gpunice.sh $(GPUNICE_OUT)/gpunice \
		> $(OUT)/check-tool/host-gpunice.tap 2>&1; \
	rc=$$?; grep -v '^ok' $(OUT)/check-tool/host-gpunice.tap; \
	echo "  TOOL    $(GPUNICE_OUT)/gpunice: $$(grep -c '^ok' \
		$(OUT)/check-tool/host-gpunice.tap) passed, $$(grep -c \
		'^not ok' $(OUT)/check-tool/host-gpunice.tap) failed"; exit $$rc

# The hardware benchmark for a machine with an Intel GPU (README, "On your
# machine"): libdrm, no kernel tree.
hwbench:
	@mkdir -p $(OUT)
	@echo "  CC      $(OUT)/hwbench"
	@cc -O2 -Wall -Wextra $$(pkg-config --cflags libdrm) -Iinclude/uapi \
		-o $(OUT)/hwbench tests/i915/hwbench.c $$(pkg-config --libs libdrm)
# --- end of make tool --------------------------------------------------------

# --- make hw-report ----------------------------------------------------------
# What a hardware result needs, in one file to attach wherever you report
# (scripts/hw-report.sh): kernel, GPUs and drivers, DRM clients and their
# priorities, and hwbench's output when it is built and an i915 GPU exists.
# No root, no apt, no kernel tree; any kernel.
.PHONY: hw-report
hw-report:
	@mkdir -p $(OUT)
	@scripts/hw-report.sh -o $(OUT)/hw-report.txt -b $(OUT)/hwbench
	@echo "  REPORT  $(OUT)/hw-report.txt: attach it to your report"
# --- end of make hw-report ---------------------------------------------------

# The guest runs it too (tests/guest/suites/80-hw-report).
GUEST_PROGS += $(TESTBIN)/hw-report
guest-bin: $(TESTBIN)/hw-report
$(TESTBIN)/hw-report: scripts/hw-report.sh
	@mkdir -p $(TESTBIN)
	@cp $< $@

# --- make deb ----------------------------------------------------------------
# Packages for a real machine, in $(OUT)/deb: linux-image-<version>-gpuprio,
# built by the kernel's bindeb-pkg in its own tree $(OUT)/deb/linux from
# KCONFIG_DEB (default: the running kernel's config), and gpunice.
# DEB_CONFIG_ONLY=1 stops after making the kernel's config.
# check-deb (in make check) builds both from the small test config instead.
# Without /boot/config-*, the running kernel's /proc/config.gz.
KCONFIG_DEB ?= $(firstword $(wildcard /boot/config-$(shell uname -r)) \
	/proc/config.gz)
deb: deps
	@$(only_612)
	@JOBS=$(JOBS) scripts/make-deb.sh $(KTAR) $(PRISTINE) $(OUT)/deb/linux \
		$(abspath $(KCONFIG_DEB))
	$(if $(DEB_CONFIG_ONLY),,@scripts/make-tool-deb.sh \
		$(OUT)/deb/gpunice-build $(OUT)/deb)
	$(if $(DEB_CONFIG_ONLY),,@echo "  DEB     install with: sudo apt install $(OUT)/deb/*.deb")

check-deb: kernel
	@$(only_612)
	@$(call placeholder,host-deb)
	@JOBS=$(JOBS) tests/deb-check.sh $(KTAR) $(PRISTINE) $(KDIR) \
		$(OUT)/deb-check > $(CHECK_DIR)/host-deb.tap

# make rpm and make pacman: the same from the same config, with the kernel's
# binrpm-pkg (kernel-<release>, in $(OUT)/rpm) and pacman-pkg
# (linux-gpuprio, in $(OUT)/pacman, as a user: makepkg refuses root), and
# gpunice in the same format (scripts/make-tool-rpm.sh, make-tool-pacman.sh).
.PHONY: rpm pacman
rpm pacman: deps
	@$(only_612)
	@KPKG=$@ JOBS=$(JOBS) scripts/make-deb.sh $(KTAR) $(PRISTINE) \
		$(OUT)/$@/linux $(abspath $(KCONFIG_DEB))
	$(if $(DEB_CONFIG_ONLY),,@scripts/make-tool-$@.sh $(OUT)/$@/gpunice-build \
		$(OUT)/$@)
	$(if $(DEB_CONFIG_ONLY),,@echo "  PKG     install with: $(if \
		$(filter rpm,$@),sudo dnf install $(OUT)/rpm/*.rpm,sudo pacman \
		-U $(OUT)/pacman/*.pkg.tar.zst)")

# check-rpm and check-pacman (in make check-extra): both from the small test
# config, inspected with rpm and pacman (tests/pkg-check.sh).
.PHONY: check-rpm check-pacman
check-rpm check-pacman: kernel
	@$(only_612)
	@$(call placeholder,host-$(@:check-%=%))
	@JOBS=$(JOBS) tests/pkg-check.sh $(@:check-%=%) $(KTAR) $(PRISTINE) \
		$(KDIR) $(OUT)/$(@:check-%=%)-check \
		> $(CHECK_DIR)/host-$(@:check-%=%).tap
# --- end of make deb ---------------------------------------------------------

vm: kernel initramfs
	@tests/run-guest.sh --interactive $(BZIMAGE) $(INITRD) $(OUT)/vm

clean:
	rm -rf $(OUT)

FORCE:
