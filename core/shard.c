/* shard.c - see shard.h. */
#include "shard.h"
#include "alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"

static int parse_u32(const char *s, size_t len, uint32_t *out)
{
    if (len == 0 || len > 10)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > 0x7fffffffu)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int bad_shard(cw_error *err, const char *arg)
{
    cw_error_set(err, NULL, 0, 0,
                 "invalid --shard '%s': give I/N with 0 <= I < N (shards count from 0: "
                 "0/4 ... 3/4), auto, or auto/N", arg);
    return CW_STATUS_INPUT;
}

static int shard_auto(const char *arg, const char *count_text, cw_env_fn env, void *user,
                      shard_spec *out, cw_error *err)
{
    uint32_t given = 0;
    if (count_text && (parse_u32(count_text, strlen(count_text), &given) || given == 0))
        return bad_shard(err, arg);
    launch_rank r;
    int rc = launch_detect_rank(env, user, &r, err);
    if (rc)
        return rc;
    if (!r.found) {
        if (given > 1) {
            cw_error_set(err, NULL, 0, 0,
                         "--shard %s: no launcher variable gives this process's index "
                         "(SLURM_PROCID, OMPI_COMM_WORLD_RANK, PMIX_RANK, "
                         "JOB_COMPLETION_INDEX, ...); give it explicitly: --shard I/%u",
                         arg, given);
            return CW_STATUS_INPUT;
        }
        out->index = 0;
        out->count = 1;
        snprintf(out->source, sizeof out->source, "none");
        return 0;
    }
    if (r.count < 0 && !given) {
        cw_error_set(err, NULL, 0, 0,
                     "--shard auto: %s=%ld gives the index but no count; give the count: "
                     "--shard auto/N", r.index_var, r.index);
        return CW_STATUS_INPUT;
    }
    if (r.count > 0 && given && (uint32_t)r.count != given) {
        cw_error_set(err, NULL, 0, 0, "--shard %s: %s=%ld disagrees with the count %u", arg,
                     r.count_var, r.count, given);
        return CW_STATUS_INPUT;
    }
    uint32_t n = given ? given : (uint32_t)r.count;
    if ((uint32_t)r.index >= n) {
        cw_error_set(err, NULL, 0, 0, "--shard %s: %s=%ld is not below the count %u", arg,
                     r.index_var, r.index, n);
        return CW_STATUS_INPUT;
    }
    out->index = (uint32_t)r.index;
    out->count = n;
    snprintf(out->source, sizeof out->source, "%s/%s", r.index_var,
             r.count_var ? r.count_var : "--shard");
    return 0;
}

int shard_parse(const char *arg, cw_env_fn env, void *user, shard_spec *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    out->count = 1;
    snprintf(out->source, sizeof out->source, "none");
    if (!arg)
        return 0;
    if (!strcmp(arg, "auto"))
        return shard_auto(arg, NULL, env, user, out, err);
    if (!strncmp(arg, "auto/", 5))
        return shard_auto(arg, arg + 5, env, user, out, err);
    const char *slash = strchr(arg, '/');
    uint32_t i, n;
    if (!slash || parse_u32(arg, (size_t)(slash - arg), &i) ||
        parse_u32(slash + 1, strlen(slash + 1), &n) || n == 0 || i >= n)
        return bad_shard(err, arg);
    out->index = i;
    out->count = n;
    snprintf(out->source, sizeof out->source, "--shard");
    return 0;
}

/* FNV-1a, then the splitmix64 finaliser so that names differing in their
 * last character still spread over every shard. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t shard_hash(const char *plan_path, const char *name, uint32_t occurrence)
{
    char *norm = identity_plan_path(plan_path ? plan_path : "");
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv(h, norm, strlen(norm) + 1);
    h = fnv(h, name ? name : "", strlen(name ? name : "") + 1);
    if (occurrence) { /* the first of a name hashes as plan + name alone */
        char num[16];
        int len = snprintf(num, sizeof num, "#%u", occurrence);
        h = fnv(h, num, (size_t)len);
    }
    free(norm);
    return mix(h);
}

void shard_plan_build(const shard_spec *s, const plan *plans, size_t nplans, shard_plan *out)
{
    memset(out, 0, sizeof *out);
    out->spec = *s;
    for (size_t p = 0; p < nplans; p++)
        out->nkernels += plans[p].nkernels;
    out->mine = xcalloc(out->nkernels + 1, 1);
    out->occurrence = xcalloc(out->nkernels + 1, sizeof *out->occurrence);
    out->plan_paths = xcalloc(nplans + 1, sizeof *out->plan_paths);
    out->nplans = nplans;
    uint64_t set = 0xcbf29ce484222325ULL;
    size_t g = 0;
    for (size_t p = 0; p < nplans; p++) {
        out->plan_paths[p] = identity_plan_path(plans[p].path);
        identity_plan_occurrences(&plans[p], out->occurrence + g);
        for (size_t i = 0; i < plans[p].nkernels; i++, g++) {
            uint64_t h = shard_hash(out->plan_paths[p], plans[p].kernels[i].name,
                                    out->occurrence[g]);
            out->mine[g] = shard_of_hash(h, s->count) == s->index;
            set = fnv(set, &h, sizeof h);
        }
    }
    snprintf(out->set_id, sizeof out->set_id, "%016llx", (unsigned long long)mix(set));
}

void shard_plan_free(shard_plan *sp)
{
    cw_free_strv(sp->plan_paths, sp->nplans);
    free(sp->mine);
    free(sp->occurrence);
    memset(sp, 0, sizeof *sp);
}

void shard_plan_provenance(const shard_plan *sp, report_provenance *p)
{
    p->shard_index = sp->spec.index;
    p->shard_count = sp->spec.count;
    cw_set_str(&p->shard_source, sp->spec.source);
    p->kernels_total = sp->nkernels;
    cw_set_str(&p->set_id, sp->set_id);
    cw_free_strv(p->plans, p->nplans);
    p->plans = xcalloc(sp->nplans + 1, sizeof *p->plans);
    for (size_t i = 0; i < sp->nplans; i++)
        p->plans[i] = cw_strdup(sp->plan_paths[i]);
    p->nplans = sp->nplans;
}
