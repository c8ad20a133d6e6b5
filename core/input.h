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
 * Anything else fails with -1 and err (an input error) naming what it is:
 * "the plan is a directory, not a regular file".  what names the file in
 * messages ("plan", "theme file").
 */
#ifndef CW_INPUT_H
#define CW_INPUT_H

#include <stdio.h>

#include "error.h"

int cw_open_input(const char *path, const char *what, int allow_pipe, FILE **out,
                  cw_error *err);

/* The one whole-file reader: opens path as cw_open_input() does and reads
 * it all (a regular file by its size, a pipe as a stream) into a fresh
 * NUL-terminated buffer (*buf, free it; *len excludes the NUL).  A file of
 * more than max_bytes is refused without reading it ("the plan is larger
 * than 256 MiB"), as is an empty file when !allow_empty.  Returns 0, or -1
 * with err naming the file and the problem. */
int cw_read_input(const char *path, const char *what, int allow_pipe, size_t max_bytes,
                  int allow_empty, char **buf, size_t *len, cw_error *err);

/* A UTF-8 byte order mark (EF BB BF) at the start of text is skipped:
 * editors on some systems write one, and RFC 8259 lets a JSON parser
 * ignore it.  Returns how many bytes to skip (3 or 0). */
size_t cw_utf8_bom_length(const char *text, size_t len);

/* A parser of a whole file's text into out (a plan, a profile, ...). */
typedef int (*cw_text_parser)(const char *path, const char *text, size_t len, void *out,
                              cw_error *err);
/* cw_read_input(), then parse(path, text, len, out, err) on the text
 * after a byte order mark (cw_utf8_bom_length), which is freed after.  What parse returns, or -1 (err) when the file
 * cannot be read. */
int cw_parse_input(const char *path, const char *what, int allow_pipe, size_t max_bytes,
                   int allow_empty, cw_text_parser parse, void *out, cw_error *err);

/* "a directory", "a FIFO (named pipe)", "a character device", ... */
const char *cw_file_kind(unsigned mode);

#endif
