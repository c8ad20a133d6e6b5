/* tsbare.c - a bare Vulkan timestamp harness, independent of clockwork.
 *
 * It times one compute dispatch the plainest way there is: one command
 * buffer holding a timestamp reset, the bind, a TOP_OF_PIPE timestamp, the
 * dispatch and a BOTTOM_OF_PIPE timestamp; submitted and waited for N
 * times; the median of the timestamp differences is printed.  No query
 * other than the two timestamps, no barriers inside the bracket, nothing
 * from clockwork linked in.  It is the reference the runner's floor is
 * compared with (bench/gpu/floor.sh, docs/measurement.md §2).
 *
 * usage: tsbare FILE.spv GX GY GZ NBUF ELEMS [PUSH_U32 ...]
 *   NBUF storage buffers of ELEMS 32-bit words at set 0, bindings 0..NBUF-1,
 *   filled with 1.0f; push constants are the given 32-bit integers.
 *   TSBARE_SAMPLES (default 200) samples after 20 warm-up runs.
 * Prints: "median_us MIN_us p10 p90 back_to_back_us samples device".
 * Exit 0 on success, 1 on bad usage, 2 when Vulkan fails.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define CHECK(x)                                                              \
    do {                                                                      \
        VkResult r_ = (x);                                                    \
        if (r_ != VK_SUCCESS) {                                               \
            fprintf(stderr, "tsbare: %s failed (%d) at line %d\n", #x,       \
                    (int)r_, __LINE__);                                       \
            exit(2);                                                          \
        }                                                                     \
    } while (0)

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint32_t *read_spv(const char *path, size_t *nbytes)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n <= 0 || n % 4) {
        fprintf(stderr, "tsbare: %s: not a SPIR-V module\n", path);
        exit(1);
    }
    uint32_t *w = malloc((size_t)n);
    if (!w || fread(w, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "tsbare: %s: read failed\n", path);
        exit(1);
    }
    fclose(f);
    *nbytes = (size_t)n;
    return w;
}

typedef struct gpu {
    VkPhysicalDevice phys;
    VkDevice dev;
    VkQueue queue;
    uint32_t family, valid_bits;
    float period;
    VkPhysicalDeviceMemoryProperties mem;
    char name[256];
} gpu;

/* first discrete GPU, else the first device; the compute family with
 * the most timestamp bits */
static void open_gpu(gpu *g)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app};
    VkInstance inst;
    CHECK(vkCreateInstance(&ici, NULL, &inst));
    uint32_t n = 0;
    CHECK(vkEnumeratePhysicalDevices(inst, &n, NULL));
    if (!n) {
        fprintf(stderr, "tsbare: no Vulkan device\n");
        exit(2);
    }
    VkPhysicalDevice pd[16];
    if (n > 16)
        n = 16;
    CHECK(vkEnumeratePhysicalDevices(inst, &n, pd));
    g->phys = pd[0];
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pd[i], &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
            g->phys = pd[i];
            break;
        }
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(g->phys, &props);
    snprintf(g->name, sizeof g->name, "%s", props.deviceName);
    g->period = props.limits.timestampPeriod;
    vkGetPhysicalDeviceMemoryProperties(g->phys, &g->mem);
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(g->phys, &nf, NULL);
    VkQueueFamilyProperties qf[32];
    if (nf > 32)
        nf = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(g->phys, &nf, qf);
    g->valid_bits = 0;
    for (uint32_t i = 0; i < nf; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
            qf[i].timestampValidBits > g->valid_bits) {
            g->family = i;
            g->valid_bits = qf[i].timestampValidBits;
        }
    if (!g->valid_bits) {
        fprintf(stderr, "tsbare: no compute queue with timestamps\n");
        exit(2);
    }
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = g->family, .queueCount = 1,
        .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci};
    CHECK(vkCreateDevice(g->phys, &dci, NULL, &g->dev));
    vkGetDeviceQueue(g->dev, g->family, 0, &g->queue);
}

