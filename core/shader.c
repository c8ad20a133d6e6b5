/* shader.c - GLSL -> SPIR-V in-process with libshaderc, or SPIR-V files
 * loaded as they are (see shader.h). */
#include "shader.h"

#include <errno.h>
#include <pthread.h>
#include <shaderc/shaderc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h" /* cw_strdup */

enum { MAX_SHADER_BYTES = 64 << 20 };
#define SPIRV_MAGIC 0x07230203u

static int read_all(const char *path, char **buf, size_t *len, cw_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cw_error_set(err, path, 0, 0, "cannot open the shader: %s", strerror(errno));
        return CW_EXIT_USAGE;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_SHADER_BYTES) {
        fclose(f);
        cw_error_set(err, path, 0, 0, "the shader is not a regular file of at most %d bytes",
                     MAX_SHADER_BYTES);
        return CW_EXIT_USAGE;
    }
    *len = (size_t)st.st_size;
    *buf = malloc(*len + 1);
    if (!*buf)
        abort();
    size_t got = fread(*buf, 1, *len, f);
    fclose(f);
    if (got != *len) {
        free(*buf);
        cw_error_set(err, path, 0, 0, "cannot read the shader");
        return CW_EXIT_USAGE;
    }
    (*buf)[*len] = 0;
    return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int shader_from_spirv(const char *path, const void *bytes, size_t len,
                      shader_module *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    if (len < 20 || len % 4) {
        cw_error_set(err, path, 0, 0,
                     "not a SPIR-V module: %zu bytes (a module is a whole number of "
                     "32-bit words, at least the 5-word header)", len);
        return CW_EXIT_USAGE;
    }
    uint32_t *w = malloc(len);
    if (!w)
        abort();
    memcpy(w, bytes, len);
    size_t n = len / 4;
    if (w[0] != SPIRV_MAGIC) {
        if (__builtin_bswap32(w[0]) != SPIRV_MAGIC) {
            free(w);
            cw_error_set(err, path, 0, 0,
                         "not a SPIR-V module: magic number 0x%08x (expected 0x07230203)",
                         bytes ? ((const uint32_t *)bytes)[0] : 0u);
            return CW_EXIT_USAGE;
        }
        for (size_t i = 0; i < n; i++) /* written on a machine of the other endianness */
            w[i] = __builtin_bswap32(w[i]);
    }
    out->words = w;
    out->nwords = n;
    out->path = cw_strdup(path);
    return 0;
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

int shader_compile_glsl(const char *path, const char *text, size_t len,
                        shader_module *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    if (!compiler || !opts) {
        shaderc_compile_options_release(opts);
        shaderc_compiler_release(compiler);
        cw_error_set(err, path, 0, 0, "cannot start the GLSL compiler (libshaderc)");
        return CW_EXIT_ENV;
    }
    /* Debug info keeps OpLine/OpSource so findings can name GLSL lines. */
    shaderc_compile_options_set_generate_debug_info(opts);
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan,
                                           shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_source_language(opts, shaderc_source_language_glsl);
    shaderc_compilation_result_t res = shaderc_compile_into_spv(
        compiler, text, len, shaderc_glsl_compute_shader, path, "main", opts);
    int rc = 0;
    if (!res || shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
        compile_error(path, res ? shaderc_result_get_error_message(res) : NULL, err);
        rc = CW_EXIT_USAGE;
    } else {
        rc = shader_from_spirv(path, shaderc_result_get_bytes(res),
                               shaderc_result_get_length(res), out, err);
        if (rc == 0) {
            out->source = malloc(len + 1);
            if (!out->source)
                abort();
            memcpy(out->source, text, len);
            out->source[len] = 0;
            out->source_len = len;
            out->from_glsl = 1;
        }
    }
    shaderc_result_release(res);
    shaderc_compile_options_release(opts);
    shaderc_compiler_release(compiler);
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
        out->words = malloc(e->nwords * 4);
        out->source = malloc(len + 1);
        if (!out->words || !out->source)
            abort();
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
        e->text = malloc(len + 1);
        e->words = malloc(m->nwords * 4);
        if (!e->path || !e->text || !e->words)
            abort();
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

void shader_free(shader_module *m)
{
    free(m->words);
    free(m->source);
    free(m->path);
    memset(m, 0, sizeof *m);
}
