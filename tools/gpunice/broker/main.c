// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuprio-broker - raise the GPU priority of a desktop client's own
 * threads, within limits, on polkit's word (gpuprio-broker(8))
 *
 * The kernel gives the drivers' high band only to a caller with
 * CAP_SYS_NICE. This service holds it so that the compositor, the game in
 * front or the video call need not: it raises a thread of the process
 * that asks, never another, and takes the raise back when asked, when the
 * thread exits, or when its process hogs the GPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "broker.h"

struct broker_config cfg = {
	.nice_ceiling = -15,		/* as RealtimeKit's MinNiceLevel */
	.rt_ceiling = 4,		/* the lower half of realtime */
	.max_threads = 16,
	.rate_burst = 25,		/* RealtimeKit: 25 actions ... */
	.rate_interval_ms = 20000,	/* ... per 20 s */
	.wd_window_ms = 1000,
	.wd_busy_percent = 90,
	.wd_period_ms = 100,
};

/*
 * The two capabilities the broker keeps: CAP_SYS_NICE to raise, and
 * CAP_SYS_PTRACE, effective only while the watchdog reads another user's
 * /proc/PID/fdinfo (which the kernel guards as it guards ptrace reads).
 */
#define KEEP_MASK ((1u << CAP_SYS_NICE) | (1u << CAP_SYS_PTRACE))

static struct __user_cap_header_struct cap_hdr = {
	.version = _LINUX_CAPABILITY_VERSION_3,
};

int with_ptrace_cap(int on)
{
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &cap_hdr, data))
		return -errno;
	if (on)
		data[0].effective |= 1u << CAP_SYS_PTRACE;
	else
		data[0].effective &= ~(1u << CAP_SYS_PTRACE);
	data[0].effective &= data[0].permitted;
	return syscall(SYS_capset, &cap_hdr, data) ? -errno : 0;
}

/*
 * Keep CAP_SYS_NICE and CAP_SYS_PTRACE, nothing else, in every set, and
 * never gain more (no_new_privs). The systemd unit already bounds them;
 * started otherwise (as root by hand, or by a bus daemon without systemd),
 * the broker does it itself.
 */
static int drop_privileges(void)
{
	struct __user_cap_data_struct data[2];
	int cap;

	if (syscall(SYS_capget, &cap_hdr, data))
		return -errno;
	if (!(data[0].permitted & (1u << CAP_SYS_NICE))) {
		fprintf(stderr, "gpuprio-broker: needs CAP_SYS_NICE (run it as "
			"root or from its systemd unit)\n");
		return -EPERM;
	}
	/* The bounding set first: that needs CAP_SETPCAP, dropped next. */
	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		if (!(KEEP_MASK & (1u << (cap & 31))) || cap >= 32)
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EPERM &&
			    errno != EINVAL)
				return -errno;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) &&
	    errno != EINVAL)
		return -errno;
	data[0].permitted &= KEEP_MASK;
	data[0].effective = data[0].permitted & (1u << CAP_SYS_NICE);
	data[0].inheritable = 0;
	data[1].permitted = data[1].effective = data[1].inheritable = 0;
	if (syscall(SYS_capset, &cap_hdr, data))
		return -errno;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gpuprio-broker [options]\n"
		"\n"
		"Raise the GPU priority of the caller's own threads over D-Bus "
		"(%s).\n"
		"\n"
		"Options:\n"
		"  --nice-ceiling=N          highest best-effort grant, nice "
		"-20..-1 (%d)\n"
		"  --rt-ceiling=L            highest realtime grant, level "
		"0..7 (%d)\n"
		"  --max-threads=N           raised threads per user at once "
		"(%u)\n"
		"  --rate-limit=N/MS         requests per user per MS "
		"milliseconds (%u/%llu)\n"
		"  --watchdog-window=MS      the watchdog's window (%llu)\n"
		"  --watchdog-busy=PERCENT   busier on one engine: demote all "
		"(%u)\n"
		"  --watchdog-period=MS      how often it samples (%llu)\n"
		"  -h, --help                this help\n"
		"\nSee gpuprio-broker(8).\n", BROKER_BUS_NAME, cfg.nice_ceiling,
		cfg.rt_ceiling, cfg.max_threads, cfg.rate_burst,
		(unsigned long long)cfg.rate_interval_ms,
		(unsigned long long)cfg.wd_window_ms, cfg.wd_busy_percent,
		(unsigned long long)cfg.wd_period_ms);
}

