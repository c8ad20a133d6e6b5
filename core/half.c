/* half.c - IEEE binary16 conversions (see half.h). */
#include "half.h"

#include <math.h>
#include <string.h>

float cw_half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, f = h & 1023;
    uint32_t bits;
    if (e == 0) {
        if (f == 0) {
            bits = s;
        } else {
            float r = ldexpf((float)f, -24);
            return s ? -r : r;
        }
    } else if (e == 31) {
        bits = s | 0x7f800000u | (f << 13);
    } else {
        bits = s | ((e + 112) << 23) | (f << 13);
    }
    float out;
    memcpy(&out, &bits, 4);
    return out;
}

uint16_t cw_float_to_half(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    uint32_t s = (b >> 16) & 0x8000;
    int e = (int)((b >> 23) & 255) - 127 + 15;
    uint32_t f = b & 0x7fffff;
    if (((b >> 23) & 255) == 255)
        return (uint16_t)(s | 0x7c00 | (f ? 0x200 : 0));
    if (e >= 31)
        return (uint16_t)(s | 0x7c00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)s;
        f |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t hf = f >> shift;
        if ((f >> (shift - 1)) & 1)
            hf++;
        return (uint16_t)(s | hf);
    }
    uint32_t hf = f >> 13;
    uint16_t r = (uint16_t)(s | ((uint32_t)e << 10) | hf);
    if (f & 0x1000)
        r++;
    return r;
}
