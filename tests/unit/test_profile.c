/* test_profile.c - device profiles: built-ins, JSON round trip, positioned
 * errors for malformed files, cache paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "profile.h"

/* The profile's rates and costs (double; negative: unknown), its counts
 * and sizes (integers) and its flags and enumerations, as fill_all sets
 * and the round trip compares them. */
#define RATE_FIELDS(X)                                                         \
    X(dram_gbs) X(dram_read_gbs) X(dram_write_gbs) X(l2_gbs) X(l2_sector_gops)  \
    X(shared_gbs) X(fp32_gflops) X(fp16_gflops) X(fp64_gflops) X(int32_gops)    \
    X(sfu_gops) X(atomic_gops) X(launch_us) X(launch_memory_us)                \
    X(timestamp_res_ns)                                                        \
    X(mem_latency_ns) X(clock_ghz) X(l1_gbs) X(atomic_shared_gops)              \
    X(issue_glanes) X(l1_latency_ns) X(l2_latency_ns) X(shared_latency_ns)      \
    X(fp_latency_cycles) X(atomic_same_ns) X(atomic_shared_same_ns)             \
    X(barrier_ns) X(subgroup_op_ns) X(dram_page_ns) X(atomic_line_ns)           \
    X(atomic_request_ns) X(atomic_word_ns) X(atomic_collide_ns)                 \
    X(group_start_ns) X(dram_random_read_bytes) X(dram_random_write_bytes)      \
    X(cpu_cycles_per_instruction) X(cpu_cycles_per_storage_lane)                \
    X(cpu_cycles_per_shared_lane) X(cpu_ns_per_barrier_lane) X(cpu_ns_per_group) \
    X(cpu_cycles_per_subgroup) \
    X(cpu_cycles_per_chain_step) X(cpu_fp16_conversions_per_flop)
#define COUNT_FIELDS(X)                                                        \
    X(units) X(max_threads_per_unit) X(max_groups_per_unit) X(shared_per_unit)  \
    X(regs_per_unit) X(l2_bytes) X(sector_bytes) X(line_bytes) X(shared_banks)  \
    X(l1_bytes) X(l1_ways) X(l2_ways) X(reg_alloc_granule) X(atomic_unit_bytes) \
    X(atomic_slice_bytes) X(dram_page_bytes)
#define FLAG_FIELDS(X)                                                         \
    X(source) X(kind) X(l1_shared_unified) X(l1_write_back) X(partial_write_fill) \
    X(atomic_combine) X(atomic_shared_combine)

/* A profile with every field set to a distinct, non-default value: rates
 * that decimal text cannot hold exactly (17 digits must round-trip), no
 * two fields alike (a swap shows), limits at their types' ends. */
static void fill_all(device_profile *p)
{
    profile_init(p);
    snprintf(p->name, sizeof p->name, "Test GPU \"quoted\" \\ name");
    snprintf(p->key, sizeof p->key, "testgpu");
    snprintf(p->driver, sizeof p->driver, "drv 1.2.3");
    snprintf(p->uuid, sizeof p->uuid, "00112233445566778899aabbccddeeff");
    snprintf(p->date, sizeof p->date, "2026-11-30");
    snprintf(p->command, sizeof p->command, "clockwork calibrate --device 1");
    p->limits.max_wg_size[0] = 1024;
    p->limits.max_wg_size[1] = 512;
    p->limits.max_wg_size[2] = 64;
    p->limits.max_wg_invocations = 1023;
    p->limits.max_wg_count[0] = 4000000000u;
    p->limits.max_wg_count[1] = 65535;
    p->limits.max_wg_count[2] = 65534;
    p->limits.max_shared_bytes = 49152;
    p->limits.max_push_bytes = 128;
    p->limits.max_storage_range = 18446744073709551615ull;
    p->limits.subgroup_size = 64;
    double rate = 1.0;
#define SET_RATE(f) p->f = rate = rate * 1.5 + 0.1;
    RATE_FIELDS(SET_RATE)
#undef SET_RATE
    p->fp64_gflops = 0.1 + 0.2; /* the classic: 0.30000000000000004 */
    p->source = PROFILE_CALIBRATED;
    p->kind = DEVICE_KIND_CPU_VULKAN;
    uint32_t count = 100;
#define SET_COUNT(f) p->f = count += 7;
    COUNT_FIELDS(SET_COUNT)
#undef SET_COUNT
    /* flags known (the default is unknown, -1), true and false both */
    p->l1_shared_unified = 1;
    p->l1_write_back = 0;
    p->partial_write_fill = 1;
    p->l2_bytes = 62914560ull << 12; /* above 2^32 */
    p->atomic_combine = 1;
    p->atomic_shared_combine = 0;
}

static void assert_same(const device_profile *a, const device_profile *b)
{
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->key, b->key);
    assert_string_equal(a->driver, b->driver);
    assert_string_equal(a->uuid, b->uuid);
    assert_string_equal(a->date, b->date);
    assert_string_equal(a->command, b->command);
    assert_memory_equal(&a->limits, &b->limits, sizeof a->limits);
    /* unknown stays unknown (any negative), a known rate bit-exact */
