/* launch.c - see launch.h. */
#include "launch.h"
#include "alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *launch_env(cw_env_fn env, void *user, const char *name)
{
    const char *v = env ? env(name, user) : getenv(name);
    return v && *v ? v : NULL;
}

/* A decimal integer in [0, 2^31): 0 and *out, else -1. */
static int parse_index(const char *s, long *out)
{
    if (!s)
        return -1;
    const char *p = s;
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    errno = 0;
    char *end;
    long v = strtol(p, &end, 10);
    while (*end == ' ')
        end++;
    if (errno || *end || v < 0 || v > 0x7fffffffL)
        return -1;
    *out = v;
    return 0;
}

static int bad_var(cw_error *err, const char *var, const char *value, const char *what)
{
    cw_error_set(err, NULL, 0, 0, "%s='%s' is not %s", var, value, what);
    return CW_STATUS_INPUT;
}

/* SLURM_ARRAY_TASK_ID is a task id, not a position: --array=1-8:2 gives
 * ids 1, 3, 5, 7.  The position is (ID - MIN) / STEP. */
static int slurm_array(cw_env_fn env, void *user, launch_rank *r, cw_error *err)
{
    const char *id = launch_env(env, user, "SLURM_ARRAY_TASK_ID");
    const char *cnt = launch_env(env, user, "SLURM_ARRAY_TASK_COUNT");
    const char *mn = launch_env(env, user, "SLURM_ARRAY_TASK_MIN");
    const char *st = launch_env(env, user, "SLURM_ARRAY_TASK_STEP");
    long v, n, lo = 0, step = 1;
    if (parse_index(id, &v))
        return bad_var(err, "SLURM_ARRAY_TASK_ID", id, "an array task id");
    if (!cnt) {
        cw_error_set(err, NULL, 0, 0,
                     "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; "
                     "give the shard explicitly: --shard I/N");
        return CW_STATUS_INPUT;
    }
    if (parse_index(cnt, &n) || n < 1)
        return bad_var(err, "SLURM_ARRAY_TASK_COUNT", cnt, "a task count (1 or more)");
    if (mn && parse_index(mn, &lo))
        return bad_var(err, "SLURM_ARRAY_TASK_MIN", mn, "a task id");
    if (st && (parse_index(st, &step) || step < 1))
        return bad_var(err, "SLURM_ARRAY_TASK_STEP", st, "a step (1 or more)");
    if (v < lo || (v - lo) % step || (v - lo) / step >= n) {
        cw_error_set(err, NULL, 0, 0,
                     "SLURM_ARRAY_TASK_ID=%ld is not one of %ld evenly spaced ids "
                     "from %ld by %ld; shard arrays must be ranges (--array=0-%ld)",
                     v, n, lo, step, n - 1);
        return CW_STATUS_INPUT;
    }
    r->found = 1;
    r->index = (v - lo) / step;
    r->count = n;
    r->index_var = "SLURM_ARRAY_TASK_ID";
    r->count_var = "SLURM_ARRAY_TASK_COUNT";
    return 0;
}

int launch_detect_rank(cw_env_fn env, void *user, launch_rank *out, cw_error *err)
{
    static const char *const pairs[][2] = {
        {"SLURM_PROCID", "SLURM_NTASKS"},
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"PMIX_RANK", NULL},
        {"JOB_COMPLETION_INDEX", NULL},
    };
    memset(out, 0, sizeof *out);
    out->count = -1;
    if (launch_env(env, user, "SLURM_ARRAY_TASK_ID"))
        return slurm_array(env, user, out, err);
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        const char *iv = launch_env(env, user, pairs[i][0]);
        if (!iv)
            continue;
        long v, n = -1;
        if (parse_index(iv, &v))
            return bad_var(err, pairs[i][0], iv, "a rank (a non-negative integer)");
        const char *cv = pairs[i][1] ? launch_env(env, user, pairs[i][1]) : NULL;
        if (cv && (parse_index(cv, &n) || n < 1))
            return bad_var(err, pairs[i][1], cv, "a count of ranks (1 or more)");
        if (n > 0 && v >= n) {
            cw_error_set(err, NULL, 0, 0, "%s=%ld is not below %s=%ld", pairs[i][0], v,
                         pairs[i][1], n);
            return CW_STATUS_INPUT;
        }
        out->found = 1;
        out->index = v;
        out->count = n;
        out->index_var = pairs[i][0];
        out->count_var = cv ? pairs[i][1] : NULL;
        return 0;
    }
    return 0;
}

