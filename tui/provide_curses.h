/* provide_curses.h - the one place that includes curses (ncursesw).
 *
 * Only tui/term.c (the thin painting layer) and tui/tui.c include this;
 * every other tui module is pure and builds without curses.
 */
#ifndef CW_PROVIDE_CURSES_H
#define CW_PROVIDE_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

#endif
