/* vk.c - Vulkan instance, device listing and selection, the context
 * (see vk.h).  Running kernels lives in vk_run.c. */
#include "vk.h"
#include "alloc.h"
#include "input.h"
#include "output.h"
#include "units.h"

#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "devpick.h"
#include "vk_clock.h"
#include "vk_internal.h"
#include "vk_cachedir.h"

#define NO_DEVICE_HINT                                                      \
    "for the CPU device install mesa-vulkan-drivers "                       \
    "(apt-get install mesa-vulkan-drivers)"

const char *vkx_result_name(VkResult r)
{
    switch (r) {
#define C(x) case x: return #x;
    C(VK_SUCCESS) C(VK_NOT_READY) C(VK_TIMEOUT) C(VK_INCOMPLETE)
    C(VK_ERROR_OUT_OF_HOST_MEMORY) C(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    C(VK_ERROR_INITIALIZATION_FAILED) C(VK_ERROR_DEVICE_LOST)
    C(VK_ERROR_MEMORY_MAP_FAILED) C(VK_ERROR_LAYER_NOT_PRESENT)
    C(VK_ERROR_EXTENSION_NOT_PRESENT) C(VK_ERROR_FEATURE_NOT_PRESENT)
    C(VK_ERROR_INCOMPATIBLE_DRIVER) C(VK_ERROR_TOO_MANY_OBJECTS)
    C(VK_ERROR_FORMAT_NOT_SUPPORTED) C(VK_ERROR_FRAGMENTED_POOL)
    C(VK_ERROR_UNKNOWN) C(VK_ERROR_OUT_OF_POOL_MEMORY)
    C(VK_ERROR_INVALID_SHADER_NV)
#undef C
    default:
        return "VK_ERROR (unnamed)";
    }
}

/* ---- instance ---- */

static int has_ext(const VkExtensionProperties *e, uint32_t n,
                   const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(e[i].extensionName, name) == 0)
            return 1;
    return 0;
}

/* ---- keeping the driver loaded ----
 * The loader unloads the ICD (and LLVM under lavapipe) at every
 * vkDestroyInstance.  Reloading costs time at every instance (devices,
 * run, calibrate each make one), and Mesa keeps process-lifetime state in
 * its globals that becomes unreachable when the library goes away (leak
 * reports under LeakSanitizer).  So the shared objects that the first
 * instance brought in are marked RTLD_NODELETE: they stay for the life of
 * the process. */

typedef struct so_list {
    char **names;
    size_t n, cap;
} so_list;

static int collect_so(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    so_list *l = data;
    if (!info->dlpi_name || !info->dlpi_name[0])
        return 0;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        char **nn = xrealloc(l->names, l->cap * sizeof *nn);
        l->names = nn;
    }
    l->names[l->n++] = cw_strdup(info->dlpi_name);
    return 0;
}

static void so_list_free(so_list *l)
{
    cw_free_strv(l->names, l->n);
    memset(l, 0, sizeof *l);
}

static void pin_new_objects(const so_list *before)
{
    so_list now = {0};
    dl_iterate_phdr(collect_so, &now);
    for (size_t i = 0; i < now.n; i++) {
        int seen = 0;
        for (size_t j = 0; j < before->n && !seen; j++)
            seen = strcmp(now.names[i], before->names[j]) == 0;
        if (seen)
            continue;
        void *h = dlopen(now.names[i], RTLD_LAZY | RTLD_NOLOAD |
                                           RTLD_NODELETE);
        if (h)
            dlclose(h); /* the NODELETE mark stays */
    }
    so_list_free(&now);
}

static int create_instance(VkInstance *out, cw_error *err)
{
    static int pinned;
    so_list before = {0};
    if (!pinned)
        dl_iterate_phdr(collect_so, &before);
    uint32_t api = VK_API_VERSION_1_1;
    PFN_vkEnumerateInstanceVersion ev = (PFN_vkEnumerateInstanceVersion)
        vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion");
    if (ev) {
        uint32_t v = 0;
        if (ev(&v) == VK_SUCCESS && v >= VK_API_VERSION_1_3)
            api = VK_API_VERSION_1_3;
        else if (v >= VK_API_VERSION_1_2)
            api = VK_API_VERSION_1_2;
    }
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    VkExtensionProperties *e = xcalloc(n ? n : 1, sizeof *e);
    vkEnumerateInstanceExtensionProperties(NULL, &n, e);
    const char *exts[1];
    uint32_t next = 0;
    VkInstanceCreateFlags flags = 0;
    /* lets the loader show portability (e.g. MoltenVK) devices too */
    if (has_ext(e, n, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        exts[next++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    free(e);
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "clockwork",
        .applicationVersion = 1,
        .pEngineName = "clockwork",
        .apiVersion = api,
    };
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .flags = flags,
        .pApplicationInfo = &app,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateInstance(&ci, NULL, out);
    if (!pinned && r == VK_SUCCESS) {
        pin_new_objects(&before);
        pinned = 1;
    }
    so_list_free(&before);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0,
                     "no usable Vulkan driver (vkCreateInstance: %s); %s",
                     vkx_result_name(r), NO_DEVICE_HINT);
        return CW_STATUS_ENV;
    }
    return 0;
}

