/* spirv_asm.h - hand-written SPIR-V assembly to a shader module through
 * SPIRV-Tools' assembler, for the tests that build modules GLSL cannot
 * express.  Include after <cmocka.h>. */
#ifndef CW_SPIRV_ASM_H
#define CW_SPIRV_ASM_H

#include <stddef.h>

/* libspirv.h defines this constant with external linkage in C, and
 * verifier/validate.c includes it too: rename the test's copy. */
#define kDefaultMaxIdBound cw_unit_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "shader.h"

/* Assembles len bytes of text for env into m (its path: name); an
 * assembler or loader error fails the test. */
static inline void cw_assemble(const char *text, size_t len, spv_target_env env,
                               const char *name, shader_module *m)
{
    spv_context ctx = spvContextCreate(env);
    spv_binary bin = NULL;
    spv_diagnostic diag = NULL;
    if (spvTextToBinary(ctx, text, len, &bin, &diag) != SPV_SUCCESS)
        fail_msg("spirv-as: %s", diag ? diag->error : "?");
    cw_error err;
    cw_error_clear(&err);
    int rc = shader_from_spirv(name, bin->code, bin->wordCount * 4, m, &err);
    spvBinaryDestroy(bin);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    if (rc != 0)
        fail_msg("load: %s", err.text);
}

#endif