static uint32_t mem_type(const gpu *g, uint32_t bits, VkMemoryPropertyFlags f)
{
    for (uint32_t i = 0; i < g->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) &&
            (g->mem.memoryTypes[i].propertyFlags & f) == f)
            return i;
    fprintf(stderr, "tsbare: no memory type\n");
    exit(2);
}

/* a device-local buffer filled with 1.0f through vkCmdFillBuffer */
static VkBuffer make_buffer(const gpu *g, VkDeviceSize bytes)
{
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = bytes,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer b;
    CHECK(vkCreateBuffer(g->dev, &bci, NULL, &b));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->dev, b, &req);
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = mem_type(g, req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    VkDeviceMemory m;
    CHECK(vkAllocateMemory(g->dev, &mai, NULL, &m));
    CHECK(vkBindBufferMemory(g->dev, b, m, 0));
    return b;
}

static void submit_wait(const gpu *g, VkCommandBuffer cmd, VkFence fence)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1, .pCommandBuffers = &cmd};
    CHECK(vkResetFences(g->dev, 1, &fence));
    CHECK(vkQueueSubmit(g->queue, 1, &si, fence));
    CHECK(vkWaitForFences(g->dev, 1, &fence, VK_TRUE, 60ull * 1000000000ull));
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* N submissions of cmd, each bracketed by pool's timestamps, sorted; after
 * a warm-up of at least 20 submissions and 0.3 s (as the runner's: a GPU
 * left idle runs its first dispatches at lower clocks) */
