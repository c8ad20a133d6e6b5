/* test_cpu.c - native CPU kernels: the ABI call path (buffers, args, return
 * codes, hang guard, load errors), the roofline prediction and the one
 * verdict through the pipeline (as GPU kernels go), and the machine-code
 * inspection that tells the example SGEMMs apart.
 *
 * The ABI probe kernel is compiled at test time from the source below
 * (with $CC, default cc) so the test needs nothing but itself; the SGEMM
 * examples come from `make examples` ($BUILD/examples/cpu).
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "backend.h"
#include "cpu_profile.h"
#include "cpu_run.h"
#include "cpuinspect.h"
#include "pipeline.h"
#include "plan.h"
#include "report.h"
#include "verdict.h"
#include "vk.h"

static const char probe_src[] =
    "#include <stdint.h>\n"
    "#include <unistd.h>\n"
    "int probe(void *const b[], const int64_t a[]) {\n"
    "    int64_t *out = b[0];\n"
    "    const float *in = b[1];\n"
    "    out[3] += 1; /* counts calls: buffers are not refilled */\n"
    "    out[0] = a[0]; out[1] = a[1];\n"
    "    out[2] = ((uintptr_t)b[0] % 64 == 0) && ((uintptr_t)b[1] % 64 == 0);\n"
    "    out[4] = (int64_t)in[3];\n"
    "    out[5] = (int64_t)(in[0] * 1000);\n"
    "    if (a[3]) sleep((unsigned)a[3]);\n"
    "    if (a[2] && out[3] >= a[4]) return (int)a[2];\n"
    "    return 0;\n"
    "}\n";

static char tmpdir[256];
static char probe_so[512];

static const char *build_dir(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cw_test_cpu.XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    char src[512], cmd[2048];
    snprintf(src, sizeof src, "%s/probe.c", tmpdir);
    snprintf(probe_so, sizeof probe_so, "%s/libprobe.so", tmpdir);
    FILE *f = fopen(src, "w");
    if (!f)
        return -1;
    fputs(probe_src, f);
    fclose(f);
    const char *cc = getenv("CC");
    /* the sanitizer build's CC may need its runtime: build plain */
    snprintf(cmd, sizeof cmd, "%s -O1 -fPIC -shared -o %s %s",
             cc && *cc && !strstr(cc, "clang") ? cc : "cc", probe_so, src);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- plan kernels built by hand (no plan file needed) ---- */

typedef struct kfix {
    plan_kernel k;
    plan_value args[5];
    plan_buffer bufs[3];
} kfix;

static void kfix_init(kfix *f, const char *lib, const char *sym,
                      const char *const names[], const int64_t vals[],
                      size_t nargs)
{
    memset(f, 0, sizeof *f);
    f->k.kind = PLAN_KERNEL_CPU;
    f->k.name = (char *)"k";
    f->k.library = (char *)lib;
    f->k.library_path = (char *)lib;
    f->k.symbol = (char *)sym;
    f->k.min_efficiency = -1;
    for (size_t i = 0; i < nargs; i++) {
        f->args[i].key = (char *)names[i];
        f->args[i].is_integer = 1;
        f->args[i].ivalue = vals[i];
        f->args[i].value = (double)vals[i];
    }
    f->k.args = f->args;
    f->k.nargs = nargs;
    f->k.buffers = f->bufs;
}

static void ro_init(run_options *ro, const char *dump)
{
    memset(ro, 0, sizeof *ro);
    ro->samples = 3;
    ro->warmup = 1;
    ro->timeout_s = 10;
    ro->budget_s = 0.2;
    ro->dump_dir = dump;
    ro->seed = 1;
}

static void kr_init(kernel_report *kr)
{
    memset(kr, 0, sizeof *kr);
    kr->name = cw_strdup("k");
}

static int has_finding(const kernel_report *kr, const char *id)
{
    for (size_t i = 0; i < kr->nfindings; i++)
        if (strcmp(kr->findings[i].id, id) == 0)
            return 1;
    return 0;
}

/* The pipeline's static stage and live stage for a CPU kernel, as the
 * session runs them (the artifacts of the last check are kept). */
static kernel_artifacts g_art;
static device_profile g_prof;

static void cpu_check_kernel(const plan_kernel *k, const device_profile *p,
                             kernel_report *kr)
{
    g_prof = *p;
    kernel_artifacts_free(&g_art);
    pipeline_check_kernel(k, p, NULL, kr, &g_art);
}

static int cpu_run_and_judge(const plan_kernel *k, const run_options *ro,
                             double tolerance, kernel_report *kr)
{
    backend_slot slot;
    cw_error err;
    backend_config cfg = {0};
    assert_int_equal(backend_open_role(BACKEND_ROLE_CPU, &cfg, &slot, &err), 0);
    int rc = pipeline_measure_kernel(&slot, k, &g_prof, &g_art, ro, tolerance,
                                     kr);
    backend_slot_close(&slot);
    return rc;
}

/* ---- ABI ---- */

static const char *const probe_names[] = {"n", "m", "rc", "sleep", "fail_at"};

static void probe_kernel(kfix *f, int64_t rc, int64_t sleep_s, int64_t fail_at)
{
    const int64_t vals[] = {512, -3, rc, sleep_s, fail_at};
    kfix_init(f, probe_so, "probe", probe_names, vals, 5);
    f->bufs[0].has_bytes = 1;
    f->bufs[0].bytes = 100; /* not a multiple of 64: rounded up inside */
    f->bufs[0].init = PLAN_INIT_ZERO;
    f->bufs[1].has_elements = 1;
    f->bufs[1].elements = 16; /* 16 floats */
    f->bufs[1].init = PLAN_INIT_RAMP;
    f->k.nbuffers = 2;
}

static void test_abi_buffers_args(void **state)
{
    (void)state;
    kfix f;
    probe_kernel(&f, 0, 0, 0);
    f.bufs[1].init = PLAN_INIT_CONST;
    f.bufs[1].init_value = 0.25;
    run_options ro;
    char dump[400];
    snprintf(dump, sizeof dump, "%s/dump", tmpdir);
    ro_init(&ro, dump);
    kernel_report kr;
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), 0);
    assert_null(kr.measurement.error);
    assert_true(kr.measurement.valid);
    assert_true(kr.measurement.samples >= 3);
    assert_true(kr.measurement.has_cold);
    assert_string_equal(kr.measurement.counters_scope, "kernel");

    char path[600];
    snprintf(path, sizeof path, "%s/k.buffer0.bin", dump);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    int64_t out[16];
    size_t got = fread(out, 1, sizeof out, fp);
    fclose(fp);
    assert_int_equal(got, 100); /* exactly the plan's bytes */
    assert_int_equal(out[0], 512); /* args in plan order */
    assert_int_equal(out[1], -3);
    assert_int_equal(out[2], 1);   /* 64-byte aligned */
    /* warm-up + samples calls, buffers not refilled in between */
    assert_int_equal(out[3], 1 + (int64_t)kr.measurement.samples);
    assert_int_equal(out[5], 250); /* init constant 0.25 */
    kernel_report_free(&kr);

    /* ramp init */
    probe_kernel(&f, 0, 0, 0);
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), 0);
    fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fread(out, 1, sizeof out, fp), 100);
    fclose(fp);
    assert_int_equal(out[4], 3);   /* ramp: element 3 is 3.0 */
    assert_int_equal(out[5], 0);
    kernel_report_free(&kr);
}

