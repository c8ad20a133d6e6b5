/* libFuzzer harness: the whole static path on structure-aware mutations of
 * valid SPIR-V.  Byte-level mutation (fuzz_spirv.c) mostly breaks the header
 * or an instruction's word count and stops in the reader; this custom
 * mutator keeps the module well framed and instead changes what the
 * instructions say: an operand becomes another id, a boundary value or a
 * neighbour; an opcode becomes another; instructions are deleted,
 * duplicated or swapped.  That reaches validation, reflection, the
 * evaluator and the model with modules that are almost valid. */
#include <stdlib.h>

#include "spirv_mutator.h"

#define MAX_INSNS 4096

static uint32_t interesting(uint32_t *s, uint32_t bound, uint32_t old)
{
    static const uint32_t vals[] = {0,          1,          2,          3,
                                    4,          31,         32,         63,
                                    64,         255,        256,        1024,
                                    65535,      65536,      0x7fffffffu, 0x80000000u,
                                    0xffffffffu, 0xfffffffeu, 0x3f800000u /* 1.0f */};
    switch (rnd(s) % 5) {
    case 0:
        return vals[rnd(s) % (sizeof vals / sizeof vals[0])];
    case 1:
        return bound ? 1 + rnd(s) % bound : 1; /* another id, maybe == bound */
    case 2:
        return old + 1;
    case 3:
        return old - 1;
    default:
        return old ^ (1u << (rnd(s) % 32));
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t s = seed;
    size_t nw = size / 4;
    static size_t off[MAX_INSNS];
    uint32_t *w = (uint32_t *)(void *)data;
    size_t n = index_insns(data, size, off, MAX_INSNS);
    if (n < 2 || rnd(&s) % 16 == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    uint32_t bound = w[3];
    size_t a = off[rnd(&s) % n];
    uint32_t wc = w[a] >> 16;
    switch (rnd(&s) % 8) {
    case 0: case 1: case 2: case 3: /* an operand */
        if (wc > 1) {
            size_t k = a + 1 + rnd(&s) % (wc - 1);
            w[k] = interesting(&s, bound, w[k]);
        }
        return size;
    case 4: /* the opcode, keeping the word count */
        w[a] = (wc << 16) | (rnd(&s) % 2 ? rnd(&s) % 400 : ((w[a] & 0xffffu) + 1));
        return size;
    case 5: /* delete */
        memmove(w + a, w + a + wc, (nw - a - wc) * 4);
        return size - wc * 4;
    case 6: { /* duplicate before another instruction */
        if (size + wc * 4 > max_size)
            return size;
        size_t b = off[rnd(&s) % n];
        uint32_t copy[64];
        if (wc > 64)
            return size;
        memcpy(copy, w + a, wc * 4);
        memmove(w + b + wc, w + b, (nw - b) * 4);
        memcpy(w + b, copy, wc * 4);
        return size + wc * 4;
    }
    default: { /* swap with the next instruction */
        size_t i;
        for (i = 0; i + 1 < n && off[i] != a; i++)
            ;
        if (i + 1 >= n)
            return size;
        uint32_t wc2 = w[off[i + 1]] >> 16;
        uint32_t tmp[128];
        if (wc + wc2 > 128)
            return size;
        memcpy(tmp, w + off[i + 1], wc2 * 4);
        memcpy(tmp + wc2, w + a, wc * 4);
        memcpy(w + a, tmp, (wc + wc2) * 4);
        return size;
    }
    }
}
