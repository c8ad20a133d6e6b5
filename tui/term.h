/* term.h - the thin curses layer: open/close the terminal, map themes to
 * curses attributes, paint a canvas, read keys.
 *
 * Contract: term_open() starts curses on the controlling terminal (newterm
 * on stdin/stdout, so a missing or unknown TERM is an error, not an exit)
 * and term_close() restores it; while open on stdout, stderr goes to a
 * temporary file, replayed on the real stderr at close (so warnings from
 * drivers or other modules never scribble over the screen);
 * term_close() is idempotent and is the one
 * restore path (called on quit, on signals, from atexit and from the die
 * path in tui.c).  Colours: none when no_color or the terminal has none;
 * else use_default_colors() with -1 backgrounds and each theme colour
 * degraded to what COLORS allows (256 -> 16 -> 8).  term_paint() draws the
 * whole canvas into stdscr and refreshes (curses sends only what changed).
 */
#ifndef CW_TUI_TERM_H
#define CW_TUI_TERM_H

#include <stdio.h>

#include "canvas.h"
#include "theme.h"

int term_open(char *err, unsigned long errlen);
/* Same on given streams and terminal type (benchmarks paint into
 * /dev/null with it); term NULL = $TERM. */
int term_open_on(const char *term, FILE *out, FILE *in, char *err,
                 unsigned long errlen);
void term_close(void);
int term_active(void);
/* Install the theme; returns 1 when colours are in use. */
int term_set_theme(const theme *t, int no_color);
int term_has_colors(void);
void term_size(int *rows, int *cols);
void term_paint(const canvas *cv, int full);
/* A key (state.h codes), or -1 after timeout_ms without one.  Mouse: the
 * wheel comes as up/down keys, clicks as KEY_K_CLICK / KEY_K_DCLICK with
 * the cell in term_last_click(). */
int term_getkey(int timeout_ms);
void term_last_click(int *y, int *x);

#endif
