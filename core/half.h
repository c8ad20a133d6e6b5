/* half.h - IEEE 754 binary16 <-> binary32, for FP16 buffers (the runner
 * fills them) and FP16 arithmetic (the evaluator interprets it).
 * cw_float_to_half rounds to nearest; NaN stays NaN, overflow becomes
 * infinity, values below the smallest subnormal become signed zero. */
#ifndef CW_HALF_H
#define CW_HALF_H

#include <stdint.h>

float cw_half_to_float(uint16_t h);
uint16_t cw_float_to_half(float f);

#endif
