/* shard, launch, identity: the split is stable and complete (every kernel
 * exactly once for N = 1..17), the launcher variables are read in their
 * documented order, bad values are input errors naming the variable,
 * placeholders expand, duplicate names get distinct identities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "launch.h"
#include "shard.h"

/* A plan of n kernels named k0..k{n-1} (and a duplicate name every 7th). */
static void make_plan(plan *p, const char *path, size_t n)
{
    memset(p, 0, sizeof *p);
    p->path = strdup(path);
    p->kernels = calloc(n, sizeof *p->kernels);
    p->nkernels = n;
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, i % 7 == 6 ? "k%zu" : "k%zu", i % 7 == 6 ? i - 1 : i);
        p->kernels[i].name = strdup(name);
    }
}

static void free_plan(plan *p)
{
    for (size_t i = 0; i < p->nkernels; i++)
        free(p->kernels[i].name);
    free(p->kernels);
    free(p->path);
}

static void test_every_kernel_once(void **state)
{
    (void)state;
    plan ps[3];
    make_plan(&ps[0], "plans/a.json", 40);
    make_plan(&ps[1], "./plans//b.json", 25);
    make_plan(&ps[2], "c.json", 1);
    for (uint32_t n = 1; n <= 17; n++) {
        size_t total = 40 + 25 + 1;
        int *taken = calloc(total, sizeof *taken);
        for (uint32_t i = 0; i < n; i++) {
            shard_spec s = {.index = i, .count = n};
            shard_plan sp, again;
            shard_plan_build(&s, ps, 3, &sp);
            shard_plan_build(&s, ps, 3, &again);
            assert_int_equal(sp.nkernels, total);
            for (size_t g = 0; g < total; g++) {
                taken[g] += sp.mine[g];
                assert_int_equal(sp.mine[g], again.mine[g]); /* same N, same split */
            }
            assert_string_equal(sp.set_id, again.set_id);
            shard_plan_free(&sp);
            shard_plan_free(&again);
        }
        for (size_t g = 0; g < total; g++)
            assert_int_equal(taken[g], 1);
        free(taken);
    }
    for (int i = 0; i < 3; i++)
        free_plan(&ps[i]);
}

static void test_hash_stable(void **state)
{
    (void)state;
    /* the assignment is part of the report format: merging shards written
     * by one build with another's must not silently move kernels */
    assert_true(shard_hash("plans/a.json", "saxpy", 0) == shard_hash("./plans//a.json", "saxpy", 0));
    assert_true(shard_hash("a.json", "saxpy", 0) != shard_hash("a.json", "saxpy", 1));
    assert_true(shard_hash("a.json", "saxpy", 0) != shard_hash("b.json", "saxpy", 0));
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx",
             (unsigned long long)shard_hash("examples/plan.json", "saxpy", 0));
    assert_string_equal(hex, "0f8d4da0a7aa5212");
    /* 1,000 kernels over 8 shards: none empty, none over twice its share */
    unsigned counts[8] = {0};
    for (int i = 0; i < 1000; i++) {
        char name[32];
        snprintf(name, sizeof name, "kernel_%d", i);
        counts[shard_of_hash(shard_hash("plan.json", name, 0), 8)]++;
    }
    for (int i = 0; i < 8; i++)
        assert_true(counts[i] > 60 && counts[i] < 250);
}

static void test_parse_explicit(void **state)
{
    (void)state;
    shard_spec s;
    cw_error err;
    assert_int_equal(shard_parse(NULL, cw_fake_env, NULL, &s, &err), 0);
    assert_int_equal(s.count, 1);
    assert_int_equal(shard_parse("3/4", cw_fake_env, NULL, &s, &err), 0);
    assert_int_equal(s.index, 3);
    assert_int_equal(s.count, 4);
    static const char *const bad[] = {"4/4", "0/0", "1", "a/4", "1/b", "-1/4", "1/4x", "/4",
                                      "1/", "99999999999/3", "auto/0", "auto/x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cw_error_clear(&err);
        assert_int_equal(shard_parse(bad[i], cw_fake_env, NULL, &s, &err), CW_STATUS_INPUT);
        assert_non_null(strstr(err.text, "--shard"));
    }
}

