/* shard.h - which kernels this process takes (--shard auto|I/N).
 *
 * Contract: a kernel's shard is a stable 64-bit hash of its identity
 * (identity.h: normalised plan path, name, occurrence) modulo the shard
 * count, so the same kernel lands on the same shard for the same N on
 * every run and every machine, whatever the other kernels are.  Shard
 * indices count from 0 (as SLURM_PROCID and JOB_COMPLETION_INDEX do): the
 * shards of 4 are 0/4 ... 3/4.  shard_parse() never exits: bad values are
 * CW_STATUS_INPUT with a message naming the option or variable.
 */
#ifndef CW_SHARD_H
#define CW_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "launch.h"
#include "plan.h"
#include "report.h"

typedef struct shard_spec {
    uint32_t index, count;
    char source[128]; /* "none", "--shard 1/4", "SLURM_PROCID/SLURM_NTASKS", ... */
} shard_spec;

/* arg: NULL (no --shard: 0/1), "I/N", "auto", or "auto/N" (the index from
 * the launcher, the count given: for PMIX_RANK and JOB_COMPLETION_INDEX,
 * which carry none; a launcher count that disagrees is an error).  "auto"
 * with no launcher variable set is one shard, 0/1. */
int shard_parse(const char *arg, cw_env_fn env, void *user, shard_spec *out,
                cw_error *err);

uint64_t shard_hash(const char *plan_path, const char *name, uint32_t occurrence);
static inline uint32_t shard_of_hash(uint64_t h, uint32_t count)
{
    return count ? (uint32_t)(h % count) : 0;
}

/* The assignment of every kernel of a set of plans. */
typedef struct shard_plan {
    shard_spec spec;
    size_t nkernels;        /* over every plan, in command-line then plan order */
    unsigned char *mine;    /* per kernel: taken by this shard */
    uint32_t *occurrence;   /* per kernel (identity.h) */
    char **plan_paths;      /* normalised, per plan */
    size_t nplans;
    char set_id[17];        /* hex hash of every identity, in order */
} shard_plan;

void shard_plan_build(const shard_spec *s, const plan *plans, size_t nplans,
                      shard_plan *out);
void shard_plan_free(shard_plan *sp);
/* The shard fields of a report's provenance from the plan (copies). */
void shard_plan_provenance(const shard_plan *sp, report_provenance *p);

#endif
