/* shader.h - turn a plan kernel's shader file into SPIR-V words.
 *
 * Contract: shader_load() reads .comp/.glsl (compiled in-process with
 * libshaderc, Vulkan 1.1 target, debug info kept so OpLine names GLSL lines)
 * or .spv (loaded as is, length and magic checked, endianness fixed).
 * Plan spec constants are NOT applied here: the verifier and the runner
 * apply them.  On failure: non-zero, err names file:line and the compiler's
 * message.  The shader_module owns its buffers; shader_free() releases them.
 */
#ifndef CW_SHADER_H
#define CW_SHADER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct shader_module {
    uint32_t *words;
    size_t nwords;
    char *source;      /* GLSL text when compiled from GLSL, else NULL */
    size_t source_len;
    char *path;        /* file it came from */
    int from_glsl;
} shader_module;

int shader_load(const char *path, shader_module *out, cw_error *err);
/* GLSL text already in memory; path names it in messages. */
int shader_compile_glsl(const char *path, const char *text, size_t len,
                        shader_module *out, cw_error *err);
/* SPIR-V bytes already in memory (copied). Checks size % 4, magic. */
int shader_from_spirv(const char *path, const void *bytes, size_t len,
                      shader_module *out, cw_error *err);
void shader_free(shader_module *m);

#endif
