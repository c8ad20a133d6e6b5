/* model_cpu.c - the roofline of a native CPU kernel (see model_cpu.h). */
#include "model_cpu.h"

#include "cpu_isa.h"

/* Per-thread-count ceilings: a kernel on t threads gets t/units of the
 * machine (FP and bandwidth), capped at the whole machine. */
static double share(const device_profile *p, unsigned threads)
{
    unsigned units = p->units ? p->units : cpu_isa_online_cpus();
    return threads >= units ? 1.0 : (double)threads / units;
}

static double bandwidth(const plan_kernel *k, const device_profile *prof,
                        double sh, double bytes, prediction *p)
{
    if (prof->dram_gbs > 0)
        return prof->dram_gbs * sh;
    unsigned threads = cpu_isa_kernel_threads(k);
    unsigned used = threads < prof->units || !prof->units ? threads
                                                          : prof->units;
    double bw = CPU_ASSUMED_GBS_PER_CORE * used;
    if (bytes > 0)
        prediction_add_assumption(
            p, "memory bandwidth not measured: assumed %.0f GB/s per "
            "thread (%.0f GB/s); run `clockwork calibrate --cpu`",
            CPU_ASSUMED_GBS_PER_CORE, bw);
    return bw;
}

static void describe_profile(const plan_kernel *k, const device_profile *prof,
                             double sh, prediction *p)
{
    unsigned threads = cpu_isa_kernel_threads(k);
    prediction_add_assumption(
        p, "profile %s: %s", profile_source_name(prof->source),
        prof->command[0] ? prof->command : prof->name);
    prediction_add_assumption(
        p, "%u thread%s (%s): %.0f%% of the machine's FP32 peak and "
        "bandwidth", threads, threads == 1 ? "" : "s",
        k->threads > 0 ? "plan" : "default: all online CPUs", sh * 100);
    if (prof->source != PROFILE_CALIBRATED && prof->clock_ghz > 0)
        prediction_add_assumption(
            p, "FP32 peak %.0f GFLOP/s = cores x %d FMA units x lanes x 2 x "
            "%.2f GHz (clock from /proc/cpuinfo, assumed sustained)",
            prof->fp32_gflops, CPU_ASSUMED_FMA_UNITS, prof->clock_ghz);
    prediction_add_assumption(p, "roofline: packed vector FMA code on every "
                              "unit; FLOPs and bytes from the plan's work");
}

void model_cpu_predict(const plan_kernel *k, const cpu_static *st,
                       const device_profile *prof, prediction *p)
{
    if (!st->work_ok)
        return;
    double flops = st->flops, bytes = st->bytes;
    double sh = share(prof, cpu_isa_kernel_threads(k));
    double peak = prof->fp32_gflops > 0 ? prof->fp32_gflops * sh : -1;
    double bw = bandwidth(k, prof, sh, bytes, p);
    describe_profile(k, prof, sh, p);

    p->flops = flops > 0 ? flops : 0;
    p->bytes = bytes > 0 ? bytes : 0;
    p->invocations = 0;
    double t_f = -1, t_b = -1;
    if (flops >= 0 && peak > 0) {
        t_f = flops / (peak * 1e9) * 1e6;
        prediction_add_term(p, "fp32", t_f);
    } else if (flops >= 0) {
        prediction_add_assumption(p, "FP32 peak unknown (no clock): the "
                                  "FLOP term is left out");
    }
    if (bytes >= 0 && bw > 0) {
        t_b = bytes / (bw * 1e9) * 1e6;
        prediction_add_term(p, "dram", t_b);
    }
    if (t_f < 0 && t_b < 0) {
        p->valid = 0;
        p->conf = CONF_UNKNOWN;
        if (!k->work_flops && !k->work_bytes)
            prediction_add_assumption(p, "no \"work\" in the plan: nothing "
                                      "to put on the roofline");
        return;
    }
    p->valid = 1;
    p->conf = CONF_ESTIMATED;
    p->time_us = t_f > t_b ? t_f : t_b;
    p->ideal_time_us = p->time_us;
    cw_set_str(&p->bound, t_f >= t_b ? "fp32" : "dram");
}
