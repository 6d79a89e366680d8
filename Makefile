# gpunice: GPU priority for Linux tasks.
#
# The kernel side is built from Debian's linux-source-6.12 (and -7.3) with
# the project's new files and patches applied, and tested in a QEMU guest.
# This file holds the variables; the targets live in mk/, one file per
# concern. 'make help' lists them from their '##' comments.


## Variables (make VAR=value target):
##   OUT=dir           build output, out by default
OUT	?= out
override OUT := $(abspath $(OUT))
##   KTAR=file         the 6.12 source tarball (Debian's linux-source-6.12)
KTAR	?= /usr/src/linux-source-6.12.tar.xz
##   KTAR73=file       the 7.3 source tarball (Debian's linux-source-7.3)
KTAR73	?= /usr/src/linux-source-7.3.tar.xz
##   JOBS=n            parallel compile jobs
JOBS	?= $(shell nproc)
##   ARCH_CC=cc        compiler of the guest programs
ARCH_CC	?= gcc

##   LINE=6.12|7.3     kernel line (patches/<line>/; 7.3 in $OUT/7.3) of kernel,
##                     initramfs, check-guest, check, patches, tree, refresh
export LINE ?= 6.12
ifeq ($(LINE),6.12)
LOUT	:= $(OUT)
LTAR	:= $(KTAR)
else ifeq ($(LINE),7.3)
LOUT	:= $(OUT)/7.3
LTAR	:= $(KTAR73)
else
$(error LINE=$(LINE): the kernel lines are 6.12 and 7.3)
endif
# A target of the 6.12 line alone.
only_612 = $(if $(filter 6.12,$(LINE)),,$(error make $@ is for LINE=6.12 only))

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