static int enum_physical(VkInstance inst, VkPhysicalDevice **out,
                         uint32_t *n, cw_error *err)
{
    *out = NULL;
    *n = 0;
    VkResult r = vkEnumeratePhysicalDevices(inst, n, NULL);
    if (r != VK_SUCCESS || *n == 0) {
        cw_error_set(err, NULL, 0, 0,
                     "no Vulkan device found%s%s%s; %s",
                     r != VK_SUCCESS ? " (vkEnumeratePhysicalDevices: " : "",
                     r != VK_SUCCESS ? vkx_result_name(r) : "",
                     r != VK_SUCCESS ? ")" : "", NO_DEVICE_HINT);
        *n = 0;
        return CW_STATUS_ENV;
    }
    *out = xcalloc(*n, sizeof **out);
    vkEnumeratePhysicalDevices(inst, n, *out);
    return 0;
}

/* ---- device info ---- */

static const char *vendor_name(uint32_t id)
{
    switch (id) {
    case 0x10DE: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x1022: return "AMD";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1010: return "ImgTec";
    case 0x106B: return "Apple";
    case 0x14E4: return "Broadcom";
    case VK_VENDOR_ID_MESA: return "Mesa";
    default: return "unknown";
    }
}

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static void decode_driver_version(uint32_t vendor, uint32_t v, char *buf,
                                  size_t n)
{
    if (vendor == 0x10DE)
        snprintf(buf, n, "%u.%u.%u.%u", (v >> 22) & 0x3ff, (v >> 14) & 0xff,
                 (v >> 6) & 0xff, v & 0x3f);
    else
        snprintf(buf, n, "%u.%u.%u", VK_API_VERSION_MAJOR(v),
                 VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

static void fill_info(VkPhysicalDevice pd, uint32_t index, vk_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    uint32_t next = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &next, NULL);
    VkExtensionProperties *ext = xcalloc(next ? next : 1, sizeof *ext);
    vkEnumerateDeviceExtensionProperties(pd, NULL, &next, ext);

    VkPhysicalDeviceProperties base;
    vkGetPhysicalDeviceProperties(pd, &base);
    int v12 = base.apiVersion >= VK_API_VERSION_1_2;
    int drv_ok = v12 || has_ext(ext, next, "VK_KHR_driver_properties");
    int sm_ok = has_ext(ext, next, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);

    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV,
    };
    VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
        .pNext = sm_ok ? &sm : NULL,
    };
    VkPhysicalDeviceIDProperties idp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
        .pNext = drv_ok ? (void *)&drv : (sm_ok ? (void *)&sm : NULL),
    };
    VkPhysicalDeviceSubgroupProperties sg = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
        .pNext = &idp,
    };
    /* PCI address, for --device auto's bus order (core/devpick.h) */
    int pci_ok = has_ext(ext, next, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT,
        .pNext = &sg,
    };
    VkPhysicalDeviceProperties2 p2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
        .pNext = pci_ok ? (void *)&pci : (void *)&sg,
    };
    vkGetPhysicalDeviceProperties2(pd, &p2);
    const VkPhysicalDeviceProperties *p = &p2.properties;
    const VkPhysicalDeviceLimits *l = &p->limits;

    snprintf(d->name, sizeof d->name, "%s", p->deviceName);
    snprintf(d->type, sizeof d->type, "%s", type_name(p->deviceType));
    d->vendor_id = p->vendorID;
    d->device_id = p->deviceID;
    snprintf(d->vendor, sizeof d->vendor, "%s", vendor_name(p->vendorID));
    if (drv_ok) {
        snprintf(d->driver_name, sizeof d->driver_name, "%s", drv.driverName);
        snprintf(d->driver_info, sizeof d->driver_info, "%s", drv.driverInfo);
    }
    decode_driver_version(p->vendorID, p->driverVersion, d->driver_version,
                          sizeof d->driver_version);
    /* Mesa drivers such as lavapipe report a constant driverVersion; the
     * Mesa release in driverInfo is what changes with the code */
    const char *mesa = drv_ok ? strstr(drv.driverInfo, "Mesa ") : NULL;
    if (mesa) {
        unsigned a, b, c2;
        if (sscanf(mesa + 5, "%u.%u.%u", &a, &b, &c2) == 3)
            snprintf(d->driver_version, sizeof d->driver_version, "%u.%u.%u",
                     a, b, c2);
    }
    snprintf(d->api_version, sizeof d->api_version, "%u.%u.%u",
             VK_API_VERSION_MAJOR(p->apiVersion),
             VK_API_VERSION_MINOR(p->apiVersion),
             VK_API_VERSION_PATCH(p->apiVersion));
    for (unsigned i = 0; i < VK_UUID_SIZE; i++)
        snprintf(d->uuid + 2 * i, 3, "%02x", idp.deviceUUID[i]);
    if (pci_ok) {
        d->has_pci = 1;
        d->pci_domain = pci.pciDomain;
        d->pci_bus = pci.pciBus;
        d->pci_device = pci.pciDevice;
        d->pci_function = pci.pciFunction;
    }

    device_limits *dl = &d->limits;
    for (int i = 0; i < 3; i++) {
        dl->max_wg_size[i] = l->maxComputeWorkGroupSize[i];
        dl->max_wg_count[i] = l->maxComputeWorkGroupCount[i];
    }
    dl->max_wg_invocations = l->maxComputeWorkGroupInvocations;
    dl->max_shared_bytes = l->maxComputeSharedMemorySize;
    dl->max_push_bytes = l->maxPushConstantsSize;
    dl->max_storage_range = l->maxStorageBufferRange;
    dl->subgroup_size = sg.subgroupSize;
    d->timestamp_period_ns = l->timestampPeriod;
    d->timestamp_compute_and_graphics = l->timestampComputeAndGraphics;

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *q = xcalloc(nq ? nq : 1, sizeof *q);
    d->families = xcalloc(nq ? nq : 1, sizeof *d->families);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t i = 0; i < nq; i++) {
        d->families[i].index = i;
        d->families[i].flags = q[i].queueFlags;
        d->families[i].count = q[i].queueCount;
        d->families[i].timestamp_valid_bits = q[i].timestampValidBits;
    }
    d->nfamilies = nq;
    free(q);

    VkPhysicalDeviceShaderFloat16Int8Features f16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
    };
    int f16_ok = v12 || has_ext(ext, next, "VK_KHR_shader_float16_int8");
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = f16_ok ? &f16 : NULL,
    };
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    d->pipeline_statistics = f2.features.pipelineStatisticsQuery;
    d->shader_float64 = f2.features.shaderFloat64;
    d->shader_int64 = f2.features.shaderInt64;
    d->shader_float16 = f16_ok && f16.shaderFloat16;
    d->calibrated_timestamps =
        has_ext(ext, next, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
    d->pipeline_executable_properties =
        has_ext(ext, next, "VK_KHR_pipeline_executable_properties");
    if (sm_ok) {
        d->sm_count = sm.shaderSMCount;
        d->warps_per_sm = sm.shaderWarpsPerSM;
    }

    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryHeapCount; i++)
        if (mp.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            d->device_local_bytes += mp.memoryHeaps[i].size;
    free(ext);
}

