/* test_tui_layout.c - the TUI's pure layout, rendering and key handling
 * over many terminal sizes: nothing drawn outside the screen, no overlaps,
 * the selection always visible, ASCII mode free of non-ASCII cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canvas.h"
#include "keys.h"
#include "state.h"
#include "test_tui_fixture.h"
#include "theme.h"
#include "views.h"

static int screen_contains(const canvas *cv, const char *needle)
{
    char buf[4096];
    for (int y = 0; y < cv->rows; y++) {
        canvas_row_text(cv, y, buf, sizeof buf);
        if (strstr(buf, needle))
            return 1;
    }
    return 0;
}

static int rect_inside(rect r, int rows, int cols)
{
    return r.h >= 0 && r.w >= 0 && r.y >= 0 && r.x >= 0 && r.y + r.h <= rows &&
           r.x + r.w <= cols;
}

static int rects_overlap(rect a, rect b)
{
    if (a.h == 0 || a.w == 0 || b.h == 0 || b.w == 0)
        return 0;
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
           b.y < a.y + a.h;
}

static void test_columns_fit(void **s)
{
    (void)s;
    for (int w = 0; w <= 320; w++) {
        views_column c[COL_COUNT];
        int n = views_main_columns(w, c);
        assert_true(n >= 1 || w == 0);
        int end = 0;
        for (int i = 0; i < n; i++) {
            assert_true(c[i].w > 0 || w == 0);
            assert_true(c[i].x >= end);      /* no overlap, left to right */
            end = c[i].x + c[i].w;
            if (w > 0)
                assert_true(end <= w);       /* inside the width */
        }
        if (w >= 80) {                       /* the essentials at 80 */
            int have[COL_COUNT] = {0};
            for (int i = 0; i < n; i++)
                have[c[i].id] = 1;
            assert_true(have[COL_NAME] && have[COL_PRED] && have[COL_MEAS] &&
                        have[COL_RATIO] && have[COL_VERDICT] &&
                        have[COL_SPARK] && have[COL_FINDINGS] &&
                        have[COL_BOUND]);
        }
        if (w >= 130)
            assert_int_equal(n, COL_COUNT);
    }
}

static void test_screen_layout(void **s)
{
    (void)s;
    for (int rows = 0; rows <= 80; rows++)
        for (int cols = 0; cols <= 260; cols += 3) {
            views_layout l;
            views_layout_screen(rows, cols, &l);
            if (rows < VIEWS_MIN_ROWS || cols < VIEWS_MIN_COLS) {
                assert_true(l.too_small);
                continue;
            }
            assert_false(l.too_small);
            rect r[4] = {l.header, l.body, l.status, l.keybar};
            for (int i = 0; i < 4; i++) {
                assert_true(rect_inside(r[i], rows, cols));
                for (int j = i + 1; j < 4; j++)
                    assert_false(rects_overlap(r[i], r[j]));
            }
            assert_int_equal(l.header.h + l.body.h + l.status.h + l.keybar.h,
                             rows);
            views_main_geom m;
            views_main_layout(&l.body, (size_t)(cols % 40), &m);
            rect g[3] = {m.titles, m.rows, m.summary};
            /* the table keeps at least 8 rows when the body has room */
            if (l.body.h >= 14)
                assert_true(m.rows.h >= 8 || m.rows.h >= cols % 40);
            for (int i = 0; i < 3; i++) {
                assert_true(rect_inside(g[i], rows, cols));
                assert_false(rects_overlap(g[i], l.header));
                assert_false(rects_overlap(g[i], l.status));
                for (int j = i + 1; j < 3; j++)
                    assert_false(rects_overlap(g[i], g[j]));
            }
        }
}

