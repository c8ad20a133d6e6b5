/* test_spirv.c - the SPIR-V reader: hostile inputs (a table of hand-built
 * modules, each tagged with __LINE__), either endianness, and real modules
 * compiled from GLSL (types, decorations, spec folding, local size, CFG). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>

#include "shader.h"
#include "spirv.h"

/* ---- hand-built modules ---- */

#define MAGIC 0x07230203u
#define OP(wc, op) (((uint32_t)(wc) << 16) | (uint32_t)(op))
#define HDR(bound) MAGIC, 0x00010000u, 0u, (bound), 0u
#define CAPS OP(2, SpvOpCapability), SpvCapabilityShader, \
             OP(3, SpvOpMemoryModel), SpvAddressingModelLogical, SpvMemoryModelGLSL450
/* %1 void, %2 fn void(), %3 bool, %4 true */
#define TYPES OP(2, SpvOpTypeVoid), 1, OP(3, SpvOpTypeFunction), 2, 1, \
              OP(2, SpvOpTypeBool), 3, OP(3, SpvOpConstantTrue), 3, 4
#define FUNC(id) OP(5, SpvOpFunction), 1, (id), 0, 2
#define LABEL(id) OP(2, SpvOpLabel), (id)
#define BR(id) OP(2, SpvOpBranch), (id)
#define BRC(c, t, f) OP(4, SpvOpBranchConditional), (c), (t), (f)
#define RET OP(1, SpvOpReturn)
#define FEND OP(1, SpvOpFunctionEnd)

typedef struct bad_case {
    int line;
    const uint32_t *w;
    size_t n;
    const char *expect; /* substring of the error text */
} bad_case;

#define CASE(expect, ...)                                                   \
    {__LINE__, (const uint32_t[]){__VA_ARGS__},                             \
     sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t), expect}

static const bad_case bad_cases[] = {
    CASE("shorter than its 5-word header", MAGIC, 0x00010000u),
    CASE("magic number", 0x12345678u, 0x00010000u, 0, 10, 0),
    CASE("word count of 0", HDR(10), CAPS, 0x00000011u),
    CASE("running past the end", HDR(10), CAPS, OP(9, SpvOpCapability), 1),
    CASE("out of range", HDR(5), CAPS, OP(2, SpvOpTypeVoid), 5),
    CASE("out of range", HDR(5), CAPS, OP(2, SpvOpTypeVoid), 0),
    CASE("id bound 0", HDR(0), CAPS),
    CASE("absurd", HDR(0x7fffffffu), CAPS),
    CASE("redefines", HDR(10), CAPS, OP(2, SpvOpTypeVoid), 1, OP(2, SpvOpTypeBool), 1),
    CASE("unknown opcode", HDR(10), CAPS, OP(1, 0xfff0)),
    CASE("no terminating NUL", HDR(10), CAPS, OP(3, SpvOpString), 1, 0x41414141u),
    CASE("not a type declared before it", HDR(10), CAPS,
         OP(3, SpvOpTypeStruct), 5, 5), /* a struct containing itself */
    CASE("not a type declared before it", HDR(10), CAPS,
         OP(4, SpvOpTypeInt), 5, 32, 0, OP(4, SpvOpTypeStruct), 6, 5, 7,
         OP(3, SpvOpTypeStruct), 7, 6), /* two structs containing each other */
    CASE("width", HDR(10), CAPS, OP(4, SpvOpTypeInt), 1, 7, 0),
    CASE("module ends inside a function", HDR(10), CAPS, TYPES, FUNC(5), LABEL(6), RET),
    CASE("outside a block", HDR(10), CAPS, TYPES, FUNC(5), RET, FEND),
    CASE("missing terminator", HDR(10), CAPS, TYPES, FUNC(5), LABEL(6), FEND),
    CASE("not a block of the same function", HDR(10), CAPS, TYPES, FUNC(5), LABEL(6), BR(4),
         FEND),
    CASE("irreducible", HDR(10), CAPS, TYPES, FUNC(5), LABEL(6), BRC(4, 7, 8), LABEL(7), BR(8),
         LABEL(8), BR(7), FEND),
    CASE("recursive", HDR(10), CAPS, TYPES, FUNC(5), LABEL(6),
         OP(4, SpvOpFunctionCall), 1, 7, 5, RET, FEND),
    CASE("too short", HDR(10), CAPS, OP(1, SpvOpTypeVoid)),
    CASE("has 1 operand words", HDR(10), CAPS, OP(3, SpvOpTypeInt), 1, 32),
    CASE("not a pointer", HDR(10), CAPS, OP(2, SpvOpTypeVoid), 1,
         OP(4, SpvOpVariable), 1, 2, SpvStorageClassPrivate),
    CASE("not a type", HDR(10), CAPS, OP(4, SpvOpTypePointer), 1, SpvStorageClassPrivate, 7),
    CASE("merge", HDR(10), CAPS, TYPES, FUNC(5), LABEL(6), OP(3, SpvOpSelectionMerge), 7, 0,
         OP(1, SpvOpNop), BR(7), LABEL(7), RET, FEND),
    CASE("OpFunctionEnd without OpFunction", HDR(10), CAPS, FEND),
    CASE("never declared as a pointer", HDR(10), CAPS,
         OP(3, SpvOpTypeForwardPointer), 5, SpvStorageClassPhysicalStorageBuffer,
         OP(4, SpvOpTypeInt), 2, 32, 0, OP(4, SpvOpTypeStruct), 6, 2, 5),
    CASE("not a constant declared before it", HDR(10), CAPS, OP(4, SpvOpTypeInt), 1, 32, 0,
         OP(4, SpvOpTypeArray), 2, 1, 9),
};

