/* verifier.h - static analysis of one GPU kernel: SPIR-V reading, reflection,
 * the evaluator's counts, correctness checks.  No GPU is needed.
 *
 * Contract:
 *   verifier_analyze(kernel, module, profile, report, result)
 *     - reads and validates module (spirv-invalid finding on failure, with
 *       report->input_error = 1, return non-zero),
 *     - reflects bindings / push constants / spec constants / shared memory
 *       with the plan's spec values applied,
 *     - evaluates the plan's exact dispatch (the evaluator) into counts,
 *     - appends correctness findings (ARCHITECTURE §5) to report,
 *     - fills report->local_size.
 *   The model (model.h) then turns result->counts into a prediction.
 *   verifier_result owns its memory: verifier_result_free().
 *   It never runs anything and never crashes or hangs on hostile input:
 *   the evaluator has a step budget and says what it estimated.
 */
#ifndef CW_VERIFIER_H
#define CW_VERIFIER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"

/* ---- reflection ---- */

typedef enum {
    SCALAR_NONE = 0,
    SCALAR_BOOL,
    SCALAR_I8, SCALAR_U8, SCALAR_I16, SCALAR_U16,
    SCALAR_I32, SCALAR_U32, SCALAR_I64, SCALAR_U64,
    SCALAR_F16, SCALAR_F32, SCALAR_F64,
} scalar_kind;

typedef enum {
    DESC_STORAGE_BUFFER = 0,
    DESC_UNIFORM_BUFFER,
    DESC_OTHER,            /* images, samplers: reported, not supported */
} desc_kind;

typedef struct refl_binding {
    uint32_t set, binding;
    char *name;            /* instance name, else block type name */
    desc_kind kind;
    int reads, writes;     /* used by the entry point */
    uint64_t fixed_bytes;  /* block size without the runtime array */
    uint32_t array_stride; /* of the trailing runtime array; 0 if none */
    scalar_kind elem;      /* scalar type of the array element, if scalar/vector */
    uint32_t elem_components;
    uint64_t array_offset; /* byte offset of the trailing array member
                              (runtime or sized); fixed_bytes if none */
    uint32_t sized_array_stride; /* stride of a trailing sized array when
                                    there is no runtime array; else 0 */
    uint32_t var_id;       /* the OpVariable's id */
} refl_binding;

typedef struct refl_push_member {
    char *name;
    uint32_t offset;
    uint32_t size;
    scalar_kind type;
    uint32_t components;   /* 1 for scalars */
} refl_push_member;

typedef struct refl_spec {
    uint32_t id;
    char *name;            /* may be NULL */
    scalar_kind type;
    double default_value;
    double value;          /* after the plan's override */
    int overridden;
} refl_spec;

typedef struct refl_shared_var {
    char *name;
    uint64_t bytes;
    uint32_t var_id;       /* the OpVariable's id */
} refl_shared_var;

typedef struct reflection {
    char *entry;
    uint32_t local_size[3];
    refl_binding *bindings;      size_t nbindings;
    refl_push_member *push;      size_t npush;
    uint32_t push_bytes;         /* size of the push-constant block */
    refl_spec *specs;            size_t nspecs;
    refl_shared_var *shared;     size_t nshared;
    uint64_t shared_bytes;       /* total workgroup memory */
} reflection;

/* ---- counts: what the evaluator found for the plan's exact dispatch ---- */

typedef enum {
    SPACE_STORAGE = 0, /* storage buffer */
    SPACE_UNIFORM,
    SPACE_SHARED,      /* workgroup memory */
    SPACE_PUSH,
    SPACE_PRIVATE,
} mem_space;

/* Other loads recorded on an access's longest chain (access_summary). */
#define CW_CHAIN_PEERS 4