static void sample(const gpu *g, VkCommandBuffer cmd, VkFence fence,
                   VkQueryPool pool, int n, double *out)
{
    uint64_t mask = g->valid_bits >= 64 ? ~0ull
                                        : ((1ull << g->valid_bits) - 1);
    double t0 = now_s();
    for (int w = 0; w < 20 || now_s() - t0 < 0.3; w++)
        submit_wait(g, cmd, fence);
    for (int i = 0; i < n; i++) {
        submit_wait(g, cmd, fence);
        uint64_t ts[2];
        CHECK(vkGetQueryPoolResults(g->dev, pool, 0, 2, sizeof ts, ts,
                                    sizeof ts[0],
                                    VK_QUERY_RESULT_64_BIT |
                                        VK_QUERY_RESULT_WAIT_BIT));
        out[i] = (double)((ts[1] - ts[0]) & mask) * g->period * 1e-3;
    }
    qsort(out, (size_t)n, sizeof *out, cmp);
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: tsbare FILE.spv GX GY GZ NBUF ELEMS "
                        "[PUSH_U32 ...]\n");
        return 1;
    }
    uint32_t gx = (uint32_t)strtoul(argv[2], NULL, 0);
    uint32_t gy = (uint32_t)strtoul(argv[3], NULL, 0);
    uint32_t gz = (uint32_t)strtoul(argv[4], NULL, 0);
    uint32_t nbuf = (uint32_t)strtoul(argv[5], NULL, 0);
    uint64_t elems = strtoull(argv[6], NULL, 0);
    uint32_t npush = (uint32_t)(argc - 7);
    if (nbuf > 8 || npush > 32 || !gx || !gy || !gz || (nbuf && !elems)) {
        fprintf(stderr, "tsbare: bad arguments\n");
        return 1;
    }
    uint32_t push[32];
    for (uint32_t i = 0; i < npush; i++)
        push[i] = (uint32_t)strtoul(argv[7 + i], NULL, 0);
    const char *env = getenv("TSBARE_SAMPLES");
    int n = env ? atoi(env) : 200;
    if (n < 1 || n > 100000)
        n = 200;

    gpu g;
    memset(&g, 0, sizeof g);
    open_gpu(&g);
    size_t spv_bytes;
    uint32_t *spv = read_spv(argv[1], &spv_bytes);

    VkDescriptorSetLayoutBinding lb[8];
    for (uint32_t i = 0; i < nbuf; i++)
        lb[i] = (VkDescriptorSetLayoutBinding){
            .binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dlci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = nbuf, .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(g.dev, &dlci, NULL, &dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, npush * 4};
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1, .pSetLayouts = &dsl,
        .pushConstantRangeCount = npush ? 1u : 0u, .pPushConstantRanges = &pcr};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(g.dev, &plci, NULL, &layout));
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = spv_bytes, .pCode = spv};
    VkShaderModule sm;
    CHECK(vkCreateShaderModule(g.dev, &smci, NULL, &sm));
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm,
                  .pName = "main"},
        .layout = layout};
    VkPipeline pipe;
    CHECK(vkCreateComputePipelines(g.dev, VK_NULL_HANDLE, 1, &cpci, NULL,
                                   &pipe));

    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8};
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
        .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool dp;
    CHECK(vkCreateDescriptorPool(g.dev, &dpci, NULL, &dp));
    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = dp, .descriptorSetCount = 1, .pSetLayouts = &dsl};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(g.dev, &dsai, &set));
    VkBuffer bufs[8];
    VkDescriptorBufferInfo bi[8];
    VkWriteDescriptorSet w[8];
    for (uint32_t i = 0; i < nbuf; i++) {
        bufs[i] = make_buffer(&g, elems * 4);
        bi[i] = (VkDescriptorBufferInfo){bufs[i], 0, VK_WHOLE_SIZE};
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
            .dstBinding = i, .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &bi[i]};
    }
    if (nbuf)
        vkUpdateDescriptorSets(g.dev, nbuf, w, 0, NULL);

    VkCommandPoolCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = g.family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(g.dev, &cpi, NULL, &pool));
    VkCommandBuffer cmd[3];
    VkCommandBufferAllocateInfo cai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 3};
    CHECK(vkAllocateCommandBuffers(g.dev, &cai, cmd));
    VkQueryPoolCreateInfo qpci = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
    VkQueryPool qp;
    CHECK(vkCreateQueryPool(g.dev, &qpci, NULL, &qp));
    VkFence fence;
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    CHECK(vkCreateFence(g.dev, &fci, NULL, &fence));
    VkCommandBufferBeginInfo cbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};

    /* 0: fill the buffers with 1.0f once */
    CHECK(vkBeginCommandBuffer(cmd[0], &cbi));
    for (uint32_t i = 0; i < nbuf; i++)
        vkCmdFillBuffer(cmd[0], bufs[i], 0, VK_WHOLE_SIZE, 0x3f800000u);
    CHECK(vkEndCommandBuffer(cmd[0]));
    submit_wait(&g, cmd[0], fence);

    /* 1: the timed dispatch */
    CHECK(vkBeginCommandBuffer(cmd[1], &cbi));
    vkCmdResetQueryPool(cmd[1], qp, 0, 2);
    vkCmdBindPipeline(cmd[1], VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd[1], VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0,
                            1, &set, 0, NULL);
    if (npush)
        vkCmdPushConstants(cmd[1], layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           npush * 4, push);
    vkCmdWriteTimestamp(cmd[1], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
    vkCmdDispatch(cmd[1], gx, gy, gz);
    vkCmdWriteTimestamp(cmd[1], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
    CHECK(vkEndCommandBuffer(cmd[1]));

    /* 2: two back-to-back timestamps, nothing between */
    CHECK(vkBeginCommandBuffer(cmd[2], &cbi));
    vkCmdResetQueryPool(cmd[2], qp, 0, 2);
    vkCmdWriteTimestamp(cmd[2], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
    vkCmdWriteTimestamp(cmd[2], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
    CHECK(vkEndCommandBuffer(cmd[2]));

    double *d = malloc(sizeof *d * (size_t)n);
    double *e = malloc(sizeof *e * (size_t)n);
    if (!d || !e)
        return 2;
    sample(&g, cmd[1], fence, qp, n, d);
    sample(&g, cmd[2], fence, qp, n, e);
    printf("%.3f %.3f %.3f %.3f %.3f %d %s\n", d[n / 2], d[0], d[n / 10],
           d[(n * 9) / 10], e[n / 2], n, g.name);
    return 0;
}
