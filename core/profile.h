/* profile.h - a device profile: the ceilings and limits the model uses.
 *
 * Contract: a profile is plain data.  Sources, in order of preference:
 * a measured profile from `clockwork calibrate` (cached under
 * $XDG_CACHE_HOME/clockwork/profiles/<uuid>-<driver>.json), a built-in entry
 * (datasheet or a committed calibration), or one derived from the Vulkan
 * limits alone ("limits-only").  A field that is unknown is < 0 (rates) or 0
 * (counts) and the model says what it assumed instead.
 * profile_load_file()/profile_save_file() read and write the JSON form; a
 * malformed file is an error with file:line:column, never a crash.
 */
#ifndef CW_PROFILE_H
#define CW_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum {
    PROFILE_LIMITS_ONLY = 0,
    PROFILE_BUILTIN,
    PROFILE_CALIBRATED,
} profile_source;

typedef struct device_limits {
    uint32_t max_wg_size[3];
    uint32_t max_wg_invocations;
    uint32_t max_wg_count[3];
    uint32_t max_shared_bytes;
    uint32_t max_push_bytes;
    uint64_t max_storage_range;
    uint32_t subgroup_size;
} device_limits;

/* What a profile describes.  The model's CPU-device terms (one thread per
 * workgroup, barrier switches) apply to a CPU Vulkan device (lavapipe); a
 * native CPU profile is the roofline of native kernels (model_cpu.h).  In
 * the JSON form both CPU kinds are "is_cpu": true, told apart by the
 * driver: "native" is this CPU running native kernels. */
typedef enum device_kind {
    DEVICE_KIND_GPU = 0,
    DEVICE_KIND_CPU_VULKAN,  /* a CPU device through Vulkan (lavapipe) */
    DEVICE_KIND_NATIVE_CPU,  /* this CPU running native kernels */
} device_kind;