/* One static load/store/atomic instruction, summed over the dispatch. */
typedef struct access_summary {
    mem_space space;
    uint32_t set, binding;       /* storage/uniform */
    char *var;                   /* buffer or shared variable name */
    int is_store, is_atomic;
    uint32_t bytes;              /* per invocation per execution (vec4 = 16) */
    double count;                /* dynamic executions over the dispatch */
    double chain_execs;          /* summed over the workgroups: the most
                                    executions of it by one invocation of
                                    the group (a lone lane's pointer chase
                                    is its trips, not the group's average) */
    size_t chain_peer[CW_CHAIN_PEERS]; /* the other loads that invocation
                                    runs: index into accesses + 1; 0 none.
                                    No order: each group keeps its most
                                    executed, the merge over groups adds
                                    them as first seen */
    double chain_peer_execs[CW_CHAIN_PEERS]; /* their executions by it,
                                    summed over the workgroups */
    int stride_known;
    int64_t lane_stride_bytes;   /* address step between neighbouring lanes
                                    of a subgroup (x first) */
    int index_known;
    int64_t index_min, index_max;/* element index interval over all active
                                    invocations */
    double footprint_bytes;      /* distinct bytes this access touches */
    double span_bytes;           /* bytes between its lowest and highest
                                    index over the dispatch (0 unknown) */
    double copies;               /* copies of it the driver's full
                                    unrolling issues together (1: none;
                                    eval_compiled.h), for the bytes a
                                    load puts in flight */
    int line;                    /* source line, 0 if unknown */
    int uniform;                 /* same address for all lanes */
    size_t chase_of;             /* the buffer load whose returned value its
                                    address is computed from (a pointer
                                    chase step, eval_chase.h): its index
                                    into accesses + 1, the most executed
                                    such load; 0 none */
    int chase_atomic;            /* one of those loads is an atomic's
                                    returned value (an allocation from a
                                    counter) */
    uint32_t inst;               /* instruction index in the module */
    /* Simulated traffic (verifier/model_traffic.h), per lane execution
     * whose address was known in the simulated workgroups; all 0 when not
     * simulated (sim_execs == 0). */
    double sim_execs;            /* lane executions simulated, address known */
    double sim_unknown;          /* lane executions whose address depended on
                                    buffer contents (not simulated) */
    double sim_drawn;            /* of sim_execs, addresses from buffer
                                    contents drawn from their range
                                    (model_draw.h) */
    double sim_l1_sectors;       /* sectors requested at L1 per execution */
    double sim_l1_lines;         /* L1 lookup cycles per execution: lines
                                    looked up, or with the profile's line
                                    groups the most lines in one part of
                                    the line (cachesim.h l1_slots) */
    double sim_l2_sectors;       /* sectors requested at L2 per execution */
    double sim_l2_lines;         /* L2 line requests (cachesim.h l2_lines)
                                    per execution */
    double sim_l2_partial;       /* of those, stores writing part of a
                                    sector, per execution */
    double sim_l2_partial_open;  /* of those, into sectors L2 does not hold
                                    whole (being assembled), per execution */
    double sim_dram_bytes;       /* DRAM bytes read + written per execution */
    double sim_dram_pages;       /* DRAM pages opened by reads, per
                                    execution */
    double sim_dram_write_pages; /* ... by writes */
    double sim_dram_rmw_sectors; /* stores: sectors left partly written in
                                    L2 and read from DRAM to be merged
                                    before write-back, per execution */
    double sim_bank_degree;      /* workgroup memory: the simulated
                                    requests' bank passes over the passes
                                    their words need at least (1 =
                                    conflict-free); 0 when not simulated */
    double sim_lane_bytes;       /* bytes a lane moved per execution in the
                                    simulated requests it carried: its own
                                    bytes, a merged piece's (its adjacent
                                    accesses' too) when it leads one, 0 when
                                    another access carried it */
    double sim_execs_per_request;/* its lane executions per lane of the
                                    requests it carried: the trips of an
                                    unrolled loop's merged piece, else 1 */
    int sim_merge;               /* 0 as written; 1 it carries adjacent
                                    accesses the compiler merges into one
                                    (eval_merge.h); 2 merged into another's */
    double sim_tlb_lines;        /* line requests of the access's scattered
                                    requests that reach L2 (loads: L1
                                    misses; stores, atomics: all), per
                                    execution (model_tlb.h) */
    double sim_group_span;       /* bytes one step of a workgroup's
                                    scattered requests of the access spans
                                    (one execution by its subgroups; mean
                                    of the simulated steps' hulls) */
    double sim_tlb_misses;       /* of sim_tlb_lines, translations missed
                                    past the reach, per execution */
} access_summary;

/* Cost attributed to one source line (for the TUI's source view). */
typedef struct line_cost {
    int line;
    double flops;
    double bytes;
    double instructions;
} line_cost;

