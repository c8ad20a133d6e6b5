/* vk_run.c - buffers, compute pipelines, timed dispatches and the plan
 * kernel runner (vk_run_kernel, see vk.h and vk_internal.h).
 *
 * Hang guard: every fence wait has a timeout.  When it expires the kernel
 * may still be running (lavapipe's worker thread spins on) and the driver
 * cannot be torn down: destroying the device, or the driver's own atexit
 * handlers that join its threads, would wait forever.  So the context is
 * marked hung and left alone, and an on_exit handler is armed that flushes
 * stdio and calls _exit() with the status exit() was given: the process
 * ends with the caller's exit code (4) instead of hanging at exit.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats.h"
#include "vk_internal.h"

/* ---- hang exit path ---- */

static void hang_exit_handler(int status, void *arg)
{
    (void)arg;
    fflush(NULL);
    _exit(status);
}

static void arm_hang_exit(void)
{
    static int armed;
    if (!armed) {
        armed = 1;
        /* registered after the driver's atexit handlers, so it runs
         * before them */
        on_exit(hang_exit_handler, NULL);
    }
}

/* ---- buffers ---- */

static int find_memory_type(const vk_ctx *c, uint32_t bits,
                            VkMemoryPropertyFlags want,
                            VkMemoryPropertyFlags avoid)
{
    for (uint32_t i = 0; i < c->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = c->mem.memoryTypes[i].propertyFlags;
        if ((bits & (1u << i)) && (f & want) == want && !(f & avoid))
            return (int)i;
    }
    return -1;
}

static int buffer_create_flags(vk_ctx *c, VkDeviceSize size,
                               VkBufferUsageFlags usage, int staging,
                               const char *what, vkx_buffer *out,
                               cw_error *err)
{
    memset(out, 0, sizeof *out);
    out->size = size;
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size ? size : 4,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = vkCreateBuffer(c->device, &bci, NULL, &out->buf);
    if (r != VK_SUCCESS) {
        out->buf = VK_NULL_HANDLE;
        if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
            r == VK_ERROR_OUT_OF_HOST_MEMORY)
            cw_error_set(err, NULL, 0, 0,
                         "out of %s memory creating %s (%llu bytes): %s",
                         r == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "device",
                         what, (unsigned long long)size, vkx_result_name(r));
        else
            cw_error_set(err, NULL, 0, 0, "cannot create %s (%llu bytes): %s",
                         what, (unsigned long long)size, vkx_result_name(r));
        return CW_STATUS_ENV;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(c->device, out->buf, &req);
    const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type;
    if (staging) {
        type = find_memory_type(c, req.memoryTypeBits, hv, 0);
    } else {
        /* device-local; host-visible only where that is all there is */
        type = find_memory_type(c, req.memoryTypeBits,
                                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
        if (type < 0)
            type = find_memory_type(c, req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
        if (type < 0)
            type = find_memory_type(c, req.memoryTypeBits, 0, 0);
    }
    if (type < 0) {
        cw_error_set(err, NULL, 0, 0, "no suitable memory type for %s", what);
        vkDestroyBuffer(c->device, out->buf, NULL);
        out->buf = VK_NULL_HANDLE;
        return CW_STATUS_ENV;
    }
    /* A buffer larger than its whole heap can never be allocated; some
     * drivers (lavapipe) would try anyway and take the host's memory with
     * them, so say so before asking.  CW_VK_HEAP_BYTES=N stands in for a
     * smaller heap (fault tests on a host with plenty of memory). */
    VkDeviceSize heap = c->mem.memoryHeaps[c->mem.memoryTypes[type].heapIndex].size;
    const char *fake_heap = getenv("CW_VK_HEAP_BYTES");
    if (fake_heap && *fake_heap)
        heap = (VkDeviceSize)strtoull(fake_heap, NULL, 10);
    if (req.size > heap) {
        cw_error_set(err, NULL, 0, 0,
                     "out of device memory: %s needs %llu bytes, more than the "
                     "device's memory heap %u holds (%llu bytes); make the buffer "
                     "smaller or split the work over several dispatches",
                     what, (unsigned long long)req.size,
                     c->mem.memoryTypes[type].heapIndex, (unsigned long long)heap);
        vkDestroyBuffer(c->device, out->buf, NULL);
        out->buf = VK_NULL_HANDLE;
        return CW_STATUS_ENV;
    }
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    r = vkAllocateMemory(c->device, &mai, NULL, &out->mem);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0,
                     "out of %s memory allocating %s (%llu bytes): %s",
                     r == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "device",
                     what, (unsigned long long)size, vkx_result_name(r));
        vkDestroyBuffer(c->device, out->buf, NULL);
        out->buf = VK_NULL_HANDLE;
        out->mem = VK_NULL_HANDLE;
        return CW_STATUS_ENV;
    }
    vkBindBufferMemory(c->device, out->buf, out->mem, 0);
    VkMemoryPropertyFlags f = c->mem.memoryTypes[type].propertyFlags;
    /* CW_VK_FORCE_STAGING=1: never map device buffers, so the staging
     * path that discrete GPUs take is exercised on a CPU device (tests) */
    const char *force = getenv("CW_VK_FORCE_STAGING");
    int no_map = !staging && force && *force && strcmp(force, "0") != 0;
    if ((f & hv) == hv && !no_map) {
        if (vkMapMemory(c->device, out->mem, 0, VK_WHOLE_SIZE, 0,
                        &out->map) != VK_SUCCESS)
            out->map = NULL;
    }
    return 0;
}