/* Every view at every size, UTF-8 and ASCII, static and measured. */
static void test_render_all_sizes(void **s)
{
    (void)s;
    static const int rows[] = {0, 1, 2, 5, 9, 10, 11, 12, 13, 14, 15, 17,
                               20, 24, 30, 40, 48, 60, 100};
    static const int cols[] = {0, 1, 10, 40, 49, 50, 51, 60, 70, 79, 80, 81,
                               99, 100, 109, 110, 119, 120, 139, 140, 160,
                               200, 250, 400};
    for (int measured = 0; measured <= 1; measured++) {
        tui_state st;
        fixture_state(&st, 9, measured);
        for (int utf8 = 0; utf8 <= 1; utf8++)
            for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
                for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
                    for (int v = 0; v < VIEW_COUNT; v++)
                        for (int sel = 0; sel < 9; sel += 4) {
                            canvas cv;
                            canvas_init(&cv, rows[r], cols[c], utf8);
                            st.view = (tui_view)v;
                            st.sel = (size_t)sel;
                            st.scroll[v] = sel * 7; /* clamped by render */
                            st.source_cursor = sel * 3;
                            views_render(&cv, &st);
                            if (cv.overflow)
                                print_message("overflow: view %d %dx%d utf8 %d "
                                              "measured %d\n", v, cols[c],
                                              rows[r], utf8, measured);
                            assert_int_equal(cv.overflow, 0);
                            for (int i = 0; i < cv.rows * cv.cols; i++) {
                                if (!utf8)
                                    assert_true(cv.cells[i].ch < 128);
                                assert_true(cv.cells[i].ch >= 32);
                                assert_true(cv.cells[i].el < EL_COUNT);
                            }
                            canvas_free(&cv);
                        }
        state_free(&st);
    }
}

static void render(tui_state *st, canvas *cv, int rows, int cols, int utf8,
                   tui_view v)
{
    canvas_init(cv, rows, cols, utf8);
    st->view = v;
    views_render(cv, st);
}

/* What each view shows of the 7-kernel fixture, in order: a row's sel and
 * source cursor (-1: unchanged) are set before it renders rows x cols. */
static const struct {
    int line, sel, cursor, rows, cols, utf8;
    tui_view view;
    const char *want[10];
} shows[] = {
    {__LINE__, -1, -1, 24, 80, 1, VIEW_MAIN,
     {"KERNEL", "MEASURED", "saxpy_noguard", "matmul_tiled", "Clockwork 0.1.0",
      "profile: builtin", "Quit", "slower" /* i % 5 == 3 */,
      "1E" /* saxpy_noguard's error */}},
    {__LINE__, 6 /* saxpy_noguard */, -1, 24, 80, 1, VIEW_DETAIL, {"Verdict", "Prediction"}},
    /* two columns: all of it */
    {__LINE__, -1, -1, 60, 160, 1, VIEW_DETAIL,
     {"Findings (2)", "-33% (was 105µs)" /* the edit */, "out-of-bounds", "Measurement",
      "unavailable (no hardware PMU", "launch"}},
    /* line 8 carries the error marker and most of the time */
    {__LINE__, -1, -1, 24, 80, 1, VIEW_SOURCE,
     {"y[i] = alpha * x[i] + y[i];", "GLSL", "●    8"}},
    {__LINE__, -1, 7, 24, 80, 1, VIEW_SOURCE, {"line 8: error out-of-bounds"}},
    {__LINE__, -1, -1, 24, 80, 1, VIEW_ROOFLINE, {"Roofline", "FP32 100 GFLOP/s"}},
    {__LINE__, -1, -1, 24, 80, 0, VIEW_ROOFLINE, {"FP32 100 GFLOP/s", "/"}},
    {__LINE__, -1, -1, 24, 80, 1, VIEW_DEVICE, {"llvmpipe"}},
    {__LINE__, -1, -1, 48, 160, 1, VIEW_DEVICE,
     {"unavailable: no hardware PMU", "20.0 GB/s"}},
    {__LINE__, -1, -1, 24, 80, 1, VIEW_HELP, {"Keys", "filter kernels"}},
    {__LINE__, -1, -1, 8, 30, 1, VIEW_MAIN, {"too small"}},
};

static void test_views_content(void **s)
{
    (void)s;
    tui_state st;
    fixture_state(&st, 7, 1);
    for (size_t i = 0; i < sizeof shows / sizeof shows[0]; i++) {
        if (shows[i].sel >= 0)
            st.sel = (size_t)shows[i].sel;
        if (shows[i].cursor >= 0)
            st.source_cursor = shows[i].cursor;
        canvas cv;
        render(&st, &cv, shows[i].rows, shows[i].cols, shows[i].utf8, shows[i].view);
        for (const char *const *w = shows[i].want; *w; w++)
            if (!screen_contains(&cv, *w))
                fail_msg("row at line %d: the screen lacks '%s'", shows[i].line, *w);
        canvas_free(&cv);
    }
    state_free(&st);
}