typedef struct kernel_counts {
    uint64_t invocations;        /* launched = groups x local size */
    uint64_t active_invocations; /* not returned early */
    uint64_t workgroups;
    double flops_fp16, flops_fp32, flops_fp64; /* FMA = 2, add/sub/mul = 1 */
    double sfu_ops;              /* div, sqrt, exp, sin, ... (counted apart) */
    double int_ops;
    double instructions;         /* all executed instructions */
    double storage_load_bytes, storage_store_bytes;
    double shared_load_bytes, shared_store_bytes;
    double uniform_load_bytes;
    double atomics;
    double subgroup_ops;         /* lane executions of subgroup operations
                                    (reductions, scans, broadcasts,
                                    shuffles, ballots) */
    double barriers;             /* per workgroup x executions */
    double subgroup_barriers;    /* lane executions of subgroup barriers
                                    that order workgroup memory */
    double chain_instr_ratio;    /* instructions of a group's busiest
                                    invocation over its average
                                    invocation's (>= 1; 0 unknown: 1) */
    /* loop control of the loops the compiler keeps (eval_compiled.h; 0
     * unless the profile says how the driver unrolls): its part of
     * instructions and int_ops, and the lane-trips of those loops */
    double loop_ctl_instructions, loop_ctl_int_ops, loop_trips;
    int budget_hit;              /* the evaluator's step budget ran out:
                                    counts are lower bounds */
    double compulsory_read_bytes;  /* distinct bytes read from buffers */
    double compulsory_write_bytes; /* distinct bytes written */
    int fp_chains;               /* independent FP dependency chains per
                                    invocation in the hottest loop (>= 1) */
    /* 32-bit registers per invocation as the driver compiled the kernel
     * (VK_KHR_pipeline_executable_properties).  Not the evaluator's: the
     * pipeline fills it in when a device is open (app/pipeline.h).
     * 0 = unknown; regs_reason then says why when the driver was asked
     * ("" = not asked: no device open, e.g. check). */
    uint32_t regs_per_invocation;
    char regs_reason[256];
    access_summary *accesses;    size_t naccesses;
    /* Traffic simulation and atomic contention (verifier/model_traffic.h);
     * sim == 0: not simulated, the model uses its static rules. */
    int sim;
    double sim_groups;           /* workgroups simulated */
    int sim_truncated;           /* a simulated group hit the step budget */
    double atomic_requests;      /* global atomic requests over the dispatch
                                    (after combining within subgroups) */
    double atomic_busiest;       /* of those, on the busiest address */
    double l2_store_runs;        /* simulated: subgroup store requests of
                                    runs of adjacent scalar stores sent as
                                    one (eval_merge.h runs), over the
                                    dispatch */
    double atomic_passes;        /* sector passes of the global atomics at
                                    the L2 atomic units over the dispatch
                                    (contention.h ct_slice_request) */
    double atomic_slice_us;      /* work of the busiest L2 atomic unit
                                    (profile atomic_slice_bytes), µs over
                                    the dispatch; 0 not modelled */
    double shared_atomic_requests; /* workgroup-memory atomic requests,
                                      a k-way bank conflict counted as k
                                      passes of the instruction's lanes */
    double shared_atomic_busiest;  /* per workgroup, on its busiest address
                                      (the worst sampled workgroup) */
    int control_from_contents;   /* a branch or loop exit depended on buffer
                                    contents: the executions under it are
                                    the evaluator's assumption (its range's
                                    end or unknown_loop_iterations) */
    int atomic_addr_unknown;     /* some atomic's address depended on buffer
                                    contents */
    double sim_drawn;            /* lane executions whose address was drawn
                                    (model_draw.h); then undrawn holds the
                                    same counts simulated without draws
                                    (the range's ends, model.c).  It owns
                                    its accesses array only (names and
                                    lines borrowed from this one). */
    struct kernel_counts *undrawn;
    /* GPU: private arrays the driver places in local memory (indexed by a
     * value that does not fold, eval_compiled.h): their loads and stores,
     * lane executions over the dispatch, not priced by the model; the
     * first such variable's name and its first lines */
    double local_accesses;
    char local_var[64];
    int local_lines[4];          /* the first is the finding's line */
    char local_where[48];        /* all of them as text: "74, 80" */
    line_cost *lines;            size_t nlines;
    confidence conf;
    char **assumptions;          size_t nassumptions;
} kernel_counts;

typedef struct verifier_result {
    int ok;                      /* module read and reflected */
    reflection refl;
    kernel_counts counts;
} verifier_result;

int verifier_analyze(const plan_kernel *k, const shader_module *m,
                     const device_profile *prof, kernel_report *out,
                     verifier_result *result);
void verifier_result_free(verifier_result *r);

/* The push-constant member a plan's "push" key names: its name in the
 * shader, else its index in declaration order ("0", "1", as spec
 * constants go by SpecId), else its byte offset ("@4").  Optimised SPIR-V
 * (glslc -O) carries no member names: index and offset still work.
 * NULL when none matches. */
const refl_push_member *verifier_push_member(const reflection *refl, const char *key);
/* The plan's value for member j of the block (by any of those keys), or
 * NULL. */
const plan_value *verifier_push_value(const reflection *refl, const plan_kernel *k,
                                      size_t j);
/* 1 when the block's members have no names (stripped debug info). */
int verifier_push_unnamed(const reflection *refl);

/* Push-constant bytes for the plan's values, typed per reflection.
 * buf must hold refl->push_bytes.  Unknown members are the verifier's
 * push-constant-unknown finding; here they are skipped. */
void verifier_push_bytes(const reflection *refl, const plan_kernel *k,
                         uint8_t *buf);

/* Byte size of a plan buffer given reflection (elements x stride +
 * fixed part, checked arithmetic).  Returns 0 ok, non-zero on overflow or
 * when the binding is unknown (err says which). */
int verifier_buffer_bytes(const reflection *refl, const plan_kernel *k,
                          const plan_buffer *b, uint64_t *bytes,
                          cw_error *err);

size_t scalar_size(scalar_kind k);
/* The element description core/bufinit.h fills a buffer with. */
struct bufinit_elem verifier_bufinit_elem(scalar_kind k);
const char *scalar_name(scalar_kind k);

#endif
