// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * gpuprio-vulkan - a Vulkan queue at the application's priority, fed by a
 * thread at a chosen GPU nice
 *
 * Copyright (c) 2026 the gpunice authors
 *
 * Dual-licensed: under the GNU General Public License, version 2 or (at
 * your option) any later version, or under the MIT licence, at your
 * choice. The MIT licence's text is in <gpuprio.h>.
 *
 * Two knobs decide the priority of GPU work: the queue's global priority
 * (VK_KHR_global_priority, or VK_EXT_global_priority on older drivers),
 * fixed when the device is created, and the GPU priority of the thread
 * that submits (gpuprio_set(2)), which the kernel driver reads at each
 * submission. A queue created at MEDIUM (the default) leaves the driver's
 * default, which follows the submitting task; a queue at LOW or HIGH keeps
 * that whatever thread submits (gpuprio_set(2), "GPU drivers"). So a
 * program picks one of:
 *
 *   --priority medium --nice N   the thread's GPU nice decides (default);
 *   --priority low               a low queue whatever the thread;
 *   --priority high              needs CAP_SYS_NICE (VK_ERROR_NOT_PERMITTED
 *                                otherwise, or the driver falls back).
 *
 * The submission thread sets its GPU nice first and only then creates the
 * device and its queue, so that the kernel context and any submit thread
 * the driver starts for it (Mesa's vk_queue submit thread) begin at that
 * priority; then it records a vkCmdFillBuffer, submits it and waits, and
 * checks the buffer. The device is a GPU with a DRM render node
 * (VK_EXT_physical_device_drm), the first one or the one named with
 * --device; software renderers (lavapipe) are not GPUs and are passed over.
 *
 * Exit status: 0 if the work ran and checked, 1 on an error, 2 for bad
 * usage, 4 (kselftest's "skip") if there is no GPU device. Without GPU
 * priorities in the kernel the queue priority still applies: the program
 * says so and runs.
 *
 * Build: cc -Wall -Wextra -pthread -o gpuprio-vulkan gpuprio-vulkan.c \
 *	$(pkg-config --cflags --libs vulkan)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <vulkan/vulkan.h>

#include <gpuprio.h>

#define KSFT_SKIP	4
#define WORDS		4096
#define PATTERN		0x67707570u	/* "gpup" */
#define GLOBAL_PRIORITY_INFO	\
	VK_STRUCTURE_TYPE_DEVICE_QUEUE_GLOBAL_PRIORITY_CREATE_INFO_KHR

struct job {
	VkInstance instance;
	VkPhysicalDevice gpu;
	uint32_t family;
	const char *prio_ext;	/* the global priority extension, or NULL */
	VkQueueGlobalPriorityKHR priority;
	int nice;		/* the thread's GPU nice, or 99 for none */
	int status;		/* the thread's exit status */
};

static const char *priority_name(VkQueueGlobalPriorityKHR p)
{
	switch (p) {
	case VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR:
		return "low";
	case VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR:
		return "high";
	case VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR:
		return "realtime";
	default:
		return "medium";
	}
}

static int has_extension(VkPhysicalDevice gpu, const char *name)
{
	VkExtensionProperties *ext;
	uint32_t i, n = 0;
	int found = 0;

	if (vkEnumerateDeviceExtensionProperties(gpu, NULL, &n, NULL) !=
	    VK_SUCCESS)
		return 0;
	ext = calloc(n ? n : 1, sizeof(*ext));
	if (!ext)
		return 0;
	if (vkEnumerateDeviceExtensionProperties(gpu, NULL, &n, ext) ==
	    VK_SUCCESS)
		for (i = 0; i < n && !found; i++)
			found = !strcmp(ext[i].extensionName, name);
	free(ext);
	return found;
}

/*
 * Whether @gpu is a GPU with a render node (@node's, if given): the
 * render node's device number, from VK_EXT_physical_device_drm.
 */
static int is_gpu(VkPhysicalDevice gpu, const struct stat *node,
		  char *desc, size_t len)
{
	VkPhysicalDeviceDrmPropertiesEXT drm = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRM_PROPERTIES_EXT,
	};
	VkPhysicalDeviceProperties2 props = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &drm,
	};

	vkGetPhysicalDeviceProperties(gpu, &props.properties);
	snprintf(desc, len, "%s", props.properties.deviceName);
	if (props.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ||
	    !has_extension(gpu, VK_EXT_PHYSICAL_DEVICE_DRM_EXTENSION_NAME))
		return 0;
	vkGetPhysicalDeviceProperties2(gpu, &props);
	if (!drm.hasRender)
		return 0;
	snprintf(desc, len, "%s (/dev/dri/renderD%lld)",
		 props.properties.deviceName, (long long)drm.renderMinor);
	return !node ||
	       node->st_rdev == makedev((unsigned int)drm.renderMajor,
					(unsigned int)drm.renderMinor);
}

