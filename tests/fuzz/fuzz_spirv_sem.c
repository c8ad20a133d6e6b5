/* libFuzzer harness: the whole static path on *semantic* mutations of
 * valid SPIR-V (issue 17).  Where fuzz_spirv_mut.c changes any operand or
 * opcode, this mutator only changes what a module's sizes and layout say,
 * keeping it otherwise valid, because that class of mutant found the
 * crashes the generic mutators missed (a WorkgroupSize of 64 x 2^31 x 2^31,
 * spec constants that multiply to 2^64):
 *   - the literal of an OpConstant / OpSpecConstant (array lengths, loop
 *     bounds, local sizes through LocalSizeId);
 *   - the operands of OpExecutionMode LocalSize / LocalSizeId;
 *   - the literals of OpDecorate / OpMemberDecorate (Binding,
 *     DescriptorSet, SpecId, Offset, ArrayStride, MatrixStride, BuiltIn);
 *   - the id of an OpTypeArray length (another constant).
 * Values come from a table of boundaries (0, 1, 2^k +- 1, 2^31, 2^32 - 1,
 * floats) or move by one. */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "spirv_mutator.h"

#define MAX_INSNS 8192

static uint32_t boundary(uint32_t *s, uint32_t old)
{
    static const uint32_t vals[] = {0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 255, 256,
                                    1023, 1024, 1025, 4096, 65535, 65536, 0x00ffffffu,
                                    0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu,
                                    0xffffffffu, 0x3f800000u, 0x7f800000u, 0x7fc00000u};
    switch (rnd(s) % 4) {
    case 0: case 1:
        return vals[rnd(s) % (sizeof vals / sizeof vals[0])];
    case 2:
        return old + (rnd(s) % 2 ? 1 : (uint32_t)-1);
    default:
        return old << (1 + rnd(s) % 4);
    }
}

/* Is instruction a a target of the semantic mutations?  *first is the
 * first mutable word (relative), *count how many. */
static int mutable_words(const uint32_t *w, size_t a, uint32_t *first, uint32_t *count)
{
    uint32_t op = w[a] & 0xffffu, wc = w[a] >> 16;
    switch (op) {
    case SpvOpConstant: case SpvOpSpecConstant:        /* type, id, value... */
        *first = 3;
        break;
    case SpvOpExecutionMode: case SpvOpExecutionModeId: /* entry, mode, operands */
        if (wc < 4 || (w[a + 2] != SpvExecutionModeLocalSize &&
                       w[a + 2] != SpvExecutionModeLocalSizeId))
            return 0;
        *first = 3;
        break;
    case SpvOpDecorate:                                 /* target, decoration, literals */
        *first = 3;
        break;
    case SpvOpMemberDecorate:                           /* target, member, decoration, ... */
        *first = wc > 4 ? 4 : 2;
        break;
    case SpvOpTypeArray:                                /* id, element, length id */
        *first = 3;
        break;
    default:
        return 0;
    }
    if (*first >= wc)
        return 0;
    *count = wc - *first;
    return 1;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t s = seed;
    static size_t off[MAX_INSNS], cand[MAX_INSNS];
    uint32_t *w = (uint32_t *)(void *)data;
    size_t n = index_insns(data, size, off, MAX_INSNS), nc = 0;
    uint32_t first = 0, count = 0;
    for (size_t i = 0; i < n; i++)
        if (mutable_words(w, off[i], &first, &count))
            cand[nc++] = off[i];
    if (nc == 0 || rnd(&s) % 32 == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    /* one to three mutations per input */
    for (uint32_t k = 1 + rnd(&s) % 3; k-- > 0;) {
        size_t a = cand[rnd(&s) % nc];
        if (!mutable_words(w, a, &first, &count))
            continue;
        size_t at = a + first + rnd(&s) % count;
        if ((w[a] & 0xffffu) == SpvOpTypeArray) {
            /* another constant as the length */
            size_t b = cand[rnd(&s) % nc];
            if ((w[b] & 0xffffu) == SpvOpConstant && (w[b] >> 16) >= 4)
                w[at] = w[b + 2];
            continue;
        }
        w[at] = boundary(&s, w[at]);
    }
    return size;
}
