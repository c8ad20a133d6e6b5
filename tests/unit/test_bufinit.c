/* test_bufinit.c - the one buffer initialiser (core/bufinit.c) and the
 * plan forms that feed it: random (reproducible, typed), zero, ramp,
 * constant, inline values (typed and untyped words), raw file; and the
 * peek at a window of the same contents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "bufinit.h"
#include "plan.h"

static const bufinit_elem F32 = {4, 1, 0, 0}, U32 = {4, 0, 0, 0}, I16 = {2, 0, 1, 0},
                          NONE = {0, 0, 0, 0};

static plan *load(const char *json, plan *p)
{
    cw_error err;
    cw_error_clear(&err);
    char path[512];
    snprintf(path, sizeof path, "%s/test.json", cw_test_root());
    if (plan_load_text(path, json, strlen(json), p, &err))
        fail_msg("plan: %s", err.text);
    return p;
}

static void test_random(void **state)
{
    (void)state;
    plan_buffer b;
    memset(&b, 0, sizeof b);
    b.binding = 3;
    float a[64], c[64];
    uint32_t u[64];
    assert_int_equal(bufinit_fill((uint8_t *)a, sizeof a, F32, &b, 7, NULL), 0);
    assert_int_equal(bufinit_fill((uint8_t *)c, sizeof c, F32, &b, 7, NULL), 0);
    assert_memory_equal(a, c, sizeof a); /* reproducible */
    int nonzero = 0;
    for (int i = 0; i < 64; i++) {
        assert_true(a[i] >= -1.0f && a[i] < 1.0f);
        nonzero += a[i] != 0;
    }
    assert_true(nonzero > 60);
    assert_int_equal(bufinit_fill((uint8_t *)u, sizeof u, U32, &b, 7, NULL), 0);
    for (int i = 0; i < 64; i++)
        assert_true(u[i] < 16);
    b.binding = 4; /* another binding: other values */
    assert_int_equal(bufinit_fill((uint8_t *)c, sizeof c, F32, &b, 7, NULL), 0);
    assert_memory_not_equal(a, c, sizeof a);
    assert_false(bufinit_given(&b));
}

static void test_forms(void **state)
{
    (void)state;
    plan p;
    load("{\"kernels\": [{\"name\": \"k\", \"shader\": \"examples/kernels/saxpy.comp\", "
         "\"workgroups\": [1, 1, 1], \"buffers\": ["
         "{\"binding\": 0, \"bytes\": 16, \"init\": [100, -2, 1.5]},"
         "{\"binding\": 1, \"elements\": 4, \"init\": \"ramp\"},"
         "{\"binding\": 2, \"elements\": 4, \"init\": 3}]}]}", &p);
    const plan_kernel *k = &p.kernels[0];
    uint32_t w[4];
    assert_true(bufinit_given(&k->buffers[0]));
    assert_int_equal(bufinit_fill((uint8_t *)w, sizeof w, NONE, &k->buffers[0], 0, NULL), 0);
    float f;
    memcpy(&f, &w[2], 4);
    assert_int_equal(w[0], 100);
    assert_int_equal((int32_t)w[1], -2);
    assert_true(f == 1.5f);  /* a literal with a fraction: a float word */
    assert_int_equal(w[3], 0); /* then zeros */
    int16_t h[4];
    assert_int_equal(bufinit_fill((uint8_t *)h, sizeof h, I16, &k->buffers[0], 0, NULL), 0);
    assert_int_equal(h[0], 100);
    assert_int_equal(h[1], -2);
    float r[4];
    assert_int_equal(bufinit_fill((uint8_t *)r, sizeof r, F32, &k->buffers[1], 0, NULL), 0);
    assert_true(r[0] == 0.0f && r[3] == 3.0f);
    assert_int_equal(bufinit_fill((uint8_t *)w, sizeof w, U32, &k->buffers[2], 0, NULL), 0);
    assert_int_equal(w[2], 3);
    plan_free(&p);
}