int vkx_buffer_create(vk_ctx *c, VkDeviceSize size, int uniform,
                      const char *what, vkx_buffer *out, cw_error *err)
{
    VkBufferUsageFlags usage =
        (uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) |
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    return buffer_create_flags(c, size, usage, 0, what, out, err);
}

void vkx_buffer_destroy(vk_ctx *c, vkx_buffer *b)
{
    if (!c || !b || c->hung)
        return;
    if (b->map)
        vkUnmapMemory(c->device, b->mem);
    if (b->buf)
        vkDestroyBuffer(c->device, b->buf, NULL);
    if (b->mem)
        vkFreeMemory(c->device, b->mem, NULL);
    memset(b, 0, sizeof *b);
}

/* Submit cmd, wait with the hang guard. */
static int submit_wait(vk_ctx *c, VkCommandBuffer cmd, VkFence fence,
                       double timeout_s, const char *name, cw_error *err)
{
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    VkResult r = vkQueueSubmit(c->queue, 1, &si, fence);
    if (r == VK_SUCCESS) {
        uint64_t ns = timeout_s > 0 ? (uint64_t)(timeout_s * 1e9) : UINT64_MAX;
        r = vkWaitForFences(c->device, 1, &fence, VK_TRUE, ns);
    }
    if (r == VK_SUCCESS)
        return 0;
    if (r == VK_TIMEOUT) {
        c->hung = 1;
        arm_hang_exit();
        cw_error_set(err, NULL, 0, 0,
                     "kernel '%s' did not finish within %g s (hang guard, "
                     "--timeout): a loop that never ends, or more work than the "
                     "guard allows (raise --timeout)", name, timeout_s);
    } else if (r == VK_ERROR_DEVICE_LOST) {
        cw_error_set(err, NULL, 0, 0,
                     "device lost while running kernel '%s' "
                     "(VK_ERROR_DEVICE_LOST): the kernel may have faulted or "
                     "been killed by the driver's watchdog", name);
    } else {
        cw_error_set(err, NULL, 0, 0, "running kernel '%s' failed: %s", name,
                     vkx_result_name(r));
    }
    return CW_STATUS_ENV;
}