static void test_abi_return_codes(void **state)
{
    (void)state;
    typedef struct { int line; int64_t rc, fail_at; const char *want; } rc_case;
    static const rc_case cases[] = {
        {__LINE__, 7, 1, "returned 7 on warm-up call 1"},
        {__LINE__, -1, 1, "returned -1 on warm-up call 1"},
        {__LINE__, 3, 3, "returned 3 on call 3"}, /* during sampling */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kfix f;
        probe_kernel(&f, cases[i].rc, 0, cases[i].fail_at);
        run_options ro;
        ro_init(&ro, NULL);
        kernel_report kr;
        kr_init(&kr);
        int rc = cpu_measure_kernel(&f.k, &ro, &kr.measurement);
        if (rc != CW_STATUS_ENV || !kr.measurement.error ||
            !strstr(kr.measurement.error, cases[i].want)) {
            print_error("line %d: rc %d error \"%s\"\n", cases[i].line, rc,
                        kr.measurement.error ? kr.measurement.error : "");
            fail();
        }
        assert_false(kr.divergence.valid);
        kernel_report_free(&kr);
    }
}

static void test_abi_load_errors(void **state)
{
    (void)state;
    kfix f;
    probe_kernel(&f, 0, 0, 0);
    f.k.library_path = (char *)"/nonexistent/libnothing.so";
    run_options ro;
    ro_init(&ro, NULL);
    kernel_report kr;
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), CW_STATUS_ENV);
    assert_non_null(strstr(kr.measurement.error, "/nonexistent/libnothing.so"));
    kernel_report_free(&kr);

    probe_kernel(&f, 0, 0, 0);
    f.k.symbol = (char *)"no_such_kernel";
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), CW_STATUS_ENV);
    assert_non_null(strstr(kr.measurement.error, "no_such_kernel"));
    kernel_report_free(&kr);

    /* a non-integer argument cannot be passed */
    probe_kernel(&f, 0, 0, 0);
    f.args[1].is_integer = 0;
    f.args[1].value = 2.5;
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), CW_STATUS_ENV);
    assert_non_null(strstr(kr.measurement.error, "not an integer"));
    kernel_report_free(&kr);
}