static void test_file(void **state)
{
    (void)state;
    const char *dir = cw_tmpdir("cw_bufinit_");
    char bin[600];
    snprintf(bin, sizeof bin, "%s/data.bin", dir);
    uint32_t words[2] = {0xdeadbeef, 42};
    cw_write_file(bin, words, sizeof words);
    char json[1200];
    snprintf(json, sizeof json,
             "{\"kernels\": [{\"name\": \"k\", \"shader\": \"examples/kernels/saxpy.comp\", "
             "\"workgroups\": [1, 1, 1], \"buffers\": [{\"binding\": 0, \"bytes\": 16, "
             "\"init\": {\"file\": \"%s\"}}]}]}", bin);
    plan p;
    load(json, &p);
    uint32_t w[4] = {1, 1, 1, 1};
    cw_error err;
    cw_error_clear(&err);
    assert_int_equal(bufinit_fill((uint8_t *)w, sizeof w, U32, &p.kernels[0].buffers[0], 0, &err), 0);
    assert_int_equal(w[0], 0xdeadbeef);
    assert_int_equal(w[1], 42);
    assert_int_equal(w[2], 0);
    /* the file vanished: an error naming it, no crash */
    unlink(bin);
    assert_int_not_equal(bufinit_fill((uint8_t *)w, sizeof w, U32, &p.kernels[0].buffers[0], 0, &err), 0);
    assert_non_null(strstr(err.file, "data.bin"));
    plan_free(&p);
    rmdir(dir);
    /* a missing file is an input error of the plan */
    plan q;
    cw_error_clear(&err);
    char path[512];
    snprintf(path, sizeof path, "%s/test.json",
             cw_test_root());
    assert_int_not_equal(plan_load_text(path, json, strlen(json), &q, &err), 0);
    assert_non_null(strstr(err.text, "init file"));
}

/* bufinit_peek gives, byte for byte, the window of what bufinit_fill
 * writes: every element type and start, windows that cut elements, the
 * tail of a buffer that is not a whole number of elements; it refuses
 * the forms it cannot compute lazily and windows past the end. */
static void test_peek(void **state)
{
    (void)state;
    plan_buffer b;
    memset(&b, 0, sizeof b);
    b.binding = 2;
    b.set = 1;
    enum { BYTES = 203 }; /* 50 words and a 3-byte tail */
    uint8_t whole[BYTES], win[BYTES];
    const bufinit_elem types[] = {F32, U32, I16, NONE};
    const plan_init inits[] = {PLAN_INIT_RANDOM, PLAN_INIT_ZERO, PLAN_INIT_RAMP,
                               PLAN_INIT_CONST};
    b.init_value = 3;
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        for (size_t k = 0; k < sizeof inits / sizeof *inits; k++) {
            b.init = inits[k];
            assert_int_equal(bufinit_fill(whole, BYTES, types[t], &b, 11, NULL), 0);
            for (uint64_t from = 0; from < BYTES; from += 7)
                for (uint64_t len = 0; from + len <= BYTES; len += 13) {
                    memset(win, 0x5a, sizeof win);
                    assert_int_equal(bufinit_peek(win, from, len, BYTES, types[t], &b, 11), 0);
                    if (memcmp(win, whole + from, len))
                        fail_msg("type %zu init %zu: window %llu+%llu differs", t, k,
                                 (unsigned long long)from, (unsigned long long)len);
                }
        }
    b.init = PLAN_INIT_RANDOM;
    assert_int_equal(bufinit_peek(win, 200, 4, BYTES, U32, &b, 11), -1);
    b.init = PLAN_INIT_VALUES;
    assert_int_equal(bufinit_peek(win, 0, 4, BYTES, U32, &b, 11), -1);
    b.init = PLAN_INIT_FILE;
    assert_int_equal(bufinit_peek(win, 0, 4, BYTES, U32, &b, 11), -1);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_random),
             cmocka_unit_test(test_forms),
             cmocka_unit_test(test_file),
             cmocka_unit_test(test_peek))