typedef struct auto_case {
    const char *env[8];
    const char *arg;
    int rc;
    uint32_t index, count;
    const char *in_message; /* rc != 0: the message names this */
} auto_case;

static const auto_case auto_cases[] = {
    {{NULL}, "auto", 0, 0, 1, NULL},
    {{"SLURM_PROCID=3", "SLURM_NTASKS=4"}, "auto", 0, 3, 4, NULL},
    /* the array comes first: inside an array task SLURM_PROCID is 0 of 1 */
    {{"SLURM_PROCID=0", "SLURM_NTASKS=1", "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=3",
      "SLURM_ARRAY_TASK_MIN=0"}, "auto", 0, 2, 3, NULL},
    {{"SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1",
      "SLURM_ARRAY_TASK_STEP=2"}, "auto", 0, 2, 3, NULL},
    {{"SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1",
      "SLURM_ARRAY_TASK_STEP=2"}, "auto", CW_STATUS_INPUT, 0, 0, "SLURM_ARRAY_TASK_ID=4"},
    {{"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "PMIX_RANK=1"}, "auto", 0, 1, 2,
     NULL},
    {{"SLURM_PROCID=1", "SLURM_NTASKS=2", "OMPI_COMM_WORLD_RANK=5",
      "OMPI_COMM_WORLD_SIZE=8"}, "auto", 0, 1, 2, NULL},
    {{"PMIX_RANK=2"}, "auto", CW_STATUS_INPUT, 0, 0, "auto/N"},
    {{"PMIX_RANK=2"}, "auto/3", 0, 2, 3, NULL},
    {{"JOB_COMPLETION_INDEX=7"}, "auto/8", 0, 7, 8, NULL},
    {{"JOB_COMPLETION_INDEX=8"}, "auto/8", CW_STATUS_INPUT, 0, 0, "JOB_COMPLETION_INDEX"},
    {{"JOB_COMPLETION_INDEX=x"}, "auto/8", CW_STATUS_INPUT, 0, 0, "JOB_COMPLETION_INDEX='x'"},
    {{"SLURM_PROCID=4", "SLURM_NTASKS=4"}, "auto", CW_STATUS_INPUT, 0, 0, "SLURM_NTASKS=4"},
    {{"SLURM_PROCID=-1", "SLURM_NTASKS=4"}, "auto", CW_STATUS_INPUT, 0, 0, "SLURM_PROCID='-1'"},
    {{"SLURM_PROCID=1", "SLURM_NTASKS=0"}, "auto", CW_STATUS_INPUT, 0, 0, "SLURM_NTASKS='0'"},
    {{"SLURM_PROCID=1", "SLURM_NTASKS=4"}, "auto/3", CW_STATUS_INPUT, 0, 0, "disagrees"},
    {{NULL}, "auto/4", CW_STATUS_INPUT, 0, 0, "--shard I/4"},
};

static void test_parse_auto(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof auto_cases / sizeof *auto_cases; i++) {
        const auto_case *c = &auto_cases[i];
        shard_spec s;
        cw_error err;
        cw_error_clear(&err);
        int rc = shard_parse(c->arg, cw_fake_env, (void *)c->env, &s, &err);
        if (rc != c->rc)
            fail_msg("case %zu: rc %d, want %d (%s)", i, rc, c->rc, err.text);
        if (rc) {
            if (!strstr(err.text, c->in_message))
                fail_msg("case %zu: '%s' does not name '%s'", i, err.text, c->in_message);
            continue;
        }
        if (s.index != c->index || s.count != c->count)
            fail_msg("case %zu: %u/%u, want %u/%u", i, s.index, s.count, c->index, c->count);
    }
}

