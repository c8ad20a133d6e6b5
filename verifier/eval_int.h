/* eval_int.h - internals shared by the evaluator's files:
 *   eval.c          the interpreter: one workgroup, all its invocations in
 *                   lock-step between barriers (eval_group_run)
 *   eval_dispatch.c eval_run: which workgroups to execute, scaling their
 *                   results into kernel_counts
 *   checks_dyn.c    the dynamic checks: records -> findings
 * Nothing here is used outside verifier/eval*.c and checks_dyn.c.
 */
#ifndef CW_EVAL_INT_H
#define CW_EVAL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "bufinit.h"
#include "eval.h"

#define EV_NONE 0xffffffffu
#define EV_MAX_LANES 1024
#define EV_MAX_FLAT 4096      /* components of one SSA value at most */
#define EV_WG_CANDIDATES 16

/* One scalar component.  Integers: the unsigned interval [lo, hi] of the
 * value's bits (width-masked); known when lo == hi.  Floats: lo = bits when
 * known (hi == lo), else lo != hi.  Pointers use two components: the
 * variable index and the offset interval (signed). */
typedef struct ev_val {
    uint64_t lo, hi;
} ev_val;

enum { EVK_OTHER = 0, EVK_BOOL, EVK_INT, EVK_FLOAT, EVK_PTR };

typedef struct ev_type {
    uint32_t flat;    /* scalar components; EV_NONE when too large/opaque */
    uint8_t kind;     /* of the scalar (for scalars and vectors) */
    uint8_t width;    /* bits of the scalar */
    uint8_t sign;
    uint8_t is_vec;   /* scalar or vector of kind */
} ev_type;

/* Memory classes. */
enum {
    EVM_FUNCTION = 0, /* per invocation, component-addressed */
    EVM_PRIVATE,
    EVM_SHARED,       /* per workgroup, component-addressed */
    EVM_INPUT,        /* builtins */
    EVM_STORAGE,      /* byte-addressed, contents unknown */
    EVM_UNIFORM,
    EVM_PUSH,         /* byte-addressed, contents from the plan */
    EVM_OTHER,
};

typedef struct ev_shm {       /* per shared component: race tracking */
    uint32_t w_epoch, r_epoch;  /* workgroup barrier intervals */
    uint32_t w_sep, r_sep;      /* the accessing subgroup's subgroup-barrier
                                   count at the (last) access */
    uint32_t w_inst, r_inst;
    int16_t w_lane, r_lane;
    int16_t r_sg;               /* subgroup of every reader; -1: several */
    uint8_t init, w_atomic, r_multi, r_atomic;
} ev_shm;

typedef struct ev_var {
    uint32_t id;
    uint32_t pointee;
    uint32_t storage;
    int cls;
    uint32_t nflat;           /* component-addressed size */
    const char *name;
    int builtin;
    /* byte-addressed buffers */
    uint32_t set, binding;
    int buf_known;            /* plan gives its size */
    uint64_t buf_bytes;
    uint64_t rt_base;         /* offset of the trailing runtime array */
    uint32_t rt_stride;       /* 0: no runtime array */
    uint32_t rt_elem;         /* its element type id */
    uint64_t fixed_bytes;
    int fp_slot;              /* footprint slot base (2 per buffer) */
    uint8_t *image;           /* buffers: contents the plan gives (bytes
                                 image_bytes; NULL: unknown) */
    uint64_t image_bytes;
    const plan_buffer *peek;  /* buffers: random contents read lazily
                                 (eval_options.runner_contents); NULL: no */
    bufinit_elem peek_elem;
    /* storage */
    ev_val *mem;              /* function/private: lanes x nflat;
                                 shared: nflat */
    ev_shm *shm;
    int unknown_store;        /* shared: a store at an unknown address */
    uint32_t settled_epoch;   /* shared: the barrier interval in which every
                                 element was seen initialised and unwritten
                                 (0: not known) */
    uint32_t marked_epoch;    /* shared: every element marked read in it */
} ev_var;

/* One static access (load/store/atomic) of a byte-addressed or shared
 * variable. */
typedef struct ev_access_def {
    uint32_t inst;            /* instruction index */
    uint32_t var;             /* ev_var index, EV_NONE until seen */
    int is_store, is_atomic, is_load;
    uint32_t bytes;           /* per execution */
    uint32_t elem_bytes;      /* element size for index reporting */
    int line;
} ev_access_def;

/* Loads whose chains one lane runs are followed per lane (ev_acc.chain):
 * at most this many, the first in the module. */
#define EV_CHAIN_LOADS 256

/* Per group per access statistics. */
typedef struct ev_acc {
    double count;             /* lane executions */
    double chain;             /* the most executions of it by one
                                 invocation of the group (its longest
                                 chain of steps); merged over groups:
                                 summed like count */
    uint32_t peer[CW_CHAIN_PEERS]; /* the other loads that invocation
                                 runs: access + 1, 0 none; in one group
                                 most executed first, merged (first seen
                                 kept, executions summed) in no order */
    double peer_execs[CW_CHAIN_PEERS]; /* their executions by it (merged:
                                 summed like count) */
    int idx_any, idx_unknown;
    int64_t idx_min, idx_max;
    int64_t off_min, off_max;  /* byte offsets of those extremes */
    int64_t stride[4];
    double stride_n[4];
    int nonuniform;
    double uniform_execs, execs;
    /* out of bounds */
    double oob_count;
    int oob_certain;
    int64_t oob_idx_min, oob_idx_max;
    uint32_t oob_gid_min[3], oob_gid_max[3];
    uint32_t var;
} ev_acc;

