/* vk_clock.c - the GPU clock probe (vk_clock.h). */
#include "vk_clock.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "calibrate_table.h"

#define PROBE_ROW "fp latency"

struct vkx_clock_probe {
    vkx_buffer buf;
    vkx_pipeline pipe;
    vkx_timer timer;
    int have_buf, have_pipe, have_timer;
    char *why; /* could not be built: the reason, kept for later kernels */
};

/* The row's push values and work (FMAs of one chain) on this device kind. */
static const cal_bench *probe_row(int is_cpu, cal_push *push, double *fmas)
{
    const cal_bench *b = cal_row_find(PROBE_ROW);
    if (!b)
        return NULL;
    int d = is_cpu ? 1 : 0;
    *push = (cal_push){.iters = b->iters[d], .n = 0xffffffffu, .stride = b->stride,
                       .mask = b->mask[d], .m = b->m, .c = b->c};
    *fmas = (double)b->iters[d] * b->per_iter;
    return b;
}

double clock_probe_expected_us(const device_profile *p, int is_cpu)
{
    cal_push push;
    double fmas;
    if (!p || !(p->clock_ghz > 0) || !(p->fp_latency_cycles > 0) ||
        !probe_row(is_cpu, &push, &fmas))
        return 0;
    return fmas * p->fp_latency_cycles / (p->clock_ghz * 1e3);
}

void vkx_clock_probe_destroy(vk_ctx *c)
{
    struct vkx_clock_probe *pr = c->clock_probe;
    if (!pr)
        return;
    if (pr->have_timer)
        vkx_timer_destroy(c, &pr->timer);
    if (pr->have_pipe)
        vkx_pipeline_destroy(c, &pr->pipe);
    if (pr->have_buf)
        vkx_buffer_destroy(c, &pr->buf);
    free(pr->why);
    free(pr);
    c->clock_probe = NULL;
}

/* Builds the probe once; 0, or non-zero with pr->why. */
static int probe_build(vk_ctx *c, struct vkx_clock_probe *pr)
{
    int is_cpu = strcmp(c->info.type, "cpu") == 0;
    cal_push push;
    double fmas;
    const cal_bench *row = probe_row(is_cpu, &push, &fmas);
    if (!row) {
        pr->why = cw_strdup("calibrate has no '" PROBE_ROW "' row");
        return 1;
    }
    cw_error e;
    cw_error_clear(&e);
    shader_module m;
    int rc = cal_row_compile(row, &m, &e);
    if (!rc) {
        rc = vkx_buffer_create(c, 16 * 1024, 0, "clock probe output", &pr->buf, &e);
        pr->have_buf = rc == 0;
        if (!rc) {
            vkx_binding bind = {0, 0, 0, &pr->buf};
            rc = vkx_pipeline_create(c, m.words, m.nwords, "main", &bind, 1, sizeof push,
                                     NULL, "clock probe", &pr->pipe, &e);
            pr->have_pipe = rc == 0;
        }
        shader_free(&m);
    }
    if (!rc) {
        uint32_t groups[3] = {1, 1, 1};
        rc = vkx_timer_record(c, &pr->pipe, &push, groups, CLOCK_PROBE_REPEAT, &pr->timer,
                              &e);
        pr->have_timer = rc == 0;
    }
    if (rc) {
        char msg[1200];
        cw_error_format(&e, msg, sizeof msg);
        pr->why = cw_strdup(msg);
    }
    return rc;
}

int vkx_clock_probe_time(vk_ctx *c, double timeout_s, double *us, char **why,
                         cw_error *err)
{
    *why = NULL;
    if (!c->clock_probe) {
        c->clock_probe = xcalloc(1, sizeof *c->clock_probe);
        probe_build(c, c->clock_probe);
    }
    struct vkx_clock_probe *pr = c->clock_probe;
    if (pr->why) {
        *why = cw_strdup(pr->why);
        return 0;
    }
    double bracket_us;
    int host = 0;
    int rc = vkx_timer_run(c, &pr->timer, timeout_s, "clock probe", 0, &bracket_us, &host,
                           err);
    if (rc)
        return rc;
    *us = bracket_us / CLOCK_PROBE_REPEAT;
    return 0;
}
