/* alloc.c - allocation helpers that do not return NULL (see alloc.h). */
#include "alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*oom_hook)(void);

void cw_set_oom_hook(void (*hook)(void)) { oom_hook = hook; }

_Noreturn void cw_out_of_memory(size_t bytes)
{
    void (*hook)(void) = oom_hook;
    oom_hook = NULL; /* a hook that itself runs out must not recurse */
    if (hook)
        hook();
    fprintf(stderr, "clockwork: out of memory (%zu bytes)\n", bytes);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        cw_out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        cw_out_of_memory(SIZE_MAX);
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        cw_out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        cw_out_of_memory(n);
    return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        cw_out_of_memory(SIZE_MAX);
    return xrealloc(p, n * size);
}

char *cw_strdup(const char *s)
{
    return s ? xmemdup(s, strlen(s) + 1) : NULL;
}

char *cw_strndup(const char *s, size_t n)
{
    if (!s)
        return NULL;
    size_t len = strnlen(s, n);
    char *d = xmalloc(len + 1);
    memcpy(d, s, len);
    d[len] = 0;
    return d;
}

void *xmemdup(const void *p, size_t n)
{
    if (!p || n == 0)
        return NULL;
    void *q = xmalloc(n);
    memcpy(q, p, n);
    return q;
}

void cw_set_str(char **dst, const char *src)
{
    char *copy = cw_strdup(src);
    free(*dst);
    *dst = copy;
}

char *cw_asprintf(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        va_end(ap);
        return cw_strdup("");
    }
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void cw_free_strv(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

char **cw_copy_strv(char *const *v, size_t n)
{
    if (!n)
        return NULL;
    char **c = xreallocarray(NULL, n, sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = cw_strdup(v[i]);
    return c;
}

void cw_free_fields(void *base, const size_t *offsets, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(*(char **)((char *)base + offsets[i]));
}

void cw_dup_fields(void *dst, const void *src, const size_t *offsets, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *(char **)((char *)dst + offsets[i]) =
            cw_strdup(*(char *const *)((const char *)src + offsets[i]));
}