static void test_placeholders(void **state)
{
    (void)state;
    static const char *const env[] = {"SLURM_JOB_ID=77", "SLURM_ARRAY_JOB_ID=70", "X=y/z",
                                      NULL};
    char *out;
    cw_error err;
    assert_int_equal(launch_expand_output("d/r-%r-of-%n.%j.%q{X}.100%%.json", 2, 4, cw_fake_env,
                                          (void *)env, &out, &err), 0);
    assert_string_equal(out, "d/r-2-of-4.70.y/z.100%.json");
    free(out);
    assert_int_equal(launch_expand_output("%j", 0, 1, cw_fake_env, NULL, &out, &err), 0);
    assert_string_equal(out, "local");
    free(out);
    assert_int_equal(launch_expand_output("a%h", 0, 1, cw_fake_env, NULL, &out, &err), 0);
    assert_true(strlen(out) > 1);
    free(out);
    assert_int_equal(launch_expand_output("%q{NOPE}", 0, 1, cw_fake_env, (void *)env, &out, &err),
                     CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "NOPE"));
    assert_int_equal(launch_expand_output("%x", 0, 1, cw_fake_env, NULL, &out, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "'%x'"));
    assert_int_equal(launch_expand_output("%q{X", 0, 1, cw_fake_env, NULL, &out, &err),
                     CW_STATUS_INPUT);
    assert_int_equal(launch_expand_output("end%", 0, 1, cw_fake_env, NULL, &out, &err),
                     CW_STATUS_INPUT);
}

static void test_identity(void **state)
{
    (void)state;
    char *n = identity_plan_path("./a//b/./c.json");
    assert_string_equal(n, "a/b/c.json");
    free(n);
    n = identity_plan_path("/x/./y.json");
    assert_string_equal(n, "/x/y.json");
    free(n);
    /* two kernels named "dup" in one plan are two identities */
    report r;
    report_init(&r);
    const char *names[] = {"dup", "other", "dup", "dup"};
    for (int i = 0; i < 4; i++) {
        kernel_report *k = report_add_kernel(&r, names[i]);
        k->plan = strdup("p.json");
        k->plan_index = i;
    }
    kernel_report *k = report_add_kernel(&r, "dup"); /* same name, another plan */
    k->plan = strdup("q.json");
    k->plan_index = 0;
    identity_index ix;
    identity_index_build(&ix, &r, 1);
    assert_int_equal(identity_index_find(&ix, "p.json", "dup", 0), 0);
    assert_int_equal(identity_index_find(&ix, "p.json", "dup", 1), 2);
    assert_int_equal(identity_index_find(&ix, "p.json", "dup", 2), 3);
    assert_int_equal(identity_index_find(&ix, "p.json", "dup", 3), -1);
    assert_int_equal(identity_index_find(&ix, "q.json", "dup", 0), 4);
    assert_int_equal(identity_index_find(&ix, "p.json", "other", 0), 1);
    assert_int_equal(identity_index_find(&ix, "p.json", "zzz", 0), -1);
    identity_index_free(&ix);
    identity_index_build(&ix, &r, 0); /* by name only: q.json's is the 4th dup */
    assert_int_equal(identity_index_find(&ix, NULL, "dup", 3), 4);
    identity_index_free(&ix);
    char text[128];
    identity_text("p.json", "dup", 1, text, sizeof text);
    assert_string_equal(text, "p.json: dup (2nd of that name)");
    identity_text(NULL, "dup", 20, text, sizeof text);
    assert_string_equal(text, "dup (21st of that name)");
    report_free(&r);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_every_kernel_once),
             cmocka_unit_test(test_hash_stable),
             cmocka_unit_test(test_parse_explicit),
             cmocka_unit_test(test_parse_auto),
             cmocka_unit_test(test_placeholders),
             cmocka_unit_test(test_identity))
