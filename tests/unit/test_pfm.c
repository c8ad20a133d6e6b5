/* test_pfm.c - libpfm4 collector: event-list syntax, availability with a
 * reason (never 0), software counters really counting, inherit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pfm.h"
#include "report.h"

static const counter_value *find_counter(const measurement *m,
                                         const char *name)
{
    for (size_t i = 0; i < m->ncounters; i++)
        if (strcmp(m->counters[i].name, name) == 0)
            return &m->counters[i];
    return NULL;
}

/* CPU time of the calling thread: on a loaded machine wall time says
 * little about how long a thread actually ran (and task-clock counts). */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

static void spin(double seconds)
{
    double t0 = now_s();
    double x = 1;
    while (now_s() - t0 < seconds)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* ---- syntax, table driven: each row tagged with its line ---- */

static const struct {
    int line;
    const char *text;
    int ok;
    size_t n;      /* names when ok */
    int column;    /* error column when not ok */
} parse_cases[] = {
    {__LINE__, "cycles", 1, 1, 0},
    {__LINE__, "cycles,instructions", 1, 2, 0},
    {__LINE__, " cycles , task-clock ", 1, 2, 0},
    {__LINE__, "perf::PERF_COUNT_SW_TASK_CLOCK", 1, 1, 0},
    {__LINE__, "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE:u=1", 1, 1, 0},
    {__LINE__, "", 0, 0, 1},
    {__LINE__, "cycles,,instructions", 0, 0, 8},
    {__LINE__, "cycles,", 0, 0, 8},
    {__LINE__, "cyc les", 0, 0, 4},
    {__LINE__, "::cycles", 0, 0, 1},
    {__LINE__, "perf::", 0, 0, 7},
    {__LINE__, "cycles:", 0, 0, 8},
    {__LINE__, "cycles:u=", 0, 0, 10},
    {__LINE__, "cyc$les", 0, 0, 4},
};

static void test_parse_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
        char **names = NULL;
        size_t n = 0;
        cw_error err;
        cw_error_clear(&err);
        int rc = pfm_parse_event_list(parse_cases[i].text, &names, &n, &err);
        if ((rc == 0) != parse_cases[i].ok)
            fail_msg("row at line %d ('%s'): rc %d (%s)", parse_cases[i].line,
                     parse_cases[i].text, rc, err.text);
        if (parse_cases[i].ok) {
            if (n != parse_cases[i].n)
                fail_msg("row at line %d: %zu names", parse_cases[i].line, n);
        } else {
            if (err.column != parse_cases[i].column)
                fail_msg("row at line %d ('%s'): column %d, want %d: %s",
                         parse_cases[i].line, parse_cases[i].text, err.column,
                         parse_cases[i].column, err.text);
            assert_non_null(strstr(err.text, "position"));
            assert_null(names);
        }
        pfm_free_event_list(names, n);
    }
}

static void test_parse_trims(void **state)
{
    (void)state;
    char **names;
    size_t n;
    cw_error err;
    assert_int_equal(pfm_parse_event_list(" a ,b:c ", &names, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "a");
    assert_string_equal(names[1], "b:c");
    pfm_free_event_list(names, n);
}

static void test_malformed_list_fails_open(void **state)
{
    (void)state;
    pfm_session *s = (pfm_session *)1;
    cw_error err;
    assert_int_not_equal(pfm_session_open("cycles,,x", 0, &s, &err), 0);
    assert_null(s);
}

/* ---- availability ---- */

/* Opens a session on events (NULL: the defaults), counts `seconds` of
 * spinning and reads the counters into m; the caller closes the session. */
static pfm_session *count_spin(const char *events, double seconds, measurement *m)
{
    pfm_session *s;
    cw_error err;
    assert_int_equal(pfm_session_open(events, 0, &s, &err), 0);
    pfm_session_start(s);
    spin(seconds);
    pfm_session_stop(s);
    memset(m, 0, sizeof *m);
    pfm_session_read(s, m);
    return s;
}

static int machine_has_cpu_pmu(void)
{
    struct stat st;
    return stat("/sys/bus/event_source/devices/cpu", &st) == 0 ||
           stat("/sys/bus/event_source/devices/cpu_core", &st) == 0 ||
           stat("/sys/bus/event_source/devices/armv8_pmuv3_0", &st) == 0;
}

static void test_default_events(void **state)
{
    (void)state;
    unsetenv("CW_PFM_DISABLE");
    measurement m;
    pfm_session *s = count_spin(NULL, 0.05, &m);
    size_t ndef = 0;
    while (pfm_default_events[ndef])
        ndef++;
    assert_int_equal(m.ncounters, ndef);

    /* software events work on every Linux machine */
    const counter_value *tc = find_counter(&m, "task-clock");
    assert_non_null(tc);
    if (!tc->available)
        fail_msg("task-clock unavailable: %s", tc->reason);
    /* task-clock is in ns: 50 ms of spinning is at least 30 ms */
    assert_true(tc->value > 30e6);
    assert_true(tc->value < 5e9);
    const counter_value *pf = find_counter(&m, "page-faults");
    assert_non_null(pf);
    assert_true(pf->available);
    const counter_value *cs = find_counter(&m, "context-switches");
    assert_non_null(cs);
    assert_true(cs->available);

    /* hardware events: a real count or unavailable with a reason */
    const char *hw[] = {"cycles", "instructions", "cache-misses",
                        "branch-misses"};
    for (size_t i = 0; i < 4; i++) {
        const counter_value *c = find_counter(&m, hw[i]);
        assert_non_null(c);
        if (c->available) {
            assert_true(c->value > 0);
        } else {
            assert_non_null(c->reason);
            assert_true(strlen(c->reason) > 10);
            if (!machine_has_cpu_pmu())
                assert_non_null(strstr(c->reason, "ENOENT"));
        }
    }
    if (!machine_has_cpu_pmu()) {
        const counter_value *c = find_counter(&m, "cycles");
        assert_false(c->available);
        assert_non_null(strstr(c->reason, "no hardware PMU"));
    }
    measurement_free(&m);
    pfm_session_close(s);
}

static void test_disable_env(void **state)
{
    (void)state;
    setenv("CW_PFM_DISABLE", "1", 1);
    measurement m;
    pfm_session *s = count_spin("task-clock,cycles", 0.01, &m);
    assert_int_equal(m.ncounters, 2);
    for (size_t i = 0; i < m.ncounters; i++) {
        assert_false(m.counters[i].available);
        assert_non_null(strstr(m.counters[i].reason, "CW_PFM_DISABLE"));
    }
    measurement_free(&m);
    pfm_session_close(s);
    unsetenv("CW_PFM_DISABLE");
}

static void test_unknown_event(void **state)
{
    (void)state;
    measurement m;
    pfm_session *s = count_spin("no_such_event_xyz,task-clock", 0.01, &m);
    const counter_value *c = find_counter(&m, "no_such_event_xyz");
    assert_non_null(c);
    assert_false(c->available);
    assert_non_null(strstr(c->reason, "libpfm4"));
    assert_true(find_counter(&m, "task-clock")->available);
    measurement_free(&m);

    /* describe: same availability, no measurement needed */
    pfm_session_describe(s, &m);
    assert_false(find_counter(&m, "no_such_event_xyz")->available);
    assert_true(find_counter(&m, "task-clock")->available);
    measurement_free(&m);
    pfm_session_close(s);
}

static void *spin_thread(void *arg)
{
    (void)arg;
    spin(0.08);
    return NULL;
}

/* task-clock of a thread created after opening: counted only with
 * inherit (how lavapipe's worker threads are included). */
static double thread_task_clock(int inherit)
{
    pfm_session *s;
    cw_error err;
    assert_int_equal(pfm_session_open("task-clock", inherit, &s, &err), 0);
    pfm_session_start(s);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, spin_thread, NULL), 0);
    pthread_join(t, NULL);
    pfm_session_stop(s);
    measurement m;
    memset(&m, 0, sizeof m);
    pfm_session_read(s, &m);
    assert_int_equal(m.ncounters, 1);
    assert_true(m.counters[0].available);
    double v = m.counters[0].value;
    measurement_free(&m);
    pfm_session_close(s);
    return v;
}