int vk_list_devices(vk_device_info **out, size_t *n, cw_error *err)
{
    *out = NULL;
    *n = 0;
    VkInstance inst;
    int rc = create_instance(&inst, err);
    if (rc)
        return rc;
    VkPhysicalDevice *pd;
    uint32_t np;
    rc = enum_physical(inst, &pd, &np, err);
    if (rc) {
        vkDestroyInstance(inst, NULL);
        return rc;
    }
    vk_device_info *d = xcalloc(np, sizeof *d);
    for (uint32_t i = 0; i < np; i++)
        fill_info(pd[i], i, &d[i]);
    free(pd);
    vkDestroyInstance(inst, NULL);
    *out = d;
    *n = np;
    return 0;
}

void vk_free_devices(vk_device_info *d, size_t n)
{
    if (!d)
        return;
    for (size_t i = 0; i < n; i++)
        free(d[i].families);
    free(d);
}

/* ---- output ---- */

static void queue_flags_text(uint32_t f, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s", f & VK_QUEUE_GRAPHICS_BIT ? "graphics " : "",
             f & VK_QUEUE_COMPUTE_BIT ? "compute " : "",
             f & VK_QUEUE_TRANSFER_BIT ? "transfer " : "",
             f & VK_QUEUE_SPARSE_BINDING_BIT ? "sparse " : "");
    size_t len = strlen(buf);
    if (len && buf[len - 1] == ' ')
        buf[len - 1] = 0;
}