static void test_abi_hang_guard(void **state)
{
    (void)state;
    kfix f;
    probe_kernel(&f, 0, 2, 0); /* sleeps 2 s per call */
    run_options ro;
    ro_init(&ro, NULL);
    ro.timeout_s = 0.3;
    kernel_report kr;
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), CW_STATUS_ENV);
    assert_non_null(strstr(kr.measurement.error, "did not return within"));
    kernel_report_free(&kr);
}

/* ---- prediction and verdict ---- */

static void fake_profile(device_profile *p, double gflops, double gbs)
{
    profile_init(p);
    snprintf(p->name, sizeof p->name, "test CPU");
    p->kind = DEVICE_KIND_NATIVE_CPU;
    p->units = 2;
    p->fp32_gflops = gflops;
    p->dram_gbs = gbs;
    p->source = PROFILE_CALIBRATED;
}

static const char *const sgemm_names[] = {"n"};

static void sgemm_kernel(kfix *f, const char *lib, int64_t n)
{
    const int64_t vals[] = {n};
    kfix_init(f, lib, "sgemm", sgemm_names, vals, 1);
    for (int i = 0; i < 3; i++) {
        f->bufs[i].has_bytes = 1;
        f->bufs[i].bytes = (uint64_t)(4 * n * n);
        f->bufs[i].init = i == 2 ? PLAN_INIT_ZERO : PLAN_INIT_RANDOM;
    }
    f->k.nbuffers = 3;
    f->k.work_flops = (char *)"2*n*n*n";
    f->k.work_bytes = (char *)"3*4*n*n";
}

static void example_lib(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/examples/cpu/lib%s.so", build_dir(), name);
}

/* The naive SGEMM example as f's kernel, n x n */
static void naive_sgemm(kfix *f, int64_t n)
{
    static char lib[512];
    example_lib(lib, sizeof lib, "sgemm_naive");
    sgemm_kernel(f, lib, n);
}

static void test_prediction_roofline(void **state)
{
    (void)state;
    kfix f;
    naive_sgemm(&f, 512);
    device_profile p;
    fake_profile(&p, 400, 20); /* 2 units: 200 GFLOPS, 10 GB/s per thread */

    f.k.threads = 1;
    kernel_report kr;
    kr_init(&kr);
    cpu_check_kernel(&f.k, &p, &kr);
    assert_true(kr.prediction.valid);
    assert_string_equal(kr.prediction.bound, "fp32");
    assert_true(kr.prediction.flops == 268435456.0);
    assert_true(kr.prediction.bytes == 3145728.0);
    /* 2*512^3 / 200e9 s = 1342.18 us */
    assert_true(fabs(kr.prediction.time_us - 1342.17728) < 1e-3);
    assert_string_equal(kr.kind, "cpu");
    kernel_report_free(&kr);

    f.k.threads = 2; /* twice the machine: half the time */
    kr_init(&kr);
    cpu_check_kernel(&f.k, &p, &kr);
    assert_true(fabs(kr.prediction.time_us - 671.08864) < 1e-3);
    kernel_report_free(&kr);

    /* memory-bound when the bandwidth is small */
    fake_profile(&p, 400, 0.002);
    kr_init(&kr);
    cpu_check_kernel(&f.k, &p, &kr);
    assert_string_equal(kr.prediction.bound, "dram");
    assert_true(fabs(kr.prediction.time_us - 3145728.0 / 2e6 * 1e6) < 1e-3);
    kernel_report_free(&kr);
}

static void test_work_expression_errors(void **state)
{
    (void)state;
    typedef struct { int line; const char *flops, *bytes; int pos; const char *want; } wcase;
    static const wcase cases[] = {
        {__LINE__, "2*n*", "1", 5, "work.flops \"2*n*\", position 5"},
        {__LINE__, "2*m", "1", 3, "unknown argument 'm'"},
        {__LINE__, "1", "n/(n-512)", 2, "work.bytes"},
        {__LINE__, "n-1000", "1", 1, "negative"},
    };
    device_profile p;
    fake_profile(&p, 400, 20);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kfix f;
        naive_sgemm(&f, 512);
        f.k.work_flops = (char *)cases[i].flops;
        f.k.work_bytes = (char *)cases[i].bytes;
        kernel_report kr;
        kr_init(&kr);
        cpu_check_kernel(&f.k, &p, &kr);
        const finding *fd = NULL;
        for (size_t j = 0; j < kr.nfindings; j++)
            if (strcmp(kr.findings[j].id, "work-expression-invalid") == 0)
                fd = &kr.findings[j];
        json_t *pos = fd ? finding_detail_get(fd, "position") : NULL;
        if (!fd || fd->sev != SEV_ERROR || !kr.input_error ||
            !strstr(fd->message, cases[i].want) || !json_is_integer(pos) ||
            json_integer_value(pos) != cases[i].pos || kr.prediction.valid) {
            print_error("line %d: %s / position %lld\n", cases[i].line,
                        fd ? fd->message : "(no finding)",
                        pos ? (long long)json_integer_value(pos) : -1LL);
            fail();
        }
        kernel_report_free(&kr);
    }
}