/* With 1,000 kernels the selection stays on screen wherever it goes. */
static void test_selection_visible(void **s)
{
    (void)s;
    tui_state st;
    fixture_state(&st, 1000, 1);
    static const int sizes[][2] = {{24, 80}, {48, 160}, {10, 50}, {13, 60}};
    for (size_t z = 0; z < 4; z++) {
        st.sel = 0;
        st.top = 0;
        for (int step = 0; step < 1100; step += 37) {
            canvas cv;
            canvas_init(&cv, sizes[z][0], sizes[z][1], 1);
            st.view = VIEW_MAIN;
            st.rows = sizes[z][0];
            for (int i = 0; i < 37; i++)
                state_key(&st, 'j');
            views_render(&cv, &st);
            char name[64];
            snprintf(name, sizeof name, "%s", state_selected(&st)->kr.name);
            name[8] = '\0'; /* may be cut with an ellipsis */
            int found = 0;
            char buf[4096];
            for (int y = 0; y < cv.rows; y++) {
                canvas_row_text(&cv, y, buf, sizeof buf);
                if (strstr(buf, name) && cv.cells[y * cv.cols + 1].el ==
                                             EL_SELECTED)
                    found = 1;
            }
            assert_true(found);
            canvas_free(&cv);
        }
        assert_int_equal(st.sel, 999);
    }
    state_free(&st);
}

