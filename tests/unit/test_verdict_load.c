/* The verdict on a busy machine (core/verdict_load): table-driven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "verdict_load.h"

typedef struct lcase {
    int row;
    unsigned cpus;
    double others, steal;
    load_target target;
    double pred_us, median_us;
    div_status want;
    const char *needle;
} lcase;

static const lcase cases[] = {
    /* quiet: nothing changes */
    {__LINE__, 2, 0.1, 0, LOAD_CPU_DEVICE, 100, 200, DIV_SLOWER, "2.00×"},
    /* one of two CPUs held: up to 2× explained */
    {__LINE__, 2, 1.0, 0, LOAD_CPU_DEVICE, 100, 200, DIV_UNKNOWN, "too busy to judge"},
    {__LINE__, 2, 1.0, 0, LOAD_CPU_DEVICE, 100, 249, DIV_UNKNOWN, "up to 2.0×"},
    {__LINE__, 2, 1.0, 0, LOAD_CPU_DEVICE, 100, 400, DIV_SLOWER, "allowing for the load"},
    /* steal counts like others */
    {__LINE__, 4, 0.5, 1.0, LOAD_CPU_DEVICE, 100, 150, DIV_UNKNOWN, "stole 1.0"},
    /* ok and faster stay, with the load named */
    {__LINE__, 2, 1.0, 0, LOAD_CPU_DEVICE, 100, 100, DIV_OK, "busy machine"},
    {__LINE__, 2, 1.0, 0, LOAD_CPU_DEVICE, 100, 50, DIV_FASTER, "busy machine"},
    /* a GPU: the host's load is named only */
    {__LINE__, 2, 1.5, 0, LOAD_GPU, 100, 200, DIV_SLOWER, "GPU timestamps"},
    /* a native CPU kernel: its own verdict discounts waits */
    {__LINE__, 2, 1.5, 0, LOAD_NATIVE_CPU, 100, 200, DIV_SLOWER, "discounts"},
    /* all CPUs held: the stretch is capped (5% of the machine left) */
    {__LINE__, 2, 2.0, 0, LOAD_CPU_DEVICE, 100, 2000, DIV_UNKNOWN, "up to 20.0×"},
};

static void test_cases(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const lcase *c = &cases[i];
        prediction p;
        memset(&p, 0, sizeof p);
        p.valid = 1;
        p.time_us = c->pred_us;
        measurement m;
        memset(&m, 0, sizeof m);
        m.valid = 1;
        m.samples = 10;
        m.median_us = c->median_us;
        m.load.valid = 1;
        m.load.cpus = c->cpus;
        m.load.wall_s = 1;
        m.load.others_cpus = c->others;
        m.load.steal_cpus = c->steal;
        m.load.busy = machine_load_busy(&m.load);
        divergence d;
        memset(&d, 0, sizeof d);
        verdict_judge(&p, &m, 0.25, -1, &d);
        verdict_apply_load(&m, verdict_band(0.25, &m), c->target, &d);
        if (d.status != c->want || !strstr(d.explanation, c->needle))
            fail_msg("row %d: status %d (want %d), explanation '%s' lacks '%s'", c->row,
                     d.status, c->want, d.explanation, c->needle);
        free(d.explanation);
    }
}

static void test_available(void **s)
{
    (void)s;
    machine_load l;
    memset(&l, 0, sizeof l);
    assert_true(machine_load_available(&l) == 1); /* not measured: all */
    assert_false(machine_load_busy(&l));
    l.valid = 1;
    l.cpus = 64;
    l.others_cpus = 1; /* one busy process on a big machine: not busy */
    assert_false(machine_load_busy(&l));
    l.others_cpus = 20;
    assert_true(machine_load_busy(&l));
    char b[200];
    machine_load_describe(&l, b, sizeof b);
    assert_non_null(strstr(b, "20.0 of 64 CPUs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_available),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
