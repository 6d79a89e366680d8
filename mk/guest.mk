# The QEMU guest: static test programs built against the test kernel's
# headers, the initramfs that carries them with tests/guest, and the boots.
# A guest program is one rule here that adds to GUEST_PROGS (tests/README.md).

# The one recipe of a compiled guest program: its first prerequisite, built
# static against the test kernel's uapi headers; a target adds include
# paths, defines or libraries in GUEST_CFLAGS and GUEST_LIBS, and the
# kselftest its own warnings in GUEST_WARN.
GUEST_WARN := $(CFLAGS_USER)
define guest-cc
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(ARCH_CC) $(GUEST_WARN) -isystem $(HDRS)/include $(GUEST_CFLAGS) \
		-o $@ $< $(GUEST_LIBS)
endef

# The kselftest of the series.
SELFTEST_DIR := tools/testing/selftests/gpuprio
GUEST_PROGS += $(TESTBIN)/gpuprio_test
$(TESTBIN)/gpuprio_test: GUEST_WARN = $(CFLAGS_SELFTEST)
$(TESTBIN)/gpuprio_test: GUEST_CFLAGS = -iquote $(KDIR)/$(SELFTEST_DIR)
$(TESTBIN)/gpuprio_test: $(SELFTEST_DIR)/gpuprio_test.c $(KSTAMP)
	$(guest-cc)

# The fuzzer and the stress test of the guest (suites 30 and 40).
GUEST_PROGS += $(TESTBIN)/gpuprio_fuzz $(TESTBIN)/gpuprio_stress
$(TESTBIN)/gpuprio_fuzz $(TESTBIN)/gpuprio_stress: $(TESTBIN)/%: \
		tests/guest/%.c tests/lib/gpu_nice_text.h tests/lib/tap.h $(KSTAMP)
	$(guest-cc)

# The test kernel's gpuprio syscall numbers, from its generated uapi
# headers (the tests' one copy, tests/gpuprio-nr.sh), and the seccomp guard
# that kills a process issuing them, built with the same headers (suite
# 20-gpunice).
GUEST_PROGS += $(TESTBIN)/gpuprio-nr $(TESTBIN)/nosys-guard
$(TESTBIN)/gpuprio-nr: tests/gpuprio-nr.sh $(KSTAMP)
	@mkdir -p $(TESTBIN)
	@tests/gpuprio-nr.sh $(HDRS)/include >$@.tmp && mv $@.tmp $@
$(TESTBIN)/nosys-guard: tests/host/nosys-guard.c $(KSTAMP)
	$(guest-cc)

# gpunice and its examples, static, under the names the guest tests use.
# tools/gpunice's own make decides what to rebuild; a copy is replaced only
# when it differs, so that an unchanged one keeps its time. One build for
# both kernel lines ($(OUT)/gpunice, no kernel headers): the binaries take
# the calls' numbers from the running kernel (kernel.gpuprio_syscalls), so
# the 7.3 guest runs the very files the 6.12 guest runs.
GPUNICE_OUT := $(OUT)/gpunice
$(TESTBIN)/gpunice $(TESTBIN)/gpuprio-tabs $(TESTBIN)/gpuprio-threads: FORCE
	@mkdir -p $(TESTBIN)
	@$(MAKE) -s --no-print-directory -C tools/gpunice static \
		O=$(GPUNICE_OUT) CFLAGS="-O2 -Werror"
	@for p in gpunice gpuprio-tabs gpuprio-threads; do \
		cmp -s $(GPUNICE_OUT)/$$p-static $(TESTBIN)/$$p || \
		cp $(GPUNICE_OUT)/$$p-static $(TESTBIN)/$$p; done
GUEST_PROGS += $(TESTBIN)/gpunice $(TESTBIN)/gpuprio-tabs \
	$(TESTBIN)/gpuprio-threads

# The gpuprio calls under the seccomp filter of a sandboxed process
# (tools/gpunice/examples/gpuprio-seccomp.h; suite 25-sandbox).
GUEST_PROGS += $(TESTBIN)/sandbox
$(TESTBIN)/sandbox: GUEST_CFLAGS = -I tools/gpunice/include \
	-iquote tools/gpunice/examples
$(TESTBIN)/sandbox: tests/guest/sandbox.c tests/lib/tap.h \
		tools/gpunice/include/gpuprio.h \
		tools/gpunice/examples/gpuprio-seccomp.h $(KSTAMP)
	$(guest-cc)

# The benchmark (make bench) also runs in the make check guest (suite 60,
# a quick smoke run).
GUEST_PROGS += $(TESTBIN)/gpuprio_bench
$(TESTBIN)/gpuprio_bench: tests/bench/gpuprio_bench.c tests/lib/tap.h $(KSTAMP)
	$(guest-cc)

# The BPF LSM test of make check-bpf-lsm (suite 85-bpf-lsm), built only
# there (GUEST_BPF_LSM=1, mk/debug.mk): it needs clang and libbpf, which
# no other target does; elsewhere the suite skips. Its BPF object, built
# by clang against the test kernel's uapi headers, is assembled into it.
ifdef GUEST_BPF_LSM
BPF_LSM_OBJ := $(LOUT)/bpf-lsm/bpf_lsm.bpf.o
$(BPF_LSM_OBJ): tests/guest/bpf_lsm.bpf.c tests/guest/bpf_lsm.h $(KSTAMP)
	@mkdir -p $(@D)
	@echo "  CLANG   $@"
	@clang -O2 -g -target bpf -Wall -Wextra -Werror -Wno-unused-parameter \
		-isystem $(HDRS)/include -c -o $@ $<
