/* libFuzzer harness: the plan loader on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    plan p;
    cw_error err;
    /* Relative to examples/ so that shader paths can resolve. */
    if (plan_load_text("examples/fuzz.json", (const char *)data, size, &p, &err) == 0)
        plan_free(&p);
    return 0;
}
