/* test_reflect.c - reflection of kernels compiled from GLSL (bindings with
 * their static use, layouts, push constants, spec constants, shared
 * memory), the plan helpers (push bytes, buffer bytes) and
 * verifier_analyze's handling of invalid modules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include <spirv/unified1/spirv.h>

#include "checks.h"
#include "shader.h"
#include "spirv.h"
#include "verifier.h"

static void compile(const char *src, shader_module *sm)
{
    cw_error err;
    memset(&err, 0, sizeof err);
    if (shader_compile_glsl("t.comp", src, strlen(src), sm, &err)) {
        fprintf(stderr, "compile failed: %s\n", err.text);
        fail();
    }
}

static void reflect_src(const char *src, const spv_spec_value *spec, size_t nspec,
                        reflection *r)
{
    shader_module sm;
    spv_module m;
    cw_error err;
    compile(src, &sm);
    assert_int_equal(spv_parse(sm.words, sm.nwords, &m, &err), 0);
    assert_int_equal(spv_specialize(&m, spec, nspec, NULL, &err), 0);
    const spv_entry *e = spv_entry_find(&m, "main");
    assert_non_null(e);
    reflect_module(&m, e, r);
    spv_free(&m);
    shader_free(&sm);
}

static const refl_binding *binding(const reflection *r, uint32_t set, uint32_t b)
{
    for (size_t i = 0; i < r->nbindings; i++)
        if (r->bindings[i].set == set && r->bindings[i].binding == b)
            return &r->bindings[i];
    return NULL;
}

static const char *saxpy = CW_SAXPY_GLSL;

static void test_saxpy(void **state)
{
    (void)state;
    reflection r;
    reflect_src(saxpy, NULL, 0, &r);
    assert_string_equal(r.entry, "main");
    assert_int_equal(r.local_size[0], 256);
    assert_int_equal(r.local_size[1], 1);
    assert_int_equal(r.nbindings, 2);
    const refl_binding *x = binding(&r, 0, 0), *y = binding(&r, 0, 1);
    assert_non_null(x);
    assert_non_null(y);
    assert_string_equal(x->name, "X");
    assert_int_equal(x->kind, DESC_STORAGE_BUFFER);
    assert_true(x->reads);
    assert_false(x->writes);
    assert_true(y->reads);
    assert_true(y->writes);
    assert_int_equal(x->array_stride, 4);
    assert_int_equal(x->fixed_bytes, 0);
    assert_int_equal(x->elem, SCALAR_F32);
    assert_int_equal(x->elem_components, 1);
    assert_int_equal(r.npush, 2);
    assert_string_equal(r.push[0].name, "n");
    assert_int_equal(r.push[0].type, SCALAR_U32);
    assert_int_equal(r.push[0].offset, 0);
    assert_string_equal(r.push[1].name, "alpha");
    assert_int_equal(r.push[1].type, SCALAR_F32);
    assert_int_equal(r.push[1].offset, 4);
    assert_int_equal(r.push_bytes, 8);
    assert_int_equal(r.nshared, 0);
    assert_int_equal(r.shared_bytes, 0);

    /* push bytes for the plan's values */
    plan_value pv[3];
    memset(pv, 0, sizeof pv);
    pv[0].key = "n"; pv[0].is_integer = 1; pv[0].ivalue = 1000; pv[0].value = 1000;
    pv[1].key = "alpha"; pv[1].value = 2.5;
    pv[2].key = "bogus"; pv[2].is_integer = 1; pv[2].ivalue = 7; pv[2].value = 7;
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.push = pv;
    k.npush = 3;
    uint8_t buf[8];
    memset(buf, 0xee, sizeof buf);
    verifier_push_bytes(&r, &k, buf);
    uint32_t n;
    float a;
    memcpy(&n, buf, 4);
    memcpy(&a, buf + 4, 4);
    assert_int_equal(n, 1000);
    assert_true(a == 2.5f);
    reflect_free(&r);
}

