/* utf8.h - encoding one code point as UTF-8.
 *
 * Contract: cw_utf8_encode() writes cp (at most U+10FFFF; the caller has
 * checked it) into out as 1-4 bytes and returns how many.  Callers decide
 * what to do when their buffer has less room than that. */
#ifndef CW_UTF8_H
#define CW_UTF8_H

#include <stddef.h>
#include <stdint.h>

size_t cw_utf8_encode(uint32_t cp, char out[4]);

#endif
