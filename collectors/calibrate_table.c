/* calibrate_table.c - the calibration microbenchmarks (calibrate_table.h).
 *
 * Why each kernel looks the way it does:
 *   - loads whose result only feeds a never-true comparison keep the
 *     compiler from deleting them without adding write traffic;
 *   - throughput kernels run 8 independent chains per invocation, latency
 *     kernels one dependent chain in one invocation;
 *   - every loop stays below 65535 trips: lavapipe (gallivm) silently caps
 *     every loop there;
 *   - pointer chases keep their position in a buffer, so the next dispatch
 *     goes on along the cycle instead of re-reading lines it just cached.
 */
#include "calibrate_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define HEAD(local) "#version 450\n$E\nlayout(local_size_x = " #local ") in;\n" CAL_PUSH_GLSL
#define SUBGROUP_EXT                                                          \
    "#extension GL_KHR_shader_subgroup_basic : require\n"                     \
    "#extension GL_KHR_shader_subgroup_arithmetic : require"
#define F16_EXT "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require"

static const char copy_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint j = i + k * stride;\n"
    "        if (j < n) d[j] = s[j];\n"
    "    }\n"
    "}\n";

static const char read_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 acc = vec4(0.0);\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint j = i + k * stride;\n"
    "        if (j < n) acc += s[j];\n"
    "    }\n"
    "    if (acc.x == -1234.5678) d[i & 1023u] = acc;\n"
    "}\n";

static const char write_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint j = i + k * stride;\n"
    "        if (j < n) d[j] = vec4(float(j), 1.0, 2.0, 3.0);\n"
    "    }\n"
    "}\n";

/* a working set of mask + 1 vec4s read over and over; stride 0: every
 * workgroup reads the same block (L1), else the groups spread over it */
static const char cached_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_LocalInvocationID.x + gl_WorkGroupID.x * stride;\n"
    "    vec4 a = vec4(0.0), b = vec4(0.0);\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += s[(i + k * 4099u) & mask];\n"
    "        b += s[(i + (k + 1u) * 4099u) & mask];\n"
    "    }\n"
    "    vec4 acc = a + b;\n"
    "    if (acc.x == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = acc;\n"
    "}\n";

/* one 4-byte load per lane, lanes 32 B apart (each its own sector), over
 * an L2-resident working set of mask + 1 floats; every step moves the warp
 * to a scattered place, so that an SM seldom re-reads a sector from L1 */
