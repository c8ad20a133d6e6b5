/* plan.h - the plan file (ARCHITECTURE §3): which kernels to analyse and run.
 *
 * Contract: plan_load() parses one JSON plan, resolves paths relative to the
 * plan file and checks every key, type and size.  It does NOT compile shaders
 * (see shader.h) and does not look inside them: checks that need the shader
 * (binding exists, push member exists, elements x stride) belong to the
 * verifier.  On failure it returns non-zero, fills err with file:line:column
 * and the problem, and leaves *out empty.  The plan owns every string and
 * array in it; plan_free() releases them.
 */
#ifndef CW_PLAN_H
#define CW_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum {
    PLAN_INIT_RANDOM = 0, /* default: seeded, reproducible */
    PLAN_INIT_ZERO,
    PLAN_INIT_RAMP,  /* 0, 1, 2, ... in the element type */
    PLAN_INIT_CONST, /* every element = init_value */
    PLAN_INIT_VALUES,/* init_values[], then zeros (core/bufinit.h) */
    PLAN_INIT_FILE,  /* the raw bytes of init_file, then zeros */
} plan_init;

struct plan_value;

typedef struct plan_buffer {
    uint32_t set;
    uint32_t binding;
    int has_bytes;    /* exactly one of has_bytes / has_elements is set */
    uint64_t bytes;
    int has_elements;
    uint64_t elements;
    plan_init init;
    double init_value; /* PLAN_INIT_CONST */
    struct plan_value *init_values; /* PLAN_INIT_VALUES (owned) */
    size_t ninit_values;
    char *init_file;   /* PLAN_INIT_FILE: resolved path (owned) */
    int line, column;  /* where the buffer object starts in the plan */
} plan_buffer;

/* A named number: push-constant member, spec constant or CPU argument. */
typedef struct plan_value {
    char *key;       /* member name, SpecId digits or spec constant name */
    double value;    /* the number as written */
    int is_integer;  /* written without fraction or exponent */
    int64_t ivalue;  /* exact value when is_integer */
    int line, column;
} plan_value;

typedef enum { PLAN_KERNEL_GPU = 0, PLAN_KERNEL_CPU } plan_kernel_kind;

typedef struct plan_kernel {
    plan_kernel_kind kind;
    char *name;
    int line, column; /* of the kernel object in the plan */
    const char *plan_path; /* the plan file (points to plan.path); may be
                              NULL: findings about plan keys name it */

    /* GPU kernels */
    char *shader;       /* as written in the plan */
    char *shader_path;  /* resolved against the plan's folder */
    char *entry;        /* default "main" */
    uint32_t workgroups[3];
    plan_value *push;
    size_t npush;
    plan_value *spec;
    size_t nspec;

    /* both kinds: buffers in plan order */
    plan_buffer *buffers;
    size_t nbuffers;

    /* CPU kernels (issue 8) */
    char *library;      /* as written */
    char *library_path; /* resolved */
    char *symbol;
    plan_value *args;   /* in plan order */
    size_t nargs;
    char *work_flops;   /* expressions over args, e.g. "2*n*n*n" */
    char *work_bytes;
    int threads;        /* 0: all online cores */

    /* both: "expect": {"min_efficiency": 0.25}; < 0 when absent */
    double min_efficiency;
} plan_kernel;

typedef struct plan {
    char *path; /* as given */
    char *dir;  /* folder that relative paths start from */
    plan_kernel *kernels;
    size_t nkernels;
} plan;

int plan_load(const char *path, plan *out, cw_error *err);
/* Same, from text in memory (used by tests and the fuzzer); path only names
 * the text in messages and anchors relative paths. */
int plan_load_text(const char *path, const char *text, size_t len, plan *out,
                   cw_error *err);
void plan_free(plan *p);

/* Lookups; NULL when absent. */
const plan_value *plan_kernel_push(const plan_kernel *k, const char *name);
const plan_buffer *plan_kernel_buffer(const plan_kernel *k, uint32_t set,
                                      uint32_t binding);

/* Closest candidate to word among candidates (Levenshtein <= 2 or a
 * prefix), or NULL.  Used for "did you mean" hints. */
const char *plan_suggest(const char *word, const char *const *candidates,
                         size_t n);

#endif