static int one_time_copy(vk_ctx *c, VkBuffer src, VkBuffer dst,
                         VkDeviceSize size, double timeout_s, cw_error *err)
{
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    VkResult r = vkAllocateCommandBuffers(c->device, &ai, &cmd);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0, "cannot allocate a command buffer: %s",
                     vkx_result_name(r));
        return CW_STATUS_ENV;
    }
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    vkBeginCommandBuffer(cmd, &bi);
    /* earlier dispatches' and host writes visible to the copy, the copy's
     * writes visible to the host and to later dispatches */
    VkMemoryBarrier before = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                         VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                         VK_ACCESS_TRANSFER_WRITE_BIT,
    };
    vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                             VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_HOST_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0,
                         NULL, 0, NULL);
    VkBufferCopy region = {0, 0, size};
    vkCmdCopyBuffer(cmd, src, dst, 1, &region);
    VkMemoryBarrier after = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                         VK_ACCESS_SHADER_WRITE_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT |
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &after, 0, NULL, 0, NULL);
    vkEndCommandBuffer(cmd);
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    vkCreateFence(c->device, &fci, NULL, &fence);
    int rc = submit_wait(c, cmd, fence, timeout_s, "buffer copy", err);
    if (!c->hung) {
        vkDestroyFence(c->device, fence, NULL);
        vkFreeCommandBuffers(c->device, c->pool, 1, &cmd);
    }
    return rc;
}

static int transfer(vk_ctx *c, vkx_buffer *b, void *data, VkDeviceSize size,
                    int upload, double timeout_s, cw_error *err)
{
    if (size > b->size)
        size = b->size;
    if (size == 0)
        return 0; /* a zero-sized copy is invalid usage */
    if (b->map) {
        if (upload)
            memcpy(b->map, data, size);
        else
            memcpy(data, b->map, size);
        return 0;
    }
    vkx_buffer st;
    int rc = buffer_create_flags(c, size,
                                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 1, "a staging buffer", &st, err);
    if (rc)
        return rc;
    if (!st.map) {
        vkx_buffer_destroy(c, &st);
        cw_error_set(err, NULL, 0, 0, "cannot map a staging buffer");
        return CW_STATUS_ENV;
    }
    if (upload) {
        memcpy(st.map, data, size);
        rc = one_time_copy(c, st.buf, b->buf, size, timeout_s, err);
    } else {
        rc = one_time_copy(c, b->buf, st.buf, size, timeout_s, err);
        if (!rc)
            memcpy(data, st.map, size);
    }
    vkx_buffer_destroy(c, &st);
    return rc;
}

int vkx_buffer_upload(vk_ctx *c, vkx_buffer *b, const void *data,
                      VkDeviceSize size, double timeout_s, cw_error *err)
{
    return transfer(c, b, (void *)data, size, 1, timeout_s, err);
}

int vkx_buffer_download(vk_ctx *c, vkx_buffer *b, void *data,
                        VkDeviceSize size, double timeout_s, cw_error *err)
{
    return transfer(c, b, data, size, 0, timeout_s, err);
}

/* ---- pipelines ---- */

