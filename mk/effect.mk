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
# The 7.3 line's rows (its FIFO boot, then round robin and FAIR:
# run-effect.sh ... rr fair) join the tables; its FIFO and round-robin
# targets gate as 6.12's do, under FAIR its shares and the inversion and
# deadline rows (tests/effect/report.py, Line): a boot that did not finish
# leaves them void, which fails the report.
# Both lines, whichever LINE says: the tables put their rows side by side.
E612 := $(call lout,6.12)
E73 := $(call lout,7.3)
effect: deps
	@$(MAKE) --no-print-directory LINE=6.12 kernel initramfs
	@$(MAKE) --no-print-directory LINE=7.3 kernel initramfs
	@rm -rf $(E612)/effect $(E73)/effect
	@mkdir -p $(E612)/effect $(E73)/effect
	@tests/effect/run-effect.sh $(E612)/linux/arch/x86/boot/bzImage \
		$(E612)/initramfs.cpio.gz $(E612)/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS)
	@tests/effect/run-effect.sh $(E73)/linux/arch/x86/boot/bzImage \
		$(E73)/initramfs.cpio.gz $(E73)/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS) rr fair || \
		echo "effect: the 7.3 line's boots failed (see the report)"
	@tests/effect/report.py $(E612)/effect --line 7.3=$(E73)/effect \
		--doc docs/EFFECT.md \
		$(if $(filter 1,$(EFFECT_ALLOW_MISSED)),--allow-missed)
