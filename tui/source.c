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

/* Append the literal string in words[0..n) (nul-terminated, packed four
 * bytes a word, little end first) to *buf. */
static int append_literal(char **buf, size_t *len, const uint32_t *w, size_t n)
{
    size_t cap = n * 4, add = 0;
    const unsigned char *b = (const unsigned char *)w;
    while (add < cap && b[add])
        add++;
    if (add == cap) /* no terminator: not a string */
        return -1;
    char *nb = realloc(*buf, *len + add + 1);
    if (!nb)
        return -1;
    memcpy(nb + *len, b, add);
    *len += add;
    nb[*len] = '\0';
    *buf = nb;
    return 0;
}

char *source_embedded(const uint32_t *words, size_t nwords)
{
    if (!words || nwords < 5 || words[0] != 0x07230203u)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    int in_source = 0; /* the previous instruction was the OpSource taken */
    for (size_t i = 5; i < nwords;) {
        uint32_t wc = words[i] >> 16, op = words[i] & 0xffffu;
        if (wc == 0 || i + wc > nwords)
            break;
        if (op == 3 && !text && wc > 4) { /* OpSource lang version file text */
            if (append_literal(&text, &len, words + i + 4, wc - 4) == 0)
                in_source = 1;
        } else if (op == 2 && in_source) { /* OpSourceContinued */
            if (append_literal(&text, &len, words + i + 1, wc - 1) != 0)
                in_source = 0;
        } else if (op != 2 && text) {
            break; /* the source and its continuations are together */
        }
        if (op == 54) /* OpFunction: past the debug section */
            break;
        i += wc;
    }
    if (text && !len) {
        free(text);
        return NULL;
    }
    /* glslang puts "// OpModuleProcessed ..." lines and "#line 1" before
     * the file: drop them so that line numbers are the file's (OpLine's) */
    const char *p = text;
    while (text && *p) {
        const char *nl = strchr(p, '\n');
        size_t ll = nl ? (size_t)(nl - p) : strlen(p);
        if (ll >= 7 && strncmp(p, "#line 1", 7) == 0 && (ll == 7 || p[7] == ' ')) {
            const char *rest = nl ? nl + 1 : p + ll;
            memmove(text, rest, strlen(rest) + 1);
            break;
        }
        if (!(ll >= 2 && p[0] == '/' && p[1] == '/') && ll != 0)
            break;
        if (!nl)
            break;
        p = nl + 1;
    }
    return text;
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
    /* a .spv compiled with debug info (glslc -g) carries its GLSL: the
     * findings cite its lines, so show it rather than the disassembly */
    char *s = source_embedded(m->words, m->nwords);
    if (s) {
        *glsl = 1;
        return s;
    }
    return source_disassemble(m->words, m->nwords);
}