#define SAME_RATE(f)                                                           \
    if (a->f < 0 ? !(b->f < 0) : !(a->f == b->f))                              \
        fail_msg("%s: %.17g, then %.17g", #f, a->f, b->f);
    RATE_FIELDS(SAME_RATE)
#undef SAME_RATE
#define SAME_INT(f)                                                            \
    if (a->f != b->f)                                                          \
        fail_msg("%s: %lld, then %lld", #f, (long long)a->f, (long long)b->f);
    COUNT_FIELDS(SAME_INT)
    FLAG_FIELDS(SAME_INT)
#undef SAME_INT
}

static void tmp_path(char *buf, size_t n, const char *name)
{
    const char *d = getenv("TMPDIR");
    snprintf(buf, n, "%s/cw_test_profile_%ld_%s", d && d[0] ? d : "/tmp",
             (long)getpid(), name);
}

static void roundtrip(const device_profile *in)
{
    char path[512];
    tmp_path(path, sizeof path, "rt/sub/p.json"); /* folders are created */
    cw_error err;
    assert_int_equal(profile_save_file(in, path, &err), 0);
    device_profile out;
    memset(&out, 0x5a, sizeof out);
    if (profile_load_file(path, &out, &err) != 0)
        fail_msg("reload failed: %s:%d:%d: %s", err.file, err.line,
                 err.column, err.text);
    assert_same(in, &out);
    /* twice: save of the loaded profile gives the same text */
    char path2[512];
    tmp_path(path2, sizeof path2, "rt2.json");
    assert_int_equal(profile_save_file(&out, path2, &err), 0);
    FILE *a = fopen(path, "rb"), *b = fopen(path2, "rb");
    assert_non_null(a);
    assert_non_null(b);
    char ba[8192], bb[8192];
    size_t na = fread(ba, 1, sizeof ba, a), nb = fread(bb, 1, sizeof bb, b);
    fclose(a);
    fclose(b);
    assert_int_equal(na, nb);
    assert_memory_equal(ba, bb, na);
    unlink(path);
    unlink(path2);
}

static void test_roundtrip_all_fields(void **state)
{
    (void)state;
    device_profile p;
    fill_all(&p);
    roundtrip(&p);
}

static void test_roundtrip_unknowns(void **state)
{
    (void)state;
    device_profile p;
    profile_init(&p); /* everything unknown: rates null, counts 0 */
    roundtrip(&p);
    assert_true(p.dram_gbs < 0);
    assert_int_equal(p.source, PROFILE_LIMITS_ONLY);
}

static void test_roundtrip_builtins(void **state)
{
    (void)state;
    for (const char *const *k = profile_builtin_keys(); *k; k++) {
        device_profile p;
        assert_int_equal(profile_builtin(*k, &p), 0);
        assert_string_equal(p.key, *k);
        assert_int_equal(p.source, PROFILE_BUILTIN);
        roundtrip(&p);
    }
    device_profile p;
    assert_int_not_equal(profile_builtin("no-such-device", &p), 0);
    assert_int_not_equal(profile_builtin(NULL, &p), 0);
}

static void test_builtin_h200(void **state)
{
    (void)state;
    device_profile p;
    assert_int_equal(profile_builtin("h200", &p), 0);
    assert_int_equal(p.units, 132);
    assert_int_equal(p.limits.subgroup_size, 32);
    assert_int_equal(p.limits.max_shared_bytes, 49152);
    assert_true(p.l2_bytes == 60ull * 1024 * 1024);
    assert_true(p.dram_gbs > 4000 && p.dram_gbs < 4600);
    assert_int_equal(p.kind, DEVICE_KIND_GPU);
    assert_true(p.launch_us > 0);
}

/* profiles/h200.json is the built-in in JSON form: keep them identical. */
static void test_h200_file_matches_builtin(void **state)
{
    (void)state;
    const char *root = getenv("CW_TEST_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/profiles/h200.json",
             root && root[0] ? root : ".");
    device_profile file, builtin;
    cw_error err;
    if (profile_load_file(path, &file, &err) != 0)
        fail_msg("%s:%d:%d: %s", err.file, err.line, err.column, err.text);
    assert_int_equal(profile_builtin("h200", &builtin), 0);
    assert_same(&builtin, &file);
}

static void test_builtin_lavapipe(void **state)
{
    (void)state;
    device_profile p;
    assert_int_equal(profile_builtin("lavapipe", &p), 0);
    assert_int_equal(p.kind, DEVICE_KIND_CPU_VULKAN);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    assert_int_equal(p.units, (uint32_t)n);
    assert_true(p.limits.subgroup_size == 8 || p.limits.subgroup_size == 4);
    if (p.clock_ghz > 0) {
        /* peak = cores x clock x lanes x pipes x (FMA = 2) */
        double lanes = p.limits.subgroup_size;
        double per = p.fp32_gflops / (n * p.clock_ghz * lanes);
        assert_true(per >= 2.0 - 1e-9 && per <= 4.0 + 1e-9);
    }
    assert_true(p.dram_gbs > 0);
    /* its costs are profiles/lavapipe.json's: a file the loader refused
     * (a field out of range, a string too long) would leave them unknown
     * and the device predicted with assumed costs */
    assert_int_equal(p.source, PROFILE_BUILTIN);
    assert_true(p.cpu_cycles_per_instruction > 0);
    assert_true(p.cpu_cycles_per_subgroup > 0);
    assert_true(p.cpu_ns_per_group > 0);
    assert_true(p.launch_us > 0);
    /* LP_NUM_THREADS caps the cores lavapipe uses */
    setenv("LP_NUM_THREADS", "1", 1);
    assert_int_equal(profile_builtin("lavapipe", &p), 0);
    assert_int_equal(p.units, 1);
    setenv("LP_NUM_THREADS", "0", 1); /* no worker threads: one core */
    assert_int_equal(profile_builtin("lavapipe", &p), 0);
    assert_int_equal(p.units, 1);
    setenv("LP_NUM_THREADS", "999", 1); /* never more than the cores */
    assert_int_equal(profile_builtin("lavapipe", &p), 0);
    assert_int_equal(p.units, (uint32_t)n);
    unsetenv("LP_NUM_THREADS");
}

/* A malformed profile is refused and leaves the output alone. */
static int load_bad_profile(const cw_bad_text *c, const char *path, cw_error *err)
{
    device_profile p;
    profile_init(&p);
    snprintf(p.name, sizeof p.name, "untouched");
    int rc = profile_load_text(path, c->text, c->len, &p, err);
    if (strcmp(p.name, "untouched") != 0)
        fail_msg("%s:%d: the refused load changed the profile", c->file, c->line);
    return rc;
}

/* Malformed profiles (tests/unit/bad_profiles.txt): each gives an error at
 * the right line and column. */
static void test_bad_profiles(void **state)
{
    (void)state;
    cw_check_refusals("bad_profiles.txt", 33, "bad.json", load_bad_profile);
}

static void test_partial_profile(void **state)
{
    (void)state;
    const char *t = "{\"schema\": 1, \"name\": \"hand\", \"ceilings\": "
                    "{\"dram_gbs\": 12.5, \"l2_gbs\": null}, "
                    "\"shape\": {\"units\": 4, \"l2_bytes\": 1e6}}";
    device_profile p;
    cw_error err;
    assert_int_equal(profile_load_text("p.json", t, strlen(t), &p, &err), 0);
    assert_string_equal(p.name, "hand");
    assert_true(p.dram_gbs == 12.5);
    assert_true(p.l2_gbs < 0);
    assert_true(p.fp32_gflops < 0); /* absent = unknown */
    assert_int_equal(p.units, 4);
    assert_true(p.l2_bytes == 1000000);
    assert_int_equal(p.source, PROFILE_LIMITS_ONLY);
}

static void test_missing_file(void **state)
{
    (void)state;
    device_profile p;
    cw_error err;
    assert_int_not_equal(
        profile_load_file("/nonexistent/dir/profile.json", &p, &err), 0);
    assert_string_equal(err.file, "/nonexistent/dir/profile.json");
    assert_non_null(strstr(err.text, "cannot open"));
}

static void test_cache_path(void **state)
{
    (void)state;
    char buf[1024];
    setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    assert_int_equal(profile_cache_path("abcd", "Mesa 22.3", buf, sizeof buf),
                     0);
    assert_string_equal(buf, "/tmp/xdg/clockwork/profiles/abcd-Mesa_22.3.json");
    /* a relative XDG_CACHE_HOME is ignored (XDG spec) */
    setenv("XDG_CACHE_HOME", "relative", 1);
    setenv("HOME", "/home/u", 1);
    assert_int_equal(profile_cache_path("../x", NULL, buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/u/.cache/clockwork/profiles/.._x-unknown.json");
    unsetenv("XDG_CACHE_HOME");
    assert_int_equal(profile_cache_path("", "d/r", buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/u/.cache/clockwork/profiles/unknown-d_r.json");
    /* too small a buffer is an error, not a truncated path */
    assert_int_not_equal(profile_cache_path("abcd", "x", buf, 10), 0);
}

static void test_source_names(void **state)
{
    (void)state;
    assert_string_equal(profile_source_name(PROFILE_BUILTIN), "builtin");
    assert_string_equal(profile_source_name(PROFILE_CALIBRATED), "calibrated");
    assert_string_equal(profile_source_name(PROFILE_LIMITS_ONLY), "limits-only");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_all_fields),
        cmocka_unit_test(test_roundtrip_unknowns),
        cmocka_unit_test(test_roundtrip_builtins),
        cmocka_unit_test(test_builtin_h200),
        cmocka_unit_test(test_h200_file_matches_builtin),
        cmocka_unit_test(test_builtin_lavapipe),
        cmocka_unit_test(test_bad_profiles),
        cmocka_unit_test(test_partial_profile),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_cache_path),
        cmocka_unit_test(test_source_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
