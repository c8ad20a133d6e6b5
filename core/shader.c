/* shader.c - GLSL -> SPIR-V in-process with libshaderc, or SPIR-V files
 * loaded as they are (see shader.h).  The module from SPIR-V words alone is
 * in shader_spirv.c, so that what needs no compiler (the verifier, the
 * SPIR-V fuzzers) links no shaderc. */
#include "input.h"
#include "shader.h"
#include "alloc.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h" /* cw_strdup */
#include "shaderc_guard.h"
#include "stdout_mute.h"

enum { MAX_SHADER_BYTES = 64 << 20 };

static int read_all(const char *path, char **buf, size_t *len, cw_error *err)
{
    return cw_read_input(path, "shader", 0, MAX_SHADER_BYTES, 1, buf, len, err);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* shaderc reports "file:line: error: text"; keep the first error line. */
static void compile_error(const char *path, const char *msg, cw_error *err)
{
    int line = 0;
    const char *p = msg ? strstr(msg, ": error:") : NULL;
    const char *start = msg;
    if (p) {
        const char *q = p;
        while (q > msg && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q < p && q > msg && q[-1] == ':')
            line = atoi(q);
        start = p + 9;
    }
    char text[900];
    size_t n = 0;
    while (start && start[n] && start[n] != '\n' && n + 1 < sizeof text) {
        text[n] = start[n];
        n++;
    }
    text[n] = 0;
    while (n && text[n - 1] == ' ')
        text[--n] = 0;
    cw_error_set(err, path, line, 0, "GLSL compilation failed: %s",
                 text[0] ? text : "unknown error");
}

/* The first directive of the source is #version (comments and blank
 * lines before it are fine).  Without one glslang picks version 100 with
 * no profile, fails to parse its own built-ins and prints all ~4,500 lines
 * of them on stdout; this says what is wrong instead. */
static int glsl_preflight(const char *path, const char *text, size_t len, cw_error *err)
{
    size_t i = 0;
    int line = 1;
    while (i < len) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++)
                if (text[i] == '\n')
                    line++;
            i += 2;
        } else {
            break;
        }
    }
    if (i >= len) {
        cw_error_set(err, path, 0, 0, "the GLSL file is empty (no code); a compute shader "
                     "starts with '#version 450' and has a main()");
        return -1;
    }
    static const char dir[] = "#version";
    size_t j = i + 1;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
        j++;
    if (text[i] != '#' || len - j < 7 || memcmp(text + j, dir + 1, 7) != 0) {
        cw_error_set(err, path, line, 0, "the GLSL file does not start with a #version "
                     "line; compute shaders need '#version 430' or later (e.g. '#version "
                     "450') before any other code");
        return -1;
    }
    /* a version too old for compute: glslang prints its built-ins on
     * stdout (the terminal, in the TUI) before it says so */
    size_t v = j + 7;
    while (v < len && (text[v] == ' ' || text[v] == '\t'))
        v++;
    long num = 0;
    size_t d = v;
    while (d < len && text[d] >= '0' && text[d] <= '9' && num < 100000)
        num = num * 10 + (text[d++] - '0');
    size_t pw = d;
    while (pw < len && (text[pw] == ' ' || text[pw] == '\t'))
        pw++;
    int es = len - pw >= 2 && text[pw] == 'e' && text[pw + 1] == 's';
    if (d > v && num < (es ? 310 : 420)) {
        cw_error_set(err, path, line, 0, "#version %ld%s is too old for a compute shader: "
                     "compute shaders need version 420 or later (310 es); write "
                     "'#version 450'", num, es ? " es" : "");
        return CW_STATUS_INPUT;
    }
    return 0;
}

/* glslang prints some failures (built-ins it cannot parse) with printf:
 * muted while it runs (stdout_mute.h); a lock because the TUI's worker
 * compiles too. */
static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;

