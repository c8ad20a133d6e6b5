/* input.h - open a file the user named, without ever blocking in open().
 *
 * Why: fopen() of a FIFO with no writer waits forever; a directory opens
 * and then reads as an I/O error.  Every reader of user input (plan,
 * shader, theme, profile, report) opens through here.
 *
 * Contract: cw_open_input() opens path read-only with O_NONBLOCK, fstat()s
 * it and, when it is a regular file (or, with allow_pipe, a pipe or FIFO),
 * clears O_NONBLOCK and returns 0 with *out (fclose it).  A pipe or FIFO is
 * read as a stream: with no writer it reads as empty at once (POSIX), so
 * `clockwork diff <(...) <(...)` works and a stray FIFO never blocks.
 * Anything else fails with CW_EXIT_USAGE and err naming what it is:
 * "the plan is a directory, not a regular file".  what names the file in
 * messages ("plan", "theme file").
 */
#ifndef CW_INPUT_H
#define CW_INPUT_H

#include <stdio.h>

#include "error.h"

int cw_open_input(const char *path, const char *what, int allow_pipe, FILE **out,
                  cw_error *err);

/* "a directory", "a FIFO (named pipe)", "a character device", ... */
const char *cw_file_kind(unsigned mode);

#endif