const char *launch_job_id(cw_env_fn env, void *user)
{
    static const char *const vars[] = {"SLURM_ARRAY_JOB_ID", "SLURM_JOB_ID", "PBS_JOBID",
                                       "LSB_JOBID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = launch_env(env, user, vars[i]);
        if (v)
            return v;
    }
    return NULL;
}

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *ns = xrealloc(b->s, cap);
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

static int expand_fail(sbuf *b, char **out)
{
    free(b->s);
    *out = NULL;
    return CW_STATUS_INPUT;
}

int launch_expand_output(const char *pattern, unsigned long rank, unsigned long count,
                         cw_env_fn env, void *user, char **out, cw_error *err)
{
    sbuf b = {0};
    sb_add(&b, "", 0);
    char num[64];
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') {
            sb_add(&b, p, 1);
            continue;
        }
        char c = p[1];
        if (c == '%') {
            sb_str(&b, "%");
        } else if (c == 'r' || c == 'n' || c == 'p') {
            snprintf(num, sizeof num, "%lu",
                     c == 'r' ? rank : c == 'n' ? count : (unsigned long)getpid());
            sb_str(&b, num);
        } else if (c == 'h') {
            char host[256] = "";
            if (gethostname(host, sizeof host - 1) != 0 || !host[0])
                snprintf(host, sizeof host, "localhost");
            sb_str(&b, host);
        } else if (c == 'j') {
            const char *j = launch_job_id(env, user);
            sb_str(&b, j ? j : "local");
        } else if (c == 'q' && p[2] == '{') {
            const char *close = strchr(p + 3, '}');
            if (!close || close == p + 3 || close - (p + 3) > 200) {
                cw_error_set(err, NULL, 0, 0,
                             "-o '%s': %%q needs a variable name in braces, e.g. "
                             "%%q{SLURM_PROCID}", pattern);
                return expand_fail(&b, out);
            }
            char var[256];
            snprintf(var, sizeof var, "%.*s", (int)(close - (p + 3)), p + 3);
            const char *v = launch_env(env, user, var);
            if (!v) {
                cw_error_set(err, NULL, 0, 0,
                             "-o '%s': %%q{%s} names a variable that is not set", pattern,
                             var);
                return expand_fail(&b, out);
            }
            sb_str(&b, v);
            p = close - 1; /* the loop's p++ and the one below skip to after '}' */
        } else {
            cw_error_set(err, NULL, 0, 0,
                         "-o '%s': unknown placeholder '%%%c' (%%r rank, %%n shard count, "
                         "%%h host, %%j job id, %%p pid, %%q{VAR}, %%%% a percent sign)",
                         pattern, c ? c : ' ');
            return expand_fail(&b, out);
        }
        p++;
    }
    *out = b.s;
    return 0;
}

void launch_fill_provenance(report_provenance *p, cw_env_fn env, void *user)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = 0;
    cw_set_str(&p->host, host[0] ? host : NULL);
    cw_set_str(&p->node, launch_env(env, user, "SLURMD_NODENAME"));
    cw_set_str(&p->job, launch_job_id(env, user));
    launch_rank r;
    cw_error err;
    cw_error_clear(&err);
    p->rank = launch_detect_rank(env, user, &r, &err) == 0 && r.found ? r.index : -1;
    p->valid = 1;
}