static void test_hostile_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        spv_module m;
        cw_error err;
        memset(&err, 0, sizeof err);
        int rc = spv_parse(c->w, c->n, &m, &err);
        if (rc == 0 || !strstr(err.text, c->expect)) {
            fprintf(stderr, "test_spirv.c:%d: expected failure containing '%s', got rc=%d '%s'\n",
                    c->line, c->expect, rc, err.text);
            if (rc == 0)
                spv_free(&m);
            fail();
        }
        /* every prefix of the case is rejected or parsed, never crashes */
        for (size_t n = 0; n < c->n; n++) {
            spv_module m2;
            if (spv_parse(c->w, n, &m2, &err) == 0)
                spv_free(&m2);
        }
    }
}

static const uint32_t good_cfg[] = {
    HDR(12), CAPS, TYPES,
    OP(5, SpvOpEntryPoint), SpvExecutionModelGLCompute, 5, 0x6e69616du, 0,
    FUNC(5), LABEL(6), OP(4, SpvOpLoopMerge), 8, 9, 0, BR(7),
    LABEL(7), BRC(4, 9, 8),
    LABEL(9), BR(6),   /* continue -> header: a back edge */
    LABEL(8), RET,
    LABEL(10), RET,    /* unreachable: tolerated */
    FEND,
};

