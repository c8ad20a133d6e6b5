/* output.h - writing a file so that it is whole or not there.
 *
 * Contract: cw_write_file_atomic() writes data to "PATH.tmp.XXXXXX" next to
 * path, fsyncs it and renames it over path, so an interrupted or failed
 * write never leaves a half-written file nor destroys the previous one.
 * "-" is stdout; a device or FIFO (/dev/full, /dev/stdout) is written in
 * place.  Returns 0, or -1 with err saying what failed (kind: the input --
 * the path given cannot be written -- or the environment, out of memory).
 * Reports, profiles, dumped buffers and the pipeline cache all write
 * through here.
 */
#ifndef CW_OUTPUT_H
#define CW_OUTPUT_H

#include <stddef.h>

#include "error.h"

int cw_write_file_atomic(const char *path, const char *data, size_t len, cw_error *err);
/* The same; its messages name the file as what ("the profile", "the
 * dump"), not "the report" (a profile that could not be stored said
 * "cannot write the report"). */
int cw_write_file_atomic_as(const char *path, const char *data, size_t len, const char *what,
                            cw_error *err);

#endif
