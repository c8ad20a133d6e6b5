/* --device auto as a pure function over a device list: the CUDA UUID match
 * first, then the node-local rank over GPUs in PCI bus order, CPU devices
 * only when there is no GPU, wrap-around, bad values, no variable at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include <string.h>

#include "devpick.h"

/* Vulkan order is not bus order: bus 0x41, llvmpipe, 0x01, 0x81, 0x21 */
static const devpick_device devs[] = {
    {"GPU bus 41", "8c3e5b8e0f0a4c1d9e2b7a6c5d4e3f21", 0, 1, 0, 0x41, 0, 0},
    {"llvmpipe", "6d657361000000000000000000000000", 1, 0, 0, 0, 0, 0},
    {"GPU bus 01", "00000000111122223333444455556666", 0, 1, 0, 0x01, 0, 0},
    {"GPU bus 81", "aaaaaaaabbbbccccddddeeeeffff0000", 0, 1, 0, 0x81, 0, 0},
    {"GPU bus 21", "1234567890abcdef1234567890abcdef", 0, 1, 0, 0x21, 0, 0},
};
#define NDEV (sizeof devs / sizeof *devs)

typedef struct pcase {
    const char *env[4];
    int rc;
    size_t idx;
    const char *why; /* in the reason, or in the error */
} pcase;

static const pcase cases[] = {
    /* nothing set: the caller's default */
    {{NULL}, 1, 0, NULL},
    /* the CUDA UUID wins over the local rank; dashes and case do not matter */
    {{"CUDA_VISIBLE_DEVICES=GPU-AAAAAAAA-BBBB-CCCC-DDDD-EEEEFFFF0000", "SLURM_LOCALID=0"}, 0, 3,
     "GPU-AAAAAAAA"},
    /* the first entry that names a device of this node */
    {{"CUDA_VISIBLE_DEVICES=GPU-ffffffff-0000-0000-0000-000000000000,"
      "GPU-12345678-90ab-cdef-1234-567890abcdef"}, 0, 4, "device 4"},
    /* indices, not UUIDs (Slurm's GRES): the local rank over bus order */
    {{"CUDA_VISIBLE_DEVICES=0,1", "SLURM_LOCALID=0"}, 0, 2, "position 0 of the 4 GPUs"},
    {{"SLURM_LOCALID=1"}, 0, 4, "SLURM_LOCALID=1"},
    {{"SLURM_LOCALID=2"}, 0, 0, "GPU bus 41"},
    {{"SLURM_LOCALID=3"}, 0, 3, NULL},
    /* more ranks than GPUs: they share, round robin; the CPU device never counts */
    {{"SLURM_LOCALID=5"}, 0, 4, "ranks share"},
    {{"OMPI_COMM_WORLD_LOCAL_RANK=2"}, 0, 0, "OMPI_COMM_WORLD_LOCAL_RANK=2"},
    {{"SLURM_LOCALID=3", "OMPI_COMM_WORLD_LOCAL_RANK=0"}, 0, 3, "SLURM_LOCALID"},
    {{"SLURM_LOCALID=x"}, CW_STATUS_INPUT, 0, "SLURM_LOCALID='x'"},
    {{"OMPI_COMM_WORLD_LOCAL_RANK=-1"}, CW_STATUS_INPUT, 0, "OMPI_COMM_WORLD_LOCAL_RANK"},
};

static void test_rule(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const pcase *c = &cases[i];
        size_t idx = 99;
        char why[256];
        cw_error err;
        cw_error_clear(&err);
        int rc = devpick_auto(devs, NDEV, cw_fake_env, (void *)c->env, &idx, why, sizeof why, &err);
        if (rc != c->rc)
            fail_msg("case %zu: rc %d, want %d (%s)", i, rc, c->rc, err.text);
        if (rc == 0 && idx != c->idx)
            fail_msg("case %zu: device %zu, want %zu (%s)", i, idx, c->idx, why);
        const char *text = rc == CW_STATUS_INPUT ? err.text : why;
        if (c->why && !strstr(text, c->why))
            fail_msg("case %zu: '%s' lacks '%s'", i, text, c->why);
    }
}

static void test_cpu_only(void **state)
{
    (void)state;
    /* only CPU devices (lavapipe, as on CI): ranks go round them */
    devpick_device cpus[] = {{"llvmpipe", NULL, 1, 0, 0, 0, 0, 0}};
    const char *env[] = {"SLURM_LOCALID=2", NULL};
    size_t idx = 99;
    char why[256];
    cw_error err;
    assert_int_equal(devpick_auto(cpus, 1, cw_fake_env, env, &idx, why, sizeof why, &err), 0);
    assert_int_equal(idx, 0);
    assert_non_null(strstr(why, "ranks share"));
    assert_int_equal(devpick_auto(cpus, 0, cw_fake_env, env, &idx, why, sizeof why, &err), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_cpu_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