static void test_cfg(void **state)
{
    (void)state;
    spv_module m;
    cw_error err;
    uint32_t w[sizeof good_cfg / 4];
    memcpy(w, good_cfg, sizeof w);
    assert_int_equal(spv_parse(w, sizeof w / 4, &m, &err), 0);
    assert_int_equal(m.nfuncs, 1);
    assert_int_equal(m.nblocks, 5);
    const spv_entry *e = spv_entry_find(&m, "main");
    assert_non_null(e);
    assert_int_equal(e->local_size[0], 1); /* no LocalSize: 1x1x1 */
    uint32_t b6 = spv_block_of_label(&m, 6), b7 = spv_block_of_label(&m, 7);
    uint32_t b8 = spv_block_of_label(&m, 8), b9 = spv_block_of_label(&m, 9);
    uint32_t b10 = spv_block_of_label(&m, 10);
    assert_int_equal(m.blocks[b6].merge, SPV_MERGE_LOOP);
    assert_int_equal(m.blocks[b6].merge_block, b8);
    assert_int_equal(m.blocks[b6].continue_block, b9);
    assert_int_equal(m.blocks[b7].idom, b6);
    assert_int_equal(m.blocks[b9].idom, b7);
    assert_int_equal(m.blocks[b8].idom, b7);
    assert_int_equal(m.blocks[b7].loop_header, b6);
    assert_int_equal(m.blocks[b9].loop_header, b6);
    assert_int_equal(m.blocks[b8].loop_header, SPV_NONE);
    assert_int_equal(m.blocks[b10].reachable, 0);
    assert_int_equal(m.blocks[b7].nsucc, 2);
    assert_int_equal(m.blocks[b7].succ[0], b9);
    assert_int_equal(m.funcs[0].nrpo, 4);
    spv_free(&m);

    /* the same module byte-swapped parses the same */
    uint32_t s[sizeof w / 4];
    for (size_t i = 0; i < sizeof w / 4; i++)
        s[i] = __builtin_bswap32(w[i]);
    assert_int_equal(spv_parse(s, sizeof s / 4, &m, &err), 0);
    assert_int_equal(m.swapped, 1);
    assert_int_equal(m.nblocks, 5);
    assert_non_null(spv_entry_find(&m, "main"));
    spv_free(&m);
}

/* ---- modules from GLSL ---- */

static int compile(const char *src, shader_module *sm)
{
    cw_error err;
    memset(&err, 0, sizeof err);
    if (shader_compile_glsl("t.comp", src, strlen(src), sm, &err)) {
        fprintf(stderr, "compile failed: %s\n", err.text);
        return -1;
    }
    return 0;
}

/* A module compiled from GLSL and read back; glsl_open fails the test on
 * an error and returns the module. */
typedef struct glsl_module {
    shader_module sm;
    spv_module m;
} glsl_module;

static spv_module *glsl_open(glsl_module *g, const char *src)
{
    cw_error err;
    assert_int_equal(compile(src, &g->sm), 0);
    assert_int_equal(spv_parse(g->sm.words, g->sm.nwords, &g->m, &err), 0);
    return &g->m;
}

static void glsl_close(glsl_module *g)
{
    spv_free(&g->m);
    shader_free(&g->sm);
}

static const char *spec_src =
    "#version 450\n"
    "layout(constant_id = 0) const uint N = 64;\n"
    "layout(constant_id = 3) const int K = -3;\n"
    "layout(constant_id = 5) const float ALPHA = 1.5;\n"
    "const uint M = N * 2u + 1u;\n"
    "layout(local_size_x_id = 0, local_size_y = 2) in;\n"
    "shared float tile[M];\n"
    "layout(set = 0, binding = 1) buffer Out { uint count; float data[]; } outb;\n"
    "layout(push_constant) uniform P { uint n; float a; } pc;\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    tile[gl_LocalInvocationID.x] = float(i);\n"
    "    barrier();\n"
    "    for (uint j = 0; j < pc.n; j++)\n"
    "        if (i < pc.n) outb.data[i] += tile[(j + uint(K + 3)) % M] * ALPHA;\n"
    "}\n";

static const spv_var *find_var(const spv_module *m, uint32_t storage)
{
    for (size_t i = 0; i < m->nvars; i++)
        if (m->vars[i].storage == storage)
            return &m->vars[i];
    return NULL;
}

