##   make effect        what GPU priority does to a frame rate (simgpu)
##   EFFECT_RUNS=3 EFFECT_SECONDS=5 EFFECT_ALLOW_MISSED=1
# On simgpu, the simulated GPU behind a real drm_gpu_scheduler
# (tests/simgpu, mk/simgpu.mk), and the GPU time shares of busy clients:
# the test kernel boots with gpunice.effect (tests/guest/effect.sh runs
# tests/simgpu/gpuload in every scenario), then again with
# gpu_sched.sched_policy=0 for the round-robin rows; tests/effect/report.py
# prints the tables and, when every run was valid and every target met,
# writes them with the plot into docs/EFFECT.md. A void run or a missed
# target fails. Not in make check. EFFECT_RUNS: runs per scenario
# (medians), EFFECT_SECONDS: seconds per run, EFFECT_ALLOW_MISSED=1: a
# missed target is only reported (for exploration; docs/EFFECT.md is still
# left alone).
EFFECT_RUNS ?= 3
EFFECT_SECONDS ?= 5
EFFECT_ALLOW_MISSED ?=
.PHONY: effect
# The 7.3 line's rows (its FIFO boot, then FAIR: run-effect.sh ... fair)
# join the tables; its light-foreground targets and void runs are only
# reported, its FAIR shares gate (tests/effect/report.py, Line): a FAIR
# boot that did not finish leaves them void, which fails the report.
effect: deps
	@$(only_612)
	@$(MAKE) --no-print-directory kernel initramfs
	@$(MAKE) --no-print-directory LINE=7.3 kernel initramfs
	@rm -rf $(OUT)/effect $(OUT)/7.3/effect
	@mkdir -p $(OUT)/effect $(OUT)/7.3/effect
	@tests/effect/run-effect.sh $(BZIMAGE) $(INITRD) $(OUT)/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS)
	@tests/effect/run-effect.sh $(OUT)/7.3/linux/arch/x86/boot/bzImage \
		$(OUT)/7.3/initramfs.cpio.gz $(OUT)/7.3/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS) fair || \
		echo "effect: the 7.3 line's boots failed (see the report)"
	@tests/effect/report.py $(OUT)/effect --line 7.3=$(OUT)/7.3/effect \
		--doc docs/EFFECT.md \
		$(if $(filter 1,$(EFFECT_ALLOW_MISSED)),--allow-missed)