/* A fresh report for f's kernel checked against p, then the kernel run
 * and judged (the 25% efficiency threshold). */
static void check_and_judge(const kfix *f, const device_profile *p,
                            const run_options *ro, kernel_report *kr)
{
    kr_init(kr);
    cpu_check_kernel(&f->k, p, kr);
    assert_int_equal(cpu_run_and_judge(&f->k, ro, 0.25, kr), 0);
}

/* The verdict against the roofline: same kernel, two profiles. */
static void test_verdict_far_below_roofline(void **state)
{
    (void)state;
    kfix f;
    naive_sgemm(&f, 128);
    f.k.threads = 1;
    run_options ro;
    ro_init(&ro, NULL);

    /* a machine 10^6 x faster than any real one: flagged */
    device_profile p;
    fake_profile(&p, 1e9, 1e9);
    kernel_report kr;
    check_and_judge(&f, &p, &ro, &kr);
    assert_true(has_finding(&kr, "far-below-roofline"));
    assert_true(kr.divergence.valid);
    assert_int_equal(kr.divergence.status, DIV_SLOWER);
    assert_non_null(strstr(kr.divergence.explanation, "GFLOP/s"));
    assert_non_null(strstr(kr.divergence.explanation, "efficiency"));
    /* evidence: counters or why not, and the static inspection */
    assert_true(strstr(kr.divergence.explanation, "IPC") ||
                strstr(kr.divergence.explanation, "counters unavailable"));
    assert_non_null(strstr(kr.divergence.explanation, "scalar"));
    assert_true(kr.divergence.ratio > 1000);
    kernel_report_free(&kr);

    /* a machine as slow as 0.001 GFLOPS: the kernel beats the roofline, so
     * the ceiling is wrong -- never ok */
    fake_profile(&p, 0.002, 1e9);
    check_and_judge(&f, &p, &ro, &kr);
    assert_false(has_finding(&kr, "far-below-roofline"));
    assert_true(has_finding(&kr, "ceiling-exceeded"));
    assert_int_equal(kr.divergence.status, DIV_FASTER);
    assert_non_null(strstr(kr.divergence.explanation, "clockwork calibrate --cpu"));
    kernel_report_free(&kr);

    /* a work expression that does not evaluate: the kernel is not run */
    fake_profile(&p, 1e9, 1e9);
    f.k.work_flops = (char *)"2*n*";
    kr_init(&kr);
    cpu_check_kernel(&f.k, &p, &kr);
    assert_true(has_finding(&kr, "work-expression-invalid"));
    assert_int_equal(cpu_run_and_judge(&f.k, &ro, 0.25, &kr), 0);
    assert_false(kr.measurement.valid);
    assert_int_equal(kr.measurement.samples, 0);
    assert_int_equal(kr.divergence.status, DIV_UNKNOWN);
    assert_non_null(strstr(kr.divergence.explanation, "not run"));
    kernel_report_free(&kr);
    f.k.work_flops = (char *)"2*n*n*n";

    /* min_efficiency 0 never flags */
    fake_profile(&p, 1e9, 1e9);
    f.k.min_efficiency = 0;
    check_and_judge(&f, &p, &ro, &kr);
    assert_false(has_finding(&kr, "far-below-roofline"));
    kernel_report_free(&kr);
}

/* The verdict's evidence from counters a PMU would give (this VM has none),
 * and the CPU-wait discount with its bound at the roofline. */
static void add_counter(measurement *m, const char *name, double v)
{
    counter_value *c = measurement_add_counter(m, name);
    c->available = 1;
    c->value = v;
}

static void synthetic_report(kernel_report *kr, double pred_us,
                             double median_us, double min_us)
{
    kr_init(kr);
    kr->prediction.valid = 1;
    kr->prediction.time_us = pred_us;
    kr->prediction.ideal_time_us = pred_us;
    kr->prediction.flops = 2e9;
    kr->prediction.bytes = 1e6;
    cw_set_str(&kr->prediction.bound, "fp32");
    kr->measurement.valid = 1;
    kr->measurement.samples = 2;
    kr->measurement.median_us = median_us;
    kr->measurement.min_us = min_us;
}