static void test_glsl_spec(void **state)
{
    (void)state;
    glsl_module g;
    spv_module *m = glsl_open(&g, spec_src);
    cw_error err;

    const spv_entry *e = spv_entry_find(m, "main");
    assert_non_null(e);
    /* glslang gives local_size_x_id its own spec constant (SpecId 0 too)
     * whose default is 1, not N's 64: unspecialized, the group is 1x2x1 */
    assert_int_equal(e->ls_source, SPV_LS_BUILTIN);
    assert_int_equal(e->local_size[0], 1);
    assert_int_equal(e->local_size[1], 2);
    assert_int_equal(e->local_size[2], 1);
    assert_true(e->local_size_known);

    const spv_var *sh = find_var(m, SpvStorageClassWorkgroup);
    assert_non_null(sh);
    assert_string_equal(sh->name, "tile");
    uint64_t bytes = 0;
    assert_int_equal(spv_type_size(m, sh->pointee, &bytes), 0);
    assert_int_equal(bytes, (64 * 2 + 1) * 4);

    const spv_var *ob = find_var(m, SpvStorageClassStorageBuffer);
    assert_non_null(ob);
    assert_int_equal(ob->binding, 1);
    assert_int_equal(ob->set, 0);
    const spv_type *st = spv_type_of(m, ob->pointee);
    assert_non_null(st);
    assert_int_equal(st->kind, SPV_T_STRUCT);
    assert_true(st->block);
    assert_int_equal(st->nmembers, 2);
    assert_string_equal(st->members[1].name, "data");
    assert_int_equal(st->members[1].offset, 4);
    const spv_type *ra = spv_type_of(m, st->members[1].type);
    assert_int_equal(ra->kind, SPV_T_RUNTIME_ARRAY);
    assert_int_equal(ra->array_stride, 4);
    assert_int_equal(spv_type_size(m, st->id, &bytes), 0);
    assert_int_equal(bytes, 4); /* fixed part only */

    /* the source and its lines */
    assert_non_null(m->source_text);
    assert_non_null(strstr(m->source_text, "shared float tile"));
    int saw_line15 = 0;
    for (size_t i = 0; i < m->ninsts; i++)
        if (m->insts[i].line == 15 && m->insts[i].opcode == SpvOpStore)
            saw_line15 = 1;
    assert_true(saw_line15);

    /* specialize: N = 100 by SpecId, K by name, ALPHA by SpecId */
    spv_spec_value pv[3];
    memset(pv, 0, sizeof pv);
    pv[0].key = "0"; pv[0].is_integer = 1; pv[0].ivalue = 100; pv[0].value = 100;
    pv[1].key = "K"; pv[1].is_integer = 1; pv[1].ivalue = 7; pv[1].value = 7;
    pv[2].key = "nope"; pv[2].is_integer = 1; pv[2].ivalue = 1; pv[2].value = 1;
    int matched[3];
    assert_int_equal(spv_specialize(m, pv, 3, matched, &err), 0);
    assert_int_equal(matched[0], 1);
    assert_int_equal(matched[1], 1);
    assert_int_equal(matched[2], 0);
    e = spv_entry_find(m, "main");
    assert_int_equal(e->local_size[0], 100);
    assert_int_equal(spv_type_size(m, sh->pointee, &bytes), 0);
    assert_int_equal(bytes, (100 * 2 + 1) * 4);
    /* K = 7 is readable as a signed value */
    int found_k = 0;
    for (size_t i = 0; i < m->nconsts; i++) {
        const spv_const *k = &m->consts[i];
        if (k->has_spec_id && k->spec_id == 3) {
            int64_t v;
            assert_int_equal(spv_const_i64(m, k->id, &v), 0);
            assert_int_equal(v, 7);
            assert_true(k->overridden);
            found_k = 1;
        }
        if (k->has_spec_id && k->spec_id == 5) {
            double d;
            assert_int_equal(spv_const_f64(m, k->id, &d), 0);
            assert_true(d == 1.5);
        }
    }
    assert_true(found_k);

    /* a value of the wrong type is an error naming the constant */
    pv[0].is_integer = 0; pv[0].value = 2.5;
    assert_int_not_equal(spv_specialize(m, pv, 1, NULL, &err), 0);
    assert_non_null(strstr(err.text, "integer"));
    /* out of range for a 32-bit unsigned */
    pv[0].is_integer = 1; pv[0].ivalue = -1;
    assert_int_not_equal(spv_specialize(m, pv, 1, NULL, &err), 0);
    /* back to defaults */
    assert_int_equal(spv_specialize(m, NULL, 0, NULL, &err), 0);
    assert_int_equal(spv_entry_find(m, "main")->local_size[0], 1);

    glsl_close(&g);
}