/* The thread that submits: its GPU nice first, then the device. */
static void *submit_main(void *arg)
{
	struct job *job = arg;
	VkDeviceQueueGlobalPriorityCreateInfoKHR global = {
		.sType = GLOBAL_PRIORITY_INFO,
		.globalPriority = job->priority,
	};
	float one = 1.0f;
	VkDeviceQueueCreateInfo qinfo = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.pNext = job->prio_ext ? &global : NULL,
		.queueFamilyIndex = job->family,
		.queueCount = 1,
		.pQueuePriorities = &one,
	};
	VkDeviceCreateInfo dinfo = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qinfo,
		.enabledExtensionCount = job->prio_ext ? 1 : 0,
		.ppEnabledExtensionNames = &job->prio_ext,
	};
	VkBufferCreateInfo binfo = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = WORDS * 4,
		.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkPhysicalDeviceMemoryProperties mem;
	VkMemoryRequirements req;
	VkDevice dev = VK_NULL_HANDLE;
	VkQueue queue;
	VkBuffer buf = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	VkCommandPool pool = VK_NULL_HANDLE;
	VkCommandBuffer cmd;
	VkFence fence = VK_NULL_HANDLE;
	uint32_t *words, i, type = UINT32_MAX;
	char now[32] = "-";
	VkResult r;
	FILE *f;

	job->status = 1;
	if (job->nice != 99 &&
	    gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(job->nice))) {
		perror("gpuprio-vulkan: gpuprio_set");
		return NULL;
	}
	f = fopen("/proc/thread-self/gpu_nice", "r");
	if (f) {
		if (fgets(now, sizeof(now), f))
			now[strcspn(now, "\n")] = '\0';
		fclose(f);
	}

	r = vkCreateDevice(job->gpu, &dinfo, NULL, &dev);
	if (r == VK_ERROR_NOT_PERMITTED_KHR) {
		fprintf(stderr, "gpuprio-vulkan: a %s queue is not permitted "
			"(CAP_SYS_NICE)\n", priority_name(job->priority));
		return NULL;
	}
	if (r != VK_SUCCESS) {
		fprintf(stderr, "gpuprio-vulkan: vkCreateDevice: %d\n", r);
		return NULL;
	}
	vkGetDeviceQueue(dev, job->family, 0, &queue);

	/* A host-visible buffer the GPU fills. */
	if (vkCreateBuffer(dev, &binfo, NULL, &buf) != VK_SUCCESS)
		goto out;
	vkGetBufferMemoryRequirements(dev, buf, &req);
	vkGetPhysicalDeviceMemoryProperties(job->gpu, &mem);
	for (i = 0; i < mem.memoryTypeCount && type == UINT32_MAX; i++)
		if ((req.memoryTypeBits & (1u << i)) &&
		    (mem.memoryTypes[i].propertyFlags &
		     (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
		    (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
			type = i;
	{
		VkMemoryAllocateInfo ainfo = {
			.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
			.allocationSize = req.size,
			.memoryTypeIndex = type,
		};
		VkCommandPoolCreateInfo pinfo = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.queueFamilyIndex = job->family,
		};
		VkCommandBufferAllocateInfo cinfo = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 1,
		};
		VkCommandBufferBeginInfo begin = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
			.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
		};
		VkFenceCreateInfo finfo = {
			.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		};
		VkSubmitInfo sinfo = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1,
			.pCommandBuffers = &cmd,
		};

		if (type == UINT32_MAX ||
		    vkAllocateMemory(dev, &ainfo, NULL, &memory) !=
		    VK_SUCCESS ||
		    vkBindBufferMemory(dev, buf, memory, 0) != VK_SUCCESS ||
		    vkCreateCommandPool(dev, &pinfo, NULL, &pool) !=
		    VK_SUCCESS)
			goto out;
		cinfo.commandPool = pool;
		if (vkAllocateCommandBuffers(dev, &cinfo, &cmd) != VK_SUCCESS ||
		    vkBeginCommandBuffer(cmd, &begin) != VK_SUCCESS)
			goto out;
		vkCmdFillBuffer(cmd, buf, 0, VK_WHOLE_SIZE, PATTERN);
		if (vkEndCommandBuffer(cmd) != VK_SUCCESS ||
		    vkCreateFence(dev, &finfo, NULL, &fence) != VK_SUCCESS)
			goto out;
		/* The submission: from this thread, at its GPU nice. */
		if (vkQueueSubmit(queue, 1, &sinfo, fence) != VK_SUCCESS ||
		    vkWaitForFences(dev, 1, &fence, VK_TRUE,
				    5000000000ull) != VK_SUCCESS)
			goto out;
	}
	if (vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0,
			(void **)&words) != VK_SUCCESS)
		goto out;
	for (i = 0; i < WORDS && words[i] == PATTERN; i++)
		;
	vkUnmapMemory(dev, memory);
	if (i != WORDS) {
		fprintf(stderr, "gpuprio-vulkan: word %u not filled\n", i);
		goto out;
	}
	printf("gpuprio-vulkan: filled %d bytes on a %s queue, submitted "
	       "at GPU nice: %s\n", WORDS * 4, priority_name(job->priority),
	       now);
	job->status = 0;
