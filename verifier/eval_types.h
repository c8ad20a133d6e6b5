/* eval_types.h - type flattening (eval_types.c).
 *
 * Contract:
 *   ev_tinfo(c, tid)   the flattened shape of type id tid: number of scalar
 *                      components (EV_NONE when opaque or larger than
 *                      EV_MAX_FLAT), scalar kind, width, signedness.
 *                      Memoised per id; never NULL (an unknown id reads as
 *                      opaque).  Pointers are two components (variable,
 *                      offset interval).
 *   ev_flat_member_offset  component offset of struct member idx.
 *   ev_scalar_bytes    bytes of tid's scalar (bool: 4).
 *   ev_const_flat      the components of constant id (unknown where the
 *                      module does not fix them).
 *   ev_decode_layout   decodes a value of type tid from explicitly laid out
 *                      bytes buf[0..len) at byte offset off (Offset,
 *                      ArrayStride, MatrixStride); bytes outside buf read as
 *                      unknown.  *pos advances over out[0..n).
 *   ev_fill_unknown    out[0..n) := unknown of tid's scalar kind.
 *   ev_flat_path       component offset of a composite literal index path
 *                      (EV_NONE when out of range); *out_tid its type.
 *   ev_val_type        ev_tinfo of a value id's type.
 *   ev_type_name       GLSL spelling for messages ("uint", "vec4", ...).
 */
#ifndef CW_EVAL_TYPES_H
#define CW_EVAL_TYPES_H

const ev_type *ev_tinfo_compute(ev_ctx *c, uint32_t tid);
/* ev_tinfo: the memoised answer inline (asked of most executed
 * instructions), ev_tinfo_compute the first time. */
static inline const ev_type *ev_tinfo(ev_ctx *c, uint32_t tid)
{
    if (tid != 0 && tid < c->bound && c->tstate[tid] == 2)
        return &c->types[tid];
    return ev_tinfo_compute(c, tid);
}
uint32_t ev_flat_member_offset(ev_ctx *c, const spv_type *st, uint32_t idx);
uint32_t ev_scalar_bytes(ev_ctx *c, uint32_t tid);
void ev_const_flat(ev_ctx *c, uint32_t id, ev_val *out, uint32_t n,
                   int depth);
void ev_decode_layout(ev_ctx *c, uint32_t tid, const uint8_t *buf,
                      uint64_t len, int64_t off, ev_val *out,
                      uint32_t *pos, uint32_t n, int depth);
void ev_fill_unknown(ev_ctx *c, uint32_t tid, ev_val *out, uint32_t n);
uint32_t ev_flat_path(ev_ctx *c, uint32_t tid, const uint32_t *idx,
                      uint32_t n, uint32_t *out_tid);
const ev_type *ev_val_type(ev_ctx *c, uint32_t id);

#endif