static const char *layouts =
    "#version 450\n"
    "layout(local_size_x = 64, local_size_y = 2) in;\n"
    "struct P { vec3 pos; float w; };\n"
    "layout(set = 0, binding = 0) buffer Hdr { uint count; uint flags; vec4 scale; vec4 v[]; } hdr;\n"
    "layout(set = 0, binding = 1) writeonly buffer Out { P parts[]; } outb;\n"
    "layout(set = 0, binding = 2) uniform U { mat4 m; vec2 off; } u;\n"
    "layout(set = 1, binding = 0) buffer Fixed { float table[100]; } fx;\n"
    "layout(set = 1, binding = 3) buffer Hist { uint bins[]; } hist;\n"
    "layout(set = 1, binding = 4) buffer Unused { float z[]; } unused;\n"
    "layout(set = 2, binding = 0, r32f) uniform readonly image2D img;\n"
    "layout(constant_id = 7) const int TILE = 8;\n"
    "layout(constant_id = 9) const float SCALE = 0.5;\n"
    "shared float tile[TILE * 16];\n"
    "shared uint never_used[4096];\n"
    "void put(uint i, float v) { outb.parts[i].w = v; }\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    tile[i % uint(TILE * 16)] = hdr.v[i].x * fx.table[i % 100u];\n"
    "    barrier();\n"
    "    atomicAdd(hist.bins[i & 7u], 1u);\n"
    "    vec4 q = u.m * vec4(imageLoad(img, ivec2(i, 0)).x);\n"
    "    put(i, q.x + tile[0] * SCALE + float(hdr.count));\n"
    "}\n";

static void test_layouts(void **state)
{
    (void)state;
    reflection r;
    spv_spec_value spec[1];
    memset(spec, 0, sizeof spec);
    spec[0].key = "TILE"; spec[0].is_integer = 1; spec[0].ivalue = 32; spec[0].value = 32;
    reflect_src(layouts, spec, 1, &r);

    assert_int_equal(r.local_size[0], 64);
    assert_int_equal(r.local_size[1], 2);
    assert_int_equal(r.nbindings, 7);
    /* sorted by set, binding */
    assert_int_equal(r.bindings[0].set, 0);
    assert_int_equal(r.bindings[0].binding, 0);
    assert_int_equal(r.bindings[6].set, 2);

    const refl_binding *h = binding(&r, 0, 0);
    assert_string_equal(h->name, "hdr");
    assert_int_equal(h->fixed_bytes, 32);
    assert_int_equal(h->array_offset, 32);
    assert_int_equal(h->array_stride, 16);
    assert_int_equal(h->elem, SCALAR_F32);
    assert_int_equal(h->elem_components, 4);
    assert_true(h->reads);
    assert_false(h->writes);

    const refl_binding *o = binding(&r, 0, 1);
    assert_int_equal(o->array_stride, 16); /* struct P: vec3 + float */
    assert_int_equal(o->elem, SCALAR_NONE);
    assert_false(o->reads);
    assert_true(o->writes); /* through the function put() */

    const refl_binding *ub = binding(&r, 0, 2);
    assert_int_equal(ub->kind, DESC_UNIFORM_BUFFER);
    assert_int_equal(ub->fixed_bytes, 72); /* mat4 64 + vec2 8 */
    assert_true(ub->reads);

    const refl_binding *fxb = binding(&r, 1, 0);
    assert_int_equal(fxb->fixed_bytes, 400);
    assert_int_equal(fxb->array_stride, 0);
    assert_int_equal(fxb->sized_array_stride, 4);
    assert_int_equal(fxb->array_offset, 0);

    const refl_binding *hi = binding(&r, 1, 3);
    assert_true(hi->reads);
    assert_true(hi->writes); /* atomic */

    const refl_binding *un = binding(&r, 1, 4);
    assert_false(un->reads);
    assert_false(un->writes);

    const refl_binding *im = binding(&r, 2, 0);
    assert_int_equal(im->kind, DESC_OTHER);
    assert_true(im->reads);

    /* shared: only what is used, sized with the plan's TILE */
    assert_int_equal(r.nshared, 1);
    assert_string_equal(r.shared[0].name, "tile");
    assert_int_equal(r.shared[0].bytes, 32 * 16 * 4);
    assert_int_equal(r.shared_bytes, 32 * 16 * 4);

    /* spec constants */
    assert_int_equal(r.nspecs, 2);
    for (size_t i = 0; i < r.nspecs; i++) {
        if (r.specs[i].id == 7) {
            assert_string_equal(r.specs[i].name, "TILE");
            assert_int_equal(r.specs[i].type, SCALAR_I32);
            assert_true(r.specs[i].default_value == 8);
            assert_true(r.specs[i].value == 32);
            assert_true(r.specs[i].overridden);
        } else {
            assert_int_equal(r.specs[i].id, 9);
            assert_int_equal(r.specs[i].type, SCALAR_F32);
            assert_true(r.specs[i].default_value == 0.5);
            assert_false(r.specs[i].overridden);
        }
    }

    /* buffer bytes from elements: header + n x stride; sized arrays; errors */
    plan_kernel k;
    memset(&k, 0, sizeof k);
    plan_buffer b;
    memset(&b, 0, sizeof b);
    uint64_t bytes = 0;
    cw_error err;
    b.binding = 0; b.has_elements = 1; b.elements = 10;
    assert_int_equal(verifier_buffer_bytes(&r, &k, &b, &bytes, &err), 0);
    assert_int_equal(bytes, 32 + 10 * 16);
    b.set = 1; b.binding = 0; b.elements = 100;
    assert_int_equal(verifier_buffer_bytes(&r, &k, &b, &bytes, &err), 0);
    assert_int_equal(bytes, 400);
    b.set = 0; b.binding = 0; b.elements = UINT64_MAX / 8;
    assert_int_not_equal(verifier_buffer_bytes(&r, &k, &b, &bytes, &err), 0);
    assert_non_null(strstr(err.text, "overflow"));
    b.binding = 2; b.elements = 1;
    assert_int_not_equal(verifier_buffer_bytes(&r, &k, &b, &bytes, &err), 0);
    assert_non_null(strstr(err.text, "bytes"));
    b.set = 5; b.binding = 5;
    assert_int_not_equal(verifier_buffer_bytes(&r, &k, &b, &bytes, &err), 0);
    b.has_elements = 0; b.has_bytes = 1; b.bytes = 12345;
    assert_int_equal(verifier_buffer_bytes(&r, &k, &b, &bytes, &err), 0);
    assert_int_equal(bytes, 12345);
    reflect_free(&r);
}