static long number(const char *opt, const char *s, long min, long max,
		   char **rest)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || (!rest && *end) || v < min || v > max) {
		fprintf(stderr, "gpuprio-broker: %s: '%s' is not a number from "
			"%ld to %ld\n", opt, s, min, max);
		exit(EXIT_FAILURE);
	}
	if (rest)
		*rest = end;
	return v;
}

static void parse_options(int argc, char **argv)
{
	enum { O_NICE = 256, O_RT, O_MAX, O_RATE, O_WIN, O_BUSY, O_PERIOD };
	static const struct option opts[] = {
		{ "nice-ceiling", required_argument, NULL, O_NICE },
		{ "rt-ceiling", required_argument, NULL, O_RT },
		{ "max-threads", required_argument, NULL, O_MAX },
		{ "rate-limit", required_argument, NULL, O_RATE },
		{ "watchdog-window", required_argument, NULL, O_WIN },
		{ "watchdog-busy", required_argument, NULL, O_BUSY },
		{ "watchdog-period", required_argument, NULL, O_PERIOD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *rest;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case O_NICE:
			cfg.nice_ceiling = (int)number("--nice-ceiling", optarg,
						       -20, -1, NULL);
			break;
		case O_RT:
			cfg.rt_ceiling = (int)number("--rt-ceiling", optarg, 0,
						     7, NULL);
			break;
		case O_MAX:
			cfg.max_threads = (unsigned int)number("--max-threads",
							       optarg, 0, 4096,
							       NULL);
			break;
		case O_RATE:
			cfg.rate_burst = (unsigned int)number("--rate-limit",
							      optarg, 1, 100000,
							      &rest);
			if (*rest != '/') {
				fprintf(stderr, "gpuprio-broker: --rate-limit: "
					"'%s' is not N/MS\n", optarg);
				exit(EXIT_FAILURE);
			}
			cfg.rate_interval_ms = (uint64_t)number("--rate-limit",
						rest + 1, 1, 86400000, NULL);
			break;
		case O_WIN:
			cfg.wd_window_ms = (uint64_t)number("--watchdog-window",
						optarg, 10, 60000, NULL);
			break;
		case O_BUSY:
			cfg.wd_busy_percent = (unsigned int)number(
				"--watchdog-busy", optarg, 1, 100, NULL);
			break;
		case O_PERIOD:
			cfg.wd_period_ms = (uint64_t)number("--watchdog-period",
						optarg, 10, 10000, NULL);
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		default:
			usage(stderr);
			exit(EXIT_FAILURE);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gpuprio-broker: unexpected argument '%s'\n",
			argv[optind]);
		exit(EXIT_FAILURE);
	}
	if (cfg.wd_window_ms / cfg.wd_period_ms + 2 > 128) {
		fprintf(stderr, "gpuprio-broker: --watchdog-window is at most "
			"126 periods\n");
		exit(EXIT_FAILURE);
	}
}

int main(int argc, char **argv)
{
	sd_event *event = NULL;
	sd_bus *bus = NULL;
	int r;

	parse_options(argc, argv);
	r = drop_privileges();
	if (r < 0) {
		if (r != -EPERM)
			fprintf(stderr, "gpuprio-broker: dropping privileges: "
				"%s\n", strerror(-r));
		return EXIT_FAILURE;
	}
	r = sd_event_default(&event);
	if (r >= 0)
		r = sd_bus_open_system(&bus);
	if (r < 0) {
		fprintf(stderr, "gpuprio-broker: cannot connect to the system "
			"bus: %s\n", strerror(-r));
		return EXIT_FAILURE;
	}
	r = sd_bus_attach_event(bus, event, SD_EVENT_PRIORITY_NORMAL);
	if (r >= 0)
		r = bus_start(bus);
	if (r < 0) {
		fprintf(stderr, "gpuprio-broker: cannot serve %s: %s\n",
			BROKER_BUS_NAME, strerror(-r));
		return EXIT_FAILURE;
	}
	r = watchdog_start(event);
	if (r < 0) {
		fprintf(stderr, "gpuprio-broker: watchdog: %s\n", strerror(-r));
		return EXIT_FAILURE;
	}
	fprintf(stderr, "gpuprio-broker: serving %s (nice ceiling %d, "
		"realtime ceiling %d, %u threads per user, %u requests per "
		"%llu ms, watchdog %u%% over %llu ms)\n", BROKER_BUS_NAME,
		cfg.nice_ceiling, cfg.rt_ceiling, cfg.max_threads,
		cfg.rate_burst, (unsigned long long)cfg.rate_interval_ms,
		cfg.wd_busy_percent, (unsigned long long)cfg.wd_window_ms);
	r = sd_event_loop(event);
	sd_bus_flush_close_unref(bus);
	sd_event_unref(event);
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
