## Measurements:
##   make bench         what the feature costs against its peers
##   BENCH_BOOTS=3 BENCH_UPDATE_DOC=1 BENCH_ALLOW_MISSED=1
# docs/BENCHMARKS.md. Two kernels of their own, both with
# configs/bench.config (CONFIG_BLOCK, for ioprio): $(OUT)/bench-on with the
# feature and $(OUT)/bench-nogpuprio without it (configs/no-gpuprio.config),
# built one after the other, booted in turn with gpunice.bench
# (tests/guest/init). Results, CSV and the plot in $(LOUT)/bench.
# BENCH_BOOTS: boots per kernel. BENCH_UPDATE_DOC=1 also rewrites the
# figures in docs/BENCHMARKS.md, but only when every target was met: a
# missed one fails the run; BENCH_ALLOW_MISSED=1 only reports it.
BENCH_ON := $(OUT)/bench-on
BENCH_OFF := $(OUT)/bench-nogpuprio
# The line's build folders in them.
BENCH_ON_L := $(call lout_in,$(BENCH_ON),$(LINE))
BENCH_OFF_L := $(call lout_in,$(BENCH_OFF),$(LINE))
BENCH_BOOTS ?= 3
# QEMU's TCG chains translated code directly only within one guest page; a
# jump to another page goes through a lookup. A walk whose loop straddles a
# page boundary then pays that lookup per task, and which of the compared
# system calls straddles one depends on where the linker put them: that
# alone made gpuprio_get(USER) 1.23x getpriority(USER) in one build and
# 1.01x once its function started a page. So every function of the files
# that hold the compared calls starts a page of its own, in both kernels.
BENCH_ALIGN := $(foreach o,sys ioprio gpuprio,CFLAGS_$(o).o=-falign-functions=4096)
.PHONY: bench
bench: deps
	@$(MAKE) --no-print-directory kernel initramfs OUT=$(BENCH_ON) \
		KCONFIG_EXTRA="configs/bench.config" $(BENCH_ALIGN)
	@$(MAKE) --no-print-directory kernel OUT=$(BENCH_OFF) \
		KCONFIG_EXTRA="configs/bench.config configs/no-gpuprio.config" \
		$(BENCH_ALIGN)
	@rm -rf $(LOUT)/bench && mkdir -p $(LOUT)/bench
	@tests/bench/run-bench.sh $(BENCH_ON_L)/linux/arch/x86/boot/bzImage \
		$(BENCH_OFF_L)/linux/arch/x86/boot/bzImage \
		$(BENCH_ON_L)/initramfs.cpio.gz $(BENCH_ON_L)/linux $(LOUT)/bench \
		$(BENCH_BOOTS)
	@tests/bench/report.py $(LOUT)/bench \
		$(if $(BENCH_UPDATE_DOC),--doc docs/BENCHMARKS.md) \
		$(if $(filter 1,$(BENCH_ALLOW_MISSED)),--allow-missed)
