/* shader_spirv.c - a shader_module from SPIR-V bytes, and its release
 * (see shader.h).  No compiler here: this is the part of the shader module
 * that the verifier and the SPIR-V fuzzers link. */
#include "shader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define SPIRV_MAGIC 0x07230203u

int shader_from_spirv(const char *path, const void *bytes, size_t len,
                      shader_module *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    if (len < 20 || len % 4) {
        cw_error_set(err, path, 0, 0,
                     "not a SPIR-V module: %zu bytes (a module is a whole number of "
                     "32-bit words, at least the 5-word header)", len);
        return -1;
    }
    uint32_t *w = xmalloc(len);
    memcpy(w, bytes, len);
    size_t n = len / 4;
    if (w[0] != SPIRV_MAGIC) {
        if (__builtin_bswap32(w[0]) != SPIRV_MAGIC) {
            free(w);
            cw_error_set(err, path, 0, 0,
                         "not a SPIR-V module: magic number 0x%08x (expected 0x07230203)",
                         bytes ? ((const uint32_t *)bytes)[0] : 0u);
            return -1;
        }
        for (size_t i = 0; i < n; i++) /* written on a machine of the other endianness */
            w[i] = __builtin_bswap32(w[i]);
    }
    out->words = w;
    out->nwords = n;
    out->path = cw_strdup(path);
    return 0;
}

void shader_free(shader_module *m)
{
    free(m->words);
    free(m->source);
    free(m->path);
    memset(m, 0, sizeof *m);
}