static const char *yes_no(int v)
{
    return v ? "yes" : "no";
}

void vk_write_devices_table(const vk_device_info *d, size_t n, FILE *out)
{
    for (size_t i = 0; i < n; i++) {
        const vk_device_info *x = &d[i];
        const device_limits *l = &x->limits;
        if (i)
            fputc('\n', out);
        fprintf(out, "device %u: %s (%s, %s)\n", x->index, x->name, x->type,
                x->vendor);
#define ROW(label, ...)                                                      \
    do {                                                                     \
        fprintf(out, "  %-28s ", label);                                     \
        fprintf(out, __VA_ARGS__);                                           \
        fputc('\n', out);                                                    \
    } while (0)
        ROW("vendor / device id", "0x%04x / 0x%04x", x->vendor_id,
            x->device_id);
        ROW("driver", "%s %s (%s)", x->driver_name[0] ? x->driver_name : "?",
            x->driver_version, x->driver_info[0] ? x->driver_info : "-");
        ROW("Vulkan API", "%s", x->api_version);
        ROW("device UUID", "%s", x->uuid);
        ROW("workgroup size max", "%u x %u x %u", l->max_wg_size[0],
            l->max_wg_size[1], l->max_wg_size[2]);
        ROW("workgroup invocations max", "%u", l->max_wg_invocations);
        ROW("workgroup count max", "%u x %u x %u", l->max_wg_count[0],
            l->max_wg_count[1], l->max_wg_count[2]);
        ROW("shared memory max", "%u B (%.1f KiB)", l->max_shared_bytes,
            l->max_shared_bytes / 1024.0);
        ROW("subgroup size", "%u", l->subgroup_size);
        ROW("storage buffer range max", "%llu B (%.1f MiB)",
            (unsigned long long)l->max_storage_range,
            (double)l->max_storage_range / (1024.0 * 1024.0));
        ROW("push constants max", "%u B", l->max_push_bytes);
        ROW("device-local memory", "%.2f GiB",
            (double)x->device_local_bytes / (1024.0 * 1024.0 * 1024.0));
        {
            char tp[32];
            units_time_us(tp, sizeof tp, (double)x->timestamp_period_ns / 1e3);
            ROW("timestamp period", "%s", tp);
        }
        for (size_t q = 0; q < x->nfamilies; q++) {
            char flags[64], label[48];
            queue_flags_text(x->families[q].flags, flags, sizeof flags);
            snprintf(label, sizeof label, "queue family %u",
                     x->families[q].index);
            if (x->families[q].timestamp_valid_bits)
                ROW(label, "%s; %u queue(s); timestamps %u valid bits", flags,
                    x->families[q].count, x->families[q].timestamp_valid_bits);
            else
                ROW(label, "%s; %u queue(s); no timestamps", flags,
                    x->families[q].count);
        }
        ROW("pipeline statistics", "%s", yes_no(x->pipeline_statistics));
        ROW("calibrated timestamps", "%s", yes_no(x->calibrated_timestamps));
        ROW("pipeline executable props", "%s",
            yes_no(x->pipeline_executable_properties));
        ROW("float64 / float16 / int64", "%s / %s / %s",
            yes_no(x->shader_float64), yes_no(x->shader_float16),
            yes_no(x->shader_int64));
        if (x->sm_count)
            ROW("SMs / warps per SM", "%u / %u", x->sm_count,
                x->warps_per_sm);
#undef ROW
    }
}

