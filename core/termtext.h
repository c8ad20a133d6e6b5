/* termtext.h - the one escaping of text that reaches a terminal.
 *
 * Why: kernel names, keys, file names and messages come from plans and
 * reports written by others.  An ESC, OSC, BEL or CR in them would drive
 * the reader's terminal (retitle it, hide lines, rewrite what was shown).
 *
 * Contract: cw_term_escape() returns a new string (free it) equal to s
 * except that every C0 control other than '\n' (and '\t' with
 * CW_TERM_KEEP_TAB; with CW_TERM_ONE_LINE '\n' is escaped too),
 * DEL, every C1 control (U+0080..U+009F) and every byte that is not part of
 * valid UTF-8 is written as \xNN (a C1 control as \u00NN); a backslash
 * stays as it is.  Valid UTF-8 (µ, ×, ±) passes unchanged.  Never NULL
 * (aborts on out of memory like the other allocators).
 * cw_term_fputs() writes s escaped to f as one line (a newline in a kernel
 * name or file name would forge a line of the output: "\x0a").
 * cw_term_line() is cw_term_escape(s, strlen(s), CW_TERM_ONE_LINE): for
 * one field (a name, a file, a message) inside a multi-line table.
 * Used by the table and CSV writers, diff's table and every message on
 * stderr; JSON and SARIF escape through jansson, the TUI through its canvas.
 */
#ifndef CW_TERMTEXT_H
#define CW_TERMTEXT_H

#include <stddef.h>
#include <stdio.h>

#define CW_TERM_KEEP_TAB 1
#define CW_TERM_ONE_LINE 2

char *cw_term_escape(const char *s, size_t len, int flags);
char *cw_term_line(const char *s);
void cw_term_fputs(const char *s, FILE *f);
/* "clockwork: TEXT\n" on stderr, escaped (one line). */
void cw_term_message(const char *text);

#endif
