/* cpu_checks.c - static checks of a native CPU kernel (see cpu_checks.h). */
#include "cpu_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cpu_isa.h"
#include "expr.h"

/* Evaluate one work expression; on error add a finding and return -1. */
static int eval_work(const plan_kernel *k, const char *what, const char *text,
                     double *out, kernel_report *kr)
{
    expr_var *vars = xcalloc(k->nargs ? k->nargs : 1, sizeof *vars);
    for (size_t i = 0; i < k->nargs; i++) {
        vars[i].name = k->args[i].key;
        vars[i].value = k->args[i].is_integer ? k->args[i].ivalue
                                              : (int64_t)k->args[i].value;
    }
    expr_error e;
    int64_t v;
    int rc = expr_eval(text, vars, k->nargs, &v, &e);
    free(vars);
    if (rc == 0 && v < 0) {
        rc = -1;
        e.pos = 1;
        snprintf(e.text, sizeof e.text, "the value is negative (%lld)",
                 (long long)v);
    }
    if (rc) {
        finding *f = report_add_finding(
            kr, FINDING_WORK_EXPRESSION_INVALID, SEV_ERROR, NULL, k->line,
            "write the count as + - * / and parentheses over the kernel's "
            "integer args, e.g. \"2*n*n*n\"",
            "kernel '%s': work.%s \"%s\", position %d: %s", k->name, what,
            text, e.pos, e.text);
        char field[32];
        snprintf(field, sizeof field, "work.%s", what);
        finding_detail_str(f, "field", field);
        finding_detail_int(f, "position", e.pos);
        kr->input_error = 1;
        return -1;
    }
    *out = (double)v;
    return 0;
}

/* Packed code narrower than the machine's vectors, or without FMA where
 * the machine has it, can reach only a fraction of the peak: a note. */
static void add_narrow_note(const plan_kernel *k, const cpuinspect_result *ir,
                            kernel_report *kr)
{
    int bits = cpu_isa_lanes_fp32() * 32;
    int machine_fma = cpu_isa_has_fma();
    int factor = ir->vector_bits > 0 && bits > ir->vector_bits
                     ? bits / ir->vector_bits : 1;
    int no_fma = machine_fma && !ir->loop_fma;
    if (no_fma)
        factor *= 2;
    if (factor <= 1)
        return;
    /* VEX-encoded code was compiled for AVX already: -march=native is not
     * the fix (issue 16) */
    const char *hint =
        ir->vex_fp && bits <= ir->vector_bits
            ? "allow contraction into FMA (-ffp-contract=fast; ISO C modes "
              "turn it off): the code already uses the machine's full "
              "vector width"
        : ir->vex_fp
            ? "the code is already compiled for AVX (VEX-encoded), so "
              "-march=native alone will not widen it: ask for full-width "
              "vectors (GCC: -mprefer-vector-width=512) and allow FMA "
              "contraction (-ffp-contract=fast)"
            : "compile for the machine's vector ISA (-march=native), and "
              "allow contraction into FMA (-ffp-contract=fast; ISO C modes "
              "turn it off)";
    finding *f = report_add_finding(
        kr, FINDING_NARROW_VECTOR_CODE, SEV_NOTE, k->library, 0, hint,
        "the loops of '%s' use %d-bit vectors%s; the roofline assumes %d-bit "
        "%s: at most 1/%d of the FP32 peak", k->symbol, ir->vector_bits,
        no_fma ? " and no FMA" : "", bits, machine_fma ? "FMA" : "vectors",
        factor);
    finding_detail_str(f, "symbol", ir->symbol);
    finding_detail_int(f, "vector_bits", ir->vector_bits);
    finding_detail_int(f, "machine_vector_bits", bits);
    finding_detail_bool(f, "fma", ir->loop_fma);
    finding_detail_real(f, "peak_fraction", 1.0 / factor);
}

static void add_scalar_warning(const plan_kernel *k, const device_profile *prof,
                               const cpuinspect_result *ir, kernel_report *kr)
{
    int lanes = cpu_isa_lanes_fp32();
    finding *f = report_add_finding(
        kr, FINDING_SCALAR_FP_CODE, SEV_WARNING, k->library, 0,
        ir->vex_fp
            ? "the code is already compiled for AVX or later (-march=native "
              "is not the fix): restructure the hot loop so the compiler "
              "vectorises it (unit-stride inner loop, no loop-carried "
              "dependence; a reduction needs #pragma omp simd reduction or "
              "-ffast-math), or call a tuned library"
            : "vectorise the hot loop: unit-stride inner loop, -O3 with "
              "-march=native (or the target's vector ISA), or call a tuned "
              "library",
        "scalar code: the roofline assumes vectors. The loops of '%s' do "
        "floating-point arithmetic with %zu scalar and no packed "
        "instructions, so they can reach at most 1/%d of the %s FP32 peak%s",
        k->symbol, ir->loop_fp_scalar, lanes, cpu_isa_name(),
        prof && prof->fp32_gflops > 0 ? "" : " (peak unknown)");
    finding_detail_str(f, "symbol", ir->symbol);
    finding_detail_uint(f, "loops", ir->nloops);
    finding_detail_uint(f, "loop_fp_scalar", ir->loop_fp_scalar);
    finding_detail_uint(f, "loop_fp_packed", ir->loop_fp_packed);
    finding_detail_uint(f, "instructions", ir->ninsns);
    finding_detail_int(f, "vector_lanes_fp32", lanes);
}

