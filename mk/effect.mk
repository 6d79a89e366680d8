##   make effect        what GPU priority does to a frame rate (simgpu)
##   EFFECT_RUNS=3 EFFECT_SECONDS=5 EFFECT_ALLOW_MISSED=1
##   EFFECT_ROWS="inversion deadline" EFFECT_LINES=7.3 EFFECT_BOOTS=none
##                      a quick run: only the rows whose name starts with
##                      a word of EFFECT_ROWS ("all": every row), only the
##                      lines of EFFECT_LINES (default "6.12 7.3"), only
##                      the boots after FIFO of EFFECT_BOOTS (rr, fair or
##                      none; default rr, and rr fair on 7.3); it is
##                      judged on those rows and leaves docs/EFFECT.md alone
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
# left alone). EFFECT_ROWS, EFFECT_LINES, EFFECT_BOOTS: a quick run while
# working on some rows (any of them set makes the run a quick one).
EFFECT_RUNS ?= 3
EFFECT_SECONDS ?= 5
EFFECT_ALLOW_MISSED ?=
EFFECT_ROWS ?=
EFFECT_LINES ?= 6.12 7.3
EFFECT_BOOTS ?=
.PHONY: effect
# The 7.3 line's rows (its FIFO boot, then round robin and FAIR:
# run-effect.sh ... rr fair) join the tables; its FIFO and round-robin
# targets gate as 6.12's do, under FAIR its shares and the inversion and
# deadline rows (tests/effect/report.py, Line): a boot that did not finish
# leaves them void, which fails the report.
# Both lines, whichever LINE says: the tables put their rows side by side.
E612 := $(call lout,6.12)
E73 := $(call lout,7.3)
# A quick run: the report judges the rows run, and leaves the document.
EFFECT_QUICK := $(strip $(EFFECT_ROWS)$(EFFECT_BOOTS)$(filter-out \
	6.12 7.3,$(EFFECT_LINES))$(if $(and $(filter 6.12,$(EFFECT_LINES)),$(filter \
	7.3,$(EFFECT_LINES))),,x))
EFFECT_BOOTS_612 := $(if $(EFFECT_BOOTS),$(or $(filter-out fair,$(EFFECT_BOOTS)),none),rr)
EFFECT_BOOTS_73 := $(or $(EFFECT_BOOTS),rr fair)
export EFFECT_ROWS
effect: deps
	@$(foreach l,$(EFFECT_LINES),$(MAKE) --no-print-directory LINE=$(l) \
		kernel initramfs &&) true
	@rm -rf $(E612)/effect $(E73)/effect
	@mkdir -p $(E612)/effect $(E73)/effect
	@$(if $(filter 6.12,$(EFFECT_LINES)),tests/effect/run-effect.sh \
		$(E612)/linux/arch/x86/boot/bzImage \
		$(E612)/initramfs.cpio.gz $(E612)/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS) $(EFFECT_BOOTS_612),true)
	@$(if $(filter 7.3,$(EFFECT_LINES)),tests/effect/run-effect.sh \
		$(E73)/linux/arch/x86/boot/bzImage \
		$(E73)/initramfs.cpio.gz $(E73)/effect \
		$(EFFECT_RUNS) $(EFFECT_SECONDS) $(EFFECT_BOOTS_73) || \
		echo "effect: the 7.3 line's boots failed (see the report)",true)
	@tests/effect/report.py $(E612)/effect --line 7.3=$(E73)/effect \
		--doc docs/EFFECT.md \
		$(if $(EFFECT_QUICK),--rows "$(or $(EFFECT_ROWS),all)") \
		$(if $(filter 1,$(EFFECT_ALLOW_MISSED)),--allow-missed)
