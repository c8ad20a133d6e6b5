/* canvas.h - a grid of cells that the pure renderers draw into.
 *
 * Contract: a canvas is rows x cols cells, each one code point (display
 * width 1) and one semantic element (theme.h).  The views render into a
 * canvas without curses; term.c paints it with the theme's attributes and
 * snapshot mode prints it as text.  Writes are clipped to the canvas; a
 * write that starts or would run outside it is counted in `overflow` so
 * tests can assert that a layout never draws off screen.  Text wider than
 * the width a caller gives is cut explicitly (with an ellipsis), which is
 * not an overflow.  In ASCII mode (utf8 == 0) every code point above 127 is
 * replaced by an ASCII look-alike when written, so the canvas never holds
 * anything a non-UTF-8 terminal cannot show.
 * The canvas owns its cells: canvas_init/canvas_resize/canvas_free.
 */
#ifndef CW_CANVAS_H
#define CW_CANVAS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct canvas_cell {
    uint32_t ch;
    uint8_t el;
} canvas_cell;

typedef struct canvas {
    int rows, cols;
    int utf8;
    canvas_cell *cells;
    unsigned overflow; /* writes that fell outside the canvas */
} canvas;

/* A rectangle on the canvas (layout output). */
typedef struct rect {
    int y, x, h, w;
} rect;

void canvas_init(canvas *c, int rows, int cols, int utf8);
void canvas_resize(canvas *c, int rows, int cols);
void canvas_free(canvas *c);
void canvas_clear(canvas *c, uint8_t el);
canvas_cell *canvas_at(canvas *c, int y, int x); /* NULL outside */

/* Fill w cells of row y from x with ch. */
void canvas_fill(canvas *c, int y, int x, int w, uint32_t ch, uint8_t el);
/* One code point at (y, x). */
void canvas_putc(canvas *c, int y, int x, uint32_t ch, uint8_t el);
/* UTF-8 text at (y, x), at most w cells (w < 0: to the right edge); cut
 * with an ellipsis when longer.  Returns the cells written. */
int canvas_text(canvas *c, int y, int x, int w, uint8_t el, const char *s);
/* Same, right-aligned in w cells. */
int canvas_text_right(canvas *c, int y, int x, int w, uint8_t el,
                      const char *s);
int canvas_printf(canvas *c, int y, int x, int w, uint8_t el,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Set the element of w cells without touching their text. */
void canvas_paint(canvas *c, int y, int x, int w, uint8_t el);

/* Display cells of UTF-8 text (each code point one cell, tabs one). */
int canvas_width(const char *s);
/* Decode one UTF-8 code point; returns bytes used (>= 1); bad bytes -> '?'. */
int canvas_decode(const char *s, uint32_t *cp);
/* ASCII stand-in for a code point (ASCII mode). */
char canvas_ascii(uint32_t cp);

/* Text form: one line per row, trailing blanks trimmed. */
void canvas_write_text(const canvas *c, FILE *out);
/* Row y as UTF-8 into buf (NUL-terminated, trailing blanks trimmed). */
size_t canvas_row_text(const canvas *c, int y, char *buf, size_t n);

#endif
