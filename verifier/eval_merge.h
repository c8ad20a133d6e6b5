/* eval_merge.h - which adjacent memory accesses of one invocation the
 * driver's compiler merges into one wider access (a 64- or 128-bit load or
 * store: NVIDIA's LDG/STG/LDS/STS.64/.128).
 *
 * Contract: ev_merge_plan(c, buffer_bytes, shared_bytes, unroll_trips,
 * out) finds, in each block of the
 * module (straight-line code: never across a loop's iterations, a barrier
 * or a call), runs of loads, or of stores, of one buffer or workgroup
 * variable that the compiler can prove adjacent: the same variable, the
 * same non-constant address terms (index expressions compared by
 * structure, a function variable stored once read as its value), and
 * constant byte offsets each the previous one's plus its size (4 or 8
 * bytes), with nothing in between that could alias them (loads: no store,
 * atomic, barrier or call; stores: no other buffer or workgroup access).
 * A run is cut, from its start, into pieces the compiler can issue as one
 * access: a power of two of bytes up to the variable's width (buffer_bytes
 * for buffers, shared_bytes for workgroup memory) whose start is provably
 * aligned to it (the known trailing zero bits of each index term times its
 * stride, and of the constant offset; the variable's start is taken as
 * aligned to that width, as Vulkan's buffer-offset alignment and the
 * compiler's own workgroup layout make it).
 *
 * With unroll_trips >= 2 (the profile's full_unroll_trips), also an
 * access that is alone in a loop of a constant trip count up to that
 * (start + k, step 1, no inner loop, no barrier or call): the compiler
 * unrolls it into straight-line copies, and when its address is the
 * induction times its size plus terms the same in every trip, the copies
 * of consecutive trips are adjacent; the trips are cut into equal aligned
 * pieces (out->loop[i] set, out->members[i] trips a piece).
 *
 * Workgroup loads whose run starts off the width's alignment (4x+1..4x+4
 * of floats) are widened: the members inside one aligned window of the
 * width (its start provably aligned) become one load of the whole window
 * (out->pad[lead] the bytes before the lead).
 *
 * Buffer accesses the compiler does not merge (buffer_bytes below 8, or
 * adjacent but not provably aligned) still form *runs* of up to
 * EV_MERGE_MAX_MEMBERS (out->run set): issued back to back, so their
 * bytes are in flight together and the sectors they write are completed
 * by the run itself.
 *
 * out->lead[i]: the first instruction of instruction i's piece (itself
 * for the first), EV_MERGE_NONE when i is not merged; out->pos[i] its
 * place in the piece; out->members[lead] the instructions in the piece;
 * out->bytes[lead] the piece's bytes per invocation.  a width below 8:
 * that memory is not merged (out->pieces 0; its runs count in
 * out->runs).  Arrays are per module instruction; ev_merge_free releases
 * them.
 */
#ifndef CW_EVAL_MERGE_H
#define CW_EVAL_MERGE_H

#include <stdint.h>

#define EV_MERGE_NONE 0xffffffffu
#define EV_MERGE_MAX_MEMBERS 4 /* 16 bytes of 4-byte words */

typedef struct ev_ctx ev_ctx;

typedef struct ev_merge {
    uint32_t *lead;
    uint8_t *pos, *members;
    uint8_t *loop;         /* lead: the piece is this one access in
                              consecutive trips of an unrolled loop */
    uint8_t *pad;          /* lead: workgroup loads widened to an aligned
                              window (bytes[lead]) starting this many
                              bytes before the lead's address */
    uint8_t *run;          /* lead: a run the compiler does not merge (a
                              buffer, width below 8): separate requests
                              the hardware receives back to back */
    uint32_t *bytes;
    uint32_t ninst;
    unsigned pieces;       /* merged pieces of two or more accesses */
    int first_line;        /* source line of the first piece, 0 none */
    unsigned runs;         /* runs the compiler does not merge (run set) */
    int first_run_line;    /* source line of the first run, 0 none */
} ev_merge;

int ev_merge_plan(ev_ctx *c, uint32_t buffer_bytes, uint32_t shared_bytes,
                  uint32_t unroll_trips, ev_merge *out);
void ev_merge_free(ev_merge *e);

#endif