typedef struct device_profile {
    char name[256];          /* device name as Vulkan reports it */
    char key[64];            /* built-in key, e.g. "h200", "lavapipe" */
    char driver[128];
    char uuid[40];           /* hex pipeline-cache / device UUID; "" if unknown */
    char date[32];           /* when measured (calibrated / built-in) */
    char command[256];       /* command that produced it */
    profile_source source;
    device_kind kind;

    device_limits limits;

    /* ceilings; < 0 when unknown */
    double dram_gbs;         /* copy bandwidth counting read + write, GB/s */
    double dram_read_gbs;
    double dram_write_gbs;
    double l2_gbs;
    double l2_sector_gops;   /* one-sector requests served by L2 per second
                                (G, whole device): lanes 32 B apart */
    double l2_store_run_gops; /* subgroup store requests per second, all
                                 units, of a run of one invocation's
                                 adjacent scalar stores that the hardware
                                 receives as separate requests, each
                                 writing part of the sectors the run
                                 completes (H200 run 8 probe mg_st_s4:
                                 13.1 G/s); null: not priced */
    double l2_line_gops;     /* line requests (tag lookups) served by L2 per
                                second (G, whole device) when every lane of
                                a request reads 4 bytes of its own line:
                                what an L1-missed hashed gather costs L2 */
    double tlb_miss_gops;    /* translations missed past the reach, per
                                second (G, whole device): each adds
                                1/rate to its L1-missed line's L2 lookup
                                (calibrate `tlb span` rows,
                                collectors/calibrate_tlb.h) */
    double tlb_reach_mib;    /* MiB of pages the translation caches hold
                                for a unit's scattered requests; < 0
                                unknown (the TLB term is then off) */
    double l2_partial_write_gops; /* stores writing part of a sector, served
                                     by L2 per second (G, whole device): a
                                     lane's 4 bytes at its own sector */
    double l2_partial_stream_gops; /* the same into sectors L2 does not
                                      hold valid (never read, assembled
                                      from partial stores, streaming over
                                      >> L2): a lane's 4 bytes a line apart */
    double shared_gbs;       /* aggregate workgroup-memory bandwidth */
    double fp32_gflops;      /* FMA = 2 FLOPs */
    double fp16_gflops;
    double fp64_gflops;
    double int32_gops;
    double sfu_gops;         /* transcendentals, sqrt, division */
    double atomic_gops;      /* distinct-address atomics */
    double launch_us;        /* fixed cost per dispatch */
    double launch_memory_us; /* a one-workgroup dispatch whose invocations
                                each load and store a word (calibrate's
                                `launch memory`): the launch of a kernel
                                that touches memory, its round trip in */
    double timestamp_res_ns;
    double l1_gbs;           /* aggregate L1 hit bandwidth (all units) */
    double l1_row_lines_gops;    /* L1 lines looked up per second (G, all
                                    units) when every lane of a request reads
                                    its own line at one offset in the line
                                    (lanes 128 B apart) */
    double l1_spread_lines_gops; /* the same with the lanes' lines at
                                    distinct offsets (lanes 132 B apart):
                                    their ratio is how many lines one L1
                                    cycle serves when their bytes fall in
                                    different parts of the line */
    double atomic_shared_gops; /* distinct-address workgroup-memory atomics */
    double issue_glanes;     /* GPU: counted SPIR-V instructions retired per
                                second, lane-instructions (G/s) */

    /* machine shape; 0 when unknown */
    uint32_t units;              /* SMs / CUs / CPU cores */
    uint32_t max_threads_per_unit;
    uint32_t max_groups_per_unit;
    uint32_t shared_per_unit;    /* bytes */
    uint32_t regs_per_unit;      /* 32-bit registers */
    uint64_t l2_bytes;
    uint32_t sector_bytes;       /* memory transaction granule (32 on NVIDIA) */
    uint32_t line_bytes;         /* cache line (128 NVIDIA, 64 CPU) */
    uint32_t shared_banks;       /* 32 on NVIDIA */
    double mem_latency_ns;       /* DRAM latency for Little's law */
    double clock_ghz;
    /* cache geometry for the sector-level simulation (verifier/cachesim.h);
     * the L1 and L2 share sector_bytes and line_bytes */
    uint64_t l1_bytes;           /* L1 data cache per unit with no workgroup
                                    memory in use */
    int l1_shared_unified;       /* workgroup memory is carved out of
                                    l1_bytes: -1 unknown, 0 no, 1 yes */
    uint32_t l1_ways;            /* associativity; 0 unknown */
    uint32_t l2_ways;
    int l1_write_back;           /* -1 unknown, 0 write-through without
                                    allocation (NVIDIA), 1 write-back with
                                    write-allocate (CPUs) */
    uint32_t reg_alloc_granule;  /* registers given to a subgroup in blocks
                                    of this many (256 on NVIDIA) */
    uint32_t dram_page_bytes;    /* DRAM page (row) size for locality; 0
                                    unknown: pages not modelled */
    uint32_t dram_open_pages;    /* DRAM pages (rows) the device keeps open
                                    at once (its banks): a group's page
                                    stays open between two of its touches
                                    while the device's other groups open
                                    fewer; 0 unknown: the sample's page
                                    window alone */
    int partial_write_fill;      /* a write covering part of a sector not in
                                    L2 reads it from DRAM first (ECC per
                                    sector): -1 unknown, 0 no, 1 yes */
    uint32_t atomic_unit_bytes;  /* global atomics serialise per block of
                                    this many bytes (the L2 line on NVIDIA);
                                    0 unknown: per address */
    uint32_t atomic_slice_bytes; /* global atomics on lines of one block of
                                    this many bytes queue at one L2 atomic
                                    unit (H200 probes: 1 KiB); 0 unknown:
                                    no slice queue modelled */
    uint32_t full_unroll_trips;  /* the driver's compiler fully unrolls a
                                    loop whose trip count is a constant up
                                    to this many (and folds what then
                                    depends on constants only); 0 unknown:
                                    the evaluator's counts are used as
                                    written (verifier/model_compiled.h) */
    uint32_t merge_buffer_bytes; /* the driver's compiler merges an
                                    invocation's adjacent, provably aligned
                                    scalar loads or stores of a buffer into
                                    one access of up to this many bytes; 0
                                    none or unknown: as written (H200 run 8:
                                    0, four scalar stores 2.5x one vec4's
                                    time; verifier/eval_merge.h) */
    uint32_t merge_shared_bytes; /* the same for workgroup memory (H200 run
                                    8: 16, LDS.128: four scalar loads with
                                    lanes 16 B apart as fast as one vec4) */
    int shared_wide_broadcast;   /* a workgroup-memory access wider than a
                                    word: 1 the request's distinct words
                                    decide its passes (lanes of different
                                    phases reading the same words share
                                    them), 0 each phase of banks x 4 bytes
                                    is served on its own; -1 unknown: as 0
                                    (bench/gpu/probes/merge.json mg_sh_v4h) */
    uint32_t l2_partitions;      /* the L2 is split in this many partitions,
                                    each caching what its units read (data
                                    every unit reads is held once per
                                    partition): 2 on A100/H100/H200; 0
                                    unknown (shared-table L2 hits off) */
    uint32_t atomic_unit_queues; /* the lines of one atomic_slice_bytes
                                    block alternate between this many
                                    queues at its L2 atomic unit (line i
                                    to queue i mod n); 0: unknown (one) */

    /* "costs": latencies and per-operation costs; < 0 when unknown.
     * Each is measured by one `clockwork calibrate` microbenchmark
     * (docs/model.md, "Profile fields"). */
    double l1_latency_ns;        /* dependent load that hits L1 */
    double l2_latency_ns;        /* dependent load that hits L2 */
    double shared_latency_ns;    /* dependent workgroup-memory load */
    double fp_latency_cycles;    /* dependent FP32 FMA */
    double atomic_same_ns;       /* global atomics to one address: time
                                    between two requests */
    double atomic_shared_same_ns;/* workgroup-memory atomics to one
                                    address, per lane */
    int atomic_combine;          /* same-address global atomics of one
                                    subgroup instruction are one request:
                                    -1 unknown, 0 no, 1 yes */
    int atomic_shared_combine;   /* same for workgroup memory */
    double barrier_ns;           /* one workgroup barrier on the latency
                                    path */
    double subgroup_op_ns;       /* one subgroup reduction/shuffle/ballot on
                                    the latency path */
    double dram_page_ns;         /* device time one DRAM page opening adds
                                    (1 / the whole device's activation rate
                                    beyond streaming) */
    double atomic_line_ns;       /* global atomics on distinct words of one
                                    line (atomic_unit_bytes): time between
                                    two atomics on that line */
    double atomic_request_ns;    /* global atomics: time one line request
                                    of an instruction adds at its L2 atomic
                                    unit, beyond its words */
    double atomic_word_ns;       /* global atomics: time per distinct word
                                    with one lane of an instruction (no
                                    collision, not coalesced) at one
                                    atomic_slice_bytes block */
    double atomic_collide_ns;    /* the same per distinct word that two or
                                    more lanes of the instruction share */
    double group_start_ns;       /* device time per workgroup of an empty
                                    256-invocation kernel (whole device:
                                    the rate workgroups start and retire) */
    double loop_trip_cycles;     /* cycles one trip of a loop the compiler
                                    keeps adds to a dependent chain beyond
                                    its body (calibrate `loop trip
                                    latency`: one FMA a trip, minus
                                    fp_latency_cycles) */
    double loop_trip_slots;      /* issue slots, in FP32-FMA lane-slots,
                                    one lane's loop trip costs beyond its
                                    body (calibrate `loop trip issue`) */
    double dram_random_read_bytes;  /* an isolated random 4-byte read costs
                                       the time of this many bytes at
                                       dram_read_gbs */
    double dram_walk_fetch_bytes;   /* a per-lane row walk over many rows
                                       (every lane its own 2 KiB row, vec4
                                       loads, rows >> L2): the read time
                                       of one fetch block (l2_fetch_bytes)
                                       whose page the other rows closed, in
                                       bytes at dram_read_gbs (calibrate
                                       `dram row walk`) */
    double dram_random_write_bytes; /* an isolated random 4-byte store: this
                                       many bytes at dram_gbs (read-modify-
                                       write included) */
    double l2_fetch_bytes;  /* what L2 reads from DRAM for one missed
                               sector: the aligned block of this many bytes
                               around it (a power of two, sector..line;
                               calibrate `dram sector reads`); < 0 unknown:
                               the sector alone */

    /* "cpu_costs": the CPU Vulkan device's (lavapipe) generated-code costs;
     * < 0 when unknown.  Cycles are of one core. */
    double cpu_cycles_per_instruction;   /* one counted instruction on one
                                            vector of subgroup_size lanes
                                            (those of no class below when
                                            a class's cost is known) */
    double cpu_cycles_per_fp_instruction;  /* FP: FLOPs / 2 of them */
    double cpu_cycles_per_int_instruction; /* the evaluator's int_ops */
    double cpu_cycles_per_sfu_instruction; /* its sfu_ops */
    double cpu_cycles_per_storage_lane;  /* one lane x 4 bytes of a buffer
                                            access (bounds-checked, scalar) */
    double cpu_cycles_per_shared_lane;   /* same, workgroup memory */
    double cpu_ns_per_barrier_lane;      /* coroutine switch per invocation */
    double cpu_ns_per_group;             /* workgroup start */
    double cpu_cycles_per_subgroup;      /* running one subgroup-size
                                            vector of a workgroup
                                            (llvmpipe's loop over them) */
    double cpu_cycles_per_chain_step;    /* one dependent FP step (a loop trip) */
    double cpu_fp16_conversions_per_flop;/* FP16 emulated through FP32 */
} device_profile;

