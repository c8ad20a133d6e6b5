/* unit.h - what every cmocka unit test here shares: the entry point and the
 * kernels several tests compile.  Include after <cmocka.h>. */
#ifndef CW_UNIT_H
#define CW_UNIT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "plan.h"

/* CW_UNIT_MAIN(setup, teardown, cases...): main() runs the cases as one
 * cmocka group (setup/teardown may be NULL); its status is cmocka's. */
#define CW_UNIT_MAIN(setup, teardown, ...)                                   \
    int main(void)                                                           \
    {                                                                        \
        const struct CMUnitTest cw_unit_cases[] = {__VA_ARGS__};            \
        return cmocka_run_group_tests(cw_unit_cases, setup, teardown);       \
    }

/* The checkout the tests run in: $CW_TEST_ROOT (tests/run.sh sets it),
 * else the current folder. */
static inline const char *cw_test_root(void)
{
    const char *r = getenv("CW_TEST_ROOT");
    return r && *r ? r : ".";
}

/* rel joined to the checkout's path; the result lasts until the fourth
 * call after this one. */
static inline const char *cw_root_file(const char *rel)
{
    static char bufs[4][1024];
    static unsigned next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "%s/%s", cw_test_root(), rel);
    return b;
}

/* path's plan into p; a refusal fails the test with its file, line and
 * message. */
static inline void cw_load_plan(const char *path, plan *p)
{
    cw_error err;
    if (plan_load(path, p, &err) != 0)
        fail_msg("%s:%d: %s", err.file, err.line, err.text);
}

/* A fresh folder /tmp/<prefix>XXXXXX (the caller removes it); the name
 * lasts until the fourth call after this one. */
static inline const char *cw_tmpdir(const char *prefix)
{
    static char bufs[4][256];
    static unsigned next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "/tmp/%sXXXXXX", prefix);
    if (!mkdtemp(b))
        fail_msg("mkdtemp %s failed", b);
    return b;
}

/* Writes len bytes of data to path; a failure fails the test. */
static inline void cw_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot create %s", path);
    if (fwrite(data, 1, len, f) != len || fclose(f) != 0)
        fail_msg("cannot write %s", path);
}

/* A growing text buffer: s holds n bytes and a NUL; free s when done. */
typedef struct cw_strbuf {
    char *s;
    size_t n, cap;
} cw_strbuf;