static const char *ops_src =
    "#version 450\n"
    "layout(local_size_x = 1) in;\n"
    "layout(constant_id = 0) const uint N = 64;\n"
    "layout(constant_id = 1) const int K = -9;\n"
    "const int A = K / 2;\n"
    "const uint B = N >> 1;\n"
    "const uint C = (N > 100u) ? 1u : 2u;\n"
    "const int D = -K;\n"
    "const uint E = N % 7u;\n"
    "const bool F = N == 64u;\n"
    "const int G = K % 4;\n"
    "const uint H = uint(K);\n"
    "const int I = K >> 1;\n"
    "const uint J = (N & 12u) | 1u;\n"
    "layout(set = 0, binding = 0) buffer O { int o[]; };\n"
    "void main() { o[0] = A + int(B) + int(C) + D + int(E) + int(F) + G + int(H) + I + int(J); }\n";

static int64_t named(const spv_module *m, const char *name)
{
    for (size_t i = 0; i < m->nconsts; i++)
        if (m->consts[i].name && strcmp(m->consts[i].name, name) == 0) {
            int64_t v = 0x7eadbeef;
            assert_int_equal(spv_const_i64(m, m->consts[i].id, &v), 0);
            return v;
        }
    fail_msg("no constant named %s", name);
    return 0;
}

/* OpSpecConstantOp folding: every operation glslang emits for these
 * expressions, with the defaults and with plan values. */
