// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/<pid>/gpu_nice and /proc/<pid>/task/<tid>/gpu_nice: the task's GPU
 * priority in words, for people and shell scripts. Writes go through the
 * same checks as gpuprio_set(2), for the opener and for the writer.
 */

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/gpuprio.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "internal.h"

/* Longest accepted write: "best-effort -20" with room for white space. */
#define GPU_NICE_MAX_WRITE	32

/*
 * The stored value is read once: the class and the nice shown for NONE come
 * from the same read, so that a concurrent set can never make a line
 * ("none -28") that gpu_nice_parse() refuses.
 */
static int gpu_nice_show(struct seq_file *m, void *v)
{
	struct task_struct *p;
	u16 stored, prio;
	int err;

	p = get_proc_task(m->private);
	if (!p)
		return -ESRCH;

	err = security_task_getgpuprio(p);
	if (err)
		goto out;

	stored = task_gpuprio_stored(p);
	prio = gpuprio_value(stored);
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_RT:
		seq_printf(m, "realtime %u\n", GPUPRIO_PRIO_DATA(prio));
		break;
	case GPUPRIO_CLASS_BE:
		seq_printf(m, "best-effort %d\n", GPUPRIO_TO_NICE(prio));
		break;
	case GPUPRIO_CLASS_IDLE:
		seq_puts(m, "idle\n");
		break;
	default:
		stored = gpuprio_resolve_effective(stored, task_nice(p),
						   gpuprio_cpu_nice_followed());
		seq_printf(m, "none %d\n", gpuprio_rank(stored));
		break;
	}
out:
	put_task_struct(p);
	return err;
}

/*
 * Parse "<nice>", "best-effort <nice>", "realtime <level>", "idle", "none",
 * and "none <nice>", the read form, so that what was read can be written
 * back; its nice follows the CPU nice and is not stored.
 */
static int gpu_nice_parse(char *buf, u16 *prio)
{
	char *word, *arg = strim(buf);
	int n;

	word = strsep(&arg, " \t");
	if (arg)
		arg = skip_spaces(arg);

	if (!arg) {
		if (!strcmp(word, "none")) {
			*prio = GPUPRIO_DEFAULT;
			return 0;
		}
		if (!strcmp(word, "idle")) {
			*prio = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0);
			return 0;
		}
		arg = word;
		word = "best-effort";
	}

	if (kstrtoint(arg, 10, &n))
		return -EINVAL;

	if (!strcmp(word, "best-effort")) {
		if (n < MIN_NICE || n > MAX_NICE)
			return -EINVAL;
		*prio = GPUPRIO_BE_NICE(n);
		return 0;
	}
	if (!strcmp(word, "none")) {
		if (n < MIN_NICE || n > MAX_NICE)
			return -EINVAL;
		*prio = GPUPRIO_DEFAULT;
		return 0;
	}
	if (!strcmp(word, "realtime")) {
		if (n < 0 || n >= GPUPRIO_RT_LEVELS)
			return -EINVAL;
		*prio = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, n);
		return 0;
	}
	return -EINVAL;
}

/*
 * The file is writable by all and checked in code, like timerslack_ns. As for
 * uid_map, the change must be allowed both to the credentials the file was
 * opened with and to the writer's: a privileged program handed a descriptor
 * must not lend its privilege to whoever opened it, and a descriptor opened
 * by a privileged program must not lend it to a later, lesser writer. The
 * opener is asked every question the writer is, capabilities and LSM
 * included, by running the same checks under its credentials; the high
 * band, too, needs CAP_SYS_NICE on both sides (gpuprio_mark() for the
 * opener here, for the writer in gpuprio_set_task_locked()).
 */
static int gpu_nice_opener_may_set(const struct cred *opener,
				   struct task_struct *p, u16 *prio)
{
	const struct cred *saved = override_creds(opener);
	int err;

	err = gpuprio_check_value(*prio);
	if (!err)
		err = gpuprio_may_set(p, *prio);
	if (!err)
		*prio = gpuprio_mark(*prio);
	revert_creds(saved);
	return err;
}

static ssize_t gpu_nice_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[GPU_NICE_MAX_WRITE + 1];
	struct task_struct *p;
	u16 prio;
	int err;

	if (count > GPU_NICE_MAX_WRITE)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* A NUL byte is in no accepted form: "5\0junk" must not read as "5". */
	if (strlen(buf) != count)
		return -EINVAL;

	err = gpu_nice_parse(buf, &prio);
	if (err)
		return err;
	err = gpuprio_check_value(prio);
	if (err)
		return err;

	p = get_proc_task(file_inode(file));
	if (!p)
		return -ESRCH;
	/* Both checks and the store under one lock, see gpuprio_set_task() */
	task_lock(p);
	err = gpu_nice_opener_may_set(file->f_cred, p, &prio);
	if (!err)
		err = gpuprio_set_task_locked(p, prio);
	task_unlock(p);
	put_task_struct(p);

	return err ? err : count;
}

static int gpu_nice_open(struct inode *inode, struct file *file)
{
	return single_open(file, gpu_nice_show, inode);
}

const struct file_operations proc_pid_gpu_nice_operations = {
	.open		= gpu_nice_open,
	.read		= seq_read,
	.write		= gpu_nice_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};
