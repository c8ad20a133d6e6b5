/* libFuzzer harness: the whole static path on arbitrary SPIR-V bytes
 * (byte-level mutations; fuzz_spirv_mut.c mutates whole instructions).  The
 * seed corpus holds the example and corpus kernels compiled with debug info,
 * so mutations of valid modules are explored too. */
#include "spirv_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return spirv_target_run(data, size);
}
