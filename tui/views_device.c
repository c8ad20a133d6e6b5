/* views_device.c - the device view: ceilings, limits, counters.  See views.h. */
#include "views_int.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

/* ---- device view ---- */

static void kv_rate(pane *p, const char *k, double v, const char *unit,
                    double scale)
{
    char b[64];
    if (v < 0)
        pane_kv(p, 1, k, EL_DIM, "unknown");
    else {
        views_fmt_si(b, sizeof b, v * scale, unit);
        pane_kv(p, 1, k, EL_NORMAL, b);
    }
}

static void device_left(pane *p, const tui_state *st)
{
    const report_device *d = &st->dev;
    char b[512];
    pane_section(p, "Device");
    if (!st->have_dev) {
        pane_wrap(p, 1, 0, EL_DIM, "starting…");
        return;
    }
    pane_kv(p, 1, "name", EL_NORMAL, d->name ? d->name : "-");
    pane_kv(p, 1, "vendor", EL_NORMAL, d->vendor ? d->vendor : "-");
    pane_kv(p, 1, "type", EL_NORMAL, d->type ? d->type : "-");
    pane_kv(p, 1, "driver", EL_NORMAL, d->driver ? d->driver : "-");
    pane_kv(p, 1, "api", EL_NORMAL, d->api ? d->api : "-");
    pane_section(p, "Profile");
    snprintf(b, sizeof b, "%s%s", d->profile ? d->profile : "?",
             d->profile && strcmp(d->profile, "calibrated") == 0
                 ? ""
                 : " (run `clockwork calibrate` to measure this device)");
    pane_kv(p, 1, "source", d->profile && strcmp(d->profile, "calibrated") == 0
                             ? EL_GOOD : EL_WARN, b);
    if (d->profile_path)
        pane_kv(p, 1, "file", EL_NORMAL, d->profile_path);
    if (!st->have_prof)
        return;
    const device_profile *pr = &st->prof;
    if (pr->date[0])
        pane_kv(p, 1, "date", EL_NORMAL, pr->date);
    pane_section(p, "Ceilings");
    kv_rate(p, "DRAM", pr->dram_gbs, "B/s", 1e9);
    kv_rate(p, "L2", pr->l2_gbs, "B/s", 1e9);
    kv_rate(p, "shared", pr->shared_gbs, "B/s", 1e9);
    kv_rate(p, "FP32", pr->fp32_gflops, "FLOP/s", 1e9);
    kv_rate(p, "FP16", pr->fp16_gflops, "FLOP/s", 1e9);
    kv_rate(p, "FP64", pr->fp64_gflops, "FLOP/s", 1e9);
    kv_rate(p, "INT32", pr->int32_gops, "op/s", 1e9);
    kv_rate(p, "SFU", pr->sfu_gops, "op/s", 1e9);
    kv_rate(p, "atomics", pr->atomic_gops, "op/s", 1e9);
    if (pr->launch_us < 0)
        pane_kv(p, 1, "launch", EL_DIM, "unknown");
    else {
        views_fmt_time(b, sizeof b, pr->launch_us);
        pane_kv(p, 1, "launch", EL_NORMAL, b);
    }
    if (pr->timestamp_res_ns < 0)
        pane_kv(p, 1, "timer", EL_DIM, "unknown");
    else {
        units_time_us(b, sizeof b, pr->timestamp_res_ns / 1e3);
        pane_kv(p, 1, "timer", EL_NORMAL, b);
    }
}