static const char sector_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { float s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float a = 0.0, b = 0.0;\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += s[((i + k * 0x9e3779b1u) * 8u) & mask];\n"
    "        b += s[((i + (k + 1u) * 0x9e3779b1u) * 8u) & mask];\n"
    "    }\n"
    "    float acc = a + b;\n"
    "    if (acc == -1234.5678) d[i & 1023u] = acc;\n"
    "}\n";

/* one 4-byte load per lane, every lane at its own line: load k of
 * invocation i at line mix(i * iters + k) * stride (a 32-bit integer mix,
 * so lines repeat only as random draws do: a warp's 32 lanes on ~32
 * distinct lines, a group's 4096 loads on ~3850 of the 32768 lines of
 * 4 MiB; a multiplicative hash of i and k alone repeats a quarter of
 * them, L1 hits the hardware would serve) over an L2-resident working set
 * of mask + 1 floats: each request costs L2 ~32 line lookups (tags) of one
 * sector each, where `l2 sectors` costs 8 lines of 4 sectors.  On a GPU
 * 16 loads a lane, 8192 groups: a group re-reads few of its own lines, as
 * a gather's lanes seldom do */
static const char line_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { float s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "uint mixl(uint v) {\n"
    "    v *= 0x9e3779b1u; v ^= v >> 16u; v *= 0x85ebca6bu; return v ^ (v >> 13u);\n"
    "}\n"
    "void main() {\n"
    "    uint x = gl_GlobalInvocationID.x * iters;\n"
    "    float a = 0.0, b = 0.0;\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += s[((mixl(x + k) * stride) << 5u) & mask];\n"
    "        b += s[((mixl(x + k + 1u) * stride) << 5u) & mask];\n"
    "    }\n"
    "    float acc = a + b;\n"
    "    if (acc == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = acc;\n"
    "}\n";

/* the translation reach (calibrate_tlb.h): the same loads as line_glsl,
 * line L = mix & mask (mask + 1 lines: the L2 footprint, fixed across the
 * rows) placed at line (L >> q) * stride + (L & (2^q - 1)), q = uint(m):
 * q = 0 spreads the same lines `stride` lines apart, so the bytes (pages)
 * the requests span grow with stride while L2 holds the same lines; q > 0
 * keeps runs of 2^q consecutive lines `stride` lines apart (clusters:
 * whether the reach counts 2 MiB pages or finer ones) */
static const char tlb_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { float s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "uint mixl(uint v) {\n"
    "    v *= 0x9e3779b1u; v ^= v >> 16u; v *= 0x85ebca6bu; return v ^ (v >> 13u);\n"
    "}\n"
    "uint at(uint v) {\n"
    "    uint l = mixl(v) & mask, q = uint(m);\n"
    "    return ((l >> q) * stride + (l & ((1u << q) - 1u))) << 5u;\n"
    "}\n"
    "void main() {\n"
    "    uint x = gl_GlobalInvocationID.x * iters;\n"
    "    float a = 0.0, b = 0.0;\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += s[at(x + k)];\n"
    "        b += s[at(x + k + 1u)];\n"
    "    }\n"
    "    float acc = a + b;\n"
    "    if (acc == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = acc;\n"
    "}\n";

/* partial-sector stores: every lane writes 4 bytes of its own sector (lanes
 * 32 B apart, the walk hashed over an L2-resident 4 MiB), so L2 merges no
 * store into a whole sector: the rate a naive transpose's stores run at */
static const char partial_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        d[((i + k * 0x9e3779b1u) * 8u) & mask] = float(k);\n"
    "}\n";

/* every lane walks its own row of floats, rows `stride` floats apart, in a
 * 64 KiB block every workgroup re-reads (L1-resident): each request looks
 * up 32 lines, one a lane; stride 32 (lanes 128 B apart) puts every lane at
 * one offset of its line, stride 33 (132 B) at 32 distinct offsets */
static const char row_lines_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { float s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint base = gl_LocalInvocationID.x * stride;\n"
    "    float a = 0.0, b = 0.0;\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += s[(base + k) & mask];\n"
    "        b += s[(base + k + 1u) & mask];\n"
    "    }\n"
    "    float acc = a + b;\n"
    "    if (acc == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = acc;\n"
    "}\n";

/* partial-sector stores into sectors L2 does not hold valid: lanes a line
 * apart, pass k writes word k mod 32 of the lane's line k / 32, so each
 * line is assembled in L2 from 32 stores of 4 bytes and the lines stream
 * over >> L2 (mask: the DRAM buffer): a naive transpose's column stores,
 * whose destination is never read */
static const char partial_stream_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x, lanes = gl_NumWorkGroups.x * 256u;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        d[((((k >> 5u) * lanes + i) << 5u) + (k & 31u)) & mask] = float(k);\n"
    "}\n";

/* Four adjacent, 16-byte aligned scalar stores a lane (lanes 16 B apart)
 * against one vec4 store a lane, over the DRAM buffer: equal times mean
 * the compiler merges buffer stores; the scalar row's store requests a
 * second are what a run of them costs (l2_store_run_gops). */
static const char merge_buf_s4_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x, lanes = gl_NumWorkGroups.x * 256u;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint b = ((k * lanes + i) << 2u) & mask;\n"
    "        float v = float(k);\n"
    "        d[b] = v;\n"
    "        d[b + 1u] = v;\n"
    "        d[b + 2u] = v;\n"
    "        d[b + 3u] = v;\n"
    "    }\n"
    "}\n";

static const char merge_buf_v4_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x, lanes = gl_NumWorkGroups.x * 256u;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        d[(k * lanes + i) & (mask >> 2u)] = vec4(float(k));\n"
    "}\n";

/* Workgroup-memory loads with lanes 16 B apart: four adjacent scalar
 * loads a lane (4-way bank conflicts each unless merged into one 128-bit
 * load) against one vec4 load. */
#define MERGE_SH_HEAD                                                         \
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"      \
    "shared vec4 t4[256];\n"                                                 \
    "void main() {\n"                                                        \
    "    uint l = gl_LocalInvocationID.x;\n"                                 \
    "    t4[l] = vec4(float(l));\n"                                          \
    "    barrier();\n"                                                       \
    "    float acc = 0.0;\n"                                                 \
    "    for (uint k = 0u; k < iters; k++) {\n"                              \
    "        uint x = (l + k) & 255u;\n"

static const char merge_sh_s4_glsl[] = HEAD(256) MERGE_SH_HEAD
    "        acc += t4[x].x + t4[x].y + t4[x].z + t4[x].w;\n"
    "    }\n"
    "    if (acc == c)\n"
    "        d[l] = acc;\n"
    "}\n";

static const char merge_sh_v4_glsl[] = HEAD(256) MERGE_SH_HEAD
    "        vec4 a = t4[x];\n"
    "        acc += a.x + a.y + a.z + a.w;\n"
    "    }\n"
    "    if (acc == c)\n"
    "        d[l] = acc;\n"
    "}\n";

static const char shared_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "shared vec4 tile[1024];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    for (uint k = 0u; k < 4u; k++)\n"
    "        tile[l + k * 256u] = vec4(float(l + k), 1.0, 2.0, 3.0);\n"
    "    barrier();\n"
    "    vec4 a = vec4(0.0), b = vec4(0.0);\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += tile[(l + k * 64u) & 1023u];\n"
    "        b += tile[(l + k * 64u + 32u) & 1023u];\n"
    "    }\n"
    "    vec4 acc = a + b;\n"
    "    if (acc.x == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = acc;\n"
    "}\n";

/* 8 independent FMA chains of $T (vec4, f16vec4, dvec4) */
static const char fma_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    $T f = $T(float(i & 255u) * 0.001);\n"
    "    $T mm = $T(m), cc = $T(c);\n"
    "    $T a0 = f + $T(0.0, 0.01, 0.02, 0.03);\n"
    "    $T a1 = a0 + $T(0.1), a2 = a0 + $T(0.2), a3 = a0 + $T(0.3);\n"
    "    $T a4 = a0 + $T(0.4), a5 = a0 + $T(0.5), a6 = a0 + $T(0.6);\n"
    "    $T a7 = a0 + $T(0.7);\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = fma(a0, mm, cc); a1 = fma(a1, mm, cc);\n"
    "        a2 = fma(a2, mm, cc); a3 = fma(a3, mm, cc);\n"
    "        a4 = fma(a4, mm, cc); a5 = fma(a5, mm, cc);\n"
    "        a6 = fma(a6, mm, cc); a7 = fma(a7, mm, cc);\n"
    "    }\n"
    "    d[i & 1023u] = vec4(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7);\n"
    "}\n";

static const char int_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    uvec4 a0 = uvec4(i, i + 1u, i + 2u, i + 3u);\n"
    "    uvec4 a1 = a0 + 11u, a2 = a0 + 23u, a3 = a0 + 37u;\n"
    "    uvec4 a4 = a0 + 41u, a5 = a0 + 53u, a6 = a0 + 67u, a7 = a0 + 79u;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = a0 * mask + n; a1 = a1 * mask + n; a2 = a2 * mask + n;\n"
    "        a3 = a3 * mask + n; a4 = a4 * mask + n; a5 = a5 * mask + n;\n"
    "        a6 = a6 * mask + n; a7 = a7 * mask + n;\n"
    "    }\n"
    "    d[i & 1023u] = vec4(a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7);\n"
    "}\n";

/* transcendental unit: 8 vec4 chains of 1/sqrt(a + c), one SFU op per
 * component per step */
static const char sfu_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 a0 = vec4(float(i & 255u) * 0.001 + 1.0) + vec4(0.0, 0.1, 0.2, 0.3);\n"
    "    vec4 a1 = a0 + 0.4, a2 = a0 + 0.8, a3 = a0 + 1.2;\n"
    "    vec4 a4 = a0 + 1.6, a5 = a0 + 2.0, a6 = a0 + 2.4, a7 = a0 + 2.8;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = inversesqrt(a0 + c); a1 = inversesqrt(a1 + c);\n"
    "        a2 = inversesqrt(a2 + c); a3 = inversesqrt(a3 + c);\n"
    "        a4 = inversesqrt(a4 + c); a5 = inversesqrt(a5 + c);\n"
    "        a6 = inversesqrt(a6 + c); a7 = inversesqrt(a7 + c);\n"
    "    }\n"
    "    d[i & 1023u] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;\n"
    "}\n";

/* issue rate: 8 independent scalar integer chains of xor + add, the
 * cheapest instructions there are; the evaluator counts what ran */
static const char issue_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { uint d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    uint a0 = i, a1 = i + 1u, a2 = i + 2u, a3 = i + 3u;\n"
    "    uint a4 = i + 4u, a5 = i + 5u, a6 = i + 6u, a7 = i + 7u;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = (a0 ^ mask) + n; a1 = (a1 ^ mask) + n;\n"
    "        a2 = (a2 ^ mask) + n; a3 = (a3 ^ mask) + n;\n"
    "        a4 = (a4 ^ mask) + n; a5 = (a5 ^ mask) + n;\n"
    "        a6 = (a6 ^ mask) + n; a7 = (a7 ^ mask) + n;\n"
    "    }\n"
    "    d[i & 4095u] = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;\n"
    "}\n";

/* lavapipe's instructions of no class (neither FP arithmetic, integer nor
 * special function): float compares, selects, negations and bit casts,
 * in vec4 chains */
static const char other_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 x = vec4(float(i & 255u)) + vec4(0.1, 0.2, 0.3, 0.4);\n"
    "    vec4 y = x * 0.5 + 1.0;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        bvec4 lt = lessThan(x, y);\n"
    "        x = mix(y, -x, lt);\n"
    "        y = uintBitsToFloat(floatBitsToUint(y) ^ uvec4(mask));\n"
    "        bvec4 gt = greaterThan(y, x);\n"
    "        y = mix(-y, x, gt);\n"
    "    }\n"
    "    d[i & 1023u] = x + y;\n"
    "}\n";

/* one dependent FMA chain: a loop trip per FMA (what lavapipe's chain
 * step is), one invocation or many */
static const char chain_glsl[] = HEAD(64)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float x = float(i) * 1e-6;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        x = fma(x, m, c);\n"
    "    d[i & 4095u] = x;\n"
    "}\n";

/* FMA latency: one invocation, 8 dependent FMAs per trip */
static const char fma_latency_glsl[] = HEAD(1)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    float x = float(gl_GlobalInvocationID.x) * 1e-6;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        x = fma(x, m, c); x = fma(x, m, c); x = fma(x, m, c);\n"
    "        x = fma(x, m, c); x = fma(x, m, c); x = fma(x, m, c);\n"
    "        x = fma(x, m, c); x = fma(x, m, c);\n"
    "    }\n"
    "    d[0] = x;\n"
    "}\n";

/* loop control: one dependent FMA a trip, the loop the only other work.
 * One invocation: the cycles a trip adds to the chain beyond the FMA's
 * latency (loop trip latency); many: the issue slots a trip takes beyond
 * its FMA (loop trip issue).  The trip count is a push constant, so the
 * compiler keeps the loop (it may unroll it partly: that is what it does
 * to any loop whose trip count it does not know) */
static const char loop1_glsl[] = HEAD(1)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    float x = float(gl_GlobalInvocationID.x) * 1e-6;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        x = fma(x, m, c);\n"
    "    d[0] = x;\n"
    "}\n";

static const char loop1_many_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    float x = float(gl_GlobalInvocationID.x) * 1e-6;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        x = fma(x, m, c);\n"
    "    if (x == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = x;\n"
    "}\n";

/* dependent pointer chase; binding 1 keeps the position */
static const char chase_glsl[] = HEAD(1)
    "layout(set = 0, binding = 0) readonly buffer C { uint next[]; };\n"
    "layout(set = 0, binding = 1) buffer Q { uint pos[]; };\n"
    "void main() {\n"
    "    uint j = pos[0];\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        j = next[j];\n"
    "    pos[0] = j;\n"
    "}\n";

static const char chase_shared_glsl[] = HEAD(64)
    "layout(set = 0, binding = 0) readonly buffer C { uint next[]; };\n"
    "layout(set = 0, binding = 1) buffer Q { uint pos[]; };\n"
    "shared uint s[1024];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    for (uint k = l; k < 1024u; k += 64u)\n"
    "        s[k] = next[k];\n"
    "    barrier();\n"
    "    if (l == 0u) {\n"
    "        uint j = pos[0] & 1023u;\n"
    "        for (uint k = 0u; k < iters; k++)\n"
    "            j = s[j];\n"
    "        pos[0] = j;\n"
    "    }\n"
    "}\n";

/* distinct-address global atomics: neighbouring lanes on neighbouring
 * words, every step on another word of a 4 MiB table */
static const char atomic_distinct_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) buffer A { uint a[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(a[(i + k * 65537u) & mask], 1u);\n"
    "}\n";

static const char atomic_all_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) buffer A { uint a[]; };\n"
    "void main() {\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(a[0], 1u);\n"
    "}\n";

static const char atomic_one_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) buffer A { uint a[]; };\n"
    "void main() {\n"
    "    bool leader = subgroupElect();\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        if (leader) atomicAdd(a[0], 1u);\n"
    "}\n";

static const char shared_atomic_distinct_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { uint d[]; };\n"
    "shared uint h[1024];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    for (uint k = 0u; k < 4u; k++) h[l + k * 256u] = 0u;\n"
    "    barrier();\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(h[(l + k * 256u) & 1023u], 1u);\n"
    "    barrier();\n"
    "    if (h[l] == 0xffffffffu) d[gl_GlobalInvocationID.x & 4095u] = h[l];\n"
    "}\n";

static const char shared_atomic_all_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { uint d[]; };\n"
    "shared uint h[1];\n"
    "void main() {\n"
    "    if (gl_LocalInvocationID.x == 0u) h[0] = 0u;\n"
    "    barrier();\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(h[0], (k & 3u) + 1u);\n"
    "    barrier();\n"
    "    if (h[0] == 0xffffffffu) d[gl_WorkGroupID.x & 4095u] = h[0];\n"
    "}\n";

static const char shared_atomic_one_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { uint d[]; };\n"
    "shared uint h[1];\n"
    "void main() {\n"
    "    if (gl_LocalInvocationID.x == 0u) h[0] = 0u;\n"
    "    barrier();\n"
    "    bool leader = subgroupElect();\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        if (leader) atomicAdd(h[0], (k & 3u) + 1u);\n"
    "    barrier();\n"
    "    if (h[0] == 0xffffffffu) d[gl_WorkGroupID.x & 4095u] = h[0];\n"
    "}\n";

/* global atomics from every lane on its own word of one 128-byte line:
 * the line's atomic unit is the only resource */
static const char atomic_line_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) buffer A { uint a[]; };\n"
    "void main() {\n"
    "    uint w = gl_LocalInvocationID.x & 31u;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(a[w], (k & 3u) + 1u);\n"
    "}\n";

/* the L2 atomic unit, one regime per row: lane l of every warp on word
 * w = (5 l) & mask (5 is odd: for mask 31 a permutation of the 32 words,
 * for mask 7 four lanes on each of 8 words), the words spread over
 * `stride` lines of one 1 KiB block; every warp on the same block */
static const char atomic_unit_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) buffer A { uint a[]; };\n"
    "void main() {\n"
    "    uint w = ((gl_LocalInvocationID.x & 31u) * 5u) & mask;\n"
    "    uint at = (w % stride) * 32u + w / stride;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(a[at], (k & 3u) + 1u);\n"
    "}\n";

/* isolated random 4-byte accesses far beyond the caches: what DRAM moves
 * per access (a sector? two? a read-modify-write for a store?); $T maps
 * the access number to a word: RANDOM_WORD hashes it, LINE_WORD puts
 * consecutive ones on consecutive 128-byte lines (a request's 32 sectors
 * over 4 KiB: two DRAM pages, shared as a stream shares them), so that
 * `dram sector reads` times what L2 fetches for one missed sector (a
 * sector, two, the line) with the page openings amortised */
#define RANDOM_WORD "* 2654435761u"
#define LINE_WORD "<< 5u"
static const char random_read_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { float s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float acc = 0.0;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        acc += s[((i + k * stride) $T) & mask];\n"
    "    if (acc == -1234.5678) d[i & 4095u] = acc;\n"
    "}\n";

/* a per-lane row walk: every invocation reads its own `stride` vec4s
 * (2 KiB: a DRAM page) one after another, the rows side by side over the
 * DRAM buffer, so a fetch block of each row is read every few trips while
 * all the other rows are walked at once (gen_rowpages.py's probe) */
static const char row_walk_glsl[] = HEAD(64)
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint base = gl_GlobalInvocationID.x * stride;\n"
    "    vec4 acc = vec4(0.0);\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        acc += s[(base + k) & (mask >> 2u)];\n"
    "    float r = (acc.x + acc.y) + (acc.z + acc.w);\n"
    "    if (r == -1234.5678) d[gl_GlobalInvocationID.x & 4095u] = r;\n"
    "}\n";

static const char random_write_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        d[((i + k * stride) * 2654435761u) & mask] = float(k);\n"
    "}\n";

/* lavapipe's barrier: a coroutine switch per invocation, in the shape of
 * the barriers real kernels have: a tree-reduction step (a divergent
 * update through workgroup memory, then the barrier), state live across */
static const char barrier_exchange_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "shared float t[256];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    t[l] = float(l);\n"
    "    barrier();\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint s = 128u >> (k & 7u);\n"
    "        if (l < s)\n"
    "            t[l] += t[l + s];\n"
    "        barrier();\n"
    "    }\n"
    "    if (t[l] == -1.0) d[gl_GlobalInvocationID.x & 4095u] = t[l];\n"
    "}\n";

static const char barrier_glsl[] = HEAD(256)
    "void main() {\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        barrier();\n"
    "}\n";

/* a dependent chain of subgroup reductions (the xor keeps a compiler from
 * turning a reduction of a uniform value into a multiply) */
static const char subgroup_glsl[] = HEAD(32)
    "layout(set = 0, binding = 0) writeonly buffer D { uint d[]; };\n"
    "void main() {\n"
    "    uint v = gl_SubgroupInvocationID;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        v = subgroupAdd(v) ^ gl_SubgroupInvocationID;\n"
    "    if (v == n) d[0] = v;\n"
    "}\n";

/* lavapipe's per-lane buffer / workgroup-memory access cost: four scalar
 * loads per trip from a cache-resident block */
static const char lane_storage_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) readonly buffer S { float s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { float d[]; };\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    float a = 0.0, b = 0.0, e = 0.0, f = 0.0;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint j = (l + k * 8u) & 4095u;\n"
    "        a += s[j]; b += s[j ^ 1u]; e += s[j ^ 2u]; f += s[j ^ 3u];\n"
    "    }\n"
    "    float acc = a + b + e + f;\n"
    "    if (acc == -1234.5678) d[gl_GlobalInvocationID.x & 4095u] = acc;\n"
    "}\n";

static const char lane_shared_glsl[] = HEAD(256)
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"
    "shared float t[4096];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    for (uint k = 0u; k < 16u; k++) t[l + k * 256u] = float(l + k);\n"
    "    barrier();\n"
    "    float a = 0.0, b = 0.0, e = 0.0, f = 0.0;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        uint j = (l + k * 8u) & 4095u;\n"
    "        a += t[j]; b += t[j ^ 1u]; e += t[j ^ 2u]; f += t[j ^ 3u];\n"
    "    }\n"
    "    float acc = a + b + e + f;\n"
    "    if (acc == -1234.5678) d[gl_GlobalInvocationID.x & 4095u] = acc;\n"
    "}\n";

/* a body that runs (a compare per invocation) and stores nothing: the
 * same kernel in 8- and 1024-wide workgroups separates a workgroup's
 * start from its subgroups' (llvmpipe runs them one after the other) */
#define RUN_ONLY_BODY                                                         \
    "layout(set = 0, binding = 0) writeonly buffer D { float d[]; };\n"      \
    "void main() {\n"                                                        \
    "    if (gl_GlobalInvocationID.x == n) d[0] = 1.0;\n"                    \
    "}\n"
static const char run_narrow_glsl[] = HEAD(8) RUN_ONLY_BODY;
static const char run_wide_glsl[] = HEAD(1024) RUN_ONLY_BODY;
static const char empty256_glsl[] = HEAD(256) "void main() {}\n";

#define B2(a, b) {CAL_BUF_##a, CAL_BUF_##b}
#define B1(a) {CAL_BUF_##a, CAL_BUF_NONE}
#define B0 {CAL_BUF_NONE, CAL_BUF_NONE}

static const cal_bench table[] = {
    /* memory bandwidths */
    {"dram copy", copy_glsl, 0, 0, 256, B2(SRC, DST), CAL_SHAPE_STREAM,
     {0, 0}, {4, 16}, {0, 0}, 0, 0, 0, CAL_PER_BYTE, 2, CAL_RATE,
     CAL_FIELD(dram_gbs), CAL_GPU_ONLY, "GB/s", "read + write, vec4, every byte once"},
    {"dram read", read_glsl, 0, 0, 256, B2(SRC, SMALL), CAL_SHAPE_STREAM,
     {0, 0}, {4, 16}, {0, 0}, 0, 0, 0, CAL_PER_BYTE, 1, CAL_RATE,
     CAL_FIELD(dram_read_gbs), CAL_GPU_ONLY, "GB/s", "vec4 loads"},
    {"dram write", write_glsl, 0, 0, 256, B1(DST), CAL_SHAPE_STREAM,
     {0, 0}, {4, 16}, {0, 0}, 0, 0, 0, CAL_PER_BYTE, 1, CAL_RATE,
     CAL_FIELD(dram_write_gbs), CAL_GPU_ONLY, "GB/s", "vec4 stores"},
    {"l2 read", cached_glsl, 0, 0, 256, B2(SRC, SMALL), CAL_SHAPE_FIXED,
     {2048, 64}, {256, 64}, {(4u << 20) / 16 - 1, (512u << 10) / 16 - 1}, 256,
     0, 0, CAL_PER_INVOCATION, 16, CAL_RATE, CAL_FIELD(l2_gbs), 0, "GB/s",
     "vec4 loads over a working set > L1, < L2 (4 MiB GPU, 512 KiB CPU)"},
    {"l2 sectors", sector_glsl, 0, 0, 256, B2(SRC, SMALL), CAL_SHAPE_FIXED,
     {2048, 64}, {64, 64}, {(4u << 20) / 4 - 1, (4u << 20) / 4 - 1}, 0, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_RATE, CAL_FIELD(l2_sector_gops), CAL_GPU_ONLY,
     "G sectors/s", "4-byte loads 32 B apart (a sector a lane) over 4 MiB"},
    {"l2 scattered lines", line_glsl, 0, 0, 256, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {8192, 64}, {16, 64},
     {(4u << 20) / 4 - 1, (4u << 20) / 4 - 1}, 1, 0, 0, CAL_PER_INVOCATION, 1,
     CAL_RATE, CAL_FIELD(l2_line_gops), 0, "G lines/s",
     "4-byte loads, every lane its own hashed line, over 4 MiB (L2)"},
    /* the translation reach: 32768 lines (4 MiB of L2) over 4 to 256 MiB
     * (2 MiB: 16384 lines), then runs of 256 KiB a 2 MiB apart; on a CPU
     * device 1024 lines (printed only: the CPU model has no L2 line term) */
#define TLB_ROW(name, lines, stride, q, i, what)                              \
    {name, tlb_glsl, 0, 0, 256, B2(SRC, SMALL), CAL_SHAPE_FIXED, {8192, 16},  \
     {16, 16}, {(lines) - 1, 1023}, stride, q, 0, CAL_PER_INVOCATION, 1,      \
     CAL_RATE, CAL_SCRATCH(tlb_lines_gops[i]), 0, "G lines/s", what}
    TLB_ROW("tlb span 2m", 16384, 1, 0, 0, "16384 hashed lines, a lane each, over 2 MiB"),
    TLB_ROW("tlb span 4m", 32768, 1, 0, 1, "32768 hashed lines (4 MiB of L2) over 4 MiB"),
    TLB_ROW("tlb span 8m", 32768, 2, 0, 2, "the same lines, one in 2, over 8 MiB"),
    TLB_ROW("tlb span 12m", 32768, 3, 0, 3, "the same lines, one in 3, over 12 MiB"),
    TLB_ROW("tlb span 16m", 32768, 4, 0, 4, "the same lines, one in 4, over 16 MiB"),
    TLB_ROW("tlb span 24m", 32768, 6, 0, 5, "the same lines, one in 6, over 24 MiB"),
    TLB_ROW("tlb span 32m", 32768, 8, 0, 6, "the same lines, one in 8, over 32 MiB"),
    TLB_ROW("tlb span 64m", 32768, 16, 0, 7, "the same lines, one in 16, over 64 MiB"),
    TLB_ROW("tlb span 128m", 32768, 32, 0, 8, "the same lines, one in 32, over 128 MiB"),
    TLB_ROW("tlb span 256m", 32768, 64, 0, 9, "the same lines, one in 64, over 256 MiB (> L2)"),
    TLB_ROW("tlb 256k per 2m", 16384, 16384, 11, CAL_TLB_CLUSTER,
            "16384 lines in runs of 256 KiB at the start of every 2 MiB, over 16 MiB"),
#undef TLB_ROW
    {"l2 partial writes", partial_glsl, 0, 0, 256, B1(SRC), CAL_SHAPE_FIXED,
     {2048, 64}, {64, 64}, {(4u << 20) / 4 - 1, (4u << 20) / 4 - 1}, 0, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_RATE, CAL_FIELD(l2_partial_write_gops), CAL_GPU_ONLY,
     "G stores/s", "4-byte stores 32 B apart (part of a sector a lane) over 4 MiB"},
    {"l2 partial stream", partial_stream_glsl, 0, 0, 256, B1(DST),
     CAL_SHAPE_FIXED, {2048, 64}, {256, 64}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     0, 0, 0, CAL_PER_INVOCATION, 1, CAL_RATE,
     CAL_FIELD(l2_partial_stream_gops), CAL_GPU_ONLY, "G stores/s",
     "4-byte stores a line apart, each line assembled from 32 of them, >> L2"},
    {"l1 read", cached_glsl, 0, 0, 256, B2(SRC, SMALL), CAL_SHAPE_FIXED,
     {2048, 64}, {1024, 64}, {1023, 1023}, 0, 0, 0, CAL_PER_INVOCATION, 16,
     CAL_RATE, CAL_FIELD(l1_gbs), 0, "GB/s",
     "vec4 loads, every workgroup re-reads one 16 KiB block"},
    {"l1 row lines", row_lines_glsl, 0, 0, 256, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {2048, 64}, {1024, 64}, {16383, 16383}, 32, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_RATE, CAL_FIELD(l1_row_lines_gops), 0,
     "G lines/s", "a lane walks its own row, lanes 128 B apart (one offset), L1-resident"},
    {"l1 spread lines", row_lines_glsl, 0, 0, 256, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {2048, 64}, {1024, 64}, {16383, 16383}, 33, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_RATE, CAL_FIELD(l1_spread_lines_gops), 0,
     "G lines/s", "the same, lanes 132 B apart (32 offsets in the line)"},
    /* adjacent scalar accesses merged by the compiler (derive_merge) */
    {"merge buffer scalar", merge_buf_s4_glsl, 0, 0, 256, B1(DST),
     CAL_SHAPE_FIXED, {2048, 64}, {64, 16}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     0, 0, 0, CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(merge_buf_s4_ns), 0,
     "ns/trip", "4 adjacent aligned scalar stores a lane, lanes 16 B apart, >> L2"},
    {"merge buffer vec4", merge_buf_v4_glsl, 0, 0, 256, B1(DST),
     CAL_SHAPE_FIXED, {2048, 64}, {64, 16}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     0, 0, 0, CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(merge_buf_v4_ns), 0,
     "ns/trip", "the same bytes as one vec4 store a lane"},
    {"merge shared scalar", merge_sh_s4_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {2048, 64}, {512, 16}, {0, 0}, 0, 0, -1,
     CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(merge_sh_s4_ns), 0, "ns/trip",
     "4 adjacent aligned scalar workgroup loads a lane, lanes 16 B apart"},
    {"merge shared vec4", merge_sh_v4_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {2048, 64}, {512, 16}, {0, 0}, 0, 0, -1,
     CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(merge_sh_v4_ns), 0, "ns/trip",
     "the same bytes as one vec4 workgroup load a lane"},
    {"shared read", shared_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED,
     {2048, 64}, {1024, 64}, {0, 0}, 0, 0, 0, CAL_PER_INVOCATION, 16,
     CAL_RATE, CAL_FIELD(shared_gbs), 0, "GB/s",
     "vec4 workgroup-memory loads, conflict-free"},
    /* memory latencies: one invocation, dependent loads */
    {"dram latency", chase_glsl, 0, 0, 1, B2(CHASE_DRAM, POS),
     CAL_SHAPE_FIXED, {1, 1}, {20000, 20000}, {0, 0}, 0, 0, 0,
     CAL_PER_DISPATCH, 1, CAL_NS, CAL_FIELD(mem_latency_ns), 0, "ns",
     "pointer chase, 512 B apart over 1 GiB, a 2 MiB page at a time"},
    {"l2 latency", chase_glsl, 0, 0, 1, B2(CHASE_L2, POS), CAL_SHAPE_FIXED,
     {1, 1}, {50000, 50000}, {0, 0}, 0, 0, 0, CAL_PER_DISPATCH, 1, CAL_NS,
     CAL_FIELD(l2_latency_ns), 0, "ns", "pointer chase, 128 B apart over 8 MiB"},
    {"l1 latency", chase_glsl, 0, 0, 1, B2(CHASE_L1, POS), CAL_SHAPE_FIXED,
     {1, 1}, {60000, 60000}, {0, 0}, 0, 0, 0, CAL_PER_DISPATCH, 1, CAL_NS,
     CAL_FIELD(l1_latency_ns), 0, "ns", "pointer chase, 128 B apart over 8 KiB"},
    {"shared latency", chase_shared_glsl, 0, 0, 64, B2(CHASE_SHARED, POS),
     CAL_SHAPE_FIXED, {1, 1}, {60000, 60000}, {0, 0}, 0, 0, 0,
     CAL_PER_DISPATCH, 1, CAL_NS, CAL_FIELD(shared_latency_ns), 0, "ns",
     "pointer chase in workgroup memory"},
    /* arithmetic */
    {"fp32", fma_glsl, "vec4", "", 256, B1(SMALL), CAL_SHAPE_FIXED,
     {1024, 16}, {1024, 256}, {0, 0}, 0, 0.9999f, 0.0001f,
     CAL_PER_INVOCATION, 64, CAL_RATE, CAL_FIELD(fp32_gflops), 0, "GFLOP/s",
     "8 independent vec4 FMA chains (FMA = 2 FLOPs)"},
    {"fp16", fma_glsl, "f16vec4", F16_EXT, 256, B1(SMALL), CAL_SHAPE_FIXED,
     {1024, 16}, {1024, 256}, {0, 0}, 0, 0.9999f, 0.0001f,
     CAL_PER_INVOCATION, 64, CAL_RATE, CAL_FIELD(fp16_gflops), CAL_NEED_FP16,
     "GFLOP/s", "the same in FP16"},
    {"fp64", fma_glsl, "dvec4", "", 256, B1(SMALL), CAL_SHAPE_FIXED,
     {1024, 16}, {1024, 256}, {0, 0}, 0, 0.9999f, 0.0001f,
     CAL_PER_INVOCATION, 64, CAL_RATE, CAL_FIELD(fp64_gflops), CAL_NEED_FP64,
     "GFLOP/s", "the same in FP64"},
    {"int32", int_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED, {1024, 16},
     {1024, 256}, {1664525u, 1664525u}, 0, 0, 0, CAL_PER_INVOCATION, 64,
     CAL_RATE, CAL_FIELD(int32_gops), 0, "GOP/s",
     "8 uvec4 multiply-add chains (2 ops a step)"},
    {"sfu", sfu_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED, {1024, 16},
     {256, 64}, {0, 0}, 0, 1.0f, 0.25f, CAL_PER_INVOCATION, 32, CAL_RATE,
     CAL_FIELD(sfu_gops), 0, "GOP/s", "8 vec4 inversesqrt chains"},
    {"issue", issue_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED, {1024, 16},
     {1024, 256}, {0x9e3779b9u, 0x9e3779b9u}, 0, 0, 0, CAL_PER_INVOCATION, 0,
     CAL_ISSUE, CAL_FIELD(issue_glanes), CAL_GPU_ONLY, "G lane-instr/s",
     "8 scalar xor + add chains, counted instructions / time"},
    {"fp latency", fma_latency_glsl, 0, 0, 1, B1(SMALL), CAL_SHAPE_FIXED,
     {1, 1}, {8192, 8192}, {0, 0}, 0, 0.9999f, 0.0001f, CAL_PER_DISPATCH, 8,
     CAL_CYCLES, CAL_FIELD(fp_latency_cycles), 0, "cycles",
     "one invocation, one dependent FMA chain"},
    {"loop trip latency", loop1_glsl, 0, 0, 1, B1(SMALL), CAL_SHAPE_FIXED,
     {1, 1}, {32768, 8192}, {0, 0}, 0, 0.9999f, 0.0001f, CAL_PER_DISPATCH, 1,
     CAL_TRIP_CYCLES, CAL_FIELD(loop_trip_cycles), CAL_GPU_ONLY, "cycles",
     "one invocation, one dependent FMA a trip: cycles a trip adds beyond "
     "the FMA latency"},
    {"loop trip issue", loop1_many_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED,
     {1024, 16}, {16384, 256}, {0, 0}, 0, 0.9999f, 0.0001f,
     CAL_PER_INVOCATION, 1, CAL_TRIP_SLOTS, CAL_FIELD(loop_trip_slots),
     CAL_GPU_ONLY, "slots/trip",
     "many invocations, one dependent FMA a trip: FP32-FMA issue slots a "
     "trip takes beyond its FMA"},
    /* atomics */
    {"atomics", atomic_distinct_glsl, 0, 0, 256, B1(TABLE), CAL_SHAPE_FIXED,
     {1024, 16}, {256, 16}, {(1u << 20) - 1, (1u << 20) - 1}, 0, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_RATE, CAL_FIELD(atomic_gops), 0, "GOP/s",
     "global atomicAdd, every lane its own word of a 4 MiB table"},
    {"atomic one/subgroup", atomic_one_glsl, 0, SUBGROUP_EXT, 256,
     B1(COUNTER), CAL_SHAPE_FIXED, {1024, 16}, {16, 16}, {0, 0}, 0, 0, 0,
     CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(atomic_one_ns),
     CAL_NEED_SUBGROUP, "ns/request",
     "one lane per subgroup, one address, all workgroups"},
    {"atomic same", atomic_all_glsl, 0, 0, 256, B1(COUNTER), CAL_SHAPE_FIXED,
     {1024, 16}, {16, 16}, {0, 0}, 0, 0, 0, CAL_PER_INVOCATION, 1, CAL_NS,
     CAL_SCRATCH(atomic_all_ns), 0, "ns/lane",
     "every lane on one address"},
    {"shared atomics", shared_atomic_distinct_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {2048, 16}, {1024, 64}, {0, 0}, 0, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_RATE, CAL_FIELD(atomic_shared_gops), 0,
     "GOP/s", "workgroup-memory atomicAdd, every lane its own word"},
    {"shared atomic one", shared_atomic_one_glsl, 0, SUBGROUP_EXT, 256,
     B1(SMALL), CAL_SHAPE_UNITS, {0, 0}, {16384, 256}, {0, 0}, 0, 0, 0,
     CAL_PER_UNIT_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(shared_one_ns),
     CAL_NEED_SUBGROUP, "ns/request",
     "one workgroup per unit, one lane per subgroup on one shared word"},
    {"shared atomic same", shared_atomic_all_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_UNITS, {0, 0}, {16384, 64}, {0, 0}, 0, 0, 0, CAL_PER_UNIT_LANE,
     1, CAL_NS, CAL_SCRATCH(shared_all_ns), 0, "ns/lane",
     "one workgroup per unit, every lane on one shared word"},
    {"atomic line", atomic_line_glsl, 0, 0, 256, B1(COUNTER),
     CAL_SHAPE_FIXED, {1024, 16}, {16, 16}, {0, 0}, 0, 0, 0,
     CAL_PER_INVOCATION, 1, CAL_NS, CAL_FIELD(atomic_line_ns), 0, "ns/atomic",
     "every lane its own word of one 128-byte line, all workgroups"},
    /* the L2 atomic unit: three rows, three costs (derive_atomic_unit) */
    {"atomic words 1 line", atomic_unit_glsl, 0, 0, 256, B1(TABLE),
     CAL_SHAPE_FIXED, {1024, 16}, {16, 16}, {31, 31}, 1, 0, 0,
     CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(atomic_words1_ns), CAL_GPU_ONLY,
     "ns/instr", "32 lanes on 32 distinct words of one line (permuted, "
     "no collisions), every warp on that line"},
    {"atomic words 8 lines", atomic_unit_glsl, 0, 0, 256, B1(TABLE),
     CAL_SHAPE_FIXED, {1024, 16}, {16, 16}, {31, 31}, 8, 0, 0,
     CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(atomic_words8_ns), CAL_GPU_ONLY,
     "ns/instr", "the same 32 distinct words over 8 lines of one 1 KiB "
     "block"},
    {"atomic collide words", atomic_unit_glsl, 0, 0, 256, B1(TABLE),
     CAL_SHAPE_FIXED, {1024, 16}, {16, 16}, {7, 7}, 1, 0, 0,
     CAL_PER_SUBGROUP, 1, CAL_NS, CAL_SCRATCH(atomic_collide_instr_ns),
     CAL_GPU_ONLY, "ns/instr", "32 lanes on 8 words of one line (4 lanes "
     "a word), every warp on that line"},
    /* what DRAM moves per isolated access (after the bandwidths above) */
    {"dram random read", random_read_glsl, RANDOM_WORD, 0, 256, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {4096, 64}, {16, 16}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     1048576, 0, 0, CAL_PER_INVOCATION, 1, CAL_DRAM_BYTES,
     CAL_FIELD(dram_random_read_bytes), CAL_GPU_ONLY, "bytes",
     "4-byte reads at hashed addresses over the DRAM buffer"},
    {"dram sector reads", random_read_glsl, LINE_WORD, 0, 256, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {4096, 64}, {4, 4}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     1048576, 0, 0, CAL_PER_INVOCATION, 1, CAL_FETCH_BYTES,
     CAL_FIELD(l2_fetch_bytes), 0, "bytes",
     "4-byte reads a 128-B line apart, consecutive lines, over the DRAM "
     "buffer: the block L2 fetches per missed sector"},
    /* after `dram sector reads`: its fetch block */
    {"dram row walk", row_walk_glsl, 0, 0, 64, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {4096, 128}, {128, 128}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     128, 0, 0, CAL_PER_INVOCATION, 1, CAL_WALK_BYTES,
     CAL_FIELD(dram_walk_fetch_bytes), 0, "bytes",
     "every lane its own 2 KiB row by vec4 loads, the rows side by side over "
     "the DRAM buffer: read time per fetch block"},
    {"dram page", random_read_glsl, RANDOM_WORD, 0, 256, B2(SRC, SMALL),
     CAL_SHAPE_FIXED, {4096, 64}, {16, 16}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     1048576, 0, 0, CAL_PER_INVOCATION, 1, CAL_DRAM_PAGE,
     CAL_FIELD(dram_page_ns), CAL_GPU_ONLY, "ns",
     "one sector per lane at hashed addresses: time beyond the sectors at "
     "dram_gbs, per sector"},
    {"dram random write", random_write_glsl, 0, 0, 256, B1(DST),
     CAL_SHAPE_FIXED, {4096, 64}, {16, 16}, {CAL_MASK_DRAM, CAL_MASK_DRAM},
     1048576, 0, 0, CAL_PER_INVOCATION, 1, CAL_DRAM_BYTES,
     CAL_FIELD(dram_random_write_bytes), CAL_GPU_ONLY, "bytes",
     "4-byte stores at hashed addresses over the DRAM buffer"},
    {"group start", empty256_glsl, 0, 0, 256, B0, CAL_SHAPE_FIXED,
     {262144, 4096}, {1, 1}, {0, 0}, 0, 0, 0, CAL_PER_GROUP, 1, CAL_NS,
     CAL_FIELD(group_start_ns), CAL_GPU_ONLY, "ns/group",
     "an empty kernel of 262144 workgroups of 256: device time per workgroup"},
    /* synchronisation */
    {"barrier", barrier_glsl, 0, 0, 256, B0, CAL_SHAPE_FIXED, {1, 1},
     {20000, 2000}, {0, 0}, 0, 0, 0, CAL_PER_DISPATCH, 1, CAL_NS,
     CAL_FIELD(barrier_ns), CAL_GPU_ONLY, "ns",
     "one workgroup of 256, a loop of barrier()"},
    {"subgroup op", subgroup_glsl, 0, SUBGROUP_EXT, 32, B1(SMALL),
     CAL_SHAPE_FIXED, {1, 1}, {20000, 20000}, {0, 0}, 0, 0, 0,
     CAL_PER_DISPATCH, 1, CAL_NS, CAL_FIELD(subgroup_op_ns),
     CAL_NEED_SUBGROUP, "ns", "one subgroup, dependent subgroupAdd chain"},
    /* lavapipe's generated-code costs, per instruction class */
    {"cpu int instruction", issue_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {0, 16}, {0, 512}, {0x9e3779b9u, 0x9e3779b9u}, 0, 0, 0,
     CAL_PER_INVOCATION, 0, CAL_CPU_CLASS,
     CAL_FIELD(cpu_cycles_per_int_instruction), CAL_CPU_ONLY, "cycles",
     "integer xor + add chains: core cycles per counted instruction"},
    {"cpu fp instruction", fma_glsl, "vec4", "", 256, B1(SMALL),
     CAL_SHAPE_FIXED, {0, 16}, {0, 128}, {0, 0}, 0, 0.9999f, 0.0001f,
     CAL_PER_INVOCATION, 0, CAL_CPU_CLASS,
     CAL_FIELD(cpu_cycles_per_fp_instruction), CAL_CPU_ONLY, "cycles",
     "8 vec4 FMA chains: core cycles per counted instruction"},
    {"cpu sfu instruction", sfu_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED,
     {0, 16}, {0, 32}, {0, 0}, 0, 1.0f, 0.25f, CAL_PER_INVOCATION, 0,
     CAL_CPU_CLASS, CAL_FIELD(cpu_cycles_per_sfu_instruction), CAL_CPU_ONLY,
     "cycles", "8 vec4 inversesqrt chains: core cycles per counted "
     "instruction"},
    {"cpu instruction", other_glsl, 0, 0, 256, B1(SMALL), CAL_SHAPE_FIXED,
     {0, 16}, {0, 256}, {0x80000000u, 0x80000000u}, 0, 0, 0,
     CAL_PER_INVOCATION, 0, CAL_CPU_CLASS,
     CAL_FIELD(cpu_cycles_per_instruction), CAL_CPU_ONLY, "cycles",
     "compares, selects, negations, bit casts: core cycles per counted "
     "instruction (the four class rows are then solved together)"},
    {"cpu buffer lane", lane_storage_glsl, 0, 0, 256, B2(SMALL, SMALL),
     CAL_SHAPE_FIXED, {0, 16}, {0, 128}, {0, 0}, 0, 0, 0, CAL_PER_INVOCATION,
     0, CAL_CPU_STORAGE, CAL_FIELD(cpu_cycles_per_storage_lane),
     CAL_CPU_ONLY, "cycles", "core cycles per 4-byte buffer lane access"},
    {"cpu shared lane", lane_shared_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {0, 16}, {0, 128}, {0, 0}, 0, 0, 0, CAL_PER_INVOCATION,
     0, CAL_CPU_SHARED, CAL_FIELD(cpu_cycles_per_shared_lane), CAL_CPU_ONLY,
     "cycles", "core cycles per 4-byte workgroup-memory lane access"},
    {"cpu barrier", barrier_exchange_glsl, 0, 0, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {0, 16}, {0, 128}, {0, 0}, 0, 0, 0, CAL_PER_INVOCATION,
     0, CAL_CPU_BARRIER, CAL_FIELD(cpu_ns_per_barrier_lane), CAL_CPU_ONLY,
     "ns", "ns per barrier per invocation (coroutine switch) in a "
     "tree-reduction loop"},
    {"cpu chain step", chain_glsl, 0, 0, 64, B1(SMALL), CAL_SHAPE_FIXED,
     {0, 64}, {0, 512}, {0, 0}, 0, 0.9999f, 0.0001f, CAL_PER_INVOCATION, 0,
     CAL_CPU_CHAIN, CAL_FIELD(cpu_cycles_per_chain_step), CAL_CPU_ONLY,
     "cycles", "core cycles per dependent FMA loop trip of one vector"},
    {"cpu fp16", fma_glsl, "f16vec4", F16_EXT, 256, B1(SMALL),
     CAL_SHAPE_FIXED, {0, 16}, {0, 64}, {0, 0}, 0, 0.9999f, 0.0001f,
     CAL_PER_INVOCATION, 0, CAL_CPU_FP16,
     CAL_FIELD(cpu_fp16_conversions_per_flop), CAL_CPU_ONLY | CAL_NEED_FP16,
     "conversions", "FP32 conversions per FP16 FLOP (no FP16 vector ALU)"},
    {"cpu workgroup", run_narrow_glsl, 0, 0, 8, B1(SMALL), CAL_SHAPE_FIXED,
     {0, 16384}, {0, 1}, {0, 0}, 0, 0, 0, CAL_PER_GROUP, 1, CAL_CPU_GROUP,
     CAL_FIELD(cpu_ns_per_group), CAL_CPU_ONLY, "ns",
     "ns per workgroup of 8 invocations, one compare each (its start and "
     "its subgroup)"},
    {"cpu subgroup", run_wide_glsl, 0, 0, 1024, B1(SMALL), CAL_SHAPE_FIXED,
     {0, 1024}, {0, 1}, {0, 0}, 0, 0, 0, CAL_PER_SUBGROUP, 1,
     CAL_CPU_SUBGROUP, CAL_FIELD(cpu_cycles_per_subgroup), CAL_CPU_ONLY,
     "cycles", "core cycles per subgroup: the same kernel, 1024 wide"},
};

int cal_atomic_unit_costs(double t1, double t8, double tc, double *request,
                          double *word, double *collide)
{
    *request = *word = *collide = -1;
    if (!(t1 > 0 && t8 > 0))
        return -1;
    int rc = 0;
    double req = (t8 - t1) / 7;
    if (!(req > 0)) {
        req = 0;
        rc |= 1;
    }
    *request = req;
    if (t1 > req)
        *word = (t1 - req) / 32;
    if (tc > req)
        *collide = (tc - req) / 8;
    return rc;
}

double cal_walk_fetch_bytes(double t, double read_gbs, double loads16,
                            double fetch)
{
    if (!(t > 0) || !(read_gbs > 0) || !(loads16 > 0) || !(fetch > 0))
        return -1;
    return t * read_gbs * 1e9 / (loads16 * 16 / fetch);
}

double cal_fetch_bytes(double bytes, uint32_t sector, uint32_t line)
{
    if (!(bytes > 0) || !sector || !line || sector > line ||
        (sector & (sector - 1)) || (line & (line - 1)))
        return -1;
    uint32_t f = sector;
    while (f < line && 2.0 * f <= 1.1 * bytes)
        f *= 2;
    return f;
}

const cal_bench *cal_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

const cal_bench *cal_row_find(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

/* The row's GLSL with $T and $E replaced. */
static char *row_source(const cal_bench *b)
{
    const char *t = b->type ? b->type : "";
    const char *e = b->ext ? b->ext : "";
    size_t n = 1;
    for (const char *p = b->glsl; *p; p++)
        n += (p[0] == '$' && (p[1] == 'T' || p[1] == 'E'))
                 ? strlen(p[1] == 'T' ? t : e) + 1
                 : 1;
    char *s = xmalloc(n), *o = s;
    for (const char *p = b->glsl; *p; p++) {
        if (p[0] == '$' && (p[1] == 'T' || p[1] == 'E')) {
            const char *r = p[1] == 'T' ? t : e;
            size_t l = strlen(r);
            memcpy(o, r, l);
            o += l;
            p++;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    return s;
}

int cal_row_compile(const cal_bench *b, shader_module *m, cw_error *err)
{
    memset(m, 0, sizeof *m);
    char path[96];
    snprintf(path, sizeof path, "<calibrate:%s>", b->name);
    char *src = row_source(b);
    int rc = shader_compile_glsl(path, src, strlen(src), m, err);
    free(src);
    return rc ? CW_STATUS_ENV : 0;
}