static json_t *u32_array(const uint32_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

char *vk_devices_json_text(const vk_device_info *d, size_t n)
{
    json_t *root = json_object();
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        const vk_device_info *x = &d[i];
        const device_limits *l = &x->limits;
        json_t *o = json_object();
        json_object_set_new(o, "index", json_integer(x->index));
        json_object_set_new(o, "name", json_string(x->name));
        json_object_set_new(o, "type", json_string(x->type));
        json_object_set_new(o, "vendor", json_string(x->vendor));
        json_object_set_new(o, "vendor_id", json_integer(x->vendor_id));
        json_object_set_new(o, "device_id", json_integer(x->device_id));
        json_t *drv = json_object();
        json_object_set_new(drv, "name", json_string(x->driver_name));
        json_object_set_new(drv, "info", json_string(x->driver_info));
        json_object_set_new(drv, "version", json_string(x->driver_version));
        json_object_set_new(o, "driver", drv);
        json_object_set_new(o, "api_version", json_string(x->api_version));
        json_object_set_new(o, "uuid", json_string(x->uuid));
        json_t *lim = json_object();
        json_object_set_new(lim, "max_workgroup_size",
                            u32_array(l->max_wg_size, 3));
        json_object_set_new(lim, "max_workgroup_invocations",
                            json_integer(l->max_wg_invocations));
        json_object_set_new(lim, "max_workgroup_count",
                            u32_array(l->max_wg_count, 3));
        json_object_set_new(lim, "max_shared_memory_bytes",
                            json_integer(l->max_shared_bytes));
        json_object_set_new(lim, "subgroup_size",
                            json_integer(l->subgroup_size));
        json_object_set_new(lim, "max_storage_buffer_range",
                            json_integer((json_int_t)l->max_storage_range));
        json_object_set_new(lim, "max_push_constants_bytes",
                            json_integer(l->max_push_bytes));
        json_object_set_new(o, "compute_limits", lim);
        json_object_set_new(o, "device_local_bytes",
                            json_integer((json_int_t)x->device_local_bytes));
        json_object_set_new(o, "timestamp_period_ns",
                            json_real(x->timestamp_period_ns));
        json_object_set_new(o, "timestamp_compute_and_graphics",
                            json_boolean(x->timestamp_compute_and_graphics));
        json_t *qf = json_array();
        for (size_t q = 0; q < x->nfamilies; q++) {
            json_t *f = json_object();
            uint32_t fl = x->families[q].flags;
            json_object_set_new(f, "index", json_integer(x->families[q].index));
            json_object_set_new(f, "queues", json_integer(x->families[q].count));
            json_object_set_new(f, "graphics",
                                json_boolean(fl & VK_QUEUE_GRAPHICS_BIT));
            json_object_set_new(f, "compute",
                                json_boolean(fl & VK_QUEUE_COMPUTE_BIT));
            json_object_set_new(f, "transfer",
                                json_boolean(fl & VK_QUEUE_TRANSFER_BIT));
            json_object_set_new(
                f, "timestamps",
                json_boolean(x->families[q].timestamp_valid_bits != 0));
            json_object_set_new(
                f, "timestamp_valid_bits",
                json_integer(x->families[q].timestamp_valid_bits));
            json_array_append_new(qf, f);
        }
        json_object_set_new(o, "queue_families", qf);
        json_object_set_new(o, "pipeline_statistics",
                            json_boolean(x->pipeline_statistics));
        json_object_set_new(o, "calibrated_timestamps",
                            json_boolean(x->calibrated_timestamps));
        json_object_set_new(o, "pipeline_executable_properties",
                            json_boolean(x->pipeline_executable_properties));
        json_object_set_new(o, "float64", json_boolean(x->shader_float64));
        json_object_set_new(o, "float16", json_boolean(x->shader_float16));
        json_object_set_new(o, "int64", json_boolean(x->shader_int64));
        if (x->sm_count) {
            json_object_set_new(o, "sm_count", json_integer(x->sm_count));
            json_object_set_new(o, "warps_per_sm",
                                json_integer(x->warps_per_sm));
        } else {
            json_object_set_new(o, "sm_count", json_null());
            json_object_set_new(o, "warps_per_sm", json_null());
        }
        json_array_append_new(arr, o);
    }
    json_object_set_new(root, "devices", arr);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!s)
        cw_out_of_memory(0);
    /* json_dumps memory is malloc'd: the caller frees with free() */
    size_t len = strlen(s);
    char *t = xmalloc(len + 2);
    memcpy(t, s, len);
    t[len] = '\n';
    t[len + 1] = 0;
    free(s);
    return t;
}

/* ---- selection ---- */

static int type_rank(const char *t)
{
    if (!strcmp(t, "discrete")) return 0;
    if (!strcmp(t, "integrated")) return 1;
    if (!strcmp(t, "virtual")) return 2;
    if (!strcmp(t, "cpu")) return 3;
    return 4;
}

static int select_auto(const vk_device_info *d, size_t n, size_t *idx, char *why,
                       size_t whylen, cw_error *err)
{
    devpick_device *pd = xcalloc(n + 1, sizeof *pd);
    for (size_t i = 0; i < n; i++)
        pd[i] = (devpick_device){.name = d[i].name, .uuid_hex = d[i].uuid,
                                 .is_cpu = !strcmp(d[i].type, "cpu"), .has_pci = d[i].has_pci,
                                 .domain = d[i].pci_domain, .bus = d[i].pci_bus,
                                 .device = d[i].pci_device, .function = d[i].pci_function};
    int rc = devpick_auto(pd, n, NULL, NULL, idx, why, whylen, err);
    free(pd);
    return rc;
}

