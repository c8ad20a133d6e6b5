/* libFuzzer harness: the theme parser on arbitrary text. */
#include <stddef.h>
#include <stdint.h>

#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    theme t;
    cw_error err;
    theme_parse("fuzz.theme", (const char *)data, size, &t, &err);
    return 0;
}