void vkx_pipeline_destroy(vk_ctx *c, vkx_pipeline *p)
{
    if (!c || !p || c->hung)
        return;
    if (p->pipeline)
        vkDestroyPipeline(c->device, p->pipeline, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(c->device, p->layout, NULL);
    if (p->dpool)
        vkDestroyDescriptorPool(c->device, p->dpool, NULL);
    for (uint32_t i = 0; i < p->nsets; i++)
        if (p->layouts[i])
            vkDestroyDescriptorSetLayout(c->device, p->layouts[i], NULL);
    if (p->module)
        vkDestroyShaderModule(c->device, p->module, NULL);
    memset(p, 0, sizeof *p);
}

int vkx_pipeline_create(vk_ctx *c, const uint32_t *words, size_t nwords,
                        const char *entry, const vkx_binding *b, size_t nb,
                        uint32_t push_bytes, const VkSpecializationInfo *spec,
                        const char *name, vkx_pipeline *p, cw_error *err)
{
    memset(p, 0, sizeof *p);
    VkResult r;
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = nwords * 4,
        .pCode = words,
    };
    r = vkCreateShaderModule(c->device, &smci, NULL, &p->module);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0,
                     "kernel '%s': the driver rejected the SPIR-V module "
                     "(%s)", name, vkx_result_name(r));
        return CW_STATUS_ENV;
    }
    uint32_t nsets = 0, top = 0;
    for (size_t i = 0; i < nb; i++)
        if (b[i].set >= top)
            top = b[i].set; /* not set + 1: 4294967295 + 1 wrapped to 0 (SIGSEGV) */
    nsets = nb ? top + (top < UINT32_MAX) : 0;
    if (nb && top >= 8) {
        cw_error_set(err, NULL, 0, 0, "kernel '%s' uses descriptor set %u; "
                     "the runner supports sets 0-7", name, top);
        vkx_pipeline_destroy(c, p);
        return CW_STATUS_INPUT;
    }
    p->nsets = nsets;
    uint32_t nstorage = 0, nuniform = 0;
    for (uint32_t s = 0; s < nsets; s++) {
        VkDescriptorSetLayoutBinding lb[VKX_MAX_BINDINGS];
        uint32_t n = 0;
        for (size_t i = 0; i < nb && n < VKX_MAX_BINDINGS; i++) {
            if (b[i].set != s)
                continue;
            lb[n] = (VkDescriptorSetLayoutBinding){
                .binding = b[i].binding,
                .descriptorType = b[i].uniform
                                      ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .descriptorCount = 1,
                .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
            };
            if (b[i].uniform)
                nuniform++;
            else
                nstorage++;
            n++;
        }
        VkDescriptorSetLayoutCreateInfo lci = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .bindingCount = n,
            .pBindings = lb,
        };
        r = vkCreateDescriptorSetLayout(c->device, &lci, NULL,
                                        &p->layouts[s]);
        if (r != VK_SUCCESS) {
            cw_error_set(err, NULL, 0, 0, "kernel '%s': descriptor set "
                         "layout %u: %s", name, s, vkx_result_name(r));
            vkx_pipeline_destroy(c, p);
            return CW_STATUS_ENV;
        }
    }
    uint32_t pb = (push_bytes + 3) & ~3u;
    p->push_bytes = pb;
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, pb};
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = nsets,
        .pSetLayouts = p->layouts,
        .pushConstantRangeCount = pb ? 1 : 0,
        .pPushConstantRanges = pb ? &pcr : NULL,
    };
    r = vkCreatePipelineLayout(c->device, &plci, NULL, &p->layout);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0, "kernel '%s': pipeline layout: %s",
                     name, vkx_result_name(r));
        vkx_pipeline_destroy(c, p);
        return CW_STATUS_ENV;
    }
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = c->capture_stats
                     ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
                     : 0,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = p->module,
            .pName = entry ? entry : "main",
            .pSpecializationInfo = spec,
        },
        .layout = p->layout,
    };
    r = vkCreateComputePipelines(c->device, c->cache, 1, &cpci, NULL,
                                 &p->pipeline);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0,
                     "kernel '%s': the driver could not build the compute "
                     "pipeline (%s)", name, vkx_result_name(r));
        vkx_pipeline_destroy(c, p);
        return CW_STATUS_ENV;
    }
    if (nsets) {
        VkDescriptorPoolSize ps[2];
        uint32_t nps = 0;
        if (nstorage)
            ps[nps++] = (VkDescriptorPoolSize){
                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nstorage};
        if (nuniform)
            ps[nps++] = (VkDescriptorPoolSize){
                VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nuniform};
        if (nps == 0) /* sets without bindings still need a valid pool */
            ps[nps++] = (VkDescriptorPoolSize){
                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
        VkDescriptorPoolCreateInfo dpci = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
            .maxSets = nsets,
            .poolSizeCount = nps,
            .pPoolSizes = ps,
        };
        r = vkCreateDescriptorPool(c->device, &dpci, NULL, &p->dpool);
        if (r == VK_SUCCESS) {
            VkDescriptorSetAllocateInfo dsai = {
                .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                .descriptorPool = p->dpool,
                .descriptorSetCount = nsets,
                .pSetLayouts = p->layouts,
            };
            r = vkAllocateDescriptorSets(c->device, &dsai, p->sets);
        }
        if (r != VK_SUCCESS) {
            cw_error_set(err, NULL, 0, 0, "kernel '%s': descriptor sets: %s",
                         name, vkx_result_name(r));
            vkx_pipeline_destroy(c, p);
            return CW_STATUS_ENV;
        }
        VkDescriptorBufferInfo bi[VKX_MAX_BINDINGS];
        VkWriteDescriptorSet w[VKX_MAX_BINDINGS];
        uint32_t nw = 0;
        for (size_t i = 0; i < nb && nw < VKX_MAX_BINDINGS; i++) {
            if (!b[i].buffer)
                continue;
            bi[nw] = (VkDescriptorBufferInfo){b[i].buffer->buf, 0,
                                              VK_WHOLE_SIZE};
            w[nw] = (VkWriteDescriptorSet){
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstSet = p->sets[b[i].set],
                .dstBinding = b[i].binding,
                .descriptorCount = 1,
                .descriptorType = b[i].uniform
                                      ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .pBufferInfo = &bi[nw],
            };
            nw++;
        }
        vkUpdateDescriptorSets(c->device, nw, w, 0, NULL);
    }
    return 0;
}

