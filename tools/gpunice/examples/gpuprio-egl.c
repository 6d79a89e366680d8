// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * gpuprio-egl - an OpenGL ES context at the application's priority, drawn
 * by a thread at a chosen GPU nice
 *
 * Copyright (c) 2026 the gpunice authors
 *
 * Dual-licensed: under the GNU General Public License, version 2 or (at
 * your option) any later version, or under the MIT licence, at your
 * choice. The MIT licence's text is in <gpuprio.h>.
 *
 * Two knobs decide the priority of GPU work: the context's priority
 * (EGL_IMG_context_priority), fixed when the context is created, and the
 * GPU priority of the thread that submits (gpuprio_set(2)), which the
 * kernel driver reads at each submission. A context at MEDIUM (the
 * default) leaves the driver's default, which follows the submitting task;
 * one at LOW or HIGH keeps that whatever thread submits (gpuprio_set(2),
 * "GPU drivers"). So a program picks one of:
 *
 *   --priority medium --nice N   the thread's GPU nice decides (default);
 *   --priority low               a low context whatever the thread;
 *   --priority high              needs CAP_SYS_NICE; Mesa falls back to
 *                                the default without it (the program
 *                                reads back what it got).
 *
 * The drawing thread sets its GPU nice first and only then creates the
 * context, so that the kernel context and the threads Mesa starts for it
 * (u_threaded_context's gdrv, the winsys's submission thread on the first
 * screen) begin at that priority; it then clears a framebuffer object,
 * reads a pixel back (which flushes: the submission ioctl comes from this
 * thread or from gdrv, both at its priority) and checks it. The display
 * is an EGLDevice with a DRM render node (EGL_EXT_device_drm_render_node),
 * the first one or the one named with --device, without a window system;
 * software renderers have no render node and are passed over.
 *
 * Exit status: 0 if the work ran and checked, 1 on an error, 2 for bad
 * usage, 4 (kselftest's "skip") if there is no GPU device. Without GPU
 * priorities in the kernel the context priority still applies: the
 * program says so and runs.
 *
 * Build: cc -Wall -Wextra -pthread -o gpuprio-egl gpuprio-egl.c \
 *	$(pkg-config --cflags --libs egl glesv2)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <gpuprio.h>

#define KSFT_SKIP	4
#define MAX_DEVICES	16

struct job {
	EGLDisplay dpy;
	EGLint priority;	/* EGL_CONTEXT_PRIORITY_*_IMG */
	int has_priority;	/* the display has EGL_IMG_context_priority */
	int nice;		/* the thread's GPU nice, or 99 for none */
	int status;		/* the thread's exit status */
};

static const char *priority_name(EGLint p)
{
	switch (p) {
	case EGL_CONTEXT_PRIORITY_LOW_IMG:
		return "low";
	case EGL_CONTEXT_PRIORITY_HIGH_IMG:
		return "high";
	default:
		return "medium";
	}
}

static int has_word(const char *list, const char *word)
{
	size_t len = strlen(word);
	const char *p = list;

	while (p && (p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') &&
		    (p[len] == ' ' || p[len] == '\0'))
			return 1;
		p += len;
	}
	return 0;
}

/* The thread that draws: its GPU nice first, then the context. */
static void *draw_main(void *arg)
{
	struct job *job = arg;
	EGLint attrs[] = {
		EGL_CONTEXT_CLIENT_VERSION, 2,
		EGL_CONTEXT_PRIORITY_LEVEL_IMG, job->priority,
		EGL_NONE,
	};
	EGLint got = EGL_CONTEXT_PRIORITY_MEDIUM_IMG;
	EGLContext ctx;
	GLuint fbo = 0, rb = 0;
	unsigned char px[4] = { 0, 0, 0, 0 };
	char now[32] = "-";
	FILE *f;

	job->status = 1;
	if (job->nice != 99 &&
	    gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(job->nice))) {
		perror("gpuprio-egl: gpuprio_set");
		return NULL;
	}
	f = fopen("/proc/thread-self/gpu_nice", "r");
	if (f) {
		if (fgets(now, sizeof(now), f))
			now[strcspn(now, "\n")] = '\0';
		fclose(f);
	}

	if (!job->has_priority)
		attrs[2] = EGL_NONE;	/* no priority attribute at all */
	ctx = eglCreateContext(job->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
			       attrs);
	if (ctx == EGL_NO_CONTEXT) {
		fprintf(stderr, "gpuprio-egl: eglCreateContext: %#x\n",
			eglGetError());
		return NULL;
	}
	if (job->has_priority)
		eglQueryContext(job->dpy, ctx, EGL_CONTEXT_PRIORITY_LEVEL_IMG,
				&got);
	if (!eglMakeCurrent(job->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		fprintf(stderr, "gpuprio-egl: eglMakeCurrent: %#x\n",
			eglGetError());
		goto out;
	}

	/* The GPU work: clear a 64x64 renderbuffer, read a pixel back. */
	glGenFramebuffers(1, &fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA4, 64, 64);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_RENDERBUFFER, rb);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) !=
	    GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "gpuprio-egl: framebuffer incomplete\n");
		goto out;
	}
	glClearColor(1.0f, 0.0f, 1.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glReadPixels(32, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	if (glGetError() != GL_NO_ERROR || px[0] != 255 || px[1] != 0 ||
	    px[2] != 255) {
		fprintf(stderr, "gpuprio-egl: read back %u,%u,%u, want "
			"255,0,255\n", px[0], px[1], px[2]);
		goto out;
	}
	printf("gpuprio-egl: cleared and read back on a %s context (asked "
	       "%s), submitted at GPU nice: %s\n", priority_name(got),
	       priority_name(job->priority), now);
	job->status = 0;
out:
	if (fbo)
		glDeleteFramebuffers(1, &fbo);
	if (rb)
		glDeleteRenderbuffers(1, &rb);
	eglMakeCurrent(job->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
		       EGL_NO_CONTEXT);
	eglDestroyContext(job->dpy, ctx);
	eglReleaseThread();
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: gpuprio-egl [--nice N] [--priority "
		"low|medium|high] [--device RENDER-NODE]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nice", required_argument, NULL, 'n' },
		{ "priority", required_argument, NULL, 'P' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct job job = { .nice = 10,
			   .priority = EGL_CONTEXT_PRIORITY_MEDIUM_IMG };
	PFNEGLQUERYDEVICESEXTPROC query_devices;
	PFNEGLQUERYDEVICESTRINGEXTPROC device_string;
	PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display;
	EGLDeviceEXT devs[MAX_DEVICES], dev = NULL;
	const char *want = NULL, *node = NULL, *ext;
	EGLint i, n = 0, major, minor;
	pthread_t thread;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			job.nice = (int)strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || job.nice < -20 ||
			    job.nice > 19) {
				usage(stderr);
				return 2;
			}
			break;
		case 'P':
			if (!strcmp(optarg, "low"))
				job.priority = EGL_CONTEXT_PRIORITY_LOW_IMG;
			else if (!strcmp(optarg, "medium"))
				job.priority = EGL_CONTEXT_PRIORITY_MEDIUM_IMG;
			else if (!strcmp(optarg, "high"))
				job.priority = EGL_CONTEXT_PRIORITY_HIGH_IMG;
			else {
				usage(stderr);
				return 2;
			}
			break;
		case 'd':
			want = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	/* First the device: without a GPU there is nothing to prioritise. */
	ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	query_devices = (PFNEGLQUERYDEVICESEXTPROC)
		eglGetProcAddress("eglQueryDevicesEXT");
	device_string = (PFNEGLQUERYDEVICESTRINGEXTPROC)
		eglGetProcAddress("eglQueryDeviceStringEXT");
	platform_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
		eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!ext || !has_word(ext, "EGL_EXT_device_enumeration") ||
	    !has_word(ext, "EGL_EXT_platform_device") || !query_devices ||
	    !device_string || !platform_display) {
		printf("gpuprio-egl: no GPU device: this EGL cannot enumerate "
		       "devices, skipping\n");
		return KSFT_SKIP;
	}
	if (!query_devices(MAX_DEVICES, devs, &n))
		n = 0;
	for (i = 0; i < n && !dev; i++) {
		const char *dext = device_string(devs[i], EGL_EXTENSIONS);

		if (!dext || !has_word(dext, "EGL_EXT_device_drm_render_node"))
			continue;	/* a software renderer: no GPU */
		node = device_string(devs[i], EGL_DRM_RENDER_NODE_FILE_EXT);
		if (node && (!want || !strcmp(node, want)))
			dev = devs[i];
	}
	if (!dev) {
		printf("gpuprio-egl: no GPU device%s%s (EGL devices: %d, none "
		       "with a render node%s), skipping\n", want ? " at " : "",
		       want ? want : "", (int)n, want ? " of that name" : "");
		return KSFT_SKIP;
	}
	job.dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
	if (job.dpy == EGL_NO_DISPLAY ||
	    !eglInitialize(job.dpy, &major, &minor)) {
		fprintf(stderr, "gpuprio-egl: %s: eglInitialize: %#x\n", node,
			eglGetError());
		return 1;
	}
	printf("gpuprio-egl: device %s (%s)\n", node,
	       eglQueryString(job.dpy, EGL_VENDOR));
	ext = eglQueryString(job.dpy, EGL_EXTENSIONS);
	if (!ext || !has_word(ext, "EGL_KHR_surfaceless_context") ||
	    !has_word(ext, "EGL_KHR_no_config_context") ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "gpuprio-egl: needs OpenGL ES without a "
			"surface or a config\n");
		eglTerminate(job.dpy);
		return 1;
	}
	job.has_priority = has_word(ext, "EGL_IMG_context_priority");
	if (!job.has_priority &&
	    job.priority != EGL_CONTEXT_PRIORITY_MEDIUM_IMG) {
		fprintf(stderr, "gpuprio-egl: the driver has no context "
			"priority\n");
		eglTerminate(job.dpy);
		return 1;
	}

	/* Then the kernel: without GPU priorities, the context's alone. */
	if (!gpuprio_supported()) {
		printf("gpuprio-egl: this kernel has no GPU priorities: only "
		       "the context's priority applies\n");
		job.nice = 99;
	}
	if (pthread_create(&thread, NULL, draw_main, &job)) {
		fprintf(stderr, "gpuprio-egl: pthread_create failed\n");
		eglTerminate(job.dpy);
		return 1;
	}
	pthread_join(thread, NULL);
	eglTerminate(job.dpy);
	return job.status;
}
