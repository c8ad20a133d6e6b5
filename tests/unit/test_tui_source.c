/* The GLSL a SPIR-V module carries (OpSource, OpSourceContinued), for the
 * TUI's source view: found, continued, glslang's preamble dropped, and
 * malformed words never read past the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

/* words: header, then OpSource GLSL 450 file=1 "text", then continuations */
static size_t put_string(uint32_t *w, const char *s)
{
    size_t n = strlen(s) / 4 + 1;
    memset(w, 0, n * 4);
    memcpy(w, s, strlen(s));
    return n;
}

static size_t module(uint32_t *w, const char *src, const char *cont)
{
    size_t i = 0;
    w[i++] = 0x07230203u;
    w[i++] = 0x00010000u;
    w[i++] = 0;
    w[i++] = 100;
    w[i++] = 0;
    size_t at = i;
    w[i++] = 3; /* OpSource, word count below */
    w[i++] = 2; /* GLSL */
    w[i++] = 450;
    w[i++] = 1; /* file */
    i += put_string(w + i, src);
    w[at] |= (uint32_t)(i - at) << 16;
    if (cont) {
        at = i;
        w[i++] = 2; /* OpSourceContinued */
        i += put_string(w + i, cont);
        w[at] |= (uint32_t)(i - at) << 16;
    }
    w[i++] = (2u << 16) | 5u; /* OpName-ish filler: ends the source */
    w[i++] = 1;
    return i;
}

static void test_embedded(void **s)
{
    (void)s;
    uint32_t w[256];
    size_t n = module(w, "// OpModuleProcessed client vulkan100\n#line 1\n#version 450\nvoid main() {}\n", NULL);
    char *t = source_embedded(w, n);
    assert_non_null(t);
    assert_string_equal(t, "#version 450\nvoid main() {}\n");
    free(t);
    n = module(w, "#version 450\n", "void main() {}\n");
    t = source_embedded(w, n);
    assert_non_null(t);
    assert_string_equal(t, "#version 450\nvoid main() {}\n");
    free(t);
    /* every truncation: NULL or a prefix, never a read past the end */
    n = module(w, "#version 450\nvoid main() { }\n", "// more\n");
    for (size_t cut = 0; cut < n; cut++) {
        uint32_t *c = malloc(cut * sizeof *c + 1);
        memcpy(c, w, cut * sizeof *c);
        t = source_embedded(c, cut);
        free(t);
        free(c);
    }
    /* no terminator inside the instruction: not a string */
    n = module(w, "abcd", NULL);
    w[10] = 0x64636261u; /* overwrite the terminator word */
    t = source_embedded(w, n);
    assert_null(t);
    /* no OpSource text: NULL (the caller disassembles) */
    uint32_t bare[] = {0x07230203u, 0x00010000u, 0, 10, 0, (3u << 16) | 3u, 2, 450};
    assert_null(source_embedded(bare, sizeof bare / sizeof *bare));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_embedded)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