static void test_spec_ops(void **state)
{
    (void)state;
    glsl_module g;
    spv_module *m = glsl_open(&g, ops_src);
    cw_error err;
    static const struct { int line; const char *name; int64_t v0, v1; } want[] = {
        {__LINE__, "A", -4, 3},   /* SDiv truncates */
        {__LINE__, "B", 32, 100}, /* ShiftRightLogical */
        {__LINE__, "C", 2, 1},    /* UGreaterThan + Select */
        {__LINE__, "D", 9, -7},   /* SNegate */
        {__LINE__, "E", 1, 4},    /* UMod */
        {__LINE__, "F", 1, 0},    /* IEqual */
        {__LINE__, "G", 3, 3},    /* SMod: sign of the divisor */
        {__LINE__, "H", 4294967287LL, 7}, /* int -> uint through IAdd */
        {__LINE__, "I", -5, 3},   /* ShiftRightArithmetic */
        {__LINE__, "J", 1, 9},    /* BitwiseAnd + BitwiseOr */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (named(m, want[i].name) != want[i].v0)
            fail_msg("test_spirv.c:%d: %s = %lld, want %lld", want[i].line, want[i].name,
                     (long long)named(m, want[i].name), (long long)want[i].v0);
    spv_spec_value pv[2];
    memset(pv, 0, sizeof pv);
    pv[0].key = "N"; pv[0].is_integer = 1; pv[0].ivalue = 200; pv[0].value = 200;
    pv[1].key = "1"; pv[1].is_integer = 1; pv[1].ivalue = 7; pv[1].value = 7;
    assert_int_equal(spv_specialize(m, pv, 2, NULL, &err), 0);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (named(m, want[i].name) != want[i].v1)
            fail_msg("test_spirv.c:%d: %s = %lld with N=200 K=7, want %lld", want[i].line,
                     want[i].name, (long long)named(m, want[i].name), (long long)want[i].v1);
    glsl_close(&g);
}

static void test_glsl_cfg(void **state)
{
    (void)state;
    glsl_module g;
    spv_module *m = glsl_open(&g, spec_src);
    /* exactly one loop: its header has LoopMerge; the body blocks point
     * to it and the merge block is outside */
    int loops = 0;
    for (size_t i = 0; i < m->nblocks; i++) {
        const spv_block *b = &m->blocks[i];
        assert_true(b->reachable);
        if (b->merge != SPV_MERGE_LOOP)
            continue;
        loops++;
        assert_int_equal(b->loop_header, i);
        assert_int_equal(m->blocks[b->continue_block].loop_header, i);
        assert_int_equal(m->blocks[b->merge_block].loop_header, SPV_NONE);
        assert_true(m->blocks[b->merge_block].rpo > b->rpo);
    }
    assert_int_equal(loops, 1);
    glsl_close(&g);
}

static const char *nested_src =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer V { float v[]; };\n"
    "layout(push_constant) uniform P { uint n; };\n"
    "void main() {\n"
    "    float acc = 0.0;\n"
    "    for (uint i = 0; i < n; i++) {\n"
    "        for (uint j = 0; j < i; j++)\n"
    "            acc += v[j];\n"
    "        if (acc > 100.0) break;\n"
    "    }\n"
    "    v[gl_GlobalInvocationID.x] = acc;\n"
    "}\n";

/* Nested loops: inner blocks belong to the inner header, the inner merge
 * to the outer one; the outer header dominates the inner one. */
static void test_nested_loops(void **state)
{
    (void)state;
    glsl_module g;
    spv_module *m = glsl_open(&g, nested_src);
    uint32_t hdr[2];
    int nh = 0;
    for (size_t i = 0; i < m->nblocks; i++)
        if (m->blocks[i].merge == SPV_MERGE_LOOP) {
            assert_true(nh < 2);
            hdr[nh++] = (uint32_t)i;
        }
    assert_int_equal(nh, 2);
    uint32_t outer = m->blocks[hdr[0]].rpo < m->blocks[hdr[1]].rpo ? hdr[0] : hdr[1];
    uint32_t inner = outer == hdr[0] ? hdr[1] : hdr[0];
    assert_int_equal(m->blocks[outer].loop_header, outer);
    assert_int_equal(m->blocks[inner].loop_header, inner);
    assert_int_equal(m->blocks[m->blocks[inner].continue_block].loop_header, inner);
    assert_int_equal(m->blocks[m->blocks[inner].merge_block].loop_header, outer);
    assert_int_equal(m->blocks[m->blocks[outer].continue_block].loop_header, outer);
    assert_int_equal(m->blocks[m->blocks[outer].merge_block].loop_header, SPV_NONE);
    /* the outer header dominates the inner header */
    uint32_t d = m->blocks[inner].idom;
    int steps = 0;
    while (d != SPV_NONE && d != outer && steps++ < 100)
        d = m->blocks[d].idom;
    assert_int_equal(d, outer);
    glsl_close(&g);
}

/* Deterministic mutation smoke test: flipped words and truncations of a
 * real module never crash or leak (run under ASan by `make asan`). */
static void test_mutations(void **state)
{
    (void)state;
    shader_module sm;
    assert_int_equal(compile(spec_src, &sm), 0);
    uint32_t *w = malloc(sm.nwords * 4);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int parsed = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(w, sm.words, sm.nwords * 4);
        int flips = 1 + it % 4;
        for (int f = 0; f < flips; f++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = 5 + (size_t)((seed >> 33) % (sm.nwords - 5));
            uint32_t v = (uint32_t)(seed >> 11);
            switch (it % 3) {
            case 0: w[at] = v; break;
            case 1: w[at] ^= 1u << (v % 32); break;
            default: w[at] = (w[at] & 0xffff0000u) | (v & 0xffffu); break;
            }
        }
        size_t n = it % 7 == 0 ? (size_t)(seed % sm.nwords) : sm.nwords;
        spv_module m;
        cw_error err;
        if (spv_parse(w, n, &m, &err) == 0) {
            parsed++;
            uint64_t b;
            for (size_t t = 0; t < m.ntypes; t++)
                (void)spv_type_size(&m, m.types[t].id, &b);
            spv_free(&m);
        } else {
            assert_true(err.text[0] != 0);
        }
    }
    assert_true(parsed > 0);
    free(w);
    shader_free(&sm);
}