/* A byte interval [lo, hi). */
typedef struct ev_run {
    int64_t lo, hi;
} ev_run;

typedef struct ev_runs {
    ev_run *r;
    size_t n, cap;
    int inexact;              /* contains an unknown-offset hull */
} ev_runs;

/* ---- records for the dynamic checks (deduplicated, first wins) ---- */

typedef struct ev_bar_rec {
    uint32_t inst;            /* a barrier that part of the group reached */
    uint32_t other_inst;      /* other barrier the rest waits at, EV_NONE */
    uint32_t ret_inst;        /* where the others returned, EV_NONE */
    uint32_t reached, missing;/* invocations */
    uint32_t lane_reached, lane_missing;
    uint32_t group[3];
    int certain;
} ev_bar_rec;

typedef struct ev_race_rec {
    uint32_t inst_a, inst_b;  /* earlier access, later access */
    uint32_t sub_bar;         /* a subgroup barrier between them that orders
                                 only one subgroup, EV_NONE */
    int lane_a, lane_b;
    int write_write;
    uint32_t var, comp;
    uint32_t group[3];
    int certain;
} ev_race_rec;

typedef struct ev_uninit_rec {
    uint32_t inst;
    uint32_t var, comp;
    int lane;
    uint32_t group[3];
    int certain;
    uint32_t nlanes;
} ev_uninit_rec;

typedef struct ev_arr_rec {   /* fixed-size array index out of range */
    uint32_t inst;
    uint32_t var;
    int64_t idx_min, idx_max;
    uint64_t length;
    int lane;
    uint32_t group[3];
    int certain;
    int is_store;
} ev_arr_rec;

/* Results of one executed workgroup. */
typedef struct ev_group {
    uint32_t g[3];
    uint64_t sig;
    double *icount;           /* lane executions per instruction */
    ev_acc *acc;              /* per access def */
    ev_runs *fp;              /* per footprint slot */
    double active;            /* invocations with a side effect */
    double barriers;          /* barrier instances (per workgroup) */
    double lane_instr_most;   /* instructions (as the evaluator steps
                                 them) of the lane that ran the most */
    double lane_instr_mean;   /* ... of the executed lanes on average */
    double steps;
    int budget_hit;
    int unknown_branch;
    int unknown_select;       /* an if on buffer contents was decided */
    double skipped;           /* loop iterations accounted without running */
} ev_group;

typedef struct ev_ctx ev_ctx;

/* ---- eval.c ---- */
ev_ctx *ev_ctx_new(const spv_module *m, const reflection *r,
                   const plan_kernel *k, const device_profile *p,
                   const eval_options *o, char *why, size_t whylen);
void ev_ctx_free(ev_ctx *c);
/* Executes workgroup g; fills out (allocated inside, ev_group_free). */
void ev_group_run(ev_ctx *c, const uint32_t g[3], ev_group *out);
void ev_group_free(ev_ctx *c, ev_group *g);
double ev_steps_left(const ev_ctx *c);
/* Whether a group runs fewer lanes than it has (lane sampling: counts
 * scaled by lanes / lanes executed). */
int ev_lanes_sampled(const ev_ctx *c);

/* Accessors used by eval_dispatch.c and checks_dyn.c. */
typedef struct ev_info {
    const spv_module *m;
    const reflection *r;
    const plan_kernel *k;
    uint32_t local[3];
    uint32_t lanes;
    uint32_t subgroup;
    size_t ninsts;
    ev_var *vars;
    size_t nvars;
    ev_access_def *acc;
    size_t nacc;
    int nfp;                  /* footprint slots: 2 per buffer var */
    /* per instruction static costs (per lane execution) */
    float *flops16, *flops32, *flops64, *sfu, *intops, *instr;
    uint8_t *is_atomic;
    /* records */
    ev_bar_rec *bars;   size_t nbars;
    ev_race_rec *races; size_t nraces;
    ev_uninit_rec *uninit; size_t nuninit;
    ev_arr_rec *arrs;   size_t narrs;
    /* assumptions (strings, deduplicated) */
    char **notes; size_t nnotes;
    int estimated;
    int control_from_contents; /* a branch or loop exit was decided on
                                  buffer contents: the counts under it
                                  are the evaluator's assumption */
    int fp_chains;
    /* workgroup axes whose middle groups the probes at the ends do not
       speak for (eval_wgdep.c): bit d, with the instruction and reason,
       and group ids that constants in comparisons single out */
    uint8_t wg_nm;
    uint32_t wg_nm_inst[3];
    const char *wg_nm_why[3];
    uint32_t wg_cand[3][EV_WG_CANDIDATES];
    int wg_ncand[3];
} ev_info;

ev_info *ev_ctx_info(ev_ctx *c);
void ev_note(ev_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- checks_dyn.c ---- */
/* Turns the merged access stats (per access def, over the dispatch) and
 * the records into findings on kr. */
void checks_dyn_report(const ev_info *info, const ev_acc *merged,
                       kernel_report *kr);

/* What an id's value depends on (flow-insensitive), for messages. */
enum { DEP_LID = 1, DEP_GID = 2, DEP_WG = 4, DEP_DATA = 8, DEP_PUSH = 16,
       DEP_SUB = 32 };
uint8_t ev_dep_of(const ev_ctx *c, uint32_t id);
int ev_fp_chains(ev_ctx *c, const double *icount);
void ev_runs_normalize(ev_runs *r);

void ev_comp_name(const ev_info *info, uint32_t vi, uint32_t comp, char *buf,
                  size_t n);

/* Small helpers shared by the files. */
int ev_inst_line(const spv_module *m, uint32_t inst);
const char *ev_type_name(const spv_module *m, uint32_t type_id);

#endif
