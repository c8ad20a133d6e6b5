/* eval_values.h - value semantics (eval_values.c).
 *
 * Contract (pure functions, w = operand width in bits, values masked to w):
 *   ev_int_bin(op, a, b, w)   SPIR-V integer binary op (IAdd ... BitwiseXor,
 *                             shifts, div/mod) on unsigned intervals; exact
 *                             when both are known; a sound interval
 *                             otherwise, [0, 2^w-1] when it cannot be bounded
 *                             (overflow, division by a range containing 0).
 *   ev_float_bin              FAdd/FSub/FMul/FDiv/FRem/FMod on known floats
 *                             (rounded to the width), else unknown.
 *   ev_compare(op, a, b, t)   integer, bool and float comparisons: a known
 *                             bool when the intervals decide it.
 *   ev_convert(op, a, from, to) conversions and bitcasts.
 *   ev_glsl_comp(fn, args, nargs, k, rt, argn) GLSL.std.450 function fn on
 *                             component k (argn[i] = components of arg i;
 *                             scalar arguments broadcast).
 *   ev_exec_value(c, ii, in, lanes, n) executes a non-memory, non-control
 *                             instruction for the lanes: its result
 *                             registers are written for each lane.
 */
#ifndef CW_EVAL_VALUES_H
#define CW_EVAL_VALUES_H

ev_val ev_int_bin(uint32_t op, ev_val a, ev_val b, unsigned w);
ev_val ev_float_bin(uint32_t op, ev_val a, ev_val b, unsigned w);
ev_val ev_compare(uint32_t op, ev_val a, ev_val b, const ev_type *t);
ev_val ev_convert(uint32_t op, ev_val a, const ev_type *from,
                  const ev_type *to);
ev_val ev_glsl_comp(uint32_t fn, const ev_val *args[], uint32_t nargs,
                    uint32_t k, const ev_type *rt, const uint32_t *argn);
/* UMulExtended / SMulExtended / IAddCarry / ISubBorrow: *lo, *hi = the
 * two members of the result (lsb and msb; sum or difference and carry). */
void ev_int_ext(uint32_t op, ev_val a, ev_val b, unsigned w, ev_val *lo, ev_val *hi);
/* BitCount, BitReverse, BitField{U,S}Extract, BitFieldInsert on one
 * component (w operand width, rw result width). */
ev_val ev_bitfield(uint32_t op, ev_val base, ev_val ins, ev_val off, ev_val cnt,
                   unsigned w, unsigned rw);
/* Whether an opcode / a GLSL.std.450 instruction is modelled
 * (eval_coverage.c): anything else yields an unknown value. */
int ev_models_opcode(uint32_t op);
int ev_models_glsl(uint32_t fn);
void ev_exec_value(ev_ctx *c, uint32_t ii, const spv_inst *in,
                   const uint16_t *lanes, int n);

#endif