static void device_right(pane *p, const tui_state *st)
{
    char b[256];
    if (st->have_prof) {
        const device_profile *pr = &st->prof;
        const device_limits *l = &pr->limits;
        pane_section(p, "Limits");
        snprintf(b, sizeof b, "%u×%u×%u, %u invocations", l->max_wg_size[0],
                 l->max_wg_size[1], l->max_wg_size[2], l->max_wg_invocations);
        pane_kv(p, 1, "workgroup", EL_NORMAL, b);
        snprintf(b, sizeof b, "%u×%u×%u", l->max_wg_count[0],
                 l->max_wg_count[1], l->max_wg_count[2]);
        pane_kv(p, 1, "dispatch", EL_NORMAL, b);
        views_fmt_si(b, sizeof b, l->max_shared_bytes, "B");
        pane_kv(p, 1, "shared mem", EL_NORMAL, b);
        views_fmt_si(b, sizeof b, l->max_push_bytes, "B");
        pane_kv(p, 1, "push consts", EL_NORMAL, b);
        views_fmt_si(b, sizeof b, (double)l->max_storage_range, "B");
        pane_kv(p, 1, "storage range", EL_NORMAL, b);
        snprintf(b, sizeof b, "%u", l->subgroup_size);
        pane_kv(p, 1, "subgroup", l->subgroup_size ? EL_NORMAL : EL_DIM,
             l->subgroup_size ? b : "unknown");
        pane_section(p, "Machine");
        snprintf(b, sizeof b, "%u", pr->units);
        pane_kv(p, 1, "units", pr->units ? EL_NORMAL : EL_DIM,
             pr->units ? b : "unknown");
        snprintf(b, sizeof b, "%.2f GHz", pr->clock_ghz);
        pane_kv(p, 1, "clock", pr->clock_ghz > 0 ? EL_NORMAL : EL_DIM,
             pr->clock_ghz > 0 ? b : "unknown");
        units_bytes(b, sizeof b, (double)pr->l2_bytes);
        /* a CPU device's last-level cache is its L3 (core/profile.c) */
        pane_kv(p, 1, pr->kind != DEVICE_KIND_GPU ? "L3 size" : "L2 size", pr->l2_bytes ? EL_NORMAL : EL_DIM,
             pr->l2_bytes ? b : "unknown");
        snprintf(b, sizeof b, "%u B", pr->line_bytes);
        pane_kv(p, 1, "cache line", pr->line_bytes ? EL_NORMAL : EL_DIM,
             pr->line_bytes ? b : "unknown");
    }
    pane_section(p, "Counters");
    if (!st->have_counters) {
        pane_wrap(p, 1, 0, EL_DIM, "not probed yet");
        return;
    }
    const measurement *m = &st->counters.measurement;
    if (m->ncounters == 0)
        pane_wrap(p, 1, 0, EL_DIM, "no counters configured");
    for (size_t i = 0; i < m->ncounters && p->y < p->cv.rows; i++) {
        const counter_value *c = &m->counters[i];
        char v[512];
        snprintf(v, sizeof v, "%s", c->available ? "available"
                                                  : c->reason ? c->reason
                                                              : "unavailable");
        if (!c->available && c->reason)
            snprintf(v, sizeof v, "unavailable: %s", c->reason);
        canvas_text(&p->cv, p->y, 1, 22, EL_NORMAL, c->name);
        int save = p->y;
        pane_wrap(p, 24, 2, c->available ? EL_GOOD : EL_DIM, v);
        if (p->y == save)
            p->y++;
    }
}

void views_render_device(canvas *cv, const rect *body, tui_state *st)
{
    int two = body->w >= 120;
    int w1 = two ? body->w / 2 - 1 : body->w - 1;
    int h = 120 + 4 * (int)(st->counters.measurement.ncounters > 200
                                ? 200 : st->counters.measurement.ncounters);
    pane a, b;
    pane_init(&a, w1, h, cv->utf8);
    device_left(&a, st);
    if (two) {
        pane_init(&b, body->w - w1 - 2, h, cv->utf8);
        device_right(&b, st);
        views_show_panes(cv, body, st, VIEW_DEVICE, &a, &b, w1, 0);
        canvas_free(&b.cv);
    } else {
        device_right(&a, st);
        views_show_panes(cv, body, st, VIEW_DEVICE, &a, NULL, w1, 0);
    }
    canvas_free(&a.cv);
}
