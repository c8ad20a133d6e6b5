/* source.c - GLSL text or SPIR-V disassembly for the source view. */
#include "source.h"

#include <stdlib.h>
#include <string.h>

/* libspirv.h defines (not declares) kDefaultMaxIdBound, which in C is an
 * external definition; verifier/validate.c includes it too.  Rename ours so
 * the two objects link together. */
#define kDefaultMaxIdBound source_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

char *source_disassemble(const uint32_t *words, size_t nwords)
{
    if (!words || nwords < 5)
        return NULL;
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
    if (!ctx)
        return NULL;
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    char *out = NULL;
    spv_result_t rc = spvBinaryToText(
        ctx, words, nwords,
        SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
            SPV_BINARY_TO_TEXT_OPTION_INDENT,
        &text, &diag);
    if (rc == SPV_SUCCESS && text && text->str) {
        out = malloc(text->length + 1);
        if (out) {
            memcpy(out, text->str, text->length);
            out[text->length] = '\0';
        }
    }
    spvTextDestroy(text);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return out;
}

char *source_text(const shader_module *m, int *glsl)
{
    *glsl = 0;
    if (!m)
        return NULL;
    if (m->from_glsl && m->source) {
        char *s = malloc(m->source_len + 1);
        if (!s)
            return NULL;
        memcpy(s, m->source, m->source_len);
        s[m->source_len] = '\0';
        *glsl = 1;
        return s;
    }
    return source_disassemble(m->words, m->nwords);
}
