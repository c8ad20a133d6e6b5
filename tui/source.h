/* source.h - what the source view shows for a kernel.
 *
 * Contract: source_text() returns a malloc'd copy of the GLSL source of a
 * shader module when it was compiled from GLSL, or the GLSL a SPIR-V module
 * carries in its OpSource (glslc -g) (*glsl = 1 for both), else its SPIR-V
 * disassembly from SPIRV-Tools (spvBinaryToText, friendly names; *glsl =
 * 0), or NULL when neither is possible.  The caller frees it.
 * source_embedded() is that OpSource text (with its OpSourceContinued
 * parts), or NULL; it reads untrusted words within nwords only.
 */
#ifndef CW_TUI_SOURCE_H
#define CW_TUI_SOURCE_H

#include "shader.h"

char *source_text(const shader_module *m, int *glsl);
char *source_disassemble(const uint32_t *words, size_t nwords);
char *source_embedded(const uint32_t *words, size_t nwords);

#endif