static void test_keys(void **s)
{
    (void)s;
    tui_state st;
    fixture_state(&st, 7, 1);
    assert_int_equal(state_key(&st, 'j'), ACT_REDRAW);
    assert_int_equal(st.sel, 1);
    assert_int_equal(state_key(&st, KEY_K_UP), ACT_REDRAW);
    assert_int_equal(state_key(&st, KEY_K_UP), ACT_NONE); /* at the top */
    assert_int_equal(state_key(&st, KEY_K_END), ACT_REDRAW);
    assert_int_equal(st.sel, 6);
    assert_int_equal(state_key(&st, KEY_K_ENTER), ACT_REDRAW);
    assert_int_equal(st.view, VIEW_DETAIL);
    state_key(&st, KEY_K_LEFT); /* previous kernel from the detail */
    assert_int_equal(st.sel, 5);
    assert_int_equal(state_key(&st, KEY_K_TAB), ACT_REDRAW);
    assert_int_equal(st.view, VIEW_SOURCE);
    state_key(&st, KEY_K_TAB);
    assert_int_equal(st.view, VIEW_ROOFLINE);
    state_key(&st, KEY_K_TAB);
    assert_int_equal(st.view, VIEW_DEVICE);
    state_key(&st, KEY_K_TAB);
    assert_int_equal(st.view, VIEW_MAIN);
    state_key(&st, KEY_K_BTAB);
    assert_int_equal(st.view, VIEW_DEVICE);
    state_key(&st, '?');
    assert_int_equal(st.view, VIEW_HELP);
    state_key(&st, 'x'); /* any key leaves help, back where it was */
    assert_int_equal(st.view, VIEW_DEVICE);
    assert_int_equal(state_key(&st, KEY_K_ESC), ACT_REDRAW);
    assert_int_equal(st.view, VIEW_MAIN);
    assert_true(state_key(&st, KEY_K_ESC) & ACT_QUIT);
    assert_true(state_key(&st, 'q') & ACT_QUIT);
    assert_true(state_key(&st, 't') & ACT_THEME);
    assert_true(state_key(&st, 'r') & ACT_RERUN);
    assert_true(state_key(&st, 'p') & ACT_PAUSE);
    assert_true(st.paused);
    state_key(&st, 'p');
    assert_false(st.paused);
    assert_true(state_key(&st, KEY_K_RESIZE) & ACT_RESIZE);
    /* filter: typing narrows, Backspace widens, Esc clears */
    state_key(&st, '/');
    assert_true(st.filter_edit);
    state_key(&st, 'm');
    state_key(&st, 'a');
    state_key(&st, 't');
    assert_int_equal(st.norder, 2); /* matmul_tiled, matmul_naive */
    assert_int_equal(state_key(&st, 'q'), ACT_REDRAW); /* typed, not quit */
    assert_int_equal(st.norder, 0);
    state_key(&st, KEY_K_BACKSPACE);
    assert_int_equal(st.norder, 2);
    state_key(&st, KEY_K_ENTER);
    assert_false(st.filter_edit);
    assert_string_equal(st.filter, "mat");
    state_key(&st, '/');
    state_key(&st, KEY_K_ESC);
    assert_int_equal(st.norder, 7);
    /* filter by finding id and by verdict */
    snprintf(st.filter, sizeof st.filter, "out-of-bounds");
    state_refresh_order(&st);
    assert_int_equal(st.norder, 1);
    assert_string_equal(state_selected(&st)->kr.name, "saxpy_noguard");
    snprintf(st.filter, sizeof st.filter, "SLOWER");
    state_refresh_order(&st);
    assert_int_equal(st.norder, 1);
    st.filter[0] = '\0';
    state_refresh_order(&st);
    /* sort: name, then predicted (largest first), S reverses */
    state_key(&st, 's');
    assert_int_equal(st.sort, SORT_NAME);
    assert_string_equal(st.k[st.order[0]].kr.name, "matmul_naive");
    state_key(&st, 's');
    assert_int_equal(st.sort, SORT_PREDICTED);
    for (size_t i = 1; i < st.norder; i++)
        assert_true(st.k[st.order[i - 1]].kr.prediction.time_us >=
                    st.k[st.order[i]].kr.prediction.time_us);
    state_key(&st, 'S');
    for (size_t i = 1; i < st.norder; i++)
        assert_true(st.k[st.order[i - 1]].kr.prediction.time_us <=
                    st.k[st.order[i]].kr.prediction.time_us);
    /* the selection follows its kernel through a re-sort */
    const char *name = state_selected(&st)->kr.name;
    char keep[64];
    snprintf(keep, sizeof keep, "%s", name);
    state_key(&st, 's');
    assert_string_equal(state_selected(&st)->kr.name, keep);
    /* the sort column's title shows the direction */
    st.sort = SORT_PREDICTED;
    st.sort_desc = 0;
    state_refresh_order(&st);
    canvas cv;
    render(&st, &cv, 24, 80, 1, VIEW_MAIN);
    assert_true(screen_contains(&cv, "▼PRED"));
    canvas_free(&cv);
    st.sort = SORT_MEASURED;
    st.sort_desc = 1;
    render(&st, &cv, 24, 80, 1, VIEW_MAIN);
    assert_true(screen_contains(&cv, "▲MEAS"));
    canvas_free(&cv);
    state_free(&st);
}

/* The one key list: every line is reachable (no earlier line takes all of
 * its keys in all of its views), has a handler, and what the key bar and
 * the help show is handled. */
static void test_key_table(void **s)
{
    (void)s;
    assert_true(keys_count > 20);
    tui_state st;
    state_init(&st);
    for (size_t i = 0; i < keys_count; i++) {
        const tui_keydef *d = &keys_table[i];
        assert_non_null(d->handler);
        if (!d->codes[0])
            continue; /* a key bar entry only ("any key") */
        int reached = 0;
        for (int v = 0; v <= VIEW_COUNT && !reached; v++) {
            if (!(d->views & (1u << v)))
                continue;
            st.filter_edit = v == VIEW_COUNT;
            st.view = v == VIEW_COUNT ? VIEW_MAIN : (tui_view)v;
            for (int j = 0; d->codes[j] && !reached; j++)
                reached = keys_lookup(&st, d->codes[j]) == d;
        }
        if (!reached)
            fail_msg("keys.def line %zu (%s) is shadowed by earlier lines", i,
                     d->help_key[0] ? d->help_key : d->bar_key);
    }
    st.filter_edit = 0;
    /* htop's keys */
    st.view = VIEW_MAIN;
    assert_int_equal(state_key(&st, KEY_K_F10), ACT_QUIT);
    assert_true(state_key(&st, KEY_K_F3) & ACT_REDRAW);
    assert_true(st.filter_edit);
    state_key(&st, KEY_K_ESC);
    assert_false(st.filter_edit);
    sort_key before = st.sort;
    state_key(&st, KEY_K_F6);
    assert_int_not_equal(st.sort, before);
    /* PgDn in help scrolls it; another key leaves */
    state_key(&st, '?');
    assert_int_equal(st.view, VIEW_HELP);
    state_key(&st, KEY_K_PGDN);
    assert_int_equal(st.view, VIEW_HELP);
    assert_true(st.scroll[VIEW_HELP] > 0);
    state_key(&st, 'x');
    assert_int_equal(st.view, VIEW_MAIN);
    state_free(&st);
}

