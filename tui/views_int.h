/* views_int.h - what the view modules (views*.c, roofline.c) share and
 * nobody else uses: small formatters, severity and verdict colours, panes.
 *
 * A pane is a tall off-screen canvas: a scrolling view writes its whole
 * content into one (pane_init, then pane_section/pane_wrap/pane_kv move
 * pane.y down), clamps its scroll offset (views_clamp_scroll) and copies
 * the visible window onto the screen (pane_blit), with views_scrollbar
 * beside it.  The caller frees pane.cv with canvas_free().
 */
#ifndef CW_TUI_VIEWS_INT_H
#define CW_TUI_VIEWS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "canvas.h"
#include "state.h"
#include "views.h"

void views_fmt_ratio(char *buf, size_t n, double r);
void views_fmt_count(char *buf, size_t n, uint64_t v); /* 65,536 */
/* "-29% (was 1.69ms)" against a kernel's previous value; 0: none */
int views_fmt_change(char *buf, size_t n, const tui_kernel *k, int measured);
int views_sev_el(severity s);
/* The prediction's terms in the order to show them: the binding term
 * first, then by cost, largest first.  Fills idx (up to max); returns the
 * count. */
size_t views_terms_order(const prediction *pr, size_t *idx, size_t max);
uint8_t views_verdict_el(const tui_kernel *k);
const char *views_verdict_text(const tui_kernel *k);

typedef struct pane {
    canvas cv;
    int y; /* next free line */
} pane;

void pane_init(pane *p, int w, int h, int utf8);
void pane_blank(pane *p);
void pane_section(pane *p, const char *title);
/* Word-wrapped text from column indent; continuation lines indent+hang. */
void pane_wrap(pane *p, int indent, int hang, uint8_t el, const char *s);
void pane_kv(pane *p, int indent, const char *key, uint8_t el,
             const char *val);
void pane_blit(canvas *cv, const rect *r, const pane *p, int scroll);
/* Clamp st->scroll[v] for content lines in a window of h; returns it. */
int views_clamp_scroll(tui_state *st, tui_view v, int content, int h);
void views_scrollbar(canvas *cv, const rect *r, int scroll, int content);
/* Shows pane a in body's first w1 columns and, when b, pane b beside it,
 * scrolled together as view v; the scrollbar spans the body when a is
 * alone or scrollbar is set. */
void views_show_panes(canvas *cv, const rect *body, tui_state *st, tui_view v,
                      const pane *a, const pane *b, int w1, int scrollbar);

/* Sections of the detail view, also drawn by the kernel list's summary
 * when the terminal is tall enough to show them. */
void views_detail_prediction(pane *p, const tui_state *st, const tui_kernel *k);
void views_detail_measurement(pane *p, const tui_state *st, const tui_kernel *k);
void views_detail_findings(pane *p, const tui_kernel *k);
void views_detail_counts(pane *p, const tui_kernel *k);

/* The views (body rectangle of views_layout_screen). */
/* The selected kernel; NULL, with "no kernel selected" drawn in body, when
 * there is none. */
tui_kernel *views_selected_kernel(canvas *cv, const rect *body, tui_state *st);

void views_render_main(canvas *cv, const rect *body, tui_state *st);
void views_render_detail(canvas *cv, const rect *body, tui_state *st);
void views_render_source(canvas *cv, const rect *body, tui_state *st);
void views_render_device(canvas *cv, const rect *body, tui_state *st);
void views_render_help(canvas *cv, const rect *body, tui_state *st);
void views_draw_keybar(canvas *cv, const rect *r, const tui_state *st);

#endif