out:
	if (job->status)
		fprintf(stderr, "gpuprio-vulkan: the GPU work failed\n");
	if (fence)
		vkDestroyFence(dev, fence, NULL);
	if (pool)
		vkDestroyCommandPool(dev, pool, NULL);
	if (buf)
		vkDestroyBuffer(dev, buf, NULL);
	if (memory)
		vkFreeMemory(dev, memory, NULL);
	vkDestroyDevice(dev, NULL);
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: gpuprio-vulkan [--nice N] [--priority "
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
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "gpuprio-vulkan",
		.apiVersion = VK_API_VERSION_1_1,
	};
	VkInstanceCreateInfo iinfo = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	struct job job = { .nice = 10,
			   .priority = VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR };
	VkPhysicalDevice *gpus = NULL;
	VkQueueFamilyProperties *fam = NULL;
	struct stat node, *want = NULL;
	char desc[300], seen[600] = "";
	uint32_t i, n = 0, nfam = 0;
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
				job.priority = VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR;
			else if (!strcmp(optarg, "medium"))
				job.priority =
					VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR;
			else if (!strcmp(optarg, "high"))
				job.priority =
					VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR;
			else {
				usage(stderr);
				return 2;
			}
			break;
		case 'd':
			if (stat(optarg, &node) || !S_ISCHR(node.st_mode)) {
				printf("gpuprio-vulkan: no GPU device at %s "
				       "(not a device), skipping\n", optarg);
				return KSFT_SKIP;
			}
			want = &node;
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
	if (vkCreateInstance(&iinfo, NULL, &job.instance) != VK_SUCCESS) {
		printf("gpuprio-vulkan: no GPU device: no Vulkan driver "
		       "(vkCreateInstance failed), skipping\n");
		return KSFT_SKIP;
	}
	if (vkEnumeratePhysicalDevices(job.instance, &n, NULL) == VK_SUCCESS &&
	    n) {
		gpus = calloc(n, sizeof(*gpus));
		if (!gpus || vkEnumeratePhysicalDevices(job.instance, &n,
							gpus) != VK_SUCCESS)
			n = 0;
	}
	for (i = 0; i < n && !job.gpu; i++) {
		if (is_gpu(gpus[i], want, desc, sizeof(desc)))
			job.gpu = gpus[i];
		else
			snprintf(seen + strlen(seen), sizeof(seen) -
				 strlen(seen), "%s%s", *seen ? ", " : "",
				 desc);
	}
	free(gpus);
	if (!job.gpu) {
		printf("gpuprio-vulkan: no GPU device%s (Vulkan devices: "
		       "%s), skipping\n", want ? " at that render node" : "",
		       *seen ? seen : "none");
		vkDestroyInstance(job.instance, NULL);
		return KSFT_SKIP;
	}
	printf("gpuprio-vulkan: device %s\n", desc);

	vkGetPhysicalDeviceQueueFamilyProperties(job.gpu, &nfam, NULL);
	fam = calloc(nfam ? nfam : 1, sizeof(*fam));
	if (fam)
		vkGetPhysicalDeviceQueueFamilyProperties(job.gpu, &nfam, fam);
	for (job.family = 0; fam && job.family < nfam; job.family++)
		if (fam[job.family].queueFlags &
		    (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
			break;
	if (!fam || job.family == nfam) {
		fprintf(stderr, "gpuprio-vulkan: no graphics or compute "
			"queue\n");
		return 1;
	}
	free(fam);
	if (has_extension(job.gpu, VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME))
		job.prio_ext = VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME;
	else if (has_extension(job.gpu,
			       VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME))
		job.prio_ext = VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME;
	if (!job.prio_ext &&
	    job.priority != VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR) {
		fprintf(stderr, "gpuprio-vulkan: the driver has no global "
			"queue priority\n");
		return 1;
	}

	/* Then the kernel: without GPU priorities, the queue's alone. */
	if (!gpuprio_supported()) {
		printf("gpuprio-vulkan: this kernel has no GPU priorities: "
		       "only the queue's priority applies\n");
		job.nice = 99;
	}
	if (pthread_create(&thread, NULL, submit_main, &job)) {
		fprintf(stderr, "gpuprio-vulkan: pthread_create failed\n");
		return 1;
	}
	pthread_join(thread, NULL);
	vkDestroyInstance(job.instance, NULL);
	return job.status;
}
