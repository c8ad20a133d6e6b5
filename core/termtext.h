/* termtext.h - the one escaping of text that reaches a terminal.
 *
 * Why: kernel names, keys, file names and messages come from plans and
 * reports written by others.  An ESC, OSC, BEL or CR in them would drive
 * the reader's terminal (retitle it, hide lines, rewrite what was shown).
 *
 * Contract: cw_term_escape() returns a new string (free it) equal to s
 * except that every C0 control other than '\n' (and '\t' when keep_tab),
 * DEL, every C1 control (U+0080..U+009F) and every byte that is not part of
 * valid UTF-8 is written as \xNN (a C1 control as \u00NN); a backslash
 * stays as it is.  Valid UTF-8 (µ, ×, ±) passes unchanged.  Never NULL
 * (aborts on out of memory like the other allocators).
 * cw_term_fputs() writes s escaped to f.
 * Used by the table and CSV writers, diff's table and every message on
 * stderr; JSON and SARIF escape through jansson, the TUI through its canvas.
 */
#ifndef CW_TERMTEXT_H
#define CW_TERMTEXT_H

#include <stddef.h>
#include <stdio.h>

char *cw_term_escape(const char *s, size_t len, int keep_tab);
void cw_term_fputs(const char *s, FILE *f);
/* "clockwork: TEXT\n" on stderr, escaped. */
void cw_term_message(const char *text);

#endif
