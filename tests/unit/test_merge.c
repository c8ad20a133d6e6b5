/* merge and fleet: a complete set merges in set order with the worst exit
 * status; a missing, duplicated or other-version shard is an input error
 * naming it; four devices, one 1.4x slower on every kernel: that device and
 * no other is flagged device-outlier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "merge.h"
#include "merge_cmd.h"

static const char *const kernel_names[] = {"saxpy", "reduce", "dup", "dup", "stencil", "gemm"};
#define NK (sizeof kernel_names / sizeof *kernel_names)

/* Shard `index` of `count` holds kernels with position % count == index. */
static void shard_report(report *r, uint32_t index, uint32_t count, const char *node,
                         const char *uuid, double slowdown, int exit_code)
{
    report_init(r);
    r->device.name = strdup("GPU");
    r->device.uuid = strdup(uuid);
    report_provenance *p = &r->provenance;
    p->valid = 1;
    p->host = strdup("host");
    p->node = strdup(node);
    p->shard_index = index;
    p->shard_count = count;
    p->kernels_total = NK;
    p->set_id = strdup("00000000deadbeef");
    p->plans = calloc(1, sizeof *p->plans);
    p->plans[0] = strdup("plan.json");
    p->nplans = 1;
    p->has_exit_code = 1;
    p->exit_code = exit_code;
    /* reverse order: merge must restore plan order */
    for (size_t i = NK; i-- > 0;) {
        if (i % count != index)
            continue;
        kernel_report *k = report_add_kernel(r, kernel_names[i]);
        k->plan = strdup("plan.json");
        k->plan_index = (long)i;
        k->prediction.valid = 1;
        k->prediction.time_us = 100.0 * (double)(i + 1);
        k->measurement.valid = 1;
        k->measurement.samples = 10;
        /* siblings differ a little (+-3%), as real devices do */
        double jitter = 1.0 + 0.01 * (double)((i + (size_t)uuid[0]) % 3) - 0.01;
        k->measurement.median_us = 110.0 * (double)(i + 1) * jitter * slowdown;
        k->measurement.mad_us = 0.5;
    }
}

static void test_merge_complete(void **state)
{
    (void)state;
    report in[3];
    const char *files[] = {"r-2.json", "r-0.json", "r-1.json"};
    shard_report(&in[0], 2, 3, "n2", "u2", 1, 3);
    shard_report(&in[1], 0, 3, "n1", "u1", 1, 0);
    shard_report(&in[2], 1, 3, "n1", "u1", 1, 1);
    report out;
    cw_error err;
    assert_int_equal(merge_reports(in, files, 3, &out, &err), 0);
    assert_int_equal(merge_exit_codes(in, 3, &out), 1); /* findings (1) outrank divergence (3) */
    assert_int_equal(out.provenance.exit_code, 1);
    assert_int_equal(out.nkernels, NK);
    assert_int_equal(out.nsources, 3);
    for (size_t i = 0; i < NK; i++) {
        assert_string_equal(out.kernels[i].name, kernel_names[i]);
        assert_int_equal(out.kernels[i].plan_index, (long)i);
        assert_true(out.kernels[i].source >= 0 && out.kernels[i].source < 3);
    }
    /* devices differ: the top-level device says so */
    assert_non_null(strstr(out.device.name, "2 devices"));
    /* the merged report survives its own JSON */
    char *text = report_to_json_text(&out);
    report back;
    assert_int_equal(report_read_text("m.json", text, strlen(text), &back, &err), 0);
    assert_int_equal(back.nsources, 3);
    assert_int_equal(back.kernels[4].source, out.kernels[4].source);
    assert_string_equal(back.sources[0].file, "r-2.json");
    assert_int_equal(back.provenance.exit_code, 1);
    report_free(&back);
    free(text);
    report_free(&out);
    for (int i = 0; i < 3; i++)
        report_free(&in[i]);
}

