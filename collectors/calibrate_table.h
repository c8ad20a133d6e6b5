/* calibrate_table.h - the microbenchmarks `clockwork calibrate` runs.
 *
 * Contract: cal_table() returns the rows, in the order they must run (a
 * derived row uses fields measured by rows before it).  Each row is one
 * micro-kernel that isolates one profile field: its GLSL (every kernel
 * declares the same push block, cal_push), its buffers by role, its launch
 * shape on a GPU and on a CPU device, the work one dispatch does and how
 * the time becomes the field (cal_kind).  calibrate.c runs the rows with
 * one loop; nothing else in calibrate knows a kernel.
 */
#ifndef CW_CALIBRATE_TABLE_H
#define CW_CALIBRATE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "calibrate_cpu.h"
#include "error.h"
#include "profile.h"
#include "shader.h"

/* The push block of every micro-kernel (24 bytes). */
typedef struct cal_push {
    uint32_t iters, n, stride, mask;
    float m, c;
} cal_push;

#define CAL_PUSH_GLSL                                                         \
    "layout(push_constant) uniform P { uint iters; uint n; uint stride; "     \
    "uint mask; float m; float c; };\n"

/* Buffers by role; calibrate.c creates each once, on first use. */
typedef enum {
    CAL_BUF_NONE = 0,
    CAL_BUF_SRC,          /* DRAM-sized source, pseudo-random floats */
    CAL_BUF_DST,          /* DRAM-sized destination */
    CAL_BUF_SMALL,        /* 16 KiB: results nobody reads, L1-sized reads */
    CAL_BUF_TABLE,        /* 4 MiB of words for distinct-address atomics */
    CAL_BUF_COUNTER,      /* 256 B: same-address atomics */
    CAL_BUF_CHASE_DRAM,   /* one random cycle, 4 KiB apart over >= 1 GiB */
    CAL_BUF_CHASE_L2,     /* 128 B apart over 8 MiB */
    CAL_BUF_CHASE_L1,     /* 128 B apart over 8 KiB */
    CAL_BUF_CHASE_SHARED, /* a cycle over 1024 consecutive words */
    CAL_BUF_POS,          /* 16 B, zero: where a chase stopped, so the next
                             dispatch goes on to lines not yet cached */
    CAL_BUF_COUNT
} cal_buf;

/* How a launch is sized. */
typedef enum {
    CAL_SHAPE_FIXED = 0, /* groups and iters from the row */
    CAL_SHAPE_STREAM,    /* every vec4 of the DRAM buffers once: n, iters
                            (vec4s per invocation), stride, groups derived */
    CAL_SHAPE_UNITS,     /* one workgroup per unit (SM / core), iters from
                            the row */
} cal_shape;

/* What one unit of work is counted over. */
typedef enum {
    CAL_PER_INVOCATION = 0, /* groups x local x iters x per_iter */
    CAL_PER_GROUP,          /* groups x iters x per_iter */
    CAL_PER_DISPATCH,       /* iters x per_iter */
    CAL_PER_SUBGROUP,       /* groups x ceil(local / subgroup) x iters x ... */
    CAL_PER_BYTE,           /* stream bytes x per_iter */
    CAL_PER_UNIT_LANE,      /* local x iters x per_iter: what one unit does
                               when every unit runs one workgroup */
    CAL_PER_UNIT_SUBGROUP,  /* ceil(local / subgroup) x iters x per_iter */
} cal_scope;