static inline void cw_sb_printf(cw_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void cw_sb_printf(cw_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int w = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        assert_true(w >= 0);
        if (b->s && b->n + (size_t)w < b->cap) {
            b->n += (size_t)w;
            return;
        }
        b->cap = (b->cap + (size_t)w + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
}

/* A text a loader must refuse, read from a case file under tests/unit/
 * (cw_read_bad_texts): where the case is written, the text, where the
 * error must point (0: not checked) and what its message must contain. */
typedef struct cw_bad_text {
    const char *file;
    int line;
    const char *text;
    size_t len;
    int eline, ecol;
    const char *needle;
} cw_bad_text;

/* The cases of tests/unit/NAME (cw_read_bad_texts; cw_free_bad_texts). */
typedef struct cw_bad_texts {
    char *buf;
    cw_bad_text *c;
    size_t n;
} cw_bad_texts;

/* Lines before the first "== " are comments; each case is a line
 * "== LINE COLUMN NEEDLE", then its text up to the newline before the next
 * "== " line or the file's last newline.  A malformed file fails the test. */
static inline void cw_read_bad_texts(const char *name, cw_bad_texts *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/unit/%s", cw_test_root(), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    const size_t cap = 1 << 16;
    t->buf = malloc(cap + 2);
    assert_non_null(t->buf);
    t->buf[0] = '\n'; /* every header then follows a newline */
    size_t len = fread(t->buf + 1, 1, cap, f) + 1;
    fclose(f);
    if (len > cap)
        fail_msg("%s: larger than %zu bytes", path, cap);
    t->buf[len] = 0;
    if (t->buf[len - 1] == '\n')
        t->buf[--len] = 0; /* the last text's final newline */
    t->c = NULL;
    t->n = 0;
    int line = 0; /* newlines counted up to `counted`: the line number there */
    const char *counted = t->buf;
    for (char *p = t->buf; (p = strstr(p, "\n== ")) != NULL;) {
        for (; counted <= p; counted++)
            line += *counted == '\n';
        t->c = realloc(t->c, (t->n + 1) * sizeof *t->c);
        assert_non_null(t->c);
        cw_bad_text *c = &t->c[t->n++];
        *p = 0; /* ends the previous case's text */
        char *head = p + 4, *eol = strchr(head, '\n');
        if (!eol)
            fail_msg("%s:%d: a header without a text", path, line);
        *eol = 0;
        line++, counted = eol + 1; /* the header's own newline */
        int used = 0;
        if (sscanf(head, "%d %d %n", &c->eline, &c->ecol, &used) != 2 || !head[used])
            fail_msg("%s:%d: '== %s' is not '== LINE COLUMN NEEDLE'", path, line - 1, head);
        c->file = name;
        c->line = line - 1;
        c->needle = head + used;
        c->text = eol + 1;
        p = eol + 1;
    }
    if (t->n == 0)
        fail_msg("%s: no cases", path);
    for (size_t i = 0; i < t->n; i++)
        t->c[i].len = strlen(t->c[i].text);
}

static inline void cw_free_bad_texts(cw_bad_texts *t)
{
    free(t->c);
    free(t->buf);
}

/* The loader refused r's text, loaded as path, with rc and err: an error
 * naming path at the case's line and column, saying its needle; else the
 * test fails naming the case's file and line. */
static inline void cw_check_refusal(const cw_bad_text *r, const char *path, int rc,
                                    const cw_error *err)
{
    if (rc == 0)
        fail_msg("%s:%d: accepted", r->file, r->line);
    if (strcmp(err->file, path) != 0)
        fail_msg("%s:%d: file '%s'", r->file, r->line, err->file);
    if ((r->eline && err->line != r->eline) || (r->ecol && err->column != r->ecol))
        fail_msg("%s:%d: error at %d:%d, want %d:%d (%s)", r->file, r->line, err->line,
                 err->column, r->eline, r->ecol, err->text);
    if (!strstr(err->text, r->needle))
        fail_msg("%s:%d: message '%s' lacks '%s'", r->file, r->line, err->text, r->needle);
}

/* Runs a loader on one case's text as file `path`; checks what else that
 * loader promises on a refusal; returns the loader's status. */
typedef int (*cw_refusal_fn)(const cw_bad_text *c, const char *path, cw_error *err);

/* Every case of tests/unit/NAME (at least at_least of them) through load:
 * each must be refused as cw_check_refusal says. */
static inline void cw_check_refusals(const char *name, size_t at_least, const char *path,
                                     cw_refusal_fn load)
{
    cw_bad_texts bad;
    cw_read_bad_texts(name, &bad);
    if (bad.n < at_least)
        fail_msg("%s: %zu cases, want %zu or more", name, bad.n, at_least);
    for (size_t i = 0; i < bad.n; i++) {
        cw_error err;
        cw_error_clear(&err);
        int rc = load(&bad.c[i], path, &err);
        cw_check_refusal(&bad.c[i], path, rc, &err);
    }
    cw_free_bad_texts(&bad);
}

/* A getenv over a fake environment: user is a NULL-terminated list of
 * "NAME=value" strings (NULL: empty). */
static inline const char *cw_fake_env(const char *name, void *user)
{
    const char *const *kv = user;
    size_t n = strlen(name);
    for (; kv && *kv; kv++)
        if (!strncmp(*kv, name, n) && (*kv)[n] == '=')
            return *kv + n + 1;
    return NULL;
}

/* cw_glsl_nest: writes into buf (size bytes) the GLSL head, then depth
 * nested levels, alternately opened by the formats loop_open (given the
 * level d three times) and branch_open (given d and d - 1), the body, the
 * depth closing braces and the tail: a kernel with 3^(depth/2) paths or
 * more through it. */
static inline void cw_glsl_nest(char *buf, size_t size, const char *head, int depth,
                                const char *loop_open, const char *branch_open,
                                const char *body, const char *tail)
{
    size_t n = (size_t)snprintf(buf, size, "%s", head);
    for (int d = 0; d < depth && n < size; d++)
        n += (size_t)(d % 2 ? snprintf(buf + n, size - n, branch_open, d, d - 1)
                            : snprintf(buf + n, size - n, loop_open, d, d, d));
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "%s", body);
    for (int d = 0; d < depth && n < size; d++)
        n += (size_t)snprintf(buf + n, size - n, "}\n");
    if (n < size)
        snprintf(buf + n, size - n, "%s", tail);
    if (n >= size)
        fail_msg("cw_glsl_nest: %zu bytes do not hold the kernel", size);
}

/* SAXPY with its bounds guard (examples/kernels/saxpy.comp's logic):
 * y[i] = alpha * x[i] + y[i] for i < n, 256 invocations a group. */
#define CW_SAXPY_GLSL                                                        \
    "#version 450\n"                                                         \
    "layout(local_size_x = 256) in;\n"                                       \
    "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"      \
    "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"               \
    "layout(push_constant) uniform Params { uint n; float alpha; };\n"       \
    "void main() {\n"                                                        \
    "    uint i = gl_GlobalInvocationID.x;\n"                                \
    "    if (i < n)\n"                                                       \
    "        y[i] = alpha * x[i] + y[i];\n"                                  \
    "}\n"

#endif