/* A struct may contain a pointer to itself through OpTypeForwardPointer. */
static void test_forward_pointer(void **state)
{
    (void)state;
    static const uint32_t w[] = {
        HDR(10), CAPS,
        OP(3, SpvOpTypeForwardPointer), 5, SpvStorageClassPhysicalStorageBuffer,
        OP(4, SpvOpTypeInt), 2, 32, 0,
        OP(4, SpvOpTypeStruct), 6, 2, 5,
        OP(4, SpvOpTypePointer), 5, SpvStorageClassPhysicalStorageBuffer, 6,
    };
    spv_module m;
    cw_error err;
    assert_int_equal(spv_parse(w, sizeof w / 4, &m, &err), 0);
    const spv_type *st = spv_type_of(&m, 6);
    assert_non_null(st);
    assert_int_equal(st->kind, SPV_T_STRUCT);
    const spv_type *pt = spv_type_of(&m, st->members[1].type);
    assert_non_null(pt);
    assert_int_equal(pt->kind, SPV_T_POINTER);
    assert_int_equal(pt->elem, 6);
    uint64_t bytes = 0;
    assert_int_equal(spv_type_size(&m, 6, &bytes), 0);
    assert_int_equal(bytes, 12); /* uint + 8-byte pointer, packed */
    spv_free(&m);
}

/* Source positions from NonSemantic.Shader.DebugInfo.100 (DebugLine)
 * when a toolchain emits those instead of OpLine. */
static const char *debuginfo_asm =
    "OpCapability Shader\n"
    "OpExtension \"SPV_KHR_non_semantic_info\"\n"
    "%ext = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 8 1 1\n"
    "%file = OpString \"k.comp\"\n"
    "%text = OpString \"void main() {}\"\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%u7 = OpConstant %uint 7\n"
    "%u3 = OpConstant %uint 3\n"
    "%src = OpExtInst %void %ext DebugSource %file %text\n"
    "%main = OpFunction %void None %fn\n"
    "%l = OpLabel\n"
    "%dl = OpExtInst %void %ext DebugLine %src %u7 %u7 %u3 %u3\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_debuginfo_lines(void **state)
{
    (void)state;
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
    spv_binary bin = NULL;
    spv_diagnostic diag = NULL;
    assert_int_equal(spvTextToBinary(ctx, debuginfo_asm, strlen(debuginfo_asm), &bin, &diag),
                     SPV_SUCCESS);
    spv_module m;
    cw_error err;
    assert_int_equal(spv_parse(bin->code, bin->wordCount, &m, &err), 0);
    int found = 0;
    for (size_t i = 0; i < m.ninsts; i++)
        if (m.insts[i].opcode == SpvOpReturn) {
            assert_int_equal(m.insts[i].line, 7);
            assert_int_equal(m.insts[i].column, 3);
            assert_string_equal(spv_inst_file(&m, i), "k.comp");
            found = 1;
        }
    assert_true(found);
    assert_string_equal(spv_string(&m, m.source_file), "k.comp");
    assert_non_null(m.source_text);
    assert_string_equal(m.source_text, "void main() {}");
    assert_int_equal(spv_entry_find(&m, "main")->local_size[0], 8);
    spv_free(&m);
    spvBinaryDestroy(bin);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
}

static void test_accessors_bounds(void **state)
{
    (void)state;
    spv_module m;
    memset(&m, 0, sizeof m);
    assert_null(spv_def(&m, 5));
    assert_null(spv_type_of(&m, 0xffffffffu));
    assert_null(spv_name(NULL, 1));
    assert_int_equal(spv_block_of_label(&m, 3), SPV_NONE);
    assert_string_equal(spv_opcode_name(SpvOpLoad), "OpLoad");
    assert_string_equal(spv_opcode_class(SpvOpAtomicIAdd), "Atomic");
    assert_string_equal(spv_opcode_name(0xfffe), "Op?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_table),
        cmocka_unit_test(test_cfg),
        cmocka_unit_test(test_glsl_spec),
        cmocka_unit_test(test_glsl_cfg),
        cmocka_unit_test(test_spec_ops),
        cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_forward_pointer),
        cmocka_unit_test(test_debuginfo_lines),
        cmocka_unit_test(test_accessors_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