static void test_mouse(void **s)
{
    (void)s;
    tui_state st;
    fixture_state(&st, 40, 1);
    canvas cv;
    render(&st, &cv, 24, 80, 1, VIEW_MAIN);
    /* rows start under the header and the column titles */
    assert_int_equal(state_click(&st, 4, 10, 0), ACT_REDRAW);
    assert_int_equal(st.sel, 2);
    assert_int_equal(st.view, VIEW_MAIN);
    assert_int_equal(state_click(&st, 0, 10, 0), ACT_NONE); /* header */
    assert_int_equal(state_click(&st, 23, 10, 0), ACT_NONE); /* key bar */
    assert_int_equal(st.sel, 2);
    /* scrolled: the click maps through the first visible row */
    st.sel = 30;
    views_render(&cv, &st);
    int first = st.top;
    assert_true(first > 0);
    state_click(&st, 2, 5, 0);
    assert_int_equal(st.sel, (size_t)first);
    assert_int_equal(state_click(&st, 3, 5, 1), ACT_REDRAW);
    assert_int_equal(st.view, VIEW_DETAIL); /* double click opens it */
    assert_int_equal(st.sel, (size_t)first + 1);
    /* clicks in the detail view do nothing */
    views_render(&cv, &st);
    assert_int_equal(state_click(&st, 5, 5, 0), ACT_NONE);
    canvas_free(&cv);
    /* roofline legend rows */
    st.sel = 0;
    render(&st, &cv, 48, 160, 1, VIEW_ROOFLINE);
    assert_true(st.list_h > 0);
    state_click(&st, st.list_y + 3, 120, 0);
    assert_int_equal(st.sel, 3);
    canvas_free(&cv);
    state_free(&st);
}

/* The worker's final result for kernel index of plan 1: name, measured
 * median_us. */
static void apply_measured(tui_state *st, int index, const char *name, double median_us)
{
    kernel_report *kr = calloc(1, sizeof *kr);
    kr->name = cw_strdup(name);
    kr->measurement.valid = 1;
    kr->measurement.median_us = median_us;
    tui_msg m = {.kind = MSG_MEASURED, .plan = 1, .index = index, .kr = kr};
    state_apply(st, &m);
    assert_null(m.kr); /* the state took it */
}