int vk_select_device_why(const vk_device_info *d, size_t n, const char *sel, size_t *idx,
                         char *why, size_t whylen, cw_error *err)
{
    if (why && whylen)
        why[0] = 0;
    if (sel && !strcmp(sel, "auto")) {
        int rc = select_auto(d, n, idx, why, whylen, err);
        if (rc != 1)
            return rc;
        sel = NULL; /* no launcher variable: the default device */
        snprintf(why, whylen, "no CUDA_VISIBLE_DEVICES UUID or local rank: the default device");
    }
    return vk_select_device(d, n, sel, idx, err);
}

int vk_select_device(const vk_device_info *d, size_t n, const char *sel,
                     size_t *idx, cw_error *err)
{
    if (sel && !strcmp(sel, "auto"))
        return vk_select_device_why(d, n, sel, idx, NULL, 0, err);
    if (!sel || !*sel) {
        size_t best = 0;
        for (size_t i = 1; i < n; i++)
            if (type_rank(d[i].type) < type_rank(d[best].type))
                best = i;
        *idx = best;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long v = strtoul(sel, &end, 10);
    if (*end == 0 && errno == 0 && end != sel) {
        if (v >= n) {
            cw_error_set(err, NULL, 0, 0,
                         "--device %s: no such device (there %s %zu, "
                         "numbered from 0; see 'clockwork devices')",
                         sel, n == 1 ? "is" : "are", n);
            return CW_STATUS_INPUT;
        }
        *idx = v;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (strcasestr(d[i].name, sel)) {
            *idx = i;
            return 0;
        }
    char names[512] = "";
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%u: %s", i ? ", " : "",
                 d[i].index, d[i].name);
    }
    cw_error_set(err, NULL, 0, 0,
                 "--device '%s' matches no device name (devices: %s)", sel,
                 names);
    return CW_STATUS_INPUT;
}

/* ---- pipeline cache on disk ---- */

static void cache_file_path(const vk_device_info *d, char *buf, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    buf[0] = 0;
    if (xdg && *xdg)
        snprintf(buf, n, "%s/clockwork/pipeline-%s-%s.bin", xdg, d->uuid,
                 d->driver_version);
    else if (home && *home)
        snprintf(buf, n, "%s/.cache/clockwork/pipeline-%s-%s.bin", home,
                 d->uuid, d->driver_version);
}

static void *read_whole(const char *path, size_t *len)
{
    /* a cache this big is not ours, and a missing one is normal: either
     * way the pipeline is compiled afresh */
    char *data;
    cw_error ignored;
    return cw_read_input(path, "pipeline cache", 0, (size_t)64 << 20, 0, &data, len, &ignored)
               ? NULL
               : data;
}

static void mkdir_parents(const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(tmp, 0755);
            *p = '/';
        }
}