void profile_init(device_profile *p); /* everything unknown */
int profile_load_file(const char *path, device_profile *out, cw_error *err);
int profile_load_text(const char *path, const char *text, unsigned long len,
                      device_profile *out, cw_error *err);
int profile_save_file(const device_profile *p, const char *path,
                      cw_error *err);

/* Built-in profiles: "lavapipe" (derived from this CPU at run time),
 * "h200" (committed calibration). NULL name lists nothing; returns 0 on
 * found, -1 for an unknown key and for a built-in whose embedded file
 * does not load (a build from an edited profiles/<key>.json: the problem,
 * with its line, goes to stderr). */
int profile_builtin(const char *key, device_profile *out);
/* The JSON text of profiles/<key>.json as built into the binary
 * (core/profile_embed.c), or NULL.  The built-ins are loaded from it. */
const char *profile_embedded(const char *key);
/* Keys of the built-ins, NULL-terminated. */
const char *const *profile_builtin_keys(void);

/* Cache path for a device: $XDG_CACHE_HOME or ~/.cache. */
int profile_cache_path(const char *uuid, const char *driver, char *buf,
                       unsigned long size);

const char *profile_source_name(profile_source s);

/* First value of "key : value" in /proc/cpuinfo into buf, or "". */
void profile_cpuinfo_field(const char *key, char *buf, size_t n);

#endif
