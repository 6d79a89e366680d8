# The upstream series of the line (patches/<line>/) and its git branch
# (HACKING.md, "Changing the series").

## The series:
##   make patches       the upstream series with cover letter in $OUT/patches
##                      (git am onto the pristine tree, equal to the tested
##                      tree, checkpatch --strict, kernel-doc); the line's
##                      out-of-tree patches, not mailed, in
##                      $OUT/patches-out-of-tree
##   make tree          the series as git branch "series" in $OUT/tree, to edit
##   make refresh       write $OUT/tree back into patches/ and the new files
.PHONY: patches check-patches tree refresh
# It needs the synced tree, not a built kernel.
patches: $(KDIR)/.gpunice-files
	@scripts/make-patches.sh $(PRISTINE) $(KDIR) $(LOUT)/patch-work \
		$(LOUT)/patches > $(LOUT)/patches.tap; \
	rc=$$?; grep -v '^ok' $(LOUT)/patches.tap; \
	echo "  PATCHES $(LOUT)/patches ($$(grep -c '^ok' $(LOUT)/patches.tap) checks passed)"; \
	exit $$rc

##   make check-patches make patches as TAP for make check, and the round
##                      trip of make tree and make refresh
# The series is checked against the synced tree, built or not: make check
# checks the other line's series without building its kernel.
check-patches: $(KDIR)/.gpunice-files
	@mkdir -p $(CHECK_DIR)
	@$(call placeholder,host-patches)
	@scripts/make-patches.sh $(PRISTINE) $(KDIR) $(LOUT)/patch-work \
		$(LOUT)/patches > $(CHECK_DIR)/host-patches.tap \
		2> $(CHECK_DIR)/host-patches.err || true
	@sed 's/^/# /' $(CHECK_DIR)/host-patches.err >> $(CHECK_DIR)/host-patches.tap
	@$(call placeholder,host-series-roundtrip)
	@tests/host/series-roundtrip.sh $(PRISTINE) $(LOUT)/patch-work/upstream \
		> $(CHECK_DIR)/host-series-roundtrip.tap 2>&1 || true

# A sync stopped by a backport's delta that no longer applies does not stop
# make tree, which gives that file with conflict markers to resolve.
tree: FORCE | deps
	@scripts/sync-tree.sh $(LTAR) $(PRISTINE) $(KDIR) || \
		echo "tree: going on; the file comes with conflict markers" >&2
	@scripts/series-tree.sh $(PRISTINE) $(LOUT)/patch-work/upstream $(LOUT)/tree
refresh:
	@scripts/series-refresh.sh $(LOUT)/tree $(CURDIR)
