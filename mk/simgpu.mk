# The simulated GPU of tests/simgpu: test equipment, never in the series. An
# out-of-tree module built in $(LOUT)/simgpu against the test kernel (and
# copied there, so that the repository gets no build products), loaded in
# the guest from /tests/bin/simgpu.ko; simgpu_test is its guest suite's
# program (tests/guest/suites/70-simgpu), gpuload the load of make effect.
SIMGPU_SRC := tests/simgpu/Kbuild tests/simgpu/simgpu.c tests/simgpu/simgpu_drm.h
SIMGPU_OUT := $(LOUT)/simgpu
$(TESTBIN)/simgpu.ko: $(SIMGPU_SRC) $(KSTAMP)
	@mkdir -p $(SIMGPU_OUT) $(TESTBIN)
	@for f in $(SIMGPU_SRC); do \
		cmp -s $$f $(SIMGPU_OUT)/$${f##*/} || cp $$f $(SIMGPU_OUT)/; done
	@test $(KDIR)/Module.symvers -nt $(KDIR)/vmlinux || \
		$(MAKE) -s -C $(KDIR) -j$(JOBS) modules
	@$(MAKE) -s -C $(KDIR) M=$(SIMGPU_OUT) modules
	@cmp -s $(SIMGPU_OUT)/simgpu.ko $@ || cp $(SIMGPU_OUT)/simgpu.ko $@
$(TESTBIN)/simgpu_test $(TESTBIN)/gpuload: GUEST_CFLAGS = \
	-iquote tests/simgpu -I tools/gpunice/include
$(TESTBIN)/simgpu_test: tests/simgpu/simgpu_test.c tests/simgpu/simgpu_drm.h \
		tests/lib/tap.h $(KSTAMP)
	$(guest-cc)
$(TESTBIN)/gpuload: tests/simgpu/gpuload.c tests/simgpu/simgpu_drm.h \
		tools/gpunice/include/gpuprio.h $(KSTAMP)
	$(guest-cc)
GUEST_PROGS += $(TESTBIN)/gpuload $(TESTBIN)/simgpu.ko $(TESTBIN)/simgpu_test