static void test_scalars(void **state)
{
    (void)state;
    assert_int_equal(scalar_size(SCALAR_F16), 2);
    assert_int_equal(scalar_size(SCALAR_U64), 8);
    assert_int_equal(scalar_size(SCALAR_NONE), 0);
    assert_string_equal(scalar_name(SCALAR_F32), "float");
    assert_string_equal(scalar_name(SCALAR_U32), "uint");
}

/* ---- verifier_analyze on good and broken modules ---- */

static size_t count_id(const kernel_report *kr, const char *id)
{
    size_t n = 0;
    for (size_t i = 0; i < kr->nfindings; i++)
        if (strcmp(kr->findings[i].id, id) == 0)
            n++;
    return n;
}

static void analyze_words(const uint32_t *w, size_t n, plan_kernel *k,
                          kernel_report *kr, verifier_result *res, int *rc)
{
    shader_module sm;
    device_profile prof;
    memset(&sm, 0, sizeof sm);
    sm.words = (uint32_t *)w;
    sm.nwords = n;
    profile_init(&prof);
    assert_int_equal(profile_builtin("lavapipe", &prof), 0);
    *rc = verifier_analyze(k, &sm, &prof, kr, res);
}

static void test_analyze(void **state)
{
    (void)state;
    shader_module sm;
    compile(saxpy, &sm);
    plan_value pv[2];
    memset(pv, 0, sizeof pv);
    pv[0].key = "n"; pv[0].is_integer = 1; pv[0].ivalue = 1000; pv[0].value = 1000;
    pv[1].key = "alpha"; pv[1].value = 2.0;
    plan_buffer bufs[2];
    memset(bufs, 0, sizeof bufs);
    bufs[0].binding = 0; bufs[0].has_elements = 1; bufs[0].elements = 1024;
    bufs[1].binding = 1; bufs[1].has_elements = 1; bufs[1].elements = 1024;
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.entry = "main";
    k.shader = "saxpy.comp";
    k.workgroups[0] = 4; k.workgroups[1] = 1; k.workgroups[2] = 1;
    k.push = pv; k.npush = 2;
    k.buffers = bufs; k.nbuffers = 2;

    report rep;
    report_init(&rep);
    kernel_report *kr = report_add_kernel(&rep, "saxpy");
    verifier_result res;
    int rc;
    analyze_words(sm.words, sm.nwords, &k, kr, &res, &rc);
    assert_int_equal(rc, 0);
    assert_true(res.ok);
    assert_int_equal(kr->local_size[0], 256);
    assert_string_equal(kr->entry, "main");
    assert_int_equal(kernel_report_count(kr, SEV_ERROR), 0);
    assert_int_equal(kr->input_error, 0);
    verifier_result_free(&res);

    /* truncated: rejected by the reader */
    kr = report_add_kernel(&rep, "truncated");
    analyze_words(sm.words, sm.nwords / 2, &k, kr, &res, &rc);
    assert_int_not_equal(rc, 0);
    assert_int_equal(count_id(kr, "spirv-invalid"), 1);
    assert_int_equal(kr->input_error, 1);
    assert_false(res.ok);
    verifier_result_free(&res);

    /* structurally fine, semantically invalid: rejected by SPIRV-Tools
     * (physical addressing without the Addresses capability) */
    uint32_t *w = malloc(sm.nwords * 4);
    memcpy(w, sm.words, sm.nwords * 4);
    for (size_t i = 5; i < sm.nwords; i += w[i] >> 16)
        if ((w[i] & 0xffff) == SpvOpMemoryModel) {
            w[i + 1] = SpvAddressingModelPhysical64;
            break;
        }
    kr = report_add_kernel(&rep, "invalid");
    analyze_words(w, sm.nwords, &k, kr, &res, &rc);
    assert_int_not_equal(rc, 0);
    assert_int_equal(count_id(kr, "spirv-invalid"), 1);
    assert_non_null(strstr(kr->findings[0].message, "validation"));
    assert_int_equal(kr->input_error, 1);
    verifier_result_free(&res);
    free(w);

    /* invalid inside the function: the finding names the GLSL line of the
     * instruction the validator rejects (an FMul typed uint, line 9) */
    w = malloc(sm.nwords * 4);
    memcpy(w, sm.words, sm.nwords * 4);
    uint32_t uint_id = 0;
    int patched = 0;
    for (size_t i = 5; i < sm.nwords; i += w[i] >> 16) {
        if ((w[i] & 0xffff) == SpvOpTypeInt && w[i + 2] == 32 && w[i + 3] == 0)
            uint_id = w[i + 1];
        if ((w[i] & 0xffff) == SpvOpFMul && uint_id) {
            w[i + 1] = uint_id;
            patched = 1;
            break;
        }
    }
    assert_true(patched);
    kr = report_add_kernel(&rep, "fmul");
    analyze_words(w, sm.nwords, &k, kr, &res, &rc);
    assert_int_not_equal(rc, 0);
    assert_int_equal(count_id(kr, "spirv-invalid"), 1);
    assert_int_equal(kr->findings[0].line, 9);
    assert_string_equal(kr->findings[0].file, "t.comp");
    verifier_result_free(&res);
    free(w);

    /* wrong entry point */
    k.entry = "mian";
    kr = report_add_kernel(&rep, "entry");
    analyze_words(sm.words, sm.nwords, &k, kr, &res, &rc);
    assert_int_not_equal(rc, 0);
    assert_int_equal(count_id(kr, "entry-point-missing"), 1);
    assert_non_null(strstr(kr->findings[0].hint, "\"main\""));
    verifier_result_free(&res);

    report_free(&rep);
    shader_free(&sm);
}

