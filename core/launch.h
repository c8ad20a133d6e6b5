/* launch.h - what a launcher (srun, sbatch --array, mpirun, a Kubernetes
 * Indexed Job) told this process: its rank, the job, the host; report
 * names with placeholders.
 *
 * Contract: every function reads the environment only through an env_fn
 * (NULL = getenv), so the rules are pure functions that unit tests drive
 * with a table.  Bad values (a rank that is not a number, a rank beyond
 * the count) fail with CW_STATUS_INPUT and a message naming the variable;
 * nothing here exits or prints.
 */
#ifndef CW_LAUNCH_H
#define CW_LAUNCH_H

#include <stddef.h>

#include "error.h"
#include "report.h"

typedef const char *(*cw_env_fn)(const char *name, void *user);

/* The value of name through env (NULL = getenv); NULL when unset. */
const char *launch_env(cw_env_fn env, void *user, const char *name);

typedef struct launch_rank {
    int found;             /* a launcher variable was set */
    long index;            /* rank, array task position or completion index */
    long count;            /* ranks in the launch; -1 when the launcher gives none */
    const char *index_var; /* "SLURM_PROCID", ... (static string) */
    const char *count_var; /* "SLURM_NTASKS", ... or NULL */
} launch_rank;

/* This process's rank, from the first of: SLURM_ARRAY_TASK_ID with
 * SLURM_ARRAY_TASK_COUNT (position in the array: (ID - MIN) / STEP),
 * SLURM_PROCID with SLURM_NTASKS, OMPI_COMM_WORLD_RANK with
 * OMPI_COMM_WORLD_SIZE, PMIX_RANK, JOB_COMPLETION_INDEX (the last two
 * carry no count).  None set: found = 0, returns 0. */
int launch_detect_rank(cw_env_fn env, void *user, launch_rank *out,
                       cw_error *err);

/* The job id: SLURM_ARRAY_JOB_ID, SLURM_JOB_ID, PBS_JOBID, LSB_JOBID;
 * NULL when none is set. */
const char *launch_job_id(cw_env_fn env, void *user);

/* -o placeholders: %r rank, %n shard count (the caller passes the shard,
 * or without --shard the launcher's rank and count), %h host,
 * %j job id ("local" outside a job), %p process id, %q{VAR} any
 * environment variable, %% a percent sign.  An unknown placeholder or an
 * unset %q variable is CW_STATUS_INPUT.  *out is malloc'd. */
int launch_expand_output(const char *pattern, unsigned long rank,
                         unsigned long count, cw_env_fn env, void *user,
                         char **out, cw_error *err);

/* Host, node, job and rank into p (p->valid set); the shard fields are
 * the caller's. */
void launch_fill_provenance(report_provenance *p, cw_env_fn env, void *user);

#endif