/* The samples' CPU wait as the runner records it (us per call). */
static void set_waits(measurement *m, const double *samples,
                      const double *waits, size_t n)
{
    double own[8], dl[8], best = m->min_us;
    for (size_t i = 0; i < n; i++) {
        own[i] = samples[i] - waits[i];
        dl[i] = waits[i];
        if (own[i] > 0 && own[i] < best)
            best = own[i];
    }
    for (size_t i = 0; i < n; i++) /* n is tiny: insertion sort */
        for (size_t j = i; j > 0 && own[j] < own[j - 1]; j--) {
            double t = own[j]; own[j] = own[j - 1]; own[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j > 0 && dl[j] < dl[j - 1]; j--) {
            double t = dl[j]; dl[j] = dl[j - 1]; dl[j - 1] = t;
        }
    m->has_wait = 1;
    m->own_median_us = own[n / 2];
    m->wait_median_us = dl[n / 2];
    m->best_own_us = best;
    m->counted_span_us = 10000;
}

static void judge_cpu(kernel_report *kr)
{
    verdict_input in;
    verdict_input_default(&in);
    in.roofline_prediction = 1;
    in.threads = 1;
    in.file = "libk.so";
    in.calibrate = "clockwork calibrate --cpu";
    verdict_judge_kernel(&in, kr);
}

/* The two calls of the synthetic measurement (us) */
static const double two_calls[] = {10000, 9000};

/* The synthetic kernel (1000 us predicted, 10 ms median, 9 ms best call)
 * whose two calls waited this long for a CPU, judged. */
static void judge_waits(kernel_report *kr, const double waits[2])
{
    synthetic_report(kr, 1000, 10000, 9000);
    set_waits(&kr->measurement, two_calls, waits, 2);
    judge_cpu(kr);
}

static void test_verdict_evidence_and_wait(void **state)
{
    (void)state;
    /* 1000 us roofline, 10 ms measured: 10x the prediction, slower, and
     * far below the roofline on the best call (11%), with counters */
    kernel_report kr;
    synthetic_report(&kr, 1000, 10000, 9000);
    measurement *m = &kr.measurement;
    add_counter(m, "cycles", 2e7);
    add_counter(m, "instructions", 1e7);
    add_counter(m, "cache-references", 1e5);
    add_counter(m, "cache-misses", 2.5e4);
    add_counter(m, "FP_ARITH_INST_RETIRED:SCALAR_SINGLE", 1e6);
    add_counter(m, "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE", 0);
    add_counter(m, "task-clock", 1e7); /* ns: 10 ms */
    const double no_wait[] = {0, 0};
    set_waits(m, two_calls, no_wait, 2);
    judge_cpu(&kr);
    assert_int_equal(kr.divergence.status, DIV_SLOWER);
    assert_true(has_finding(&kr, "far-below-roofline"));
    const char *e = kr.divergence.explanation;
    assert_non_null(strstr(e, "200 GFLOP/s (best call 222 GFLOP/s) of a 2.00 TFLOP/s"));
    assert_non_null(strstr(e, "10.0% efficiency (best call 11.1%)"));
    assert_non_null(strstr(e, "IPC 0.50"));
    assert_non_null(strstr(e, "25.0% of references"));
    assert_non_null(strstr(e, "1.00 M scalar, 0 packed"));
    assert_non_null(strstr(e, "1.0 CPUs busy"));
    assert_null(strstr(e, "counters unavailable"));
    assert_null(strstr(e, "waited"));
    assert_true(fabs(kr.divergence.ratio - 10.0) < 1e-9);
    /* far-below-roofline has the one detail schema */
    for (size_t i = 0; i < kr.nfindings; i++)
        if (!strcmp(kr.findings[i].id, "far-below-roofline")) {
            const finding *fd = &kr.findings[i];
            assert_string_equal(json_string_value(finding_detail_get(fd, "term")), "fp32");
            assert_true(fabs(json_real_value(finding_detail_get(fd, "efficiency")) -
                             1000.0 / 9000) < 1e-9);
            assert_true(json_real_value(finding_detail_get(fd, "threshold")) == 0.25);
            assert_true(json_real_value(finding_detail_get(fd, "ideal_us")) == 1000);
            assert_int_equal(json_object_size(fd->detail), 4);
        }
    kernel_report_free(&kr);

    /* the best call spent 8.9 ms waiting for a CPU: discounted it would
     * beat the roofline, so it counts as the roofline (100%) and the kernel
     * is not flagged far below; the other call did not wait, so the
     * median without wait is still 10x the prediction: slower */
    const double waits[] = {0, 8900};
    judge_waits(&kr, waits);
    assert_int_equal(kr.divergence.status, DIV_SLOWER);
    assert_false(has_finding(&kr, "far-below-roofline"));
    assert_false(has_finding(&kr, "ceiling-exceeded"));
    assert_non_null(strstr(kr.divergence.explanation, "waited"));
    assert_non_null(strstr(kr.divergence.explanation,
                           "100.0% efficiency on the best call"));
    kernel_report_free(&kr);

    /* every call waited 9 ms of its 10: judged without the wait, the
     * kernel is at its prediction: ok, and the explanation says why */
    const double most[] = {9000, 8000};
    judge_waits(&kr, most);
    assert_int_equal(kr.divergence.status, DIV_OK);
    assert_non_null(strstr(kr.divergence.explanation, "without CPU wait"));
    kernel_report_free(&kr);

    /* a small wait does not rescue a slow kernel */
    const double small[] = {500, 500};
    judge_waits(&kr, small);
    assert_int_equal(kr.divergence.status, DIV_SLOWER);
    kernel_report_free(&kr);

    /* nothing to judge without a prediction: unknown, no findings */
    synthetic_report(&kr, 1000, 10000, 9000);
    kr.prediction.valid = 0;
    judge_cpu(&kr);
    assert_int_equal(kr.divergence.status, DIV_UNKNOWN);
    assert_int_equal(kr.nfindings, 0);
    kernel_report_free(&kr);
}

/* Two more threads on the kernel's CPU: the kernel's calls take about
 * three times as long, the measurement sees the wait (schedstat run_delay),
 * the verdict says so and judges the calls without it. */
static volatile int spin_stop;

static void *spinner(void *arg)
{
    (void)arg;
    volatile uint64_t x = 0;
    while (!spin_stop)
        x++;
    return NULL;
}

static void test_contention_is_discounted(void **state)
{
    (void)state;
    if (access("/proc/self/schedstat", R_OK) != 0)
        skip(); /* kernel without sched_info */
    cpu_set_t one, saved;
    pthread_getaffinity_np(pthread_self(), sizeof saved, &saved);
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
    assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof one, &one),
                     0);

    kfix f;
    naive_sgemm(&f, 256);
    f.k.threads = 1;
    run_options ro;
    ro_init(&ro, NULL);
    ro.samples = 5;

    /* alone on the CPU: the kernel's own time T */
    device_profile p;
    fake_profile(&p, 1e9, 1e9);
    kernel_report kr;
    kr_init(&kr);
    cpu_check_kernel(&f.k, &p, &kr);
    assert_int_equal(cpu_run_and_judge(&f.k, &ro, 0.25, &kr), 0);
    double t_alone = kr.measurement.min_us;
    kernel_report_free(&kr);

    /* a roofline at T/3: 33% efficient alone, ~11% when sharing the CPU
     * with two spinning threads */
    double flops = 2.0 * 256 * 256 * 256;
    fake_profile(&p, flops / (t_alone / 3 * 1e-6) / 1e9 * 2, 1e9);
    pthread_t th[2];
    spin_stop = 0;
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, spinner, NULL), 0);
    kr_init(&kr);
    cpu_check_kernel(&f.k, &p, &kr);
    /* judged without the wait the kernel runs at its own speed, 3x the
     * roofline: ok within a +300% band, not far below (33% > 25%) */
    assert_int_equal(cpu_run_and_judge(&f.k, &ro, 3.0, &kr), 0);
    spin_stop = 1;
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);

    if (kr.measurement.min_us < 1.3 * t_alone) {
        print_message("no contention observed (%.0f vs %.0f us); skipped\n",
                      kr.measurement.min_us, t_alone);
        kernel_report_free(&kr);
        skip();
    }
    assert_non_null(strstr(kr.divergence.explanation, "waited"));
    assert_int_equal(kr.divergence.status, DIV_OK);
    assert_false(has_finding(&kr, "far-below-roofline"));
    kernel_report_free(&kr);
}

