/* views.h - pure layout and rendering of every TUI view into a canvas.
 *
 * Contract: views_render() draws the whole screen for the state into the
 * canvas (rows x cols of the canvas), using only semantic elements
 * (theme.h); nothing is drawn outside the canvas (canvas.overflow stays 0,
 * unit-tested over many sizes).  Below VIEWS_MIN_COLS x VIEWS_MIN_ROWS it
 * draws a "terminal too small" screen instead.  It may clamp scroll
 * offsets and the selection window in the state (that is all it changes).
 * No curses, no I/O: snapshot mode prints the canvas, term.c paints it.
 */
#ifndef CW_TUI_VIEWS_H
#define CW_TUI_VIEWS_H

#include <stddef.h>

#include "canvas.h"
#include "state.h"

#define VIEWS_MIN_COLS 50
#define VIEWS_MIN_ROWS 10

typedef struct views_layout {
    int too_small;
    rect header;  /* top bar */
    rect body;    /* the view */
    rect status;  /* status / filter line */
    rect keybar;  /* bottom line */
} views_layout;

void views_layout_screen(int rows, int cols, views_layout *l);

/* Columns of the main table. */
typedef enum {
    COL_NAME = 0,
    COL_BOUND,
    COL_IDEAL,
    COL_PRED,
    COL_MEAS,
    COL_SPREAD,
    COL_RATIO,
    COL_SPARK,
    COL_FINDINGS,
    COL_VERDICT,
    COL_COUNT
} views_col_id;

typedef struct views_column {
    views_col_id id;
    int x, w;
} views_column;

/* Columns that fit in width (left to right, one blank between). */
int views_main_columns(int width, views_column *out);
const char *views_column_title(views_col_id id);

/* Main table geometry: where kernel rows go and how many fit. */
typedef struct views_main_layout {
    rect titles;  /* column titles */
    rect rows;    /* kernel rows */
    rect summary; /* selected kernel summary (h may be 0) */
} views_main_geom;
/* nkernels: rows the table wants; the summary panel of the selected
 * kernel takes what the table leaves (3 to 16 lines). */
void views_main_layout(const rect *body, size_t nkernels, views_main_geom *m);

void views_render(canvas *cv, tui_state *st);

/* Formatting used by the views (exported for tests). */
void views_fmt_time(char *buf, size_t n, double us); /* <= 7 cells */
void views_fmt_si(char *buf, size_t n, double v, const char *unit);
/* Sparkline of v[0..n) into w cells (8 levels), min..max scaled. */
void views_sparkline(canvas *cv, int y, int x, int w, uint8_t el,
                     const double *v, size_t n);
/* Share of the predicted time per source line: each prediction term spread
 * over the lines by the resource it counts (bytes, FLOPs, instructions). */
typedef struct line_weights {
    double per_byte, per_flop, per_instr; /* µs per unit */
    double total;                         /* sum over the kernel's lines */
} line_weights;
void views_line_shares(const tui_kernel *k, line_weights *lw);
double views_line_weight(const line_weights *lw, const line_cost *lc);

#include "roofline.h"

#endif
