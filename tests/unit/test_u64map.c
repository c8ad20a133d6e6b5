/* core/u64map: keys found after growth, values zeroed on insertion and
 * kept across it, the cap (old keys found, new ones refused), clear, the
 * invalid key, and the slot order depending on the keys and the insertion
 * order only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "u64map.h"

static void test_grow_and_find(void **state)
{
    (void)state;
    u64map m;
    u64map_init(&m, sizeof(double), 0);
    assert_null(u64map_find(&m, 7));
    for (uint64_t k = 0; k < 5000; k++) {
        int created = 0;
        double *v = u64map_get(&m, k * 4096, &created);
        assert_non_null(v);
        assert_int_equal(created, 1);
        assert_true(*v == 0);
        *v = (double)k + 0.5;
    }
    assert_int_equal(m.n, 5000);
    assert_true(m.cap >= 10000 && (m.cap & (m.cap - 1)) == 0); /* half load at most */
    for (uint64_t k = 0; k < 5000; k++) {
        double *v = u64map_find(&m, k * 4096);
        assert_non_null(v);
        assert_true(*v == (double)k + 0.5);
    }
    int created = 1;
    double *again = u64map_get(&m, 4096 * 17, &created);
    assert_int_equal(created, 0);
    assert_true(*again == 17.5);
    assert_null(u64map_find(&m, 3));
    assert_null(u64map_get(&m, UINT64_MAX, &created));
    double sum = 0;
    size_t seen = 0;
    for (size_t i = 0; i < m.cap; i++)
        if (u64map_used(&m, i)) {
            seen++;
            sum += *(double *)u64map_val(&m, i) - (double)(u64map_key(&m, i) / 4096);
        }
    assert_int_equal(seen, 5000);
    assert_true(sum == 2500);
    u64map_clear(&m);
    assert_int_equal(m.n, 0);
    assert_null(u64map_find(&m, 4096));
    double *fresh = u64map_get(&m, 4096, &created);
    assert_true(created && *fresh == 0); /* zeroed again, not the old 1.5 */
    u64map_free(&m);
}

static void test_cap(void **state)
{
    (void)state;
    u64map m;
    u64map_init(&m, sizeof(uint32_t), 2048); /* 1024 keys at most */
    size_t refused = 0;
    for (uint64_t k = 1; k <= 3000; k++) {
        uint32_t *v = u64map_get(&m, k, NULL);
        if (!v)
            refused++;
        else
            *v = (uint32_t)k;
    }
    assert_int_equal(m.cap, 2048);
    assert_int_equal(m.n, 1024);
    assert_int_equal(refused, 3000 - 1024);
    /* the first keys are the ones kept, and still found and updated */
    uint32_t *v = u64map_get(&m, 1000, NULL);
    assert_non_null(v);
    assert_int_equal(*v, 1000);
    assert_null(u64map_find(&m, 2000));
    u64map_free(&m);
}

static void test_order(void **state)
{
    (void)state;
    u64map a, b;
    u64map_init(&a, 1, 0);
    u64map_init(&b, 1, 0);
    for (uint64_t k = 0; k < 3000; k++) {
        u64map_get(&a, k * 977 + 13, NULL);
        u64map_get(&b, k * 977 + 13, NULL);
    }
    assert_int_equal(a.cap, b.cap);
    assert_memory_equal(a.keys, b.keys, a.cap * sizeof *a.keys);
    u64map_free(&a);
    u64map_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_and_find),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