/* ---- timed dispatches ---- */

void vkx_timer_destroy(vk_ctx *c, vkx_timer *t)
{
    if (!c || !t || c->hung)
        return;
    if (t->fence)
        vkDestroyFence(c->device, t->fence, NULL);
    if (t->ts_pool)
        vkDestroyQueryPool(c->device, t->ts_pool, NULL);
    if (t->stats_pool)
        vkDestroyQueryPool(c->device, t->stats_pool, NULL);
    if (t->cmd)
        vkFreeCommandBuffers(c->device, c->pool, 1, &t->cmd);
    if (t->stats_cmd)
        vkFreeCommandBuffers(c->device, c->pool, 1, &t->stats_cmd);
    memset(t, 0, sizeof *t);
}

/* Bind the pipeline, its descriptor sets and push constants, and make the
 * uploads and the previous run's writes visible to this run. */
static void record_bind(VkCommandBuffer cmd, const vkx_pipeline *p,
                        const void *push)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    if (p->nsets)
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                                p->layout, 0, p->nsets, p->sets, 0, NULL);
    if (p->push_bytes && push)
        vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           p->push_bytes, push);
    VkMemoryBarrier in = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                         VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
    };
    vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                             VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_HOST_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &in, 0,
                         NULL, 0, NULL);
}

/* Results visible to the host (mapped buffers, --dump). */
static void record_host_visible(VkCommandBuffer cmd)
{
    VkMemoryBarrier out = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &out, 0, NULL, 0,
                         NULL);
}

static VkResult alloc_cmd(vk_ctx *c, VkCommandBuffer *cmd)
{
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    return vkAllocateCommandBuffers(c->device, &ai, cmd);
}

/* The timed command buffer: nothing but the dispatches between the two
 * timestamps.  A query begun inside the bracket cost ~3 us per sample on
 * an H200 (7.8 us measured for a dispatch a bare timestamp harness timed
 * at 4.2-4.8 us), so statistics have their own command buffer. */
static VkResult record_timed(const vkx_pipeline *p,
                             const void *push, const uint32_t groups[3],
                             vkx_timer *t)
{
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    VkCommandBuffer cmd = t->cmd;
    vkBeginCommandBuffer(cmd, &bi);
    if (t->ts_pool)
        vkCmdResetQueryPool(cmd, t->ts_pool, 0, 2);
    if (p && t->repeat)
        record_bind(cmd, p, push);
    if (t->ts_pool)
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                            t->ts_pool, 0);
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
    };
    for (uint32_t i = 0; p && i < t->repeat; i++) {
        if (i)
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &mb, 0, NULL, 0, NULL);
        vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
    }
    if (t->ts_pool)
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                            t->ts_pool, 1);
    if (p && t->repeat)
        record_host_visible(cmd);
    return vkEndCommandBuffer(cmd);
}

/* The statistics command buffer: one dispatch inside the
 * pipeline-statistics query, no timestamps. */
static VkResult record_stats(const vkx_pipeline *p, const void *push,
                             const uint32_t groups[3], vkx_timer *t)
{
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    VkCommandBuffer cmd = t->stats_cmd;
    vkBeginCommandBuffer(cmd, &bi);
    vkCmdResetQueryPool(cmd, t->stats_pool, 0, 1);
    record_bind(cmd, p, push);
    vkCmdBeginQuery(cmd, t->stats_pool, 0, 0);
    vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
    vkCmdEndQuery(cmd, t->stats_pool, 0);
    record_host_visible(cmd);
    return vkEndCommandBuffer(cmd);
}