/* Wider vectors cannot help a loop whose memory time exceeds its FP time
 * even at the code's own width (issue 16: no vector advice on DRAM-bound
 * loops): FLOPs / (peak x fraction reached) <= bytes / bandwidth. */
static int memory_bound_anyway(const device_profile *prof,
                               const cpuinspect_result *ir,
                               const cpu_static *st)
{
    if (!prof || !(prof->fp32_gflops > 0) || !(prof->dram_gbs > 0) ||
        st->flops < 0 || !(st->bytes > 0))
        return 0;
    double fraction = 1;
    int bits = cpu_isa_lanes_fp32() * 32;
    if (ir->cls == CPUI_SCALAR)
        fraction = 1.0 / cpu_isa_lanes_fp32();
    else if (ir->vector_bits > 0 && bits > ir->vector_bits)
        fraction = (double)ir->vector_bits / bits;
    if (cpu_isa_has_fma() && !ir->loop_fma)
        fraction /= 2;
    double t_fp = st->flops / (prof->fp32_gflops * fraction);
    double t_mem = st->bytes / prof->dram_gbs;
    return t_fp <= t_mem;
}

/* Inspects the symbol's code once; a library or symbol the run could not
 * use is an input error (exit 2) that stops the kernel from being run. */
static void inspect_code(const plan_kernel *k, const char *lib_file,
                         const char *lib_why, const device_profile *prof,
                         kernel_report *kr, cpu_static *out)
{
    cpuinspect_result *ir = &out->code;
    if (!lib_file) {
        snprintf(ir->reason, sizeof ir->reason, "%s", lib_why ? lib_why : "");
        report_add_finding(
            kr, FINDING_LIBRARY_INVALID, SEV_ERROR, k->plan_path, k->line,
            "put the library next to the plan (paths are relative to the plan "
            "file), give its path, or install it where the loader looks "
            "(LD_LIBRARY_PATH, ldconfig)",
            "kernel '%s': library '%s' is neither next to the plan nor found "
            "by the system search: %s", k->name, k->library,
            lib_why ? lib_why : "not found");
        kr->input_error = 1;
        return;
    }
    if (cpuinspect_symbol(lib_file, k->symbol, ir) != 0) {
        if (ir->unusable) {
            report_add_finding(
                kr, ir->unusable == 1 ? FINDING_LIBRARY_INVALID : FINDING_SYMBOL_INVALID,
                SEV_ERROR, k->plan_path, k->line,
                ir->unusable == 1
                    ? "give a 64-bit x86-64 shared object (cc -shared -fPIC)"
                    : "export the kernel as a global function with the ABI of "
                      "include/clockwork.h: int f(void *const b[], const "
                      "int64_t a[])",
                "kernel '%s': %s", k->name, ir->reason);
            kr->input_error = 1;
            return;
        }
        prediction_add_assumption(&kr->prediction,
                                  "machine code not inspected: %s",
                                  ir->reason);
        return;
    }
    out->inspected = 1;
    prediction_add_assumption(&kr->prediction, "machine code: %s",
                              ir->summary);
    if (memory_bound_anyway(prof, ir, out)) {
        prediction_add_assumption(&kr->prediction,
                                  "the loops are bound by memory bandwidth "
                                  "even at the code's vector width: no "
                                  "vector-width advice");
        return;
    }
    if (ir->cls == CPUI_VECTOR)
        add_narrow_note(k, ir, kr);
    else if (ir->cls == CPUI_SCALAR)
        add_scalar_warning(k, prof, ir, kr);
}

void cpu_checks_run(const plan_kernel *k, const char *lib_file,
                    const char *lib_why, const device_profile *prof,
                    kernel_report *kr, cpu_static *out)
{
    memset(out, 0, sizeof *out);
    out->flops = out->bytes = -1;
    int bad = 0;
    for (size_t i = 0; i < k->nargs; i++)
        if (!k->args[i].is_integer) {
            report_add_finding(kr, FINDING_PLAN_INVALID, SEV_ERROR, NULL,
                               k->args[i].line, "give CPU kernel args as "
                               "integers", "kernel '%s': argument '%s' = %g "
                               "is not an integer", k->name, k->args[i].key,
                               k->args[i].value);
            kr->input_error = 1;
            bad = 1;
        }
    if (!bad && k->work_flops &&
        eval_work(k, "flops", k->work_flops, &out->flops, kr))
        bad = 1;
    if (!bad && k->work_bytes &&
        eval_work(k, "bytes", k->work_bytes, &out->bytes, kr))
        bad = 1;
    out->work_ok = !bad;
    inspect_code(k, lib_file, lib_why, prof, kr, out);
}