static void test_messages(void **s)
{
    (void)s;
    tui_state st;
    state_init(&st);
    char *names[] = {"a", "b", "c"};
    tui_msg m = {.kind = MSG_KERNELS, .plan = 1};
    m.names = calloc(3, sizeof(char *));
    for (int i = 0; i < 3; i++)
        m.names[i] = cw_strdup(names[i]);
    m.nnames = 3;
    state_apply(&st, &m);
    state_msg_free(&m);
    char *names0[] = {"z"};
    state_set_kernels(&st, 0, names0, 1);
    assert_int_equal(st.nk, 4);
    assert_string_equal(st.k[0].kr.name, "z"); /* plan 0 before plan 1 */
    /* a plan reloaded with fewer kernels replaces only its own */
    state_set_kernels(&st, 1, names, 2);
    assert_int_equal(st.nk, 3);
    /* live samples: the median follows while measuring */
    m = (tui_msg){.kind = MSG_STATE, .plan = 1, .index = 1,
                  .state = KS_MEASURING};
    state_apply(&st, &m);
    double v[] = {5, 1, 3, 100, 4};
    for (int i = 0; i < 5; i++) {
        m = (tui_msg){.kind = MSG_SAMPLE, .plan = 1, .index = 1,
                      .sample_us = v[i]};
        state_apply(&st, &m);
    }
    tui_kernel *k = state_find(&st, 1, 1);
    assert_non_null(k);
    double med = 0;
    assert_true(state_median(k, &med));
    assert_true(med == 4.0);
    double rec[SPARK_N];
    assert_int_equal(state_recent(k, rec, SPARK_N), 5);
    assert_true(rec[0] == 5 && rec[4] == 4);
    /* ring: only the latest SPARK_N stay */
    for (int i = 0; i < 200; i++) {
        m = (tui_msg){.kind = MSG_SAMPLE, .plan = 1, .index = 1,
                      .sample_us = i};
        state_apply(&st, &m);
    }
    assert_int_equal(state_recent(k, rec, SPARK_N), SPARK_N);
    assert_true(rec[SPARK_N - 1] == 199 && rec[0] == 200 - SPARK_N);
    /* the final measurement replaces the live one */
    apply_measured(&st, 1, "b", 42);
    assert_int_equal(k->state, KS_MEASURED);
    assert_true(state_median(k, &med) && med == 42);
    /* a failed run */
    kernel_report *kr = calloc(1, sizeof *kr);
    kr->name = cw_strdup("a");
    kr->measurement.error = cw_strdup("device lost");
    m = (tui_msg){.kind = MSG_MEASURED, .plan = 1, .index = 0, .kr = kr};
    state_apply(&st, &m);
    assert_int_equal(state_find(&st, 1, 0)->state, KS_FAILED);
    assert_false(state_median(state_find(&st, 1, 0), &med));
    /* a re-run remembers the previous median: the change is shown */
    double rel, prev;
    assert_false(state_change(k, 1, &rel, &prev)); /* first measurement */
    apply_measured(&st, 1, "b", 21);
    assert_true(state_change(k, 1, &rel, &prev));
    assert_true(prev == 42 && rel == -0.5);
    /* an edit: the new static result keeps the old prediction and median
     * as "previous" until the new ones arrive */
    k->kr.prediction.valid = 1;
    k->kr.prediction.time_us = 10;
    kr = calloc(1, sizeof *kr);
    kr->name = cw_strdup("b");
    kr->prediction.valid = 1;
    kr->prediction.time_us = 12;
    m = (tui_msg){.kind = MSG_STATIC, .plan = 1, .index = 1, .kr = kr};
    state_apply(&st, &m);
    assert_true(state_change(k, 0, &rel, &prev));
    assert_true(prev == 10);
    assert_true(rel > 0.199 && rel < 0.201);
    assert_false(state_change(k, 1, &rel, &prev)); /* not re-measured yet */
    apply_measured(&st, 1, "b", 21.05); /* under 0.5%: not worth showing */
    assert_false(state_change(k, 1, &rel, &prev));
    /* messages for kernels that no longer exist are dropped */
    kr = calloc(1, sizeof *kr);
    m = (tui_msg){.kind = MSG_MEASURED, .plan = 1, .index = 7, .kr = kr};
    state_apply(&st, &m);
    assert_null(m.kr);
    m = (tui_msg){.kind = MSG_SAMPLING, .text = cw_strdup("done")};
    state_apply(&st, &m);
    state_msg_free(&m);
    assert_string_equal(st.sampling, "done");
    state_free(&st);
}

static void test_report_copy(void **s)
{
    (void)s;
    /* state_report_copy() is kernel_report_copy() (core/report.c), whose
     * deep copy of every pointer member test_report.c checks; here: the
     * TUI's kernels copy and free apart from their originals. */
    tui_state st;
    fixture_state(&st, 7, 1);
    for (size_t i = 0; i < st.nk; i++) {
        kernel_report c;
        state_report_copy(&c, &st.k[i].kr);
        assert_string_equal(c.name, st.k[i].kr.name);
        assert_ptr_not_equal(c.name, st.k[i].kr.name);
        assert_int_equal(c.nfindings, st.k[i].kr.nfindings);
        assert_int_equal(c.prediction.nterms, st.k[i].kr.prediction.nterms);
        assert_int_equal(c.measurement.ncounters,
                         st.k[i].kr.measurement.ncounters);
        if (c.measurement.ncounters > 1)
            assert_string_equal(c.measurement.counters[1].reason,
                                st.k[i].kr.measurement.counters[1].reason);
        assert_true(c.measurement.sample_us[3] ==
                    st.k[i].kr.measurement.sample_us[3]);
        kernel_report_free(&c); /* ASan: no double free with the original */
    }
    state_free(&st);
}

