/* checks.h - the verifier's internal steps, called in this order by
 * verifier_analyze() (verifier.c):
 *
 *   validate_spirv()   SPIRV-Tools validation of the raw words (validate.c)
 *   spv_parse() + spv_specialize()                         (spirv.c)
 *   reflect_module()   bindings, push constants, spec constants, shared
 *                      memory, local size for one entry point  (reflect.c)
 *   limits_check()     static checks of the plan against the reflection
 *                      and the device limits                    (limits.c)
 *
 * None of these is part of the public verifier API (verifier.h); they are
 * exposed here for the unit tests and the bench.
 */
#ifndef CW_CHECKS_H
#define CW_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "profile.h"
#include "report.h"
#include "spirv.h"
#include "verifier.h"

/* Validates words for the Vulkan environment that matches the module's
 * SPIR-V version (Vulkan 1.1 for SPIR-V <= 1.3, 1.2 for 1.4/1.5, 1.3 for
 * 1.6).  relaxed_layout accepts the block layouts that need device
 * features (scalar, uniform standard, workgroup scalar).  0 when valid;
 * else non-zero with msg = SPIRV-Tools' diagnostic and *inst = the
 * 1-based number of the instruction it names (0 when none; for a module
 * that spv_parse accepted, instruction *inst is m->insts[*inst - 1]). */
int validate_spirv(const uint32_t *words, size_t nwords, int relaxed_layout,
                   char *msg, size_t msgsize, long *inst);
/* Modules above this many words are validated in a child process under a
 * time budget (validate_budget_s: CW_VALIDATE_BUDGET_S, default 5 s);
 * running over returns VALIDATE_BUDGET with msg saying so. */
#define VALIDATE_INPROC_WORDS 65536
#define VALIDATE_BUDGET (-2)
double validate_budget_s(void);

/* Reflection of entry point e of m (specialized).  out is zeroed first;
 * release with reflect_free().  Never fails on a parsed module: what cannot
 * be sized is reported with size 0. */
void reflect_module(const spv_module *m, const spv_entry *e,
                    reflection *out);
void reflect_free(reflection *r);

/* Static findings on kernel k against the reflection and the device
 * limits (bindings, buffer sizes, push and spec keys, limits).  Plan-side
 * findings name k->plan_path and the plan line; shader-side ones the
 * shader file and GLSL line (found in src, the GLSL text, or the module's
 * embedded source when src is NULL).  spec_matched[i] says whether
 * k->spec[i] named a spec constant (NULL: none did).  prof may be NULL
 * (no limit checks).  Returns the number of error findings added. */
int limits_check(const spv_module *m, const reflection *r,
                 const plan_kernel *k, const device_profile *prof,
                 const int *spec_matched, const char *src,
                 kernel_report *kr);

/* entry-point-missing: lists the module's entry points in the message. */
void limits_entry_missing(const spv_module *m, const plan_kernel *k,
                          kernel_report *kr);

/* spv_specialize with plan kernel k's "spec" values (the reader does not
 * know the plan format; this is where the two meet). */
int verifier_specialize(spv_module *m, const plan_kernel *k, int *matched,
                        cw_error *err);

/* The GLSL (or SPIR-V) file findings about the shader point at. */
const char *limits_shader_file(const spv_module *m, const plan_kernel *k);

#endif