/* Global ids are 32-bit: groups x local size past 2^32 wraps them. */
static void test_id_range(void **state)
{
    (void)state;
    shader_module sm;
    spv_module m;
    cw_error err;
    compile(saxpy, &sm);
    assert_int_equal(spv_parse(sm.words, sm.nwords, &m, &err), 0);
    reflection r;
    reflect_module(&m, spv_entry_find(&m, "main"), &r);
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.workgroups[0] = 16777217; /* x 256 = 2^32 + 256 */
    k.workgroups[1] = k.workgroups[2] = 1;
    report rep;
    report_init(&rep);
    kernel_report *kr = report_add_kernel(&rep, "k");
    limits_check(&m, &r, &k, NULL, NULL, NULL, kr);
    assert_int_equal(count_id(kr, "dispatch-limit"), 1);
    k.workgroups[0] = 16777216; /* exactly 2^32 invocations: ids fit */
    kernel_report *kr2 = report_add_kernel(&rep, "k2");
    limits_check(&m, &r, &k, NULL, NULL, NULL, kr2);
    assert_int_equal(count_id(kr2, "dispatch-limit"), 0);
    report_free(&rep);
    reflect_free(&r);
    spv_free(&m);
    shader_free(&sm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saxpy),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_analyze),
        cmocka_unit_test(test_id_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
