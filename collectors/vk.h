/* vk.h - the Vulkan collector: devices, and running a plan kernel.
 *
 * Contract:
 *   vk_list_devices()  enumerates every physical device (no logical device
 *                      is created).  No loader / no device -> CW_STATUS_ENV
 *                      with a message that names mesa-vulkan-drivers.
 *   vk_open(sel)       picks a device (index or name substring; NULL = first
 *                      discrete GPU, else integrated, else CPU) and creates
 *                      a compute queue.  One vk_ctx per thread of use.
 *   vk_run_kernel()    uploads buffers per the plan's init, builds the
 *                      pipeline (spec constants, push constants from
 *                      reflection), warms up, then samples dispatches
 *                      bracketed by timestamps + pipeline statistics, and
 *                      fills a measurement (statistics via stats.h).
 *                      Returns 0, or CW_STATUS_ENV on hang (fence timeout;
 *                      the message names the kernel), out of memory (names
 *                      the buffer) or device lost; measurement->error then
 *                      says why.  Collectors measure; they never judge.
 *   vk_device_profile() fills the limits part of a profile from the device.
 */
#ifndef CW_VK_H
#define CW_VK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

typedef struct vk_queue_family_info {
    uint32_t index;
    uint32_t flags;             /* VkQueueFlags */
    uint32_t count;
    uint32_t timestamp_valid_bits;
} vk_queue_family_info;

typedef struct vk_device_info {
    uint32_t index;
    char name[256];
    char type[32];              /* "discrete", "integrated", "virtual", "cpu", "other" */
    uint32_t vendor_id, device_id;
    char vendor[32];            /* "NVIDIA", "AMD", "Intel", "Mesa", ... */
    char driver_name[256];      /* VkPhysicalDeviceDriverProperties */
    char driver_info[256];
    char driver_version[64];    /* decoded per vendor */
    char api_version[32];
    char uuid[40];              /* deviceUUID hex */
    device_limits limits;
    float timestamp_period_ns;
    int timestamp_compute_and_graphics;
    vk_queue_family_info *families; size_t nfamilies;
    int pipeline_statistics;    /* feature */
    int calibrated_timestamps;  /* VK_EXT_calibrated_timestamps */
    int pipeline_executable_properties;
    int shader_float64, shader_float16, shader_int64;
    uint64_t device_local_bytes;
    uint32_t sm_count, warps_per_sm; /* VK_NV_shader_sm_builtins; 0 if absent */
    int has_pci;                /* VK_EXT_pci_bus_info */
    uint32_t pci_domain, pci_bus, pci_device, pci_function;
    char selected_by[256];      /* --device auto: the rule that chose it */
} vk_device_info;

int vk_list_devices(vk_device_info **out, size_t *n, cw_error *err);
/* The --device rule: NULL = first discrete GPU, else integrated, else
 * virtual, else CPU; an index; or a name substring.  0, or CW_STATUS_INPUT
 * with err naming the devices there are. */
int vk_select_device(const vk_device_info *d, size_t n, const char *sel,
                     size_t *idx, cw_error *err);
/* The same, saying why (for "auto": core/devpick.h's rule; "" otherwise). */
int vk_select_device_why(const vk_device_info *d, size_t n, const char *sel,
                         size_t *idx, char *why, size_t whylen, cw_error *err);
void vk_free_devices(vk_device_info *d, size_t n);
void vk_write_devices_table(const vk_device_info *d, size_t n, FILE *out);
char *vk_devices_json_text(const vk_device_info *d, size_t n);

typedef struct vk_ctx vk_ctx;

int vk_open(const char *selector, vk_ctx **out, cw_error *err);
/* Same, with the libpfm4 events to count (--events; NULL = defaults).
 * The counters are opened before the device so a CPU device's worker
 * threads are counted.  "" = no counters.  A malformed event list ->
 * CW_STATUS_INPUT.  Counters in a measurement are per dispatch: totals
 * over the warm samples divided by their number. */
int vk_open_events(const char *selector, const char *events, vk_ctx **out,
                   cw_error *err);
/* Non-zero after a hang: the driver may still run the kernel, so the
 * context was not destroyed and the process leaves through _exit. */
int vk_ctx_hung(const vk_ctx *ctx);
void vk_close(vk_ctx *ctx);
const vk_device_info *vk_ctx_info(const vk_ctx *ctx);
void vk_device_profile(const vk_ctx *ctx, device_profile *p);

typedef void (*vk_sample_fn)(void *user, double sample_us);

typedef struct run_options {
    unsigned samples;       /* minimum warm samples (default 10) */
    unsigned warmup;        /* default 2 */
    double warmup_s;        /* GPUs: keep warming up until the device has
                               been busy this long (default 0.3 s), so
                               clocks that dropped while the host filled
                               buffers are back up; CPU devices: unused */
    double clock_expected_us; /* > 0: after the warm-up, time the clock
                               probe (vk_clock.h), which takes this long at
                               the profile's clock; while it reads below
                               CLOCK_SETTLED_RATIO, warm up more.  0 (the
                               default): no check */
    double clock_max_s;     /* most busy time added so (default 3 s: the
                               slowest climb seen took ~2.8 s) */
    double timeout_s;       /* hang guard per fence (default 10) */
    double budget_s;        /* keep sampling while spread is wide, within
                               this budget (default 2) */
    const char *dump_dir;   /* --dump: write output buffers here */
    uint64_t seed;          /* for init random */
    vk_sample_fn on_sample; /* live callback (TUI); may be NULL */
    void *user;
    volatile int *cancel;   /* set non-zero to stop sampling early */
} run_options;

void run_options_default(run_options *o);

/* The clock probe's time (vk_clock.h: calibrate's `fp latency` chain) at
 * p's clock, for run_options.clock_expected_us; 0 when p names no clock or
 * FP latency (then no check can be made). */
double clock_probe_expected_us(const device_profile *p, int is_cpu);

int vk_run_kernel(vk_ctx *ctx, const plan_kernel *k, const shader_module *m,
                  const reflection *refl, const run_options *opt,
                  measurement *out, cw_error *err);

/* Compile-time facts the driver reports for a kernel's pipeline through
 * VK_KHR_pipeline_executable_properties (registers, subgroup size, binary
 * size, ...), for the occupancy model.  The pipeline is built as the
 * runner would (spec constants applied) but not run.  Returns 0 with
 * available = 0 and the reason when the device lacks the extension (e.g.
 * lavapipe); CW_STATUS_ENV when the pipeline cannot be built. */
typedef struct vk_pipeline_stat {
    char name[64];
    double value;
} vk_pipeline_stat;

typedef struct vk_pipeline_facts {
    int available;
    char reason[256];
    uint32_t registers;      /* per invocation; 0 when the driver is silent */
    uint32_t subgroup_size;  /* of the compute executable; 0 unknown */
    vk_pipeline_stat stats[48];
    size_t nstats;
} vk_pipeline_facts;

int vk_pipeline_facts_get(vk_ctx *ctx, const plan_kernel *k,
                          const shader_module *m, const reflection *refl,
                          vk_pipeline_facts *out, cw_error *err);

#endif