static void save_pipeline_cache(vk_ctx *c)
{
    if (!c->cache || !c->cache_path[0])
        return;
    size_t size = 0;
    if (vkGetPipelineCacheData(c->device, c->cache, &size, NULL) !=
            VK_SUCCESS || size == 0)
        return;
    void *data = malloc(size);
    if (!data)
        return;
    if (vkGetPipelineCacheData(c->device, c->cache, &size, data) ==
        VK_SUCCESS) {
        mkdir_parents(c->cache_path);
        char dir[1024], why[1300];
        snprintf(dir, sizeof dir, "%s", c->cache_path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        if (!vk_cachedir_usable(dir, why, sizeof why)) {
            free(data); /* a full or read-only disk: no partial file */
            return;
        }
        /* best effort: a failed cache write only costs a recompile */
        cw_error ignored;
        (void)cw_write_file_atomic(c->cache_path, data, size, &ignored);
    }
    free(data);
}

/* ---- context ---- */

static int pick_queue_family(const vk_device_info *d, uint32_t *fam)
{
    /* prefer a compute family with timestamps; a compute-only one first
     * (dedicated compute queues on discrete GPUs) */
    int best = -1, best_score = -1;
    for (size_t i = 0; i < d->nfamilies; i++) {
        uint32_t f = d->families[i].flags;
        if (!(f & VK_QUEUE_COMPUTE_BIT))
            continue;
        int score = (d->families[i].timestamp_valid_bits ? 4 : 0) +
                    (!(f & VK_QUEUE_GRAPHICS_BIT) ? 1 : 0);
        if (score > best_score) {
            best_score = score;
            best = (int)i;
        }
    }
    if (best < 0)
        return -1;
    *fam = d->families[best].index;
    return 0;
}

int vk_open_events(const char *selector, const char *events, vk_ctx **out,
                   cw_error *err)
{
    *out = NULL;
    vk_ctx *c = xcalloc(1, sizeof *c);
    /* Counters first: lavapipe starts its worker threads while the
     * physical device is enumerated; inherit=1 only covers threads
     * created after the counters are opened. */
    int rc = events && !*events ? 0 : backend_counters_open(events, 1, &c->counters, err);
    if (rc) {
        free(c);
        return CW_STATUS_INPUT;
    }
    /* before the driver loads: its disk cache must not SIGBUS on a full disk */
    vk_cachedir_guard(stderr);
    rc = create_instance(&c->instance, err);
    if (rc)
        goto fail;
    VkPhysicalDevice *pd;
    uint32_t np;
    rc = enum_physical(c->instance, &pd, &np, err);
    if (rc)
        goto fail;
    vk_device_info *all = xcalloc(np, sizeof *all);
    for (uint32_t i = 0; i < np; i++)
        fill_info(pd[i], i, &all[i]);
    size_t idx = 0;
    char why[sizeof all->selected_by];
    rc = vk_select_device_why(all, np, selector, &idx, why, sizeof why, err);
    if (rc) {
        vk_free_devices(all, np);
        free(pd);
        goto fail;
    }
    c->phys = pd[idx];
    c->info = all[idx];
    snprintf(c->info.selected_by, sizeof c->info.selected_by, "%s", why);
    all[idx].families = NULL; /* moved into c->info */
    vk_free_devices(all, np);
    free(pd);

    if (pick_queue_family(&c->info, &c->queue_family)) {
        cw_error_set(err, NULL, 0, 0,
                     "device '%s' has no compute queue; pick another with "
                     "--device (see 'clockwork devices')", c->info.name);
        rc = CW_STATUS_ENV;
        goto fail;
    }
    for (size_t i = 0; i < c->info.nfamilies; i++)
        if (c->info.families[i].index == c->queue_family)
            c->ts_valid_bits = c->info.families[i].timestamp_valid_bits;
    c->ts_period_ns = c->info.timestamp_period_ns;
    vkGetPhysicalDeviceMemoryProperties(c->phys, &c->mem);

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = c->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkPhysicalDeviceFeatures feat = {0};
    feat.pipelineStatisticsQuery = c->info.pipeline_statistics ? VK_TRUE : 0;
    feat.shaderFloat64 = c->info.shader_float64 ? VK_TRUE : 0;
    feat.shaderInt64 = c->info.shader_int64 ? VK_TRUE : 0;
    VkPhysicalDeviceShaderFloat16Int8Features f16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
        .shaderFloat16 = c->info.shader_float16 ? VK_TRUE : 0,
    };
    VkPhysicalDevice16BitStorageFeatures s16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
        .pNext = c->info.shader_float16 ? &f16 : NULL,
    };
    /* 16-bit storage lets FP16 kernels read half buffers; ask only for
     * what the device has */
    VkPhysicalDevice16BitStorageFeatures s16q = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
    };
    VkPhysicalDeviceFeatures2 fq = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &s16q,
    };
    vkGetPhysicalDeviceFeatures2(c->phys, &fq);
    s16.storageBuffer16BitAccess = s16q.storageBuffer16BitAccess;
    s16.uniformAndStorageBuffer16BitAccess =
        s16q.uniformAndStorageBuffer16BitAccess;
    /* pipeline executable properties: registers etc. for the model */
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pexq = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
    };
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pex = pexq;
    const char *dev_exts[1];
    uint32_t ndev_exts = 0;
    if (c->info.pipeline_executable_properties) {
        VkPhysicalDeviceFeatures2 fq2 = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
            .pNext = &pexq,
        };
        vkGetPhysicalDeviceFeatures2(c->phys, &fq2);
        if (pexq.pipelineExecutableInfo) {
            pex.pipelineExecutableInfo = VK_TRUE;
            pex.pNext = s16.pNext;
            s16.pNext = &pex;
            dev_exts[ndev_exts++] = "VK_KHR_pipeline_executable_properties";
        }
    }
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &s16,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .enabledExtensionCount = ndev_exts,
        .ppEnabledExtensionNames = dev_exts,
        .pEnabledFeatures = &feat,
    };
    VkResult r = vkCreateDevice(c->phys, &dci, NULL, &c->device);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0, "cannot open device '%s' (%s)",
                     c->info.name, vkx_result_name(r));
        rc = CW_STATUS_ENV;
        goto fail;
    }
    c->has_stats = c->info.pipeline_statistics;
    c->has_exec_props = ndev_exts > 0;
    c->has_float16 = c->info.shader_float16;
    c->has_float64 = c->info.shader_float64;
    c->has_int64 = c->info.shader_int64;
    vkGetDeviceQueue(c->device, c->queue_family, 0, &c->queue);
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = c->queue_family,
    };
    r = vkCreateCommandPool(c->device, &pci, NULL, &c->pool);
    if (r != VK_SUCCESS) {
        cw_error_set(err, NULL, 0, 0, "cannot create a command pool on '%s' "
                     "(%s)", c->info.name, vkx_result_name(r));
        rc = CW_STATUS_ENV;
        goto fail;
    }
    cache_file_path(&c->info, c->cache_path, sizeof c->cache_path);
    size_t clen = 0;
    void *cdata = c->cache_path[0] ? read_whole(c->cache_path, &clen) : NULL;
    VkPipelineCacheCreateInfo cci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
        .initialDataSize = clen,
        .pInitialData = cdata,
    };
    /* the driver validates the header (vendor, device, cache UUID) and
     * ignores foreign or stale data; retry empty if it still refuses */
    if (vkCreatePipelineCache(c->device, &cci, NULL, &c->cache) !=
        VK_SUCCESS) {
        cci.initialDataSize = 0;
        cci.pInitialData = NULL;
        if (vkCreatePipelineCache(c->device, &cci, NULL, &c->cache) !=
            VK_SUCCESS)
            c->cache = VK_NULL_HANDLE;
    }
    free(cdata);
    *out = c;
    return 0;