static void test_canvas(void **s)
{
    (void)s;
    canvas cv;
    canvas_init(&cv, 3, 10, 1);
    assert_int_equal(canvas_text(&cv, 0, 0, 5, 1, "abcdefgh"), 5);
    char buf[64];
    canvas_row_text(&cv, 0, buf, sizeof buf);
    assert_string_equal(buf, "abcd…");
    assert_int_equal(cv.overflow, 0);
    canvas_text(&cv, 1, 8, 5, 1, "xx"); /* runs off the right edge */
    assert_int_equal(cv.overflow, 1);
    canvas_text(&cv, 3, 0, 2, 1, "x"); /* below the last row */
    assert_int_equal(cv.overflow, 2);
    canvas_text_right(&cv, 2, 0, 10, 1, "µs");
    canvas_row_text(&cv, 2, buf, sizeof buf);
    assert_string_equal(buf, "        µs");
    canvas_free(&cv);
    canvas_init(&cv, 1, 10, 0); /* ASCII mode replaces non-ASCII */
    canvas_text(&cv, 0, 0, 10, 1, "12µs ±3 …");
    canvas_row_text(&cv, 0, buf, sizeof buf);
    assert_string_equal(buf, "12us +3 ~");
    canvas_free(&cv);
    /* malformed UTF-8 and control characters become '?' */
    canvas_init(&cv, 1, 10, 1);
    canvas_text(&cv, 0, 0, 10, 1, "a\xff\x01\xc0\x80z");
    canvas_row_text(&cv, 0, buf, sizeof buf);
    assert_string_equal(buf, "a???z");
    canvas_free(&cv);
}

static void test_fmt(void **s)
{
    (void)s;
    static const struct {
        int line;
        double us;
        const char *want;
    } t[] = {
        {__LINE__, 0.654, "0.65µs"}, {__LINE__, 12.34, "12.3µs"},
        {__LINE__, 245, "245µs"},    {__LINE__, 999.4, "999µs"},
        {__LINE__, 999.6, "1.00ms"}, {__LINE__, 1520, "1.52ms"},
        {__LINE__, 15200, "15.2ms"}, {__LINE__, 152000, "152ms"},
        {__LINE__, 2.5e6, "2.50s"},  {__LINE__, -1, "-"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char b[32];
        views_fmt_time(b, sizeof b, t[i].us);
        if (strcmp(b, t[i].want) != 0)
            fail_msg("line %d: %g -> '%s', want '%s'", t[i].line, t[i].us, b,
                     t[i].want);
        assert_true(canvas_width(b) <= 7);
    }
    char b[32];
    views_fmt_si(b, sizeof b, 3.28e12, "B/s");
    assert_string_equal(b, "3.28 TB/s");
    views_fmt_si(b, sizeof b, 12.5e9, "FLOP");
    assert_string_equal(b, "12.5 GFLOP");
}

/* CW_TUI_DUMP=1 prints every view (a quick look while developing). */
static void test_dump(void **s)
{
    (void)s;
    const char *d = getenv("CW_TUI_DUMP");
    if (!d || !*d)
        return;
    tui_state st;
    fixture_state(&st, 7, 1);
    int sizes[2][2] = {{24, 80}, {48, 160}};
    for (int z = 0; z < 2; z++)
        for (int v = 0; v < VIEW_COUNT; v++) {
            canvas cv;
            render(&st, &cv, sizes[z][0], sizes[z][1], atoi(d) != 2, v);
            printf("---- view %d %dx%d\n", v, sizes[z][1], sizes[z][0]);
            canvas_write_text(&cv, stdout);
            canvas_free(&cv);
        }
    state_free(&st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canvas),
        cmocka_unit_test(test_fmt),
        cmocka_unit_test(test_columns_fit),
        cmocka_unit_test(test_screen_layout),
        cmocka_unit_test(test_views_content),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_key_table),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_mouse),
        cmocka_unit_test(test_report_copy),
        cmocka_unit_test(test_selection_visible),
        cmocka_unit_test(test_render_all_sizes),
        cmocka_unit_test(test_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
