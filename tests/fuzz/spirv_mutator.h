/* The frame shared by the structure-aware SPIR-V harnesses
 * (fuzz_spirv_mut.c, fuzz_spirv_sem.c): the libFuzzer entry point on
 * spirv_target_run, the deterministic generator their mutators draw from,
 * and the index of a module's instructions.  Each harness supplies only
 * LLVMFuzzerCustomMutator.  Header-only, like spirv_target.h. */
#ifndef CW_FUZZ_SPIRV_MUTATOR_H
#define CW_FUZZ_SPIRV_MUTATOR_H

#include "spirv_target.h"

#define SPV_MAGIC 0x07230203u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return spirv_target_run(data, size);
}

/* xorshift32: cheap and deterministic from libFuzzer's seed */
static uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s ? *s : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* Word offsets into off[] (at most max) of each instruction after the
 * 5-word header of the module in data; 0 when data is not a well-framed
 * module (size, magic, word counts) or has more than max instructions. */
static size_t index_insns(const uint8_t *data, size_t size, size_t *off, size_t max)
{
    const uint32_t *w = (const uint32_t *)(const void *)data; /* libFuzzer buffers are malloc-aligned */
    size_t nw = size / 4;
    if (size % 4 != 0 || nw <= 5 || w[0] != SPV_MAGIC)
        return 0;
    size_t n = 0, i = 5;
    while (i < nw && n < max) {
        uint32_t wc = w[i] >> 16;
        if (wc == 0 || i + wc > nw)
            return 0;
        off[n++] = i;
        i += wc;
    }
    return i == nw ? n : 0;
}

#endif
