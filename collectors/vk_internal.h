/* vk_internal.h - what vk.c, vk_run.c and calibrate.c share: the context
 * and small building blocks (buffers, compute pipelines, timed dispatches).
 * Not for use outside collectors/.
 *
 * Ownership: a vk_ctx owns its instance, device, command pool, pipeline
 * cache and the counters (a counters backend, backend.h) opened before the
 * device (so lavapipe's worker threads inherit them).  vkx_* objects are owned by the caller and
 * destroyed with the matching vkx_*_destroy before vk_close().
 * After a hang (ctx->hung) nothing is destroyed: the driver's thread may
 * still be executing the kernel, see vk_run.c.
 */
#ifndef CW_VK_INTERNAL_H
#define CW_VK_INTERNAL_H

#include <vulkan/vulkan.h>

#include "backend.h"
#include "vk.h"

struct vk_ctx {
    VkInstance instance;
    VkPhysicalDevice phys;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    vk_device_info info;
    VkPhysicalDeviceMemoryProperties mem;
    VkCommandPool pool;
    VkPipelineCache cache;
    char cache_path[1024];
    uint32_t ts_valid_bits;   /* of the chosen queue family; 0: none */
    double ts_period_ns;
    int has_stats;            /* pipelineStatisticsQuery enabled */
    int has_float16, has_float64, has_int64;
    int hung;                 /* a fence timed out: do not destroy */
    int has_exec_props;       /* pipelineExecutableInfo enabled */
    int capture_stats;        /* next pipelines: CAPTURE_STATISTICS */
    backend_slot counters;    /* empty (b NULL) when none were asked for */
    struct vkx_clock_probe *clock_probe; /* vk_clock.c; NULL until used */
};

/* "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc. */
const char *vkx_result_name(VkResult r);

typedef struct vkx_buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize size;
    void *map;                /* non-NULL when host visible (mapped) */
} vkx_buffer;

/* Device-local buffer (host-visible and mapped when the device-local type
 * is, as on lavapipe).  what names it in errors ("set 0 binding 1").
 * Returns 0, or CW_STATUS_ENV (out of memory names what). */
int vkx_buffer_create(vk_ctx *c, VkDeviceSize size, int uniform,
                      const char *what, vkx_buffer *out, cw_error *err);
/* Copy host data in/out: directly when mapped, else via a staging buffer. */
int vkx_buffer_upload(vk_ctx *c, vkx_buffer *b, const void *data,
                      VkDeviceSize size, double timeout_s, cw_error *err);
int vkx_buffer_download(vk_ctx *c, vkx_buffer *b, void *data,
                        VkDeviceSize size, double timeout_s, cw_error *err);
void vkx_buffer_destroy(vk_ctx *c, vkx_buffer *b);

#define VKX_MAX_BINDINGS 32

typedef struct vkx_binding {
    uint32_t set, binding;
    int uniform;
    vkx_buffer *buffer;
} vkx_binding;

typedef struct vkx_pipeline {
    VkShaderModule module;
    VkDescriptorSetLayout layouts[8];
    uint32_t nsets;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool dpool;
    VkDescriptorSet sets[8];
    uint32_t push_bytes;
} vkx_pipeline;

/* Compute pipeline from SPIR-V, entry, bindings (sets 0..7), push block
 * size and optional specialization.  Uses ctx's pipeline cache.  A
 * binding without a buffer gets a layout but no descriptor write (for
 * pipelines that are compiled, not run). */
int vkx_pipeline_create(vk_ctx *c, const uint32_t *words, size_t nwords,
                        const char *entry, const vkx_binding *b, size_t nb,
                        uint32_t push_bytes, const VkSpecializationInfo *spec,
                        const char *name, vkx_pipeline *out, cw_error *err);
void vkx_pipeline_destroy(vk_ctx *c, vkx_pipeline *p);

/* A recorded, reusable pair of command buffers.  The timed one: reset the
 * timestamps, bind, timestamp (TOP_OF_PIPE), `repeat` dispatches separated
 * by compute barriers, timestamp (BOTTOM_OF_PIPE) -- nothing else inside
 * the bracket.  The statistics one (when the device has
 * pipelineStatisticsQuery): one dispatch inside a COMPUTE_SHADER_INVOCATIONS
 * query, never timed.  p == NULL or repeat == 0: the two timestamps only. */
typedef struct vkx_timer {
    VkCommandBuffer cmd, stats_cmd;
    VkQueryPool ts_pool, stats_pool;
    VkFence fence;
    uint32_t repeat;
} vkx_timer;

int vkx_timer_record(vk_ctx *c, const vkx_pipeline *p, const void *push,
                     const uint32_t groups[3], uint32_t repeat,
                     vkx_timer *out, cw_error *err);
/* Submit the timed buffer once and wait (hang guard timeout_s; name is the
 * kernel's).  gpu_us: timestamp difference (whole bracket), or host time
 * when the queue has no timestamps (*used_host set).  The counters
 * (ctx->counters) are started before submit and stopped after the wait
 * when count != 0. */
int vkx_timer_run(vk_ctx *c, vkx_timer *t, double timeout_s,
                  const char *name, int count, double *gpu_us,
                  int *used_host, cw_error *err);
/* 1 when the timer has a statistics dispatch. */
int vkx_timer_has_stats(const vkx_timer *t);
/* Submit the statistics buffer once (one untimed dispatch) and read the
 * invocation count; *has_inv = 0 when the device has no statistics (then
 * nothing runs). */
int vkx_timer_count(vk_ctx *c, vkx_timer *t, double timeout_s,
                    const char *name, uint64_t *invocations, int *has_inv,
                    cw_error *err);
void vkx_timer_destroy(vk_ctx *c, vkx_timer *t);

/* Monotonic seconds. */
double vkx_now_s(void);

#endif
