/* views_help.c - the help view and the key bar.  See views.h. */
#include "views_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

typedef struct keyhelp {
    const char *key, *label;
} keyhelp;

/* Arrows have no ASCII look-alike worth reading: words instead. */
static const char *key_text(const char *k, int utf8)
{
    if (utf8)
        return k;
    if (strcmp(k, "←→") == 0)
        return "[ ]";
    if (strcmp(k, "↑↓") == 0)
        return "j/k";
    return k;
}

void views_draw_keybar(canvas *cv, const rect *r, const tui_state *st)
{
    static const keyhelp kmain[] = {
        {"?", "Help"}, {"Enter", "Detail"}, {"Tab", "View"},
        {"/", "Filter"}, {"s", "Sort"}, {"p", "Pause"}, {"r", "Rerun"},
        {"t", "Theme"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kdetail[] = {
        {"?", "Help"}, {"←→", "Kernel"}, {"↑↓", "Scroll"},
        {"Enter", "Source"}, {"Tab", "View"}, {"Esc", "Back"},
        {"t", "Theme"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp ksource[] = {
        {"?", "Help"}, {"↑↓", "Line"}, {"←→", "Kernel"}, {"PgUp/Dn", "Page"},
        {"Tab", "View"}, {"Esc", "Back"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kroof[] = {
        {"?", "Help"}, {"↑↓", "Kernel"}, {"Enter", "Detail"}, {"Tab", "View"},
        {"Esc", "Back"}, {"t", "Theme"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kdev[] = {
        {"?", "Help"}, {"↑↓", "Scroll"}, {"Tab", "View"}, {"Esc", "Back"},
        {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp khelp[] = {
        {"any key", "Back"}, {"↑↓", "Scroll"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kfilter[] = {
        {"Enter", "Apply"}, {"Esc", "Clear"}, {"Backspace", "Delete"},
        {NULL, NULL}};
    const keyhelp *k = kmain;
    if (st->filter_edit)
        k = kfilter;
    else if (st->view == VIEW_DETAIL)
        k = kdetail;
    else if (st->view == VIEW_SOURCE)
        k = ksource;
    else if (st->view == VIEW_ROOFLINE)
        k = kroof;
    else if (st->view == VIEW_DEVICE)
        k = kdev;
    else if (st->view == VIEW_HELP)
        k = khelp;
    canvas_fill(cv, r->y, r->x, r->w, ' ', EL_KEYLABEL);
    /* two blanks between entries when they all fit so, else one */
    int total = 1, gap = 2;
    for (const keyhelp *q = k; q->key; q++)
        total += canvas_width(key_text(q->key, cv->utf8)) + 1 +
                 canvas_width(q->label) + 2;
    if (total > r->w)
        gap = 1;
    int x = r->x + 1;
    for (; k->key; k++) {
        const char *key = key_text(k->key, cv->utf8);
        int kw = canvas_width(key), lw = canvas_width(k->label);
        if (x + kw + 1 + lw > r->x + r->w)
            break;
        x += canvas_text(cv, r->y, x, kw, EL_KEY, key);
        x++;
        x += canvas_text(cv, r->y, x, lw, EL_KEYLABEL, k->label);
        x += x + gap <= r->x + r->w ? gap : r->x + r->w - x;
    }
}

/* ---- help view ---- */

void views_render_help(canvas *cv, const rect *body, tui_state *st)
{
    static const keyhelp keys[] = {
        {"↑ ↓  j k", "move the selection (kernels, source lines) or scroll"},
        {"← →  [ ]", "previous / next kernel in detail and source views"},
        {"PgUp PgDn", "page up / down;  g G  first / last"},
        {"Enter", "kernel detail; in detail: its source"},
        {"Tab  S-Tab", "next / previous view: kernels, detail, source, "
                       "roofline, device"},
        {"1 … 5", "jump to a view"},
        {"/", "filter kernels by name, bound, verdict, finding id or "
              "severity"},
        {"s  S", "cycle the sort key (plan, name, predicted, measured, "
                 "ratio, findings); reverse"},
        {"t", "cycle themes: default, light, high-contrast, monochrome"},
        {"p", "pause / resume sampling (after the current kernel)"},
        {"r", "measure every kernel again"},
        {"l", "loop: measure round after round until l again"},
        {"?  h  F1", "this help; any key returns"},
        {"q  Esc", "quit (Esc: back to the kernel list first)"},
        {NULL, NULL}};
    static const keyhelp legend[] = {
        {"PRED", "predicted time of the kernel as written (IDEAL: roofline "
                 "on compulsory traffic)"},
        {"MEASURED", "median of the warm samples (live while running)"},
        {"±MAD", "median absolute deviation, % of the median"},
        {"RATIO", "measured / predicted; VERDICT ok inside the tolerance"},
        {"FINDINGS", "E errors, W warnings, N notes"},
        {"roofline", "lower-case letter: predicted, upper-case: measured"},
        {"changes", "edited plans and shaders are re-analysed and re-run "
                    "automatically"},
        {NULL, NULL}};
    pane a;
    pane_init(&a, body->w - 1, 80, cv->utf8);
    pane_section(&a, "Keys");
    for (const keyhelp *k = keys; k->key; k++) {
        const char *key = k->key;
        if (!cv->utf8 && strncmp(key, "↑", 3) == 0)
            key = "Up Dn  j k";
        else if (!cv->utf8 && strncmp(key, "←", 3) == 0)
            key = "Lt Rt  [ ]";
        canvas_text(&a.cv, a.y, 2, 12, EL_KEY, key);
        int save = a.y;
        pane_wrap(&a, 15, 2, EL_NORMAL, k->label);
        if (a.y == save)
            a.y++;
    }
    pane_section(&a, "Columns and marks");
    for (const keyhelp *k = legend; k->key; k++) {
        const char *key = k->key;
        if (!cv->utf8 && strcmp(key, "±MAD") == 0)
            key = "+-MAD";
        canvas_text(&a.cv, a.y, 2, 12, EL_COLUMN, key);
        int save = a.y;
        pane_wrap(&a, 15, 2, EL_NORMAL, k->label);
        if (a.y == save)
            a.y++;
    }
    char b[160];
    snprintf(b, sizeof b, "theme %s · %s · Clockwork %s", st->theme_name,
             cv->utf8 ? "UTF-8" : "ASCII", st->version);
    pane_section(&a, "About");
    pane_wrap(&a, 2, 2, EL_DIM, b);
    int s = views_clamp_scroll(st, VIEW_HELP, a.y, body->h);
    rect ra = {body->y, body->x, body->h, body->w - 1};
    pane_blit(cv, &ra, &a, s);
    rect rs = {body->y, body->x, body->h, body->w};
    views_scrollbar(cv, &rs, s, a.y);
    canvas_free(&a.cv);
}
