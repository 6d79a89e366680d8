# gpunice: GPU priority for Linux tasks.
#
# The kernel side is built from Debian's linux-source-7.3 (and -6.12) with
# the project's new files and patches applied, and tested in a QEMU guest.
# This file holds the variables; the targets live in mk/, one file per
# concern. 'make help' lists them from their '##' comments.


## Variables (make VAR=value target):
##   OUT=dir           build output, out by default
OUT	?= out
override OUT := $(abspath $(OUT))
##   KTAR_7_3=file     the 7.3 source tarball (Debian's linux-source-7.3)
KTAR_7_3 ?= /usr/src/linux-source-7.3.tar.xz
##   KTAR_6_12=file    the 6.12 source tarball (Debian's linux-source-6.12)
KTAR_6_12 ?= /usr/src/linux-source-6.12.tar.xz
##   JOBS=n            parallel compile jobs
JOBS	?= $(shell nproc)
##   ARCH_CC=cc        compiler of the guest programs
ARCH_CC	?= gcc

##   LINE=7.3|6.12     kernel line of every target: 7.3, the upstream line
##                     (patches/7.3/, built in $OUT), or 6.12, its backport
##                     (patches/6.12/, built in $OUT/6.12)
export LINE ?= 7.3
# lout_in <out> <line>: a line's build folder in an output folder (the
# upstream line's is the folder itself); lout, ltar <line>: in $OUT, and a
# line's source tarball.
lout_in = $(if $(filter 7.3,$(2)),$(1),$(1)/$(2))
lout = $(call lout_in,$(OUT),$(1))
ltar = $(KTAR_$(subst .,_,$(1)))
ifeq ($(filter 7.3 6.12,$(LINE)),)
$(error LINE=$(LINE): the kernel lines are 7.3 and 6.12)
endif
LOUT	:= $(call lout,$(LINE))
LTAR	:= $(call ltar,$(LINE))
# The other line: make check checks its series too.
OTHER_LINE := $(filter-out $(LINE),7.3 6.12)

KDIR	:= $(LOUT)/linux
PRISTINE := $(LOUT)/linux-pristine
HDRS	:= $(LOUT)/headers
TESTBIN	:= $(LOUT)/guest-bin
##   KCONFIG_EXTRA=    config fragments merged after configs/gpuprio-test.config
KCONFIG	:= configs/gpuprio-test.config \
	$(if $(filter 7.3,$(LINE)),configs/line-7.3.config) $(KCONFIG_EXTRA)
BZIMAGE	:= $(KDIR)/arch/x86/boot/bzImage
INITRD	:= $(LOUT)/initramfs.cpio.gz
# Touched when the kernel image or its exported headers changed: what the
# guest programs and the initramfs depend on, instead of a phony "kernel".
KSTAMP	:= $(LOUT)/kernel.stamp

CFLAGS_USER := -O2 -Wall -Wextra -Werror -static -pthread
# kselftest_harness.h passes parameters that not every test uses.
CFLAGS_SELFTEST := $(CFLAGS_USER) -Wno-unused-parameter -Wno-clobbered

all: kernel guest-bin

# One file per concern; help lists their '##' lines in this order. Every
# guest program is added to GUEST_PROGS before mk/guest.mk uses it.
MK_FILES := mk/kernel.mk mk/simgpu.mk mk/guest.mk mk/check.mk mk/debug.mk \
	mk/series.mk mk/bench.mk mk/effect.mk mk/mutants.mk mk/deb.mk mk/tool.mk
include $(MK_FILES)

FORCE:
