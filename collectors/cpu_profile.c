/* cpu_profile.c - this CPU's profile: detected or calibrated (see
 * cpu_profile.h). */
#include "cpu_profile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu_isa.h"

/* Physical cores among the online CPUs: SMT siblings share FMA units. */
static unsigned physical_cores(void)
{
    unsigned online = cpu_isa_online_cpus();
    char sib[32], cores[32];
    profile_cpuinfo_field("siblings", sib, sizeof sib);
    profile_cpuinfo_field("cpu cores", cores, sizeof cores);
    long s = atol(sib), c = atol(cores);
    if (s > 0 && c > 0 && s > c) {
        unsigned p = (unsigned)((long)online * c / s);
        return p ? p : 1;
    }
    return online;
}

static double cpuinfo_ghz(void)
{
    char mhz[64];
    profile_cpuinfo_field("cpu MHz", mhz, sizeof mhz);
    double v = atof(mhz);
    return v > 0 ? v / 1e3 : -1;
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static void cpu_model(char *buf, size_t n)
{
    profile_cpuinfo_field("model name", buf, n);
    if (!buf[0])
        snprintf(buf, n, "unknown x86-64 CPU");
}

void cpu_profile_uuid(char *buf, size_t n)
{
    char model[256];
    cpu_model(model, sizeof model);
    snprintf(buf, n, "cpu-%08x", fnv1a(model));
}

int cpu_profile_cache_path(char *buf, size_t n)
{
    char uuid[40];
    cpu_profile_uuid(uuid, sizeof uuid);
    return profile_cache_path(uuid, "native", buf, n);
}

void cpu_profile_detect(device_profile *p)
{
    profile_init(p);
    char model[256];
    cpu_model(model, sizeof model);
    snprintf(p->name, sizeof p->name, "%s", model);
    snprintf(p->key, sizeof p->key, "cpu");
    snprintf(p->driver, sizeof p->driver, "native");
    cpu_profile_uuid(p->uuid, sizeof p->uuid);
    snprintf(p->date, sizeof p->date, "detected at run time");
    p->source = PROFILE_BUILTIN;
    p->kind = DEVICE_KIND_NATIVE_CPU;
    unsigned cores = physical_cores();
    int lanes = cpu_isa_lanes_fp32();
    int fma = cpu_isa_has_fma();
    double ghz = cpuinfo_ghz();
    snprintf(p->command, sizeof p->command,
             "detected: %u cores, %s%s (%d FP32 lanes), %s GHz from "
             "/proc/cpuinfo, %d FMA units per core assumed",
             cores, cpu_isa_name(), fma ? "+FMA" : "", lanes,
             ghz > 0 ? "clock" : "no", CPU_ASSUMED_FMA_UNITS);
    p->units = cores;
    p->clock_ghz = ghz;
    p->line_bytes = 64;
    p->sector_bytes = 64;
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (llc <= 0)
        llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
    p->l2_bytes = llc > 0 ? (uint64_t)llc : 0;
    p->max_threads_per_unit = 1;
    if (ghz > 0) {
        p->fp32_gflops = cores * CPU_ASSUMED_FMA_UNITS * lanes * (fma ? 2.0 : 1.0) *
                         ghz;
        p->fp64_gflops = p->fp32_gflops / 2;
    }
    p->launch_us = 0.05; /* a function call */
}

void cpu_profile(device_profile *out)
{
    char path[1024];
    if (cpu_profile_cache_path(path, sizeof path) == 0 &&
        access(path, R_OK) == 0) {
        cw_error err;
        device_profile p;
        if (profile_load_file(path, &p, &err) == 0 && p.fp32_gflops > 0) {
            p.kind = DEVICE_KIND_NATIVE_CPU;
            *out = p;
            return;
        }
    }
    cpu_profile_detect(out);
}
