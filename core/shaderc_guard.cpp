// shaderc_guard.cpp - libshaderc calls with exceptions stopped at the C
// boundary (see shaderc_guard.h).
#include "shaderc_guard.h"

#include <cstdio>
#include <exception>
#include <new>

namespace {

// Releases what was made if an exception leaves the compile half done.
struct handles {
    shaderc_compiler_t compiler = nullptr;
    shaderc_compile_options_t opts = nullptr;
    ~handles()
    {
        if (opts)
            shaderc_compile_options_release(opts);
        if (compiler)
            shaderc_compiler_release(compiler);
    }
};

int compile(const char *path, const char *text, size_t len, shaderc_compilation_result_t *res)
{
    handles h;
    h.compiler = shaderc_compiler_initialize();
    h.opts = shaderc_compile_options_initialize();
    if (!h.compiler || !h.opts)
        throw std::bad_alloc();
    // Debug info keeps OpLine/OpSource so findings can name GLSL lines.
    shaderc_compile_options_set_generate_debug_info(h.opts);
    shaderc_compile_options_set_target_env(h.opts, shaderc_target_env_vulkan,
                                           shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_source_language(h.opts, shaderc_source_language_glsl);
    *res = shaderc_compile_into_spv(h.compiler, text, len, shaderc_glsl_compute_shader, path,
                                    "main", h.opts);
    // shaderc answers an allocation failure of its own with no result, or
    // with an internal error and no message: neither is the shader's fault.
    if (!*res)
        throw std::bad_alloc();
    shaderc_compilation_status st = shaderc_result_get_compilation_status(*res);
    const char *msg = shaderc_result_get_error_message(*res);
    if (st == shaderc_compilation_status_internal_error && (!msg || !msg[0]))
        throw std::bad_alloc();
    if (st != shaderc_compilation_status_success)
        return CW_SHADERC_FAILED;
    return CW_SHADERC_OK;
}

} // namespace

extern "C" int cw_shaderc_compile(const char *path, const char *text, size_t len,
                                  shaderc_compilation_result_t *res, char *why, size_t why_n)
{
    *res = nullptr;
    if (why_n)
        why[0] = 0;
    try {
        return compile(path, text, len, res);
    } catch (const std::bad_alloc &) {
        if (*res)
            shaderc_result_release(*res);
        *res = nullptr;
        std::snprintf(why, why_n, "std::bad_alloc");
        return CW_SHADERC_NO_MEMORY;
    } catch (const std::exception &e) {
        if (*res)
            shaderc_result_release(*res);
        *res = nullptr;
        std::snprintf(why, why_n, "%s", e.what());
        return CW_SHADERC_EXCEPTION;
    } catch (...) {
        if (*res)
            shaderc_result_release(*res);
        *res = nullptr;
        std::snprintf(why, why_n, "an unknown C++ exception");
        return CW_SHADERC_EXCEPTION;
    }
}