/* How the time t (seconds per dispatch) becomes the field. */
typedef enum {
    CAL_RATE = 0,     /* work / t x 1e-9 (GB/s, Gop/s) */
    CAL_NS,           /* t / work x 1e9 (a latency, a cost) */
    CAL_CYCLES,       /* t / work x clock (needs clock_ghz) */
    /* the rows below use the evaluator's counts of the kernel (what the
     * model itself counts), so the constant means what the model means */
    CAL_ISSUE,        /* counted lane-instructions / t x 1e-9 */
    CAL_CPU_CLASS,    /* core cycles per counted instruction per vector of
                         the row's class (the field says which); the four
                         class rows are solved together after the last
                         (calibrate_cpu.h) */
    CAL_CPU_STORAGE,  /* core cycles per buffer lane access, beyond the
                         instructions */
    CAL_CPU_SHARED,   /* the same for workgroup memory */
    CAL_CPU_BARRIER,  /* ns per barrier per invocation, beyond the
                         instructions */
    CAL_CPU_CHAIN,    /* core cycles per dependent FP step of one vector */
    CAL_CPU_FP16,     /* FP32 conversions per FP16 FLOP */
    CAL_CPU_GROUP,    /* ns per workgroup of one subgroup, beyond an
                         empty dispatch and the counted instructions */
    CAL_CPU_SUBGROUP, /* core cycles per subgroup of a workgroup: the
                         same kernel in wide workgroups against the
                         CAL_CPU_GROUP row's; corrects ns_per_group to
                         the workgroup start alone */
    CAL_DRAM_PAGE,    /* (t - accesses x sector / dram_gbs) / accesses: the
                         time a DRAM page opening adds to a sector */
    CAL_DRAM_BYTES,   /* t x the measured DRAM rate / accesses: the bytes
                         DRAM moves per isolated access (reads: the read
                         rate; writes: the copy rate, read + write) */
    CAL_FETCH_BYTES,  /* the same for one sector read per line of a dense
                         stream, as the block L2 fetches per missed
                         sector: the largest power of two from
                         sector_bytes to line_bytes not above 1.1 x the
                         bytes per read (cal_fetch_bytes) */
    CAL_WALK_BYTES,   /* t x dram_read_gbs per fetch block (l2_fetch_bytes,
                         or a sector), work counting 16-byte loads: the
                         read time of a block whose page the other rows
                         walked at once closed */
    CAL_TRIP_CYCLES,  /* t / work x clock - fp_latency_cycles: what a loop
                         trip adds to a one-FMA dependent chain */
    CAL_TRIP_SLOTS,   /* t x (fp32_gflops / 2) / work - 1: FP32-FMA issue
                         slots a lane's trip costs beyond its one FMA */
} cal_kind;

enum {
    CAL_NEED_FP16 = 1u << 0,
    CAL_NEED_FP64 = 1u << 1,
    CAL_NEED_SUBGROUP = 1u << 2, /* basic + arithmetic subgroup ops */
    CAL_GPU_ONLY = 1u << 3,
    CAL_CPU_ONLY = 1u << 4,
};

/* The `tlb span` rows: CAL_TLB_SPANS spans of the same lines, then the
 * cluster row. */
enum { CAL_TLB_SPANS = 10, CAL_TLB_CLUSTER = CAL_TLB_SPANS, CAL_TLB_ROWS };

/* Measured values that are not profile fields themselves. */
typedef struct cal_scratch {
    double atomic_one_ns;   /* global, one lane per subgroup, one address:
                               ns per request */
    double atomic_all_ns;   /* every lane on one address: ns per lane */
    double shared_one_ns;   /* workgroup memory, the same two */
    double shared_all_ns;
    double empty_dispatch_s;/* batched cost of an empty dispatch */
    double atomic_words1_ns; /* global atomics, one instruction's 32 lanes
                               on 32 distinct words of one line, every
                               warp on that line: ns per instruction */
    double atomic_words8_ns; /* the same words over 8 lines of a block */
    double atomic_collide_instr_ns; /* 32 lanes on 8 words of one line */
    double merge_buf_s4_ns; /* `merge buffer scalar` / `vec4`: ns per
                               subgroup trip of 4 adjacent aligned scalar
                               stores a lane, and of one vec4 store */
    double merge_buf_v4_ns;
    double merge_sh_s4_ns;  /* `merge shared scalar` / `vec4`: the same
                               for workgroup-memory loads, lanes 16 B apart */
    double merge_sh_v4_ns;
    double cls_cyc[CAL_CLS_N];      /* lavapipe's class rows: core cycles */
    double cls_cnt[CAL_CLS_N][CAL_CLS_N]; /* and class counts, by row */
    unsigned cls_have;              /* bit per class row measured */
    double group_narrow_ns;  /* CAL_CPU_GROUP: core ns per workgroup */
    double group_narrow_sg;  /* and its subgroups per workgroup (0: none) */
    /* the `tlb span` rows (calibrate_tlb.h), G lines/s: the same
     * L2-resident lines over growing spans; [CAL_TLB_CLUSTER]: runs of
     * 256 KiB at the start of every 2 MiB over 16 MiB (printed: which
     * translation granule the reach counts) */
    double tlb_lines_gops[CAL_TLB_ROWS];
} cal_scratch;