int shader_compile_glsl(const char *path, const char *text, size_t len,
                        shader_module *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = glsl_preflight(path, text, len, err);
    if (rc)
        return rc;
    shaderc_compilation_result_t res = NULL;
    char why[256];
    pthread_mutex_lock(&stdout_lock);
    int saved = cw_stdout_mute();
    int st = cw_shaderc_compile(path, text, len, &res, why, sizeof why);
    cw_stdout_unmute(saved);
    pthread_mutex_unlock(&stdout_lock);
    if (st == CW_SHADERC_NO_MEMORY) {
        cw_error_set_env(err, path, "out of memory while compiling the GLSL (libshaderc "
                     "threw %s): free memory or raise the limit (ulimit -v)", why);
        return -1;
    }
    if (st == CW_SHADERC_EXCEPTION) {
        cw_error_set_env(err, path, "the GLSL compiler (libshaderc) failed: %s", why);
        return -1;
    }
    if (st != CW_SHADERC_OK) {
        compile_error(path, res ? shaderc_result_get_error_message(res) : NULL, err);
        rc = -1;
    } else {
        rc = shader_from_spirv(path, shaderc_result_get_bytes(res),
                               shaderc_result_get_length(res), out, err);
        if (rc == 0) {
            out->source = xmalloc(len + 1);
            memcpy(out->source, text, len);
            out->source[len] = 0;
            out->source_len = len;
            out->from_glsl = 1;
        }
    }
    if (res)
        shaderc_result_release(res);
    return rc;
}

/* GLSL compiled by shader_load, by path and exact text: a plan that names
 * one shader for thousands of kernels (or a TUI analysing it again)
 * compiles it once; compiling is ~50 ms, the rest of check ~1 ms a kernel.
 * Failures are not kept (their message is wanted each time).  Bounded;
 * entries live until exit (still reachable, not leaked); a mutex because
 * the TUI's worker thread loads shaders too. */
enum { GLSL_CACHE_MAX = 64 };
typedef struct glsl_cached {
    char *path;
    char *text;
    size_t len;
    uint32_t *words;
    size_t nwords;
} glsl_cached;
static glsl_cached glsl_cache[GLSL_CACHE_MAX];
static size_t glsl_ncache;
static pthread_mutex_t glsl_cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int glsl_cache_get(const char *path, const char *text, size_t len, shader_module *out)
{
    int hit = 0;
    pthread_mutex_lock(&glsl_cache_lock);
    for (size_t i = 0; i < glsl_ncache && !hit; i++) {
        const glsl_cached *e = &glsl_cache[i];
        if (e->len != len || strcmp(e->path, path) != 0 || memcmp(e->text, text, len) != 0)
            continue;
        out->words = xmalloc(e->nwords * 4);
        out->source = xmalloc(len + 1);
        memcpy(out->words, e->words, e->nwords * 4);
        memcpy(out->source, text, len);
        out->source[len] = 0;
        out->nwords = e->nwords;
        out->source_len = len;
        out->path = cw_strdup(path);
        out->from_glsl = 1;
        hit = 1;
    }
    pthread_mutex_unlock(&glsl_cache_lock);
    return hit;
}

static void glsl_cache_put(const char *path, const char *text, size_t len,
                           const shader_module *m)
{
    pthread_mutex_lock(&glsl_cache_lock);
    if (glsl_ncache < GLSL_CACHE_MAX) {
        glsl_cached *e = &glsl_cache[glsl_ncache];
        e->path = cw_strdup(path);
        e->text = xmalloc(len + 1);
        e->words = xmalloc(m->nwords * 4);
        memcpy(e->text, text, len);
        e->text[len] = 0;
        e->len = len;
        memcpy(e->words, m->words, m->nwords * 4);
        e->nwords = m->nwords;
        glsl_ncache++;
    }
    pthread_mutex_unlock(&glsl_cache_lock);
}

int shader_load(const char *path, shader_module *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t len;
    int rc = read_all(path, &buf, &len, err);
    if (rc)
        return rc;
    if (has_suffix(path, ".spv")) {
        rc = shader_from_spirv(path, buf, len, out, err);
    } else if (!glsl_cache_get(path, buf, len, out)) {
        rc = shader_compile_glsl(path, buf, len, out, err);
        if (rc == 0)
            glsl_cache_put(path, buf, len, out);
    }
    free(buf);
    return rc;
}