fail:
    vk_close(c);
    return rc;
}

int vk_open(const char *selector, vk_ctx **out, cw_error *err)
{
    return vk_open_events(selector, NULL, out, err);
}

void vk_close(vk_ctx *c)
{
    if (!c)
        return;
    if (c->hung) {
        /* The driver may still be executing the hung kernel: destroying
         * the device would wait for it forever.  Leave it; the process
         * exits through the _exit path armed in vk_run.c. */
        return;
    }
    if (c->device) {
        vkDeviceWaitIdle(c->device);
        vkx_clock_probe_destroy(c);
        save_pipeline_cache(c);
        if (c->cache)
            vkDestroyPipelineCache(c->device, c->cache, NULL);
        if (c->pool)
            vkDestroyCommandPool(c->device, c->pool, NULL);
        vkDestroyDevice(c->device, NULL);
    }
    if (c->instance)
        vkDestroyInstance(c->instance, NULL);
    backend_slot_close(&c->counters);
    free(c->info.families);
    free(c);
}

const vk_device_info *vk_ctx_info(const vk_ctx *c)
{
    return &c->info;
}

void vk_device_profile(const vk_ctx *c, device_profile *p)
{
    const vk_device_info *d = &c->info;
    snprintf(p->name, sizeof p->name, "%s", d->name);
    snprintf(p->uuid, sizeof p->uuid, "%s", d->uuid);
    /* the driver version alone: it is half of the profile cache key, and
     * `run` looks the profile up with vk_device_info.driver_version */
    snprintf(p->driver, sizeof p->driver, "%s", d->driver_version);
    p->limits = d->limits;
    p->kind = strcmp(d->type, "cpu") == 0 ? DEVICE_KIND_CPU_VULKAN : DEVICE_KIND_GPU;
    if (d->sm_count) {
        p->units = d->sm_count;
        p->max_threads_per_unit = d->warps_per_sm * d->limits.subgroup_size;
    }
    if (p->kind == DEVICE_KIND_CPU_VULKAN && p->units == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        p->units = n > 0 ? (uint32_t)n : 1;
    }
    if (p->timestamp_res_ns < 0 && d->timestamp_period_ns > 0)
        p->timestamp_res_ns = d->timestamp_period_ns;
}

void run_options_default(run_options *o)
{
    memset(o, 0, sizeof *o);
    o->samples = 10;
    o->warmup = 2;
    o->warmup_s = 0.3;
    o->timeout_s = 10;
    o->budget_s = 2;
    o->seed = 0x5eed;
    o->clock_max_s = 3;
}

double vkx_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int vk_ctx_hung(const vk_ctx *c)
{
    return c && c->hung;
}
