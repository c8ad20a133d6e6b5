/* keys.c - the key handlers and the table built from keys.def (see
 * keys.h).  Every handler changes the state only and returns ACT_* bits;
 * the main loop (tui.c) does the rest (re-run, theme, quit...). */
#include "keys.h"

#include <stdio.h>
#include <string.h>

/* ---- helpers ---- */

static int page_rows(const tui_state *st)
{
    return st->rows > 8 ? st->rows - 6 : 1;
}

static int move_sel(tui_state *st, long delta)
{
    if (st->norder == 0)
        return ACT_NONE;
    long s = (long)st->sel + delta;
    if (s < 0)
        s = 0;
    if (s >= (long)st->norder)
        s = (long)st->norder - 1;
    if ((size_t)s == st->sel)
        return ACT_NONE;
    st->sel = (size_t)s;
    st->scroll[VIEW_DETAIL] = 0;
    st->scroll[VIEW_SOURCE] = 0;
    st->source_cursor = 0;
    return ACT_REDRAW;
}

static int scroll_by(tui_state *st, int delta)
{
    int *s = &st->scroll[st->view];
    int old = *s;
    *s += delta;
    if (*s < 0)
        *s = 0;
    /* the renderer clamps the upper end (it knows the content height) */
    return *s != old ? ACT_REDRAW : ACT_NONE;
}

/* Up, down, page, first, last: the source view moves its cursor, the
 * scrolling views scroll, the kernel list and the roofline move the
 * selection. */
static int move(tui_state *st, long delta)
{
    if (st->view == VIEW_SOURCE) {
        long c = (long)st->source_cursor + delta;
        if (c < 0)
            c = 0;
        if (c > 1L << 28)
            c = 1L << 28; /* the renderer clamps to the last line */
        if (c == st->source_cursor)
            return ACT_NONE;
        st->source_cursor = (int)c;
        return ACT_REDRAW;
    }
    if (st->view == VIEW_DETAIL || st->view == VIEW_DEVICE ||
        st->view == VIEW_HELP)
        return scroll_by(st, (int)(delta > 1L << 28    ? 1L << 28
                                   : delta < -(1L << 28) ? -(1L << 28)
                                                         : delta));
    return move_sel(st, delta);
}

static void set_status(tui_state *st, const char *s)
{
    snprintf(st->status, sizeof st->status, "%s", s);
}

/* ---- handlers (named in keys.def) ---- */

static int key_help(tui_state *st, int key)
{
    (void)key;
    st->back = st->view;
    st->view = VIEW_HELP;
    st->scroll[VIEW_HELP] = 0;
    return ACT_REDRAW;
}

static int key_leave_help(tui_state *st, int key)
{
    (void)key;
    st->view = st->back;
    return ACT_REDRAW;
}

static int key_enter(tui_state *st, int key)
{
    (void)key;
    if (st->view == VIEW_DETAIL) {
        st->view = VIEW_SOURCE;
        return ACT_REDRAW;
    }
    if (st->norder == 0)
        return ACT_NONE;
    st->view = VIEW_DETAIL;
    st->scroll[VIEW_DETAIL] = 0;
    return ACT_REDRAW;
}

/* A handler whose keys all do the same: `call`, whatever the key. */
#define KEY_CALLS(name, call)                                                  \
    static int name(tui_state *st, int key)                                    \
    {                                                                          \
        (void)key;                                                             \
        return call;                                                           \
    }

KEY_CALLS(key_up, move(st, -1))
KEY_CALLS(key_down, move(st, 1))
KEY_CALLS(key_prev_kernel, move_sel(st, -1))
KEY_CALLS(key_next_kernel, move_sel(st, 1))
KEY_CALLS(key_page_up, move(st, -page_rows(st)))
KEY_CALLS(key_page_down, move(st, page_rows(st)))
KEY_CALLS(key_first, move(st, -(1L << 30)))
KEY_CALLS(key_last, move(st, 1L << 30))

/* The next (dir 1) or previous (-1) source line with a finding of the
 * selected kernel, wrapping around. */
static int goto_finding(tui_state *st, int dir)
{
    tui_kernel *k = state_selected(st);
    if (!k || !k->source || !k->source_glsl) {
        set_status(st, k && k->source ? "findings cite source lines; this "
                                        "view shows disassembly"
                                      : "no source to search");
        return ACT_REDRAW;
    }
    int cur = st->source_cursor + 1, best = 0, wrap = 0;
    for (size_t i = 0; i < k->kr.nfindings; i++) {
        int ln = k->kr.findings[i].line;
        if (ln <= 0 || !state_line_finding(k, ln))
            continue;
        if ((dir > 0 && ln > cur && (!best || ln < best)) ||
            (dir < 0 && ln < cur && (!best || ln > best)))
            best = ln;
        if (!wrap || (dir > 0 ? ln < wrap : ln > wrap))
            wrap = ln;
    }
    if (!best)
        best = wrap;
    if (!best) {
        set_status(st, "no finding on a source line of this kernel");
        return ACT_REDRAW;
    }
    const finding *f = state_line_finding(k, best);
    snprintf(st->status, sizeof st->status, "line %d: %s %s", best,
             severity_name(f->sev), f->id ? f->id : "?");
    st->source_cursor = best - 1;
    return ACT_REDRAW;
}

KEY_CALLS(key_next_finding, goto_finding(st, 1))
KEY_CALLS(key_prev_finding, goto_finding(st, -1))