GUEST_PROGS += $(TESTBIN)/bpf_lsm
$(TESTBIN)/bpf_lsm: GUEST_CFLAGS = -I tools/gpunice/include \
	-DBPF_OBJ='"$(BPF_LSM_OBJ)"'
$(TESTBIN)/bpf_lsm: GUEST_LIBS = -lbpf -lelf -lz
$(TESTBIN)/bpf_lsm: tests/guest/bpf_lsm.c tests/guest/bpf_lsm.h \
		tests/lib/tap.h tools/gpunice/include/gpuprio.h $(BPF_LSM_OBJ)
	$(guest-cc)
endif

# make hw-report's script (suite 80-hw-report).
GUEST_PROGS += $(TESTBIN)/hw-report
$(TESTBIN)/hw-report: scripts/hw-report.sh
	@mkdir -p $(TESTBIN)
	@cp $< $@

# The broker's suite (75-broker): gpuprio-broker, a dynamic gpunice with
# --ask and the test client, all on libsystemd, with Debian's dbus-daemon
# and polkitd and every library they load, in a tree laid over the
# initramfs (tests/broker-root.sh). One build for both kernel lines, as
# gpunice's: nothing in it has the calls' numbers compiled in. The tree is
# rebuilt only when one of its inputs changed, so the initramfs is too.
BROKER_OUT := $(OUT)/gpunice-broker
BROKER_ROOT := $(OUT)/broker-root
BROKER_STAMP := $(BROKER_ROOT).stamp
$(BROKER_OUT)/broker_client: tests/guest/broker_client.c \
		tools/gpunice/include/gpuprio-broker.h \
		tools/gpunice/include/gpuprio.h
	@mkdir -p $(BROKER_OUT)
	@echo "  CC      $@"
	@cc -O2 -Wall -Wextra -Werror -Itools/gpunice/include -Iinclude/uapi \
		$$(pkg-config --cflags libsystemd) -o $@ $< -pthread \
		$$(pkg-config --libs libsystemd)
$(BROKER_STAMP): $(BROKER_OUT)/broker_client tests/broker-root.sh FORCE
	@$(MAKE) -s --no-print-directory -C tools/gpunice BROKER=1 \
		O=$(BROKER_OUT) CFLAGS="-O2 -Werror" $(BROKER_OUT)/gpunice \
		$(BROKER_OUT)/gpuprio-broker
	@if [ ! -e $@ ] || [ -n "$$(find $(BROKER_OUT) tests/broker-root.sh \
		tools/gpunice/broker docs/examples -newer $@ -type f)" ]; then \
		echo "  ROOT    $(BROKER_ROOT)"; \
		tests/broker-root.sh $(BROKER_ROOT) $(BROKER_OUT) \
			$(BROKER_OUT)/broker_client && touch $@; fi

##   make guest-bin     the guest's test programs, in $OUT/guest-bin
##   make initramfs     the guest's initramfs: those, tests/guest, man pages
.PHONY: guest-bin initramfs
guest-bin: $(GUEST_PROGS)
initramfs: $(INITRD)

# Everything scripts/mkinitramfs.sh copies in: the guest's scripts and
# suites, the shell test library, the rendered man pages, and (from the
# kernel tree, through the stamp) the i915 mock subtests.
GUEST_FILES := $(shell find tests/guest tests/lib man -type f 2>/dev/null) \
	tests/i915-mock-params.sh scripts/mkinitramfs.sh
$(INITRD): $(GUEST_PROGS) $(GUEST_FILES) $(KSTAMP) $(BROKER_STAMP)
	@scripts/mkinitramfs.sh $@ $(TESTBIN) tests/guest $(KDIR) $(BROKER_ROOT)

## Run:
##   make check-guest   boot the test kernel and run the guest suites
##   SUITES="20-gpunice kunit"  only those guest suites (make check-guest)
.PHONY: check-guest vm demo
SUITES ?=
comma := ,
SUITES_APPEND := $(if $(strip $(SUITES)),gpunice.suites=$(subst $(eval) ,$(comma),$(strip $(SUITES))))
check-guest: $(KSTAMP) $(INITRD)
	@GUEST_APPEND="$$(tests/i915-mock-params.sh $(KDIR)) $(GUEST_APPEND) \
		$(SUITES_APPEND)" \
		tests/run-guest.sh $(BZIMAGE) $(INITRD) $(CHECK_DIR)

##   make vm            boot the test kernel with a shell on the console
##   GUEST_APPEND=      kernel command line added, e.g. gpunice.suites=20-gpunice
##                      kunit.filter_glob=gpuprio*
##   GUEST_TIMEOUT=900 GUEST_SMP=2   seconds before a guest is killed; QEMU -smp
vm: $(KSTAMP) $(INITRD)
	@tests/run-guest.sh --interactive $(BZIMAGE) $(INITRD) $(LOUT)/vm

##   make demo          build, boot and run the GPU nice walk-through on
##                      the line's test kernel, the one make check builds
demo: deps
	@scripts/timed-steps.sh "$(MAKE) --no-print-directory kernel" \
		"$(MAKE) --no-print-directory initramfs" \
		"tests/demo.sh $(BZIMAGE) $(INITRD) $(LOUT)/demo"
