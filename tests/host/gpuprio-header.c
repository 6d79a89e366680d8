// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an application does with <gpuprio.h>, for
 * tests/host/suites/12-gpuprio-header to compile as C and as C++ under
 * every standard: brace-initialise an int from every value macro, with
 * constants and with variables (a narrowing error in C++, a -Wconversion
 * warning in C, if a macro's type is not int), and call every wrapper.
 * Never run on a kernel with the feature.
 */
#include <gpuprio.h>

#ifdef __cplusplus
#define INIT(name, value)	int name{value}
#define TAB(name, text, value)	struct tab name{text, value}
#else
#define INIT(name, value)	int name = {value}
#define TAB(name, text, value)	struct tab name = {text, value}
#endif

struct tab {
	const char *name;
	int prio;
};

int use(int n, int level, int pid);

int use(int n, int level, int pid)
{
	TAB(constant, "background", GPUPRIO_BE_NICE(5));
	TAB(variable, "background", GPUPRIO_BE_NICE(n));
	TAB(video, "video", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, n + 25));
	INIT(be, GPUPRIO_BE_NICE(n));
	INIT(be_constant, GPUPRIO_BE_NICE(-3));
	INIT(rt, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, level));
	INIT(idle, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0));
	INIT(none, GPUPRIO_DEFAULT);
	INIT(klass, GPUPRIO_PRIO_CLASS(be));
	INIT(klass_constant, GPUPRIO_PRIO_CLASS(GPUPRIO_BE_NICE(2)));
	INIT(data, GPUPRIO_PRIO_DATA(rt));
	INIT(data_constant, GPUPRIO_PRIO_DATA(GPUPRIO_BE_NICE(2)));
	INIT(nice, GPUPRIO_TO_NICE(variable.prio));
	INIT(nice_constant, GPUPRIO_TO_NICE(GPUPRIO_BE_NICE(7)));
	INIT(shift, GPUPRIO_CLASS_SHIFT);
	INIT(classes, GPUPRIO_NR_CLASSES);
	INIT(class_mask, GPUPRIO_CLASS_MASK);
	INIT(prio_mask, GPUPRIO_PRIO_MASK);
	INIT(class_none, GPUPRIO_CLASS_NONE);
	INIT(class_rt, GPUPRIO_CLASS_RT);
	INIT(class_be, GPUPRIO_CLASS_BE);
	INIT(class_idle, GPUPRIO_CLASS_IDLE);
	INIT(rt_levels, GPUPRIO_RT_LEVELS);
	INIT(offset, GPUPRIO_BE_NICE_OFFSET);
	INIT(be_levels, GPUPRIO_BE_LEVELS);
	INIT(who_process, GPUPRIO_WHO_PROCESS);
	INIT(who_pgrp, GPUPRIO_WHO_PGRP);
	INIT(who_user, GPUPRIO_WHO_USER);
	INIT(who_pidfd, GPUPRIO_WHO_PIDFD);
	INIT(pidfd, gpuprio_pidfd_open(pid));
	INIT(ret, gpuprio_supported());

	ret += gpuprio_set(who_process, 0, be);
	ret += gpuprio_set(who_pidfd, pidfd, constant.prio);
	ret += gpuprio_set(who_pgrp, 0, video.prio);
	ret += gpuprio_get(who_process, 0);
	ret += gpuprio_get(who_user, 0);
	ret += gpuprio_syscall_numbers(NULL, NULL);
	return ret + be_constant + rt + idle + none + klass + klass_constant +
	       data + data_constant + nice + nice_constant + shift + classes +
	       class_mask + prio_mask + class_none + class_rt + class_be +
	       class_idle + rt_levels + offset + be_levels;
}

int main(int argc, char **argv)
{
	(void)argv;
	return use(argc, argc - 1, argc + 1) == 42;
}