/* The counters are unavailable when forced off, and say why. */
static void test_counters_unavailable_reason(void **state)
{
    (void)state;
    setenv("CW_PFM_DISABLE", "1", 1);
    kfix f;
    probe_kernel(&f, 0, 0, 0);
    run_options ro;
    ro_init(&ro, NULL);
    kernel_report kr;
    kr_init(&kr);
    assert_int_equal(cpu_measure_kernel(&f.k, &ro, &kr.measurement), 0);
    assert_true(kr.measurement.ncounters >= 8);
    for (size_t i = 0; i < kr.measurement.ncounters; i++) {
        assert_false(kr.measurement.counters[i].available);
        assert_non_null(strstr(kr.measurement.counters[i].reason, "CW_PFM_DISABLE"));
    }
    kernel_report_free(&kr);
    unsetenv("CW_PFM_DISABLE");
}

/* ---- inspection ---- */

static void test_inspection_tells_kernels_apart(void **state)
{
    (void)state;
    char lib[512];
    cpuinspect_result r;

    example_lib(lib, sizeof lib, "sgemm_naive");
    assert_int_equal(cpuinspect_symbol(lib, "sgemm", &r), 0);
    assert_int_equal(r.cls, CPUI_SCALAR);
    assert_true(r.nloops >= 3);
    assert_true(r.loop_fp_scalar >= 1);
    assert_int_equal(r.loop_fp_packed, 0);

    example_lib(lib, sizeof lib, "sgemm_ikj");
    assert_int_equal(cpuinspect_symbol(lib, "sgemm", &r), 0);
    assert_int_equal(r.cls, CPUI_VECTOR);
    assert_true(r.vector_bits >= 256);

    example_lib(lib, sizeof lib, "sgemm_blas");
    assert_int_equal(cpuinspect_symbol(lib, "sgemm", &r), 0);
    assert_int_equal(r.cls, CPUI_CALLS);
    assert_string_equal(r.callees[0], "cblas_sgemm");
    assert_int_equal(r.loop_fp_scalar, 0);

    /* the static stage reports scalar code for the naive one only */
    device_profile p;
    fake_profile(&p, 400, 20);
    const char *names[] = {"sgemm_naive", "sgemm_blas", "sgemm_ikj"};
    for (int i = 0; i < 3; i++) {
        kfix f;
        example_lib(lib, sizeof lib, names[i]);
        sgemm_kernel(&f, lib, 64);
        kernel_report kr;
        kr_init(&kr);
        cpu_check_kernel(&f.k, &p, &kr);
        assert_int_equal(has_finding(&kr, "scalar-fp-code"), i == 0);
        /* the i-k-j loop is packed (AVX2, no FMA: ISO C forbids the
         * contraction) -- below the peak of any machine with FMA */
        if (__builtin_cpu_supports("fma"))
            assert_int_equal(has_finding(&kr, "narrow-vector-code"), i == 2);
        /* i-k-j is built with -march=x86-64-v3: AVX is already there, so
         * the advice is not -march=native (issue 16) */
        for (size_t q = 0; q < kr.nfindings; q++)
            if (strcmp(kr.findings[q].id, "narrow-vector-code") == 0)
                assert_null(strstr(kr.findings[q].hint, "(-march=native), and"));
        kernel_report_free(&kr);
    }

    /* a DRAM-bound loop (bytes far beyond what the FLOPs take even in
     * scalar code): no vector-width advice, and the prediction says why */
    {
        kfix f;
        example_lib(lib, sizeof lib, "sgemm_naive");
        sgemm_kernel(&f, lib, 64);
        f.k.work_bytes = (char *)"4000*n*n*n";
        kernel_report kr;
        kr_init(&kr);
        cpu_check_kernel(&f.k, &p, &kr);
        assert_int_equal(has_finding(&kr, "scalar-fp-code"), 0);
        int said = 0;
        for (size_t q = 0; q < kr.prediction.nassumptions; q++)
            said |= strstr(kr.prediction.assumptions[q],
                           "no vector-width advice") != NULL;
        assert_true(said);
        kernel_report_free(&kr);
    }

    assert_int_equal(cpuinspect_symbol(lib, "not_there", &r), -1);
    assert_non_null(strstr(r.reason, "not_there"));
    assert_int_equal(cpuinspect_symbol("/etc/hostname", "x", &r), -1);
    assert_int_equal(cpuinspect_symbol("/nonexistent.so", "x", &r), -1);
    assert_non_null(strstr(r.reason, "/nonexistent.so"));
}

