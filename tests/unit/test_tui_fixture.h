/* test_tui_fixture.h - hand-made TUI state for the tui unit tests and the
 * render benchmark: kernels with predictions, live samples, counters,
 * findings and verdicts, a device and a profile. */
#ifndef CW_TEST_TUI_FIXTURE_H
#define CW_TEST_TUI_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "state.h"

static const char fixture_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer X { float x[]; };\n"
    "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"
    "layout(push_constant) uniform P { uint n; float alpha; };\n"
    "void main() {\n"
    "\tuint i = gl_GlobalInvocationID.x;\n"
    "    y[i] = alpha * x[i] + y[i];\n"
    "}\n";

static void fixture_kernel(tui_state *st, size_t i, int measured)
{
    static const char *const names[] = {"saxpy", "reduce", "matmul_tiled",
                                        "matmul_naive", "stencil",
                                        "transpose", "saxpy_noguard"};
    static const char *const bounds[] = {"dram", "dram", "fp32", "l2",
                                         "dram", "dram", "launch"};
    tui_kernel *k = &st->k[i];
    kernel_report *kr = &k->kr;
    char name[64];
    if (i < 7)
        snprintf(name, sizeof name, "%s", names[i]);
    else
        snprintf(name, sizeof name, "kernel_%05zu_with_a_long_name", i);
    cw_set_str(&kr->name, name);
    cw_set_str(&kr->kind, "gpu");
    cw_set_str(&kr->shader, "kernels/saxpy.comp");
    cw_set_str(&kr->entry, "main");
    kr->workgroups[0] = 4096;
    kr->workgroups[1] = kr->workgroups[2] = 1;
    kr->local_size[0] = 256;
    kr->local_size[1] = kr->local_size[2] = 1;
    prediction *p = &kr->prediction;
    p->valid = 1;
    p->time_us = 10.0 * (double)(i % 13 + 1) * (1 + (double)(i % 3));
    p->ideal_time_us = p->time_us * 0.7;
    cw_set_str(&p->bound, bounds[i % 7]);
    p->flops = 2e6 * (double)(i % 5 + 1) * (i % 7 == 5 ? 0 : 1);
    p->bytes = 12e6 / (double)(i % 4 + 1);
    p->invocations = 1048576;
    p->conf = CONF_EXACT;
    prediction_add_term(p, "dram", p->time_us);
    prediction_add_term(p, "fp32", p->time_us * 0.1);
    prediction_add_term(p, "launch", 2.0);
    prediction_add_assumption(p, "every byte of x and y is read once from "
                              "DRAM; the L2 holds no reuse across workgroups");
    k->state = KS_CHECKED;
    if (i % 7 == 6)
        report_add_finding(kr, FINDING_OUT_OF_BOUNDS, SEV_ERROR,
                           "kernels/saxpy.comp", 8, "guard with if (i < n)",
                           "index y[i] reaches 1023 but the buffer holds "
                           "1000 elements (invocations 1000..1023)");
    if (i % 3 == 1)
        report_add_finding(kr, FINDING_UNCOALESCED_ACCESS, SEV_WARNING,
                           "kernels/saxpy.comp", 7, NULL,
                           "neighbouring lanes are 4096 bytes apart");
    if (i % 4 == 2)
        report_add_finding(kr, FINDING_TAIL_EFFECT, SEV_NOTE, NULL, 0, NULL,
                           "the last wave is 12%% full");
    k->source = cw_strdup(fixture_glsl);
    k->source_glsl = 1;
    k->nlines = 2;
    k->lines = calloc(2, sizeof *k->lines);
    k->lines[0] = (line_cost){.line = 7, .flops = 0, .bytes = 0,
                              .instructions = 1e6};
    k->lines[1] = (line_cost){.line = 8, .flops = 2e6, .bytes = 12e6,
                              .instructions = 5e6};
    kernel_counts *cn = &k->counts;
    k->have_counts = 1;
    cn->invocations = 1048576;
    cn->active_invocations = 1000000;
    cn->workgroups = 4096;
    cn->flops_fp32 = 2e6;
    cn->instructions = 12.2e6;
    cn->int_ops = 1.05e6;
    cn->storage_load_bytes = 8e6;
    cn->storage_store_bytes = 4e6;
    cn->compulsory_read_bytes = 8e6;
    cn->compulsory_write_bytes = 4e6;
    cn->shared_load_bytes = i % 2 ? 1e6 : 0;
    cn->barriers = i % 2 ? 4096 : 0;
    cn->fp_chains = 1;
    cn->conf = CONF_EXACT;
    cn->naccesses = 2;
    cn->accesses = calloc(2, sizeof *cn->accesses);
    cn->accesses[0] = (access_summary){.space = SPACE_STORAGE, .binding = 0,
        .var = cw_strdup("X"), .bytes = 4, .count = 1e6, .stride_known = 1,
        .lane_stride_bytes = 4, .index_known = 1, .index_min = 0,
        .index_max = 999999, .line = 8};
    cn->accesses[1] = (access_summary){.space = SPACE_STORAGE, .binding = 1,
        .var = cw_strdup("Y"), .is_store = 1, .bytes = 4, .count = 1e6,
        .stride_known = 1, .lane_stride_bytes = 4096, .line = 8};
    if (!measured)
        return;
    measurement *m = &kr->measurement;
    m->valid = 1;
    m->samples = 30;
    m->nsample_us = 30;
    m->sample_us = calloc(30, sizeof(double));
    for (size_t s = 0; s < 30; s++)
        m->sample_us[s] = p->time_us * (1.0 + 0.05 * (double)((s * 7 + i) % 11));
    m->median_us = p->time_us * 1.2;
    m->mad_us = p->time_us * 0.04;
    m->min_us = p->time_us;
    m->max_us = p->time_us * 1.5;
    m->p90_us = p->time_us * 1.4;
    m->has_cold = 1;
    m->cold_us = p->time_us * 2;
    m->has_invocations = 1;
    m->invocations = 1048576;
    cw_set_str(&m->counters_scope, "kernel");
    counter_value *c = measurement_add_counter(m, "task-clock");
    c->available = 1;
    c->value = 1.5e6;
    c = measurement_add_counter(m, "cycles");
    c->available = 0;
    cw_set_str(&c->reason, "no hardware PMU on this machine (ENOENT)");
    for (size_t s = 0; s < 30; s++) {
        k->recent[k->nrecent % SPARK_N] = m->sample_us[s];
        k->nrecent++;
    }
    if (i % 7 == 6) { /* as after an edit: faster than before */
        k->has_prev_pred = k->has_prev_meas = 1;
        k->prev_pred_us = p->time_us * 1.5;
        k->prev_meas_us = m->median_us * 2;
    }
    divergence *d = &kr->divergence;
    d->valid = 1;
    d->ratio = m->median_us / p->time_us;
    d->status = i % 5 == 3 ? DIV_SLOWER : DIV_OK;
    cw_set_str(&d->explanation, "measured 1.2x the prediction, inside the "
               "25% band widened by the 4% spread; invocations match the "
               "model exactly");
    k->state = KS_MEASURED;
}