static int key_next_view(tui_state *st, int key)
{
    (void)key;
    st->view = (tui_view)((st->view + 1) % VIEW_HELP);
    return ACT_REDRAW;
}

static int key_prev_view(tui_state *st, int key)
{
    (void)key;
    st->view = (tui_view)((st->view + VIEW_HELP - 1) % VIEW_HELP);
    return ACT_REDRAW;
}

static int key_jump_view(tui_state *st, int key)
{
    int v = key - '1';
    if (v < 0 || v >= VIEW_HELP)
        return ACT_NONE;
    st->view = (tui_view)v;
    return ACT_REDRAW;
}

static int key_filter(tui_state *st, int key)
{
    (void)key;
    st->filter_edit = 1;
    return ACT_REDRAW;
}

static int key_sort(tui_state *st, int key)
{
    (void)key;
    st->sort = (sort_key)((st->sort + 1) % SORT_COUNT);
    state_refresh_order(st);
    snprintf(st->status, sizeof st->status, "sorted by %s",
             state_sort_name(st->sort));
    return ACT_REDRAW;
}

static int key_sort_reverse(tui_state *st, int key)
{
    (void)key;
    st->sort_desc = !st->sort_desc;
    state_refresh_order(st);
    snprintf(st->status, sizeof st->status, "sorted by %s, %s",
             state_sort_name(st->sort),
             st->sort_desc ? "reversed" : "normal order");
    return ACT_REDRAW;
}

/* Flip a switch of the measuring (nothing to flip when static only) and
 * say which way it went. */
static int toggle(tui_state *st, int *flag, const char *on, const char *off, int act)
{
    if (!st->measure)
        return ACT_NONE;
    *flag = !*flag;
    set_status(st, *flag ? on : off);
    return act | ACT_REDRAW;
}

KEY_CALLS(key_pause, toggle(st, &st->paused, "sampling paused (after the current kernel)",
                            "sampling resumed", ACT_PAUSE))

static int key_rerun(tui_state *st, int key)
{
    (void)key;
    if (!st->measure) {
        set_status(st, "static only: nothing to re-run");
        return ACT_REDRAW;
    }
    set_status(st, "re-running every kernel");
    st->status_until_done = 1;
    return ACT_RERUN | ACT_REDRAW;
}

KEY_CALLS(key_loop, toggle(st, &st->loop, "loop: measuring round after round (l stops)",
                           "loop off: this round is the last", ACT_LOOP))

static int key_theme(tui_state *st, int key)
{
    (void)st;
    (void)key;
    return ACT_THEME | ACT_REDRAW;
}

static int key_back(tui_state *st, int key)
{
    (void)key;
    st->view = VIEW_MAIN;
    return ACT_REDRAW;
}

static int key_quit(tui_state *st, int key)
{
    (void)st;
    (void)key;
    return ACT_QUIT;
}

static int key_filter_apply(tui_state *st, int key)
{
    (void)key;
    st->filter_edit = 0;
    state_refresh_order(st);
    st->top = 0;
    return ACT_REDRAW;
}

static int key_filter_clear(tui_state *st, int key)
{
    (void)key;
    st->filter_edit = 0;
    st->filter[0] = '\0';
    state_refresh_order(st);
    st->top = 0;
    return ACT_REDRAW;
}

static int key_filter_delete(tui_state *st, int key)
{
    (void)key;
    size_t n = strlen(st->filter);
    if (n > 0)
        st->filter[n - 1] = '\0';
    state_refresh_order(st);
    st->top = 0;
    return ACT_REDRAW;
}

/* ---- the table ---- */

const tui_keydef keys_table[] = {
#define TUI_KEY(fn, views, bar_key, bar_label, help_key, help_text, ...)      \
    {fn, views, bar_key, bar_label, help_key, help_text, {__VA_ARGS__, 0}},
#include "keys.def"
#undef TUI_KEY
};
const size_t keys_count = sizeof keys_table / sizeof keys_table[0];

unsigned keys_mode(const tui_state *st)
{
    if (st->filter_edit)
        return VM_FILTER;
    return 1u << ((unsigned)st->view < VIEW_COUNT ? st->view : VIEW_MAIN);
}

const tui_keydef *keys_lookup(const tui_state *st, int key)
{
    unsigned mode = keys_mode(st);
    for (size_t i = 0; key && i < keys_count; i++) {
        const tui_keydef *d = &keys_table[i];
        if (!(d->views & mode))
            continue;
        for (int j = 0; j < KEYS_MAX_CODES && d->codes[j]; j++)
            if (d->codes[j] == key)
                return d;
    }
    return NULL;
}

int state_key(tui_state *st, int key)
{
    if (key == KEY_K_RESIZE)
        return ACT_RESIZE | ACT_REDRAW;
    const tui_keydef *d = keys_lookup(st, key);
    if (d)
        return d->handler(st, key);
    if (st->filter_edit) {
        size_t n = strlen(st->filter);
        if (key < 32 || key >= 127)
            return ACT_NONE;
        if (n + 1 < sizeof st->filter) {
            st->filter[n] = (char)key;
            st->filter[n + 1] = '\0';
        }
        state_refresh_order(st);
        st->top = 0;
        return ACT_REDRAW;
    }
    if (st->view == VIEW_HELP) /* any other key leaves help */
        return key_leave_help(st, key);
    return ACT_NONE;
}
