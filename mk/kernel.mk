# The test kernel of the line: Debian's source with the series synced in
# (scripts/sync-tree.sh), configured from configs/, built with ccache.

## Build:
##   make (all)         the test kernel and the guest programs
##   make deps          every Debian package any target needs (as root)
# scripts/install-deps.sh, once, as root; without root it only says what
# is missing. Debian's linux-source-7.3 (from trixie-backports, pinned to
# that one package) only when KTAR_7_3 is its tarball, linux-source-6.12
# only when KTAR_6_12 is. Checked once per make invocation: the sub-makes
# of a target (make check runs dozens) inherit GPUNICE_DEPS_CHECKED.
.PHONY: deps
ifeq ($(GPUNICE_DEPS_CHECKED),)
deps:
	@KTAR_6_12='$(KTAR_6_12)' KTAR_7_3='$(KTAR_7_3)' scripts/install-deps.sh
else
deps: ;
endif
export GPUNICE_DEPS_CHECKED := 1

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

##   make kernel        build the patched test kernel and its uapi headers
##   make headers       the same (the headers are in $OUT/headers)
.PHONY: kernel headers
kernel headers: $(KSTAMP)

# kbuild decides what to rebuild, but headers_install rewrites every
# header: the stamp holds a checksum of the image and the headers, and is
# rewritten only when it changes. Only then are the guest programs and the
# initramfs rebuilt.
$(KSTAMP): $(KDIR)/.config FORCE
	@echo "  BUILD   kernel (incremental; from scratch: HACKING.md, Time and disk)"
	@$(MAKE) -s -C $(KDIR) -j$(JOBS) bzImage
	@$(MAKE) -s -C $(KDIR) headers_install INSTALL_HDR_PATH=$(HDRS)
	@sum=$$({ sha1sum $(BZIMAGE) && cd $(HDRS) && find include -type f | \
		LC_ALL=C sort | xargs sha1sum; } | sha1sum) && \
		[ "$$(cat $@ 2>/dev/null)" = "$$sum" ] || echo "$$sum" > $@
