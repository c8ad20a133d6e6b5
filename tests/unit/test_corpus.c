/* test_corpus.c - runs the verifier over every case of tests/corpus and
 * compares the findings with the case's expected.txt (format in
 * tests/corpus/README.md).  Each case: kernel(s) + plan.json + expected.txt.
 * The device is the built-in "lavapipe" profile (its limits are fixed
 * numbers, so the limit checks are reproducible on any machine). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel_fixture.h"

#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

static char root[768];


/* Each kernel's confidence, as far as there is room. */
typedef struct confs {
    int *conf;
    size_t n;
} confs;

/* Records the kernel's confidence; a kernel whose shader does not load is
 * an input error of the case (and stays CONF_UNKNOWN). */
static void record_kernel(const cw_analysed *a)
{
    const confs *c = a->ctx;
    if (a->sm) {
        if (a->index < c->n)
            c->conf[a->index] = (int)a->res->counts.conf;
        return;
    }
    kernel_report *kr = a->kr;
    report_add_finding(kr, FINDING_SPIRV_INVALID, SEV_ERROR, a->k->shader, a->err->line,
                       "fix it", "%s", a->err->text);
    kr->input_error = 1;
}

/* Analyse every kernel of the case's plan into kr[]; returns count.  conf[]
 * gets each kernel's confidence (CONF_UNKNOWN when it was not evaluated). */
static size_t analyse_case(const char *dir, report *rep, int *conf, size_t nconf, char *why,
                           size_t whylen)
{
    char path[1400], msg[1600];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    confs c = {conf, nconf};
    int n = cw_analyse_plan(path, rep, record_kernel, &c, msg, sizeof msg);
    if (n < 0) {
        snprintf(why, whylen, "plan does not load: %s", msg);
        return 0;
    }
    return (size_t)n;
}

static int check_case(const char *name, int *kinds_seen, const char *const *kinds, size_t nkinds)
{
    char dir[1100], path[1200], why[2048] = "";
    expectation x;
    report rep;
    int ok = 1;

    snprintf(dir, sizeof dir, "%s/%s", root, name);
    snprintf(path, sizeof path, "%s/expected.txt", dir);
    if (read_expected(path, &x, why, sizeof why)) {
        printf("FAIL  %s: %s\n", name, why);
        return 0;
    }
    report_init(&rep);
    int conf[16];
    for (int i = 0; i < 16; i++)
        conf[i] = CONF_UNKNOWN;
    if (analyse_case(dir, &rep, conf, 16, why, sizeof why) == 0) {
        printf("FAIL  %s: %s\n", name, why);
        report_free(&rep);
        return 0;
    }
    int verbose = getenv("CW_CORPUS_VERBOSE") != NULL;
    for (size_t ki = 0; ki < rep.nkernels; ki++) {
        const kernel_report *kr = &rep.kernels[ki];
        for (size_t i = 0; i < kr->nfindings; i++) {
            const finding *f = &kr->findings[i];
            if (verbose)
                printf("      %s: %s:%d: %s %s: %s [hint: %s]\n", name, f->file ? f->file : "-",
                       f->line, severity_name(f->sev), f->id, f->message,
                       f->hint ? f->hint : "");
            if (f->sev == SEV_NOTE)
                continue;
            int matched = 0;
            for (int j = 0; j < x.n; j++) {
                if (strcmp(x.e[j].id, f->id) != 0)
                    continue;
                if (x.e[j].line && x.e[j].line != f->line)
                    continue;
                x.e[j].found = 1;
                matched = 1;
            }
            if (x.clean && f->sev == SEV_ERROR && !matched) {
                printf("FAIL  %s: expected clean, got %s %s (line %d): %s\n", name,
                       severity_name(f->sev), f->id, f->line, f->message);
                ok = 0;
            } else if (!x.clean && !matched) {
                printf("FAIL  %s: unexpected %s %s (line %d): %s\n", name,
                       severity_name(f->sev), f->id, f->line, f->message);
                ok = 0;
            }
            /* a finding about a GLSL shader names its line */
            size_t fl = f->file ? strlen(f->file) : 0;
            if (fl > 5 && strcmp(f->file + fl - 5, ".comp") == 0 && f->line <= 0) {
                printf("FAIL  %s: %s on %s has no line\n", name, f->id, f->file);
                ok = 0;
            }
            if (!f->hint || !f->hint[0]) {
                printf("FAIL  %s: finding %s has no hint\n", name, f->id);
                ok = 0;
            }
        }
    }
    for (size_t ki = 0; x.conf >= 0 && ki < rep.nkernels && ki < 16; ki++)
        if (conf[ki] != x.conf) {
            printf("FAIL  %s: kernel %s is %s, expected %s\n", name, rep.kernels[ki].name,
                   confidence_name((confidence)conf[ki]), confidence_name((confidence)x.conf));
            ok = 0;
        }
    for (int j = 0; j < x.n; j++) {
        if (x.e[j].may || x.e[j].found)
            continue;
        printf("FAIL  %s: expected %s", name, x.e[j].id);
        if (x.e[j].line)
            printf(" at line %d", x.e[j].line);
        printf(", not found; findings:");
        for (size_t ki = 0; ki < rep.nkernels; ki++)
            for (size_t i = 0; i < rep.kernels[ki].nfindings; i++)
                printf(" %s:%d", rep.kernels[ki].findings[i].id, rep.kernels[ki].findings[i].line);
        printf("\n");
        ok = 0;
    }
    if (ok) {
        for (int j = 0; j < x.n; j++)
            for (size_t k = 0; k < nkinds; k++)
                if (!x.e[j].may && strcmp(x.e[j].id, kinds[k]) == 0)
                    kinds_seen[k]++;
        printf("ok    %s\n", name);
    }
    report_free(&rep);
    return ok;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_case(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

static void test_corpus(void **state)
{
    (void)state;
    /* the bug kinds this corpus must cover with >= 3 distinct kernels */
    static const char *const kinds[] = {
        "workgroup-size-limit", "shared-memory-limit", "binding-missing",
        "buffer-too-small", "push-constant-unknown",
    };
    size_t nk = sizeof kinds / sizeof kinds[0];
    int seen[sizeof kinds / sizeof kinds[0]] = {0};
    struct dirent **list = NULL;
    const char *tr = getenv("CW_TEST_ROOT");
    snprintf(root, sizeof root, "%s/tests/corpus", tr && tr[0] ? tr : ".");
    int n = scandir(root, &list, is_case, name_cmp);
    assert_true(n > 0);
    int failed = 0, cases = 0;
    for (int i = 0; i < n; i++) {
        char p[1400];
        snprintf(p, sizeof p, "%s/%s/expected.txt", root, list[i]->d_name);
        FILE *f = fopen(p, "r");
        if (f) {
            fclose(f);
            cases++;
            if (!check_case(list[i]->d_name, seen, kinds, nk))
                failed++;
        }
        free(list[i]);
    }
    free(list);
    printf("%d cases, %d failed\n", cases, failed);
    for (size_t k = 0; k < nk; k++) {
        printf("%-24s %d cases\n", kinds[k], seen[k]);
        if (seen[k] < 3) {
            printf("FAIL  fewer than 3 passing cases of %s\n", kinds[k]);
            failed++;
        }
    }
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
