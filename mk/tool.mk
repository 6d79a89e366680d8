## gpunice, the hardware tools, this help:
##   make tool          gpunice alone and its tests: no root, no kernel
##   make install       gpunice, man pages, completion, headers
##                      (PREFIX=/usr/local DESTDIR=)
##   make uninstall     what make install put there (same PREFIX, DESTDIR)
##   make hwbench       the i915 hardware benchmark (needs libdrm-dev)
##   make hw-report     $OUT/hw-report.txt, to attach to a hardware result
##   make help          this list
##   make clean         remove $OUT
.PHONY: tool install uninstall hwbench hw-report help clean
# gpunice alone, with its host tests and man page lint: no root, no apt, no
# kernel tree (tests/host/suites/20-gpunice never issues the syscalls on
# the host).
tool:
	@$(MAKE) -s --no-print-directory -C tools/gpunice O=$(GPUNICE_OUT) \
		CFLAGS="-O2 -Werror"
	@mkdir -p $(OUT)/check-tool
	@tests/host/suites/20-gpunice $(GPUNICE_OUT)/gpunice \
		> $(OUT)/check-tool/host-gpunice.tap 2>&1; \
	rc=$$?; grep -v '^ok' $(OUT)/check-tool/host-gpunice.tap; \
	echo "  TOOL    $(GPUNICE_OUT)/gpunice: $$(grep -c '^ok' \
		$(OUT)/check-tool/host-gpunice.tap) passed, $$(grep -c \
		'^not ok' $(OUT)/check-tool/host-gpunice.tap) failed"; exit $$rc

install:
	@$(MAKE) --no-print-directory -C tools/gpunice install \
		O=$(GPUNICE_OUT) PREFIX=$(or $(PREFIX),/usr/local) DESTDIR=$(DESTDIR)

uninstall:
	@$(MAKE) --no-print-directory -C tools/gpunice uninstall \
		PREFIX=$(or $(PREFIX),/usr/local) DESTDIR=$(DESTDIR)

# For a machine with an Intel GPU (docs/INSTALL.md, "The hardware
# benchmark"): libdrm, no kernel tree.
hwbench:
	@mkdir -p $(OUT)
	@echo "  CC      $(OUT)/hwbench"
	@cc -O2 -Wall -Wextra $$(pkg-config --cflags libdrm) -Iinclude/uapi \
		-o $(OUT)/hwbench tests/i915/hwbench.c $$(pkg-config --libs libdrm)

# What a hardware result needs, in one file to attach wherever you report
# (scripts/hw-report.sh): kernel, GPUs and drivers, DRM clients and their
# priorities, and hwbench's output when it is built and an i915 GPU exists.
# No root, no apt, no kernel tree; any kernel.
hw-report:
	@mkdir -p $(OUT)
	@scripts/hw-report.sh -o $(OUT)/hw-report.txt -b $(OUT)/hwbench
	@echo "  REPORT  $(OUT)/hw-report.txt: attach it to your report"

help:
	@sed -n 's/^## \{0,1\}//p' $(MK_FILES) Makefile
	@echo '  now: OUT=$(OUT) LINE=$(LINE) JOBS=$(JOBS)'

clean:
	rm -rf $(OUT)
