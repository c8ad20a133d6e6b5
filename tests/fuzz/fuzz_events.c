/* libFuzzer harness: the --events list parser (events_target.h). */
#include "events_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return events_target_run(data, size);
}