/* A state with n kernels; measured: with measurements and verdicts. */
static void fixture_state(tui_state *st, size_t n, int measured)
{
    state_init(st);
    snprintf(st->version, sizeof st->version, "0.1.0");
    char **names = calloc(n ? n : 1, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        names[i] = malloc(16);
        snprintf(names[i], 16, "k%zu", i);
    }
    state_set_kernels(st, 0, names, n);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    for (size_t i = 0; i < n; i++)
        fixture_kernel(st, i, measured);
    st->measure = measured;
    st->have_dev = 1;
    st->dev.name = cw_strdup("llvmpipe (LLVM 15.0.6, 256 bits)");
    st->dev.vendor = cw_strdup("Mesa");
    st->dev.driver = cw_strdup("llvmpipe Mesa 22.3.6");
    st->dev.api = cw_strdup("1.3.230");
    st->dev.type = cw_strdup("cpu");
    st->dev.profile = cw_strdup("builtin");
    profile_init(&st->prof);
    st->have_prof = 1;
    st->prof.dram_gbs = 20;
    st->prof.l2_gbs = 80;
    st->prof.fp32_gflops = 100;
    st->prof.launch_us = 5;
    st->prof.limits.max_wg_size[0] = 1024;
    st->prof.limits.max_wg_invocations = 1024;
    st->have_counters = 1;
    counter_value *c = measurement_add_counter(&st->counters.measurement,
                                               "task-clock");
    c->available = 1;
    c = measurement_add_counter(&st->counters.measurement, "cycles");
    cw_set_str(&c->reason, "no hardware PMU (ENOENT)");
    snprintf(st->sampling, sizeof st->sampling, "%s",
             measured ? "done · 7 measured" : "static only");
    state_refresh_order(st);
}

#endif
