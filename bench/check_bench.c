/* check_bench.c - time of the static analysis (GLSL compilation excluded).
 *
 * 1. Per kernel of a plan (default examples/plan.json): median time of
 *    the reader + reflection + static checks, of SPIRV-Tools validation
 *    alone, and of the whole verifier_analyze (reader, validation,
 *    reflection, checks, evaluator).  Target: whole <= 10 ms per kernel.
 * 2. Generated modules of tens of thousands of instructions: the whole
 *    analysis against validation alone.  Target: ratio <= 1.5.
 *
 * Usage: check_bench [PLAN]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define MAXREP 200

typedef enum { T_READ, T_VALIDATE, T_WHOLE } what;

static double one(what w, const plan_kernel *k, const shader_module *sm,
                  const device_profile *prof)
{
    double t0 = now_ms();
    if (w == T_VALIDATE) {
        char msg[512];
        long inst;
        validate_spirv(sm->words, sm->nwords, 0, msg, sizeof msg, &inst);
    } else if (w == T_READ) {
        spv_module m;
        cw_error err;
        if (spv_parse(sm->words, sm->nwords, &m, &err) == 0) {
            int matched[64] = {0};
            verifier_specialize(&m, k, k->nspec <= 64 ? matched : NULL, &err);
            const spv_entry *e = spv_entry_find(&m, k->entry ? k->entry : "main");
            reflection r;
            reflect_module(&m, e, &r);
            report rep;
            report_init(&rep);
            kernel_report *kr = report_add_kernel(&rep, "k");
            limits_check(&m, &r, k, prof, matched, sm->source, kr);
            report_free(&rep);
            reflect_free(&r);
            spv_free(&m);
        }
    } else {
        report rep;
        verifier_result res;
        report_init(&rep);
        kernel_report *kr = report_add_kernel(&rep, "k");
        verifier_analyze(k, sm, prof, kr, &res);
        verifier_result_free(&res);
        report_free(&rep);
    }
    return now_ms() - t0;
}

/* median over repetitions, stopping after ~300 ms or MAXREP */
static double median(what w, const plan_kernel *k, const shader_module *sm,
                     const device_profile *prof)
{
    double t[MAXREP], total = 0;
    int n = 0;
    one(w, k, sm, prof); /* warm: validator context, caches */
    while (n < MAXREP && (n < 5 || total < 300)) {
        t[n] = one(w, k, sm, prof);
        total += t[n++];
    }
    qsort(t, (size_t)n, sizeof t[0], dcmp);
    return t[n / 2];
}

/* A kernel of `stmts` dependent statements, each a load, multiply-add and
 * a store: about 10 instructions per statement. */
static char *gen_glsl(int stmts)
{
    size_t cap = (size_t)stmts * 96 + 1024, len = 0;
    char *s = malloc(cap);
    if (!s)
        abort();
    len += (size_t)snprintf(s + len, cap - len,
                            "#version 450\n"
                            "layout(local_size_x = 64) in;\n"
                            "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"
                            "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"
                            "layout(push_constant) uniform P { uint n; };\n"
                            "void main() {\n"
                            "    uint i = gl_GlobalInvocationID.x;\n"
                            "    if (i >= n) return;\n"
                            "    float acc = 0.0;\n");
    for (int j = 0; j < stmts; j++)
        len += (size_t)snprintf(s + len, cap - len,
                                "    acc = acc * %d.5 + x[(i + %du) %% n];\n"
                                "    y[(i * %du) %% n] = acc;\n", j % 7 + 1, j, j % 13 + 1);
    snprintf(s + len, cap - len, "}\n");
    return s;
}

int main(int argc, char **argv)
{
    const char *plan_path = argc > 1 ? argv[1] : "examples/plan.json";
    plan p;
    cw_error err;
    device_profile prof;

    profile_init(&prof);
    if (profile_builtin("lavapipe", &prof) != 0) {
        fprintf(stderr, "no built-in lavapipe profile\n");
        return 1;
    }
    if (plan_load(plan_path, &p, &err)) {
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    printf("static analysis per kernel of %s (median, GLSL compilation excluded)\n",
           plan_path);
    printf("%-16s %7s %12s %12s %12s %8s\n", "kernel", "insts", "read+checks", "validate",
           "whole", "target");
    int over = 0;
    for (size_t i = 0; i < p.nkernels; i++) {
        plan_kernel *k = &p.kernels[i];
        shader_module sm;
        spv_module m;
        if (k->kind != PLAN_KERNEL_GPU)
            continue;
        if (!k->plan_path)
            k->plan_path = p.path;
        if (shader_load(k->shader_path, &sm, &err)) {
            printf("%-16s cannot load: %s\n", k->name, err.text);
            continue;
        }
        size_t ninsts = 0;
        if (spv_parse(sm.words, sm.nwords, &m, &err) == 0) {
            ninsts = m.ninsts;
            spv_free(&m);
        }
        double r = median(T_READ, k, &sm, &prof);
        double v = median(T_VALIDATE, k, &sm, &prof);
        double w = median(T_WHOLE, k, &sm, &prof);
        printf("%-16s %7zu %9.3f ms %9.3f ms %9.3f ms %8s\n", k->name, ninsts, r, v, w,
               w <= 10.0 ? "ok" : "> 10 ms");
        if (w > 10.0)
            over++;
        shader_free(&sm);
    }

    printf("\ngenerated modules: whole analysis vs SPIRV-Tools validation alone\n");
    printf("(ratio: whole / validate; static: (validate + read+checks) / validate, i.e.\n"
           " the analysis without the evaluator)\n");
    printf("%8s %9s %12s %12s %12s %8s %8s %8s\n", "stmts", "insts", "read+checks", "validate",
           "whole", "ratio", "target", "static");
    static const int sizes[] = {1000, 4000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        char *src = gen_glsl(sizes[s]);
        shader_module sm;
        if (shader_compile_glsl("generated.comp", src, strlen(src), &sm, &err)) {
            printf("generated module does not compile: %s\n", err.text);
            free(src);
            continue;
        }
        plan_kernel k;
        plan_buffer bufs[2];
        plan_value push[1];
        memset(&k, 0, sizeof k);
        memset(bufs, 0, sizeof bufs);
        memset(push, 0, sizeof push);
        push[0].key = "n";
        push[0].is_integer = 1;
        push[0].ivalue = 65536;
        push[0].value = 65536;
        bufs[0].binding = 0;
        bufs[0].has_elements = 1;
        bufs[0].elements = 65536;
        bufs[1] = bufs[0];
        bufs[1].binding = 1;
        k.name = "generated";
        k.shader = "generated.comp";
        k.entry = "main";
        k.workgroups[0] = 1024;
        k.workgroups[1] = k.workgroups[2] = 1;
        k.push = push;
        k.npush = 1;
        k.buffers = bufs;
        k.nbuffers = 2;
        spv_module m;
        size_t ninsts = 0;
        if (spv_parse(sm.words, sm.nwords, &m, &err) == 0) {
            ninsts = m.ninsts;
            spv_free(&m);
        }
        double r = median(T_READ, &k, &sm, &prof);
        double v = median(T_VALIDATE, &k, &sm, &prof);
        double w = median(T_WHOLE, &k, &sm, &prof);
        printf("%8d %9zu %9.3f ms %9.3f ms %9.3f ms %7.2fx %8s %7.2fx\n", sizes[s], ninsts, r,
               v, w, w / v, w / v <= 1.5 ? "ok" : "> 1.5x", (v + r) / v);
        shader_free(&sm);
        free(src);
    }
    plan_free(&p);
    (void)over;
    return 0;
}