typedef struct cal_out {
    device_profile p;
    cal_scratch s;
} cal_out;

#define CAL_FIELD(f) offsetof(cal_out, p.f)
#define CAL_SCRATCH(f) offsetof(cal_out, s.f)

#define CAL_MASK_DRAM 0xffffffffu

typedef struct cal_bench {
    const char *name;
    const char *glsl;        /* may hold $T (type) and $E (extension line) */
    const char *type, *ext;  /* substituted for $T / $E, or NULL */
    uint32_t local;          /* local_size_x of the GLSL */
    cal_buf bufs[2];         /* bindings 0 and 1 */
    cal_shape shape;
    uint32_t groups[2];      /* [0] GPU, [1] CPU device */
    uint32_t iters[2];
    uint32_t mask[2];        /* push mask (working-set mask, words - 1);
                                CAL_MASK_DRAM: the DRAM buffers' floats - 1 */
    uint32_t stride;         /* push stride (CAL_SHAPE_FIXED) */
    float m, c;
    cal_scope scope;
    double per_iter;         /* work per scope unit per iteration */
    cal_kind kind;
    size_t field;            /* offset in cal_out of the double it sets */
    unsigned need;
    const char *unit;
    const char *what;        /* one line for the log */
} cal_bench;

const cal_bench *cal_table(size_t *n);
/* The row called name, or NULL. */
const cal_bench *cal_row_find(const char *name);
/* The row's GLSL ($T and $E replaced) compiled to m (shader_free it).
 * 0, or CW_STATUS_ENV with err. */
int cal_row_compile(const cal_bench *b, shader_module *m, cw_error *err);

/* The block L2 fetches from DRAM per missed sector, from the bytes of
 * read time one sector read per line costs in a dense stream (`dram
 * sector reads`): the largest power of two in [sector, line] not above
 * 1.1 x bytes (the 10% allow for the page openings a stream of lines
 * shares, one per 16 reads at 2 KiB pages); -1 when bytes is not
 * positive or sector/line are not powers of two with sector <= line. */
double cal_fetch_bytes(double bytes, uint32_t sector, uint32_t line);

/* `dram row walk`: t seconds for loads16 16-byte loads over rows read
 * in fetch-byte blocks, at read_gbs: the bytes of read time per block
 * (t x read_gbs / (loads16 x 16 / fetch)); -1 when an input is not
 * positive. */
double cal_walk_fetch_bytes(double t, double read_gbs, double loads16,
                            double fetch);

/* The L2 atomic unit's costs from the three `atomic ...` rows, each in ns
 * per instruction with every warp on one block: t1 = request + 32 words
 * (32 distinct words, one lane each, on one line), t8 = 8 requests + 32
 * words (the same words over 8 lines), tc = request + 8 colliding words
 * (four lanes on each of 8 words of one line).  request = (t8 - t1) / 7,
 * word = (t1 - request) / 32, collide = (tc - request) / 8; a cost that
 * cannot be derived is -1.  Returns -1 when t1 or t8 is missing, else 0,
 * or 1 when 8 lines were not slower than one (request then 0). */
int cal_atomic_unit_costs(double t1, double t8, double tc, double *request,
                          double *word, double *collide);

#endif
