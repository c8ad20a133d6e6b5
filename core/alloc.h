/* alloc.h - the one set of allocation helpers.
 *
 * Contract: every x* function returns usable memory or does not return.
 * Out of memory is not an input error a caller could handle: the process
 * prints "clockwork: out of memory (N bytes)" and aborts, after calling the
 * hook installed with cw_set_oom_hook (the TUI restores the terminal
 * there).  Sizes of 0 allocate 1 byte, so a NULL result always means "no
 * memory" and never "nothing asked for".  n * size overflow counts as out
 * of memory.  Where a caller can recover (a user-sized device buffer, a
 * file larger than memory), call malloc itself and report the error.
 * Memory is freed with free().
 */
#ifndef CW_ALLOC_H
#define CW_ALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
/* NULL-safe copies: NULL (or n == 0 for xmemdup) gives NULL. */
char *cw_strdup(const char *s);
char *cw_strndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);
/* free(*dst), then *dst = cw_strdup(src). */
void cw_set_str(char **dst, const char *src);
/* free() each of the n strings of v, then v (v may be NULL when n is 0). */
void cw_free_strv(char **v, size_t n);
/* A copy of the n strings of v (each cw_strdup'd); NULL when n is 0. */
char **cw_copy_strv(char *const *v, size_t n);
/* A struct's owned strings, named by their offsets (offsetof): freed, or
 * each replaced by a copy of the same field of src (dst may be src: the
 * strings a shallow copy shares become its own). */
void cw_free_fields(void *base, const size_t *offsets, size_t n);
void cw_dup_fields(void *dst, const void *src, const size_t *offsets, size_t n);
/* printf into a fresh string. */
char *cw_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Called once before the abort on out of memory; NULL for none. */
void cw_set_oom_hook(void (*hook)(void));
/* The out-of-memory exit itself, for allocators outside this module
 * (jansson objects, capstone buffers). */
_Noreturn void cw_out_of_memory(size_t bytes);

#endif
