/* tui_bench.c - time to render the TUI's main view with 1,000 kernels.
 *
 * For several terminal sizes: the pure rendering into a canvas (layout,
 * formatting, sparklines), the same plus a re-sort of the 1,000 rows, and
 * a whole frame painted through curses into /dev/null (render + paint +
 * doupdate, the selection moving every frame).  Median of many
 * repetitions.
 * Target: < 5 ms per frame.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "canvas.h"
#include "provide_curses.h"
#include "state.h"
#include "term.h"
#include "test_tui_fixture.h"
#include "theme.h"
#include "views.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define REPS 200

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp);
    return v[n / 2];
}

int main(void)
{
    static const int sizes[][2] = {{24, 80}, {48, 160}, {80, 250}};
    tui_state st;
    fixture_state(&st, 1000, 1);
    FILE *devnull = fopen("/dev/null", "w");
    FILE *in = fopen("/dev/null", "r");
    char err[256];
    int painted = devnull && in &&
                  term_open_on("xterm-256color", devnull, in, err,
                               sizeof err) == 0;
    theme th;
    theme_default(&th);
    if (painted)
        term_set_theme(&th, 0);
    printf("%-10s %12s %16s %16s %8s\n", "size", "render ms",
           "sort+render ms", "frame ms", "target");
    double worst = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int rows = sizes[z][0], cols = sizes[z][1];
        canvas cv;
        canvas_init(&cv, rows, cols, 1);
        double t[REPS];
        for (int i = 0; i < REPS; i++) {
            st.sel = (size_t)(i * 37 % 1000); /* scroll around */
            double t0 = now_ms();
            views_render(&cv, &st);
            t[i] = now_ms() - t0;
        }
        double r = median(t, REPS);
        for (int i = 0; i < REPS; i++) {
            st.sort = (sort_key)(i % SORT_COUNT);
            double t0 = now_ms();
            state_refresh_order(&st);
            views_render(&cv, &st);
            t[i] = now_ms() - t0;
        }
        double sr = median(t, REPS);
        double f = -1;
        if (painted) {
            /* resize curses' idea of the screen to this size */
            resizeterm(rows, cols);
            for (int i = 0; i < REPS; i++) {
                st.sel = (size_t)(i * 37 % 1000);
                st.sort = SORT_PLAN;
                double t0 = now_ms();
                views_render(&cv, &st);
                term_paint(&cv, 0);
                t[i] = now_ms() - t0;
            }
            f = median(t, REPS);
        }
        char sz[32];
        snprintf(sz, sizeof sz, "%dx%d", cols, rows);
        char fs[32] = "n/a";
        if (f >= 0)
            snprintf(fs, sizeof fs, "%.3f", f);
        printf("%-10s %12.3f %16.3f %16s %8s\n", sz, r, sr, fs, "< 5 ms");
        if (sr > worst)
            worst = sr;
        if (f > worst)
            worst = f;
        canvas_free(&cv);
    }
    if (painted)
        term_close();
    printf("main view, 1,000 kernels: worst %.3f ms per frame: %s\n", worst,
           worst < 5 ? "meets the < 5 ms target" : "MISSES the 5 ms target");
    /* the other views, same state, 160x48 */
    static const char *const names[VIEW_COUNT] = {
        "kernels", "detail", "source", "roofline", "device", "help"};
    printf("\n%-10s %12s   (160x48, 1,000 kernels)\n", "view", "render ms");
    canvas cv;
    canvas_init(&cv, 48, 160, 1);
    for (int v = 0; v < VIEW_COUNT; v++) {
        double t[REPS];
        st.view = (tui_view)v;
        for (int i = 0; i < REPS; i++) {
            st.sel = (size_t)(i * 37 % 1000);
            double t0 = now_ms();
            views_render(&cv, &st);
            t[i] = now_ms() - t0;
        }
        printf("%-10s %12.3f\n", names[v], median(t, REPS));
    }
    canvas_free(&cv);
    state_free(&st);
    return 0;
}
