/* cpu_isa.c - this machine's vector ISA (see cpu_isa.h). */
#include "cpu_isa.h"

#include <unistd.h>

unsigned cpu_isa_online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

int cpu_isa_lanes_fp32(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return 16;
    if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx"))
        return 8;
    return 4;
}

const char *cpu_isa_name(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "AVX-512";
    if (__builtin_cpu_supports("avx2"))
        return "AVX2";
    if (__builtin_cpu_supports("avx"))
        return "AVX";
    return "SSE";
}

int cpu_isa_has_fma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") || __builtin_cpu_supports("avx512f");
}

unsigned cpu_isa_kernel_threads(const plan_kernel *k)
{
    return k->threads > 0 ? (unsigned)k->threads : cpu_isa_online_cpus();
}
