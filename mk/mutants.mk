##   make mutants       each hook disabled in turn: do the tests notice?
##                      (LINE=6.12: the 6.12 line's mutants on its tree)
##   MUTANTS="id ..."   only those; MUTANTS_DRY=1: check the snippets only
##   make mutants-check every mutant snippet still applies
# Tests that can fail (tests/mutants/README): for each hook of the series, a
# kernel with that hook reduced to stock behaviour, built incrementally in a
# copy of the test tree ($(OUT)/mutants/linux) and booted with only the
# suites that should notice; one line per mutant, killed or survived, and
# "mutants: K killed, S survived, H hardware-only". make mutants-check and
# make check's host-mutants check that every snippet applies once and
# reverts. The amdgpu tree is synced and configured as check-amdgpu does.
# Not in make check: its time is in HACKING.md (Time and disk).
.PHONY: mutants mutants-check
ifneq ($(MUTANTS_DRY),)
mutants: mutants-check
else
# 7.3: tests/mutants/7.3, its own and the shared ones; 6.12:
# tests/mutants/*.mutant; each on its line's trees.
mutants: $(KSTAMP) $(INITRD)
	@tests/amdgpu-compile.sh $(LTAR) $(PRISTINE) $(LOUT)/amdgpu \
		> $(LOUT)/amdgpu-compile.tap || \
		{ cat $(LOUT)/amdgpu-compile.tap; exit 1; }
	@tests/mutants/mutants.py run --line $(LINE) --tree $(KDIR) \
		--work $(LOUT)/mutants --bin $(TESTBIN) --jobs $(JOBS) \
		--amdgpu $(LOUT)/amdgpu --initrd $(INITRD) $(MUTANTS)
endif
mutants-check: $(KDIR)/.gpunice-files
	@tests/mutants/mutants.py check --line $(LINE) $(KDIR) $(MUTANTS)