static void test_merge_rejects(void **state)
{
    (void)state;
    report in[3];
    const char *files[] = {"a.json", "b.json", "c.json"};
    report out;
    cw_error err;
    /* shard 1/3 absent */
    shard_report(&in[0], 0, 3, "n1", "u1", 1, 0);
    shard_report(&in[1], 2, 3, "n1", "u1", 1, 0);
    assert_int_equal(merge_reports(in, files, 2, &out, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "shard 1/3 is missing"));
    report_free(&out);
    /* shard 2/3 twice */
    shard_report(&in[2], 2, 3, "n2", "u2", 1, 0);
    assert_int_equal(merge_reports(in, files, 3, &out, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "shard 2/3"));
    assert_non_null(strstr(err.text, "twice"));
    assert_non_null(strstr(err.text, "b.json"));
    assert_non_null(strstr(err.text, "c.json"));
    report_free(&out);
    /* another tool version */
    report_free(&in[2]);
    shard_report(&in[2], 1, 3, "n2", "u2", 1, 0);
    free(in[2].tool_version);
    in[2].tool_version = strdup("0.0.1");
    assert_int_equal(merge_reports(in, files, 3, &out, &err), CW_STATUS_INPUT);
    assert_string_equal(err.file, "c.json");
    assert_non_null(strstr(err.text, "0.0.1"));
    report_free(&out);
    /* a cut-short shard: the kernel count does not add up */
    free(in[2].tool_version);
    in[2].tool_version = strdup(in[0].tool_version);
    kernel_report_free(&in[2].kernels[--in[2].nkernels]);
    assert_int_equal(merge_reports(in, files, 3, &out, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "cut short"));
    report_free(&out);
    /* the same complete report twice from one device */
    report whole[2];
    shard_report(&whole[0], 0, 1, "n1", "u1", 1, 0);
    shard_report(&whole[1], 0, 1, "n1", "u1", 1, 0);
    assert_int_equal(merge_reports(whole, files, 2, &out, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "duplicated"));
    report_free(&out);
    for (int i = 0; i < 2; i++)
        report_free(&whole[i]);
    for (int i = 0; i < 3; i++)
        report_free(&in[i]);
}

static size_t outlier_findings(const report *r, size_t source)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nkernels; i++)
        for (size_t j = 0; j < r->kernels[i].nfindings; j++)
            if (!strcmp(r->kernels[i].findings[j].id, "device-outlier")) {
                assert_int_equal(r->kernels[i].source, (long)source);
                n++;
            }
    return n;
}

static void test_fleet_outlier(void **state)
{
    (void)state;
    /* four devices ran the whole set; u3 is 1.4x slower on every kernel */
    report in[4];
    const char *files[] = {"d0.json", "d1.json", "d2.json", "d3.json"};
    const char *uuids[] = {"u0", "u1", "u2", "u3"};
    const char *nodes[] = {"n1", "n1", "n2", "n2"};
    for (int d = 0; d < 4; d++)
        shard_report(&in[d], 0, 1, nodes[d], uuids[d], d == 3 ? 1.4 : 1.0, 0);
    report out;
    cw_error err;
    assert_int_equal(merge_reports(in, files, 4, &out, &err), 0);
    assert_int_equal(out.nkernels, 4 * NK);
    assert_int_equal(fleet_analyse(&out, 0.25), 1);
    assert_int_equal(outlier_findings(&out, 3), NK);
    json_t *f = json_loads(out.fleet_json, 0, NULL);
    assert_non_null(f);
    json_t *devs = json_object_get(f, "devices");
    assert_int_equal(json_array_size(devs), 4);
    for (size_t d = 0; d < 4; d++) {
        json_t *o = json_array_get(devs, d);
        assert_int_equal(json_is_true(json_object_get(o, "outlier")), d == 3);
    }
    json_t *k0 = json_array_get(json_object_get(f, "kernels"), 0);
    assert_int_equal(json_integer_value(json_object_get(k0, "devices")), 4);
    assert_true(json_number_value(json_object_get(k0, "spread")) > 1.35);
    json_decref(f);
    report_free(&out);

    /* all four agree: nobody is flagged, no finding */
    report_free(&in[3]);
    shard_report(&in[3], 0, 1, nodes[3], uuids[3], 1.0, 0);
    assert_int_equal(merge_reports(in, files, 4, &out, &err), 0);
    assert_int_equal(fleet_analyse(&out, 0.25), 0);
    for (size_t i = 0; i < out.nkernels; i++)
        for (size_t j = 0; j < out.kernels[i].nfindings; j++)
            assert_string_not_equal(out.kernels[i].findings[j].id, "device-outlier");
    report_free(&out);

    /* two devices: the one far from the model is the outlier, not its sibling */
    report_free(&in[1]);
    shard_report(&in[1], 0, 1, nodes[1], uuids[1], 1.4, 0);
    assert_int_equal(merge_reports(in, files, 2, &out, &err), 0);
    assert_int_equal(fleet_analyse(&out, 0.25), 1);
    assert_int_equal(outlier_findings(&out, 1), NK);
    report_free(&out);
    for (int d = 0; d < 4; d++)
        report_free(&in[d]);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_merge_complete),
             cmocka_unit_test(test_merge_rejects),
             cmocka_unit_test(test_fleet_outlier))
