/* validate.c - SPIRV-Tools validation (C API) for the Vulkan environment
 * that matches the module's SPIR-V version.
 *
 * A context per environment is created once and kept (creating one builds
 * the grammar tables: too slow to repeat per kernel); creation is guarded
 * by a mutex so callers on several threads are safe.
 */
#include "checks.h"

#include <pthread.h>
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <string.h>

#define NENV 4
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static spv_context contexts[NENV];

static spv_target_env env_for(uint32_t version, int *slot)
{
    if (version >= 0x00010600u) {
        *slot = 3;
        return SPV_ENV_VULKAN_1_3;
    }
    if (version >= 0x00010500u) {
        *slot = 2;
        return SPV_ENV_VULKAN_1_2;
    }
    if (version >= 0x00010400u) {
        *slot = 1;
        return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
    }
    *slot = 0;
    return SPV_ENV_VULKAN_1_1;
}

static uint32_t bswap(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

int validate_spirv(const uint32_t *words, size_t nwords, int relaxed_layout,
                   char *msg, size_t msgsize, long *inst)
{
    uint32_t version = 0;
    int slot;
    if (inst)
        *inst = 0;
    if (msg && msgsize)
        msg[0] = 0;
    if (words && nwords >= 2)
        version = words[0] == 0x07230203u ? words[1] : bswap(words[1]);
    spv_target_env env = env_for(version, &slot);

    pthread_mutex_lock(&ctx_lock);
    if (!contexts[slot])
        contexts[slot] = spvContextCreate(env);
    spv_context ctx = contexts[slot];
    pthread_mutex_unlock(&ctx_lock);
    if (!ctx) {
        if (msg)
            snprintf(msg, msgsize, "SPIRV-Tools could not create a %s context",
                     spvTargetEnvDescription(env));
        return -1;
    }

    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = {words, nwords};
    spv_validator_options opts = spvValidatorOptionsCreate();
    if (relaxed_layout) {
        /* layouts that need device features (scalarBlockLayout,
         * uniformBufferStandardLayout, workgroup scalar layout) */
        spvValidatorOptionsSetScalarBlockLayout(opts, true);
        spvValidatorOptionsSetUniformBufferStandardLayout(opts, true);
        spvValidatorOptionsSetWorkgroupScalarBlockLayout(opts, true);
    }
    spv_result_t res = spvValidateWithOptions(ctx, opts, &bin, &diag);
    spvValidatorOptionsDestroy(opts);
    if (res == SPV_SUCCESS) {
        spvDiagnosticDestroy(diag);
        return 0;
    }
    if (msg) {
        const char *text = diag && diag->error ? diag->error : "validation failed";
        size_t j = 0;
        /* one line: the diagnostic, then the instruction it quotes */
        for (size_t i = 0; text[i] && j + 3 < msgsize; i++) {
            char ch = text[i];
            if (ch == '\n') {
                while (text[i + 1] == ' ')
                    i++;
                if (text[i + 1] == 0)
                    break;
                msg[j++] = ';';
                msg[j++] = ' ';
                continue;
            }
            msg[j++] = ch;
        }
        msg[j] = 0;
    }
    /* for validation (not parsing) diagnostics SPIRV-Tools' position
     * index is the 1-based instruction number */
    if (inst && diag)
        *inst = (long)diag->position.index;
    spvDiagnosticDestroy(diag);
    return -1;
}
