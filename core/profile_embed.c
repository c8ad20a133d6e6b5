/* profile_embed.c - the committed device profiles (profiles/<key>.json), built
 * into the binary so that the built-ins are those files and nothing else.
 *
 * Contract: profile_embedded(key) returns the NUL-terminated JSON text of
 * profiles/<key>.json as it was at build time, or NULL for a key that has
 * no file.  The Makefile makes this object depend on the JSON files.
 */
#include "profile.h"

#include <string.h>

/* The assembler copies the files byte for byte (paths are relative to the
 * repository root, where make runs), each followed by a NUL. */
#define CW_EMBED(sym, file)                                                   \
    __asm__(".section .rodata\n"                                              \
            ".balign 16\n"                                                    \
            ".globl " #sym "\n"                                               \
            ".type " #sym ", @object\n" #sym ":\n"                            \
            ".incbin \"" file "\"\n"                                          \
            ".byte 0\n"                                                       \
            ".size " #sym ", . - " #sym "\n"                                  \
            ".previous\n")

CW_EMBED(cw_profile_json_h200, "profiles/h200.json");
CW_EMBED(cw_profile_json_lavapipe, "profiles/lavapipe.json");

extern const char cw_profile_json_h200[];
extern const char cw_profile_json_lavapipe[];

const char *profile_embedded(const char *key)
{
    if (!key)
        return NULL;
    if (strcmp(key, "h200") == 0)
        return cw_profile_json_h200;
    if (strcmp(key, "lavapipe") == 0)
        return cw_profile_json_lavapipe;
    return NULL;
}
