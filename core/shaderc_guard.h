/* shaderc_guard.h - libshaderc behind a C boundary that no C++ exception
 * crosses (issue 17).
 *
 * Why: libshaderc is C++ behind a C API.  Under memory pressure (ulimit -v
 * 256 MiB) its initialisation throws std::bad_alloc; unwinding into C code
 * built without exception tables calls std::terminate and the process
 * aborts (exit 134) with no report.
 *
 * Contract: cw_shaderc_compile() compiles GLSL compute source to SPIR-V
 * (debug info on, Vulkan 1.1, entry "main") inside a try block.  Returns
 * CW_SHADERC_OK with *res to read and release (shaderc_result_release),
 * CW_SHADERC_FAILED with *res holding the compiler's message (may be NULL),
 * CW_SHADERC_NO_MEMORY when it threw std::bad_alloc, CW_SHADERC_EXCEPTION
 * for any other exception (what() in why); *res is NULL in the last two.
 */
#ifndef CW_SHADERC_GUARD_H
#define CW_SHADERC_GUARD_H

#include <stddef.h>

#include <shaderc/shaderc.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CW_SHADERC_OK = 0, CW_SHADERC_FAILED, CW_SHADERC_NO_MEMORY, CW_SHADERC_EXCEPTION };

int cw_shaderc_compile(const char *path, const char *text, size_t len,
                       shaderc_compilation_result_t *res, char *why, size_t why_n);

#ifdef __cplusplus
}
#endif

#endif