static void test_inherit_counts_threads(void **state)
{
    (void)state;
    double with = thread_task_clock(1);
    double without = thread_task_clock(0);
    assert_true(with > 50e6);     /* the thread's 80 ms */
    assert_true(without < 40e6);  /* only the joining thread */
}

static void test_accumulates_brackets(void **state)
{
    (void)state;
    pfm_session *s;
    cw_error err;
    assert_int_equal(pfm_session_open("task-clock", 0, &s, &err), 0);
    for (int i = 0; i < 3; i++) {
        pfm_session_start(s);
        spin(0.02);
        pfm_session_stop(s);
        usleep(30000); /* outside the brackets: not counted */
        spin(0.03);
    }
    assert_int_equal(pfm_session_brackets(s), 3);
    measurement m;
    memset(&m, 0, sizeof m);
    pfm_session_read(s, &m);
    assert_true(m.counters[0].available);
    assert_true(m.counters[0].value > 45e6);
    assert_true(m.counters[0].value < 85e6);
    measurement_free(&m);
    pfm_session_reset(s);
    assert_int_equal(pfm_session_brackets(s), 0);
    pfm_session_read(s, &m);
    assert_true(m.counters[0].available);
    assert_true(m.counters[0].value == 0); /* really counted nothing */
    measurement_free(&m);
    pfm_session_close(s);
}

/* multiplexing: table of (value, enabled, running) -> scaled count */
static void test_scale_table(void **state)
{
    (void)state;
    static const struct {
        int line;
        uint64_t v, en, run;
        int rc, scaled;
        double want;
    } rows[] = {
        {__LINE__, 1000, 100, 100, 0, 0, 1000},
        {__LINE__, 1000, 100, 50, 0, 1, 2000},
        {__LINE__, 300, 400, 100, 0, 1, 1200},
        {__LINE__, 0, 100, 100, 0, 0, 0},     /* a real zero stays 0 */
        {__LINE__, 0, 0, 0, 0, 0, 0},         /* never enabled */
        {__LINE__, 5, 100, 0, -1, 0, 0},      /* never ran: no count */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double v = -1;
        int scaled = -1;
        int rc = pfm_scale_count(rows[i].v, rows[i].en, rows[i].run, &v,
                                 &scaled);
        if (rc != rows[i].rc || (rc == 0 && (v != rows[i].want ||
                                             scaled != rows[i].scaled)))
            fail_msg("row at line %d: rc %d value %g scaled %d", rows[i].line,
                     rc, v, scaled);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_parse_trims),
        cmocka_unit_test(test_malformed_list_fails_open),
        cmocka_unit_test(test_default_events),
        cmocka_unit_test(test_disable_env),
        cmocka_unit_test(test_unknown_event),
        cmocka_unit_test(test_inherit_counts_threads),
        cmocka_unit_test(test_accumulates_brackets),
        cmocka_unit_test(test_scale_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