/* Corrupted and truncated shared objects give a reason, never a crash
 * (run under ASan/UBSan by `make asan`). */
static void test_inspection_corrupt_elf(void **state)
{
    (void)state;
    char lib[512], out[600];
    example_lib(lib, sizeof lib, "sgemm_naive");
    FILE *f = fopen(lib, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    assert_true(n > 0);
    unsigned char *orig = malloc((size_t)n), *mut = malloc((size_t)n);
    assert_non_null(orig);
    assert_non_null(mut);
    assert_int_equal(fread(orig, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    snprintf(out, sizeof out, "%s/corrupt.so", tmpdir);
    uint64_t x = 12345;
    int inspected = 0, refused = 0;
    for (int it = 0; it < 400; it++) {
        memcpy(mut, orig, (size_t)n);
        long len = n;
        int flips = 1 + (int)(x % 16);
        for (int j = 0; j < flips; j++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            mut[(x >> 33) % (uint64_t)n] = (unsigned char)(x >> 20);
        }
        if (it % 4 == 3)
            len = (long)((x >> 33) % (uint64_t)n); /* truncated */
        FILE *o = fopen(out, "wb");
        assert_non_null(o);
        assert_int_equal(fwrite(mut, 1, (size_t)len, o), (size_t)len);
        fclose(o);
        cpuinspect_result r;
        int rc = cpuinspect_symbol(out, "sgemm", &r);
        if (rc == 0) {
            inspected++;
            assert_true(r.cls != CPUI_UNKNOWN);
        } else {
            refused++;
            assert_int_equal(rc, -1);
            assert_true(r.reason[0] != 0);
        }
    }
    assert_true(inspected > 0 && refused > 0);
    free(orig);
    free(mut);
}

static void test_classify_table(void **state)
{
    (void)state;
    typedef struct { int line; const char *mn, *ops; int want, bits, fma; } ccase;
    static const ccase cases[] = {
        {__LINE__, "mulss", "xmm0, dword ptr [rdx]", 1, 0, 0},
        {__LINE__, "addsd", "xmm1, xmm0", 1, 0, 0},
        {__LINE__, "vfmadd231ss", "xmm0, xmm1, xmm2", 1, 0, 1},
        {__LINE__, "vfmadd231ps", "zmm0, zmm1, zmm2", 2, 512, 1},
        {__LINE__, "vfnmsub132pd", "ymm3, ymm1, ymm2", 2, 256, 1},
        {__LINE__, "addps", "xmm0, xmm1", 2, 128, 0},
        {__LINE__, "vmulps", "ymm0, ymm1, ymmword ptr [rax]", 2, 256, 0},
        {__LINE__, "vsqrtpd", "zmm1, zmm2", 2, 512, 0},
        {__LINE__, "fmulp", "st(1)", 1, 0, 0},
        {__LINE__, "movss", "xmm0, dword ptr [rax]", 0, 0, 0},
        {__LINE__, "vmovups", "zmm0, zmmword ptr [rax]", 0, 0, 0},
        {__LINE__, "xorps", "xmm0, xmm0", 0, 0, 0},
        {__LINE__, "vcvtps2pd", "ymm0, xmm1", 0, 0, 0},
        {__LINE__, "ucomiss", "xmm0, xmm1", 0, 0, 0},
        {__LINE__, "paddd", "xmm0, xmm1", 0, 0, 0},
        {__LINE__, "add", "rax, 4", 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int bits = -1, fma = -1;
        int c = cpuinspect_classify(cases[i].mn, cases[i].ops, &bits, &fma);
        if (c != cases[i].want || (c == 2 && bits != cases[i].bits) ||
            (c && fma != cases[i].fma)) {
            print_error("line %d: %s -> %d bits %d fma %d\n", cases[i].line,
                        cases[i].mn, c, bits, fma);
            fail();
        }
    }
}

static void test_detected_profile(void **state)
{
    (void)state;
    device_profile p;
    cpu_profile_detect(&p);
    assert_int_equal(p.kind, DEVICE_KIND_NATIVE_CPU);
    assert_true(p.units >= 1);
    assert_string_equal(p.driver, "native");
    assert_memory_equal(p.uuid, "cpu-", 4);
    if (p.clock_ghz > 0) /* peak = cores x 2 FMA x lanes x 2 x GHz */
        assert_true(p.fp32_gflops >= p.units * 2 * 4 * 1 * p.clock_ghz);
    char path[1024];
    assert_int_equal(cpu_profile_cache_path(path, sizeof path), 0);
    assert_non_null(strstr(path, "-native.json"));
    /* the kind survives the JSON form ("is_cpu" + driver "native") */
    char file[600];
    snprintf(file, sizeof file, "%s/native.json", tmpdir);
    cw_error err;
    assert_int_equal(profile_save_file(&p, file, &err), 0);
    device_profile back;
    assert_int_equal(profile_load_file(file, &back, &err), 0);
    assert_int_equal(back.kind, DEVICE_KIND_NATIVE_CPU);
    snprintf(p.driver, sizeof p.driver, "mesa 22.3.6");
    assert_int_equal(profile_save_file(&p, file, &err), 0);
    assert_int_equal(profile_load_file(file, &back, &err), 0);
    assert_int_equal(back.kind, DEVICE_KIND_CPU_VULKAN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify_table),
        cmocka_unit_test(test_inspection_tells_kernels_apart),
        cmocka_unit_test(test_inspection_corrupt_elf),
        cmocka_unit_test(test_detected_profile),
        cmocka_unit_test(test_prediction_roofline),
        cmocka_unit_test(test_work_expression_errors),
        cmocka_unit_test(test_abi_buffers_args),
        cmocka_unit_test(test_abi_return_codes),
        cmocka_unit_test(test_abi_load_errors),
        cmocka_unit_test(test_abi_hang_guard),
        cmocka_unit_test(test_counters_unavailable_reason),
        cmocka_unit_test(test_verdict_far_below_roofline),
        cmocka_unit_test(test_verdict_evidence_and_wait),
        cmocka_unit_test(test_contention_is_discounted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