int vkx_timer_record(vk_ctx *c, const vkx_pipeline *p, const void *push,
                     const uint32_t groups[3], uint32_t repeat,
                     vkx_timer *t, cw_error *err)
{
    memset(t, 0, sizeof *t);
    t->repeat = repeat; /* 0: timestamps only (resolution probe) */
    if (c->ts_valid_bits) {
        VkQueryPoolCreateInfo q = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2,
        };
        if (vkCreateQueryPool(c->device, &q, NULL, &t->ts_pool) != VK_SUCCESS)
            t->ts_pool = VK_NULL_HANDLE;
    }
    if (c->has_stats && p && repeat) {
        VkQueryPoolCreateInfo q = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
            .queryCount = 1,
            .pipelineStatistics =
                VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT,
        };
        if (vkCreateQueryPool(c->device, &q, NULL, &t->stats_pool) !=
            VK_SUCCESS)
            t->stats_pool = VK_NULL_HANDLE;
    }
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vkCreateFence(c->device, &fci, NULL, &t->fence);
    VkResult r = alloc_cmd(c, &t->cmd);
    if (r == VK_SUCCESS && t->stats_pool)
        r = alloc_cmd(c, &t->stats_cmd);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0, "cannot allocate a command buffer: %s",
                     vkx_result_name(r));
        vkx_timer_destroy(c, t);
        return CW_STATUS_ENV;
    }
    r = record_timed(p, push, groups, t);
    if (r == VK_SUCCESS && t->stats_pool)
        r = record_stats(p, push, groups, t);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0, "cannot record the dispatch: %s",
                     vkx_result_name(r));
        vkx_timer_destroy(c, t);
        return CW_STATUS_ENV;
    }
    return 0;
}

int vkx_timer_run(vk_ctx *c, vkx_timer *t, double timeout_s,
                  const char *name, int count, double *gpu_us,
                  int *used_host, cw_error *err)
{
    *used_host = 0;
    vkResetFences(c->device, 1, &t->fence);
    if (count)
        backend_counters_start(&c->counters);
    double h0 = vkx_now_s();
    int rc = submit_wait(c, t->cmd, t->fence, timeout_s, name, err);
    double h1 = vkx_now_s();
    if (count)
        backend_counters_stop(&c->counters);
    if (rc)
        return rc;
    *gpu_us = (h1 - h0) * 1e6;
    if (t->ts_pool) {
        uint64_t ts[2];
        VkResult r = vkGetQueryPoolResults(
            c->device, t->ts_pool, 0, 2, sizeof ts, ts, sizeof ts[0],
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r == VK_SUCCESS) {
            uint64_t mask = c->ts_valid_bits >= 64
                                ? ~(uint64_t)0
                                : (((uint64_t)1 << c->ts_valid_bits) - 1);
            uint64_t ticks = (ts[1] - ts[0]) & mask;
            *gpu_us = (double)ticks * c->ts_period_ns * 1e-3;
        } else {
            *used_host = 1;
        }
    } else {
        *used_host = 1;
    }
    return 0;
}

int vkx_timer_has_stats(const vkx_timer *t)
{
    return t->stats_pool != VK_NULL_HANDLE;
}

int vkx_timer_count(vk_ctx *c, vkx_timer *t, double timeout_s,
                    const char *name, uint64_t *invocations, int *has_inv,
                    cw_error *err)
{
    *has_inv = 0;
    if (!t->stats_pool)
        return 0;
    vkResetFences(c->device, 1, &t->fence);
    int rc = submit_wait(c, t->stats_cmd, t->fence, timeout_s, name, err);
    if (rc)
        return rc;
    uint64_t inv = 0;
    if (vkGetQueryPoolResults(c->device, t->stats_pool, 0, 1, sizeof inv,
                              &inv, sizeof inv,
                              VK_QUERY_RESULT_64_BIT |
                                  VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
        *invocations = inv;
        *has_inv = 1;
    }
    return 0;
}
