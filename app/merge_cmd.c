/* merge_cmd.c - see merge_cmd.h. */
#include "merge_cmd.h"
#include "exitcode.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "merge.h"
#include "termtext.h"

static void print_err(const cw_error *err)
{
    char msg[1600];
    cw_error_format(err, msg, sizeof msg);
    fputs("clockwork: ", stderr);
    cw_term_fputs(msg, stderr); /* file names and versions come from the reports */
    fputs("\n", stderr);
}

static int write_table(const report *r, const char *path, cw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        cw_error_set(err, path, 0, 0, "out of memory");
        return CW_EXIT_USAGE;
    }
    fprintf(mem, "merged %zu report%s, %zu kernel%s", r->nsources, r->nsources == 1 ? "" : "s",
            r->nkernels, r->nkernels == 1 ? "" : "s");
    if (r->provenance.job)
        fprintf(mem, ", job %s", r->provenance.job);
    fprintf(mem, "; worst exit status of the inputs: %d\n", r->provenance.exit_code);
    report_write_table(r, mem, report_has_measurements(r));
    fleet_write_table(r, mem);
    fclose(mem);
    char *esc = cw_term_escape(text, len, 0); /* names come from the reports */
    free(text);
    int rc = cw_write_file_atomic(path, esc, strlen(esc), err);
    free(esc);
    return rc;
}

/* The exit status a report says its writer left with (provenance), else
 * the one its contents imply. */
static int report_exit(const report *r)
{
    if (r->provenance.valid && r->provenance.has_exit_code)
        return r->provenance.exit_code;
    return app_exit_code(report_status(r, report_has_measurements(r)));
}

int merge_exit_codes(const report *in, size_t n, report *merged)
{
    int worst = CW_EXIT_OK;
    for (size_t i = 0; i < n && i < merged->nsources; i++) {
        merged->sources[i].exit_code = report_exit(&in[i]);
        worst = app_exit_worst(worst, merged->sources[i].exit_code);
    }
    merged->provenance.has_exit_code = 1;
    merged->provenance.exit_code = worst;
    return worst;
}

int merge_main(const cw_options *opt, int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "clockwork: merge needs the reports to join: clockwork merge "
                        "r-0.json r-1.json ... -o merged.json\nTry 'clockwork merge --help'.\n");
        return CW_EXIT_USAGE;
    }
    report *in = xcalloc((size_t)argc, sizeof *in);
    int code = CW_EXIT_OK, nread = 0;
    cw_error err;
    for (int i = 0; i < argc; i++, nread++) {
        cw_error_clear(&err);
        if (report_read_file(argv[i], &in[i], &err) != 0) {
            print_err(&err);
            code = CW_EXIT_USAGE;
            break;
        }
    }
    report merged;
    int worst = CW_EXIT_OK;
    if (!code && argc == 1 && in[0].nsources) {
        /* one merged report: shown (or converted) as it is */
        merged = in[0];
        memset(&in[0], 0, sizeof in[0]);
        worst = merged.provenance.exit_code;
    } else if (!code) {
        cw_error_clear(&err);
        if (merge_reports(in, (const char *const *)argv, (size_t)argc, &merged, &err)) {
            code = CW_EXIT_USAGE;
        } else {
            worst = merge_exit_codes(in, (size_t)argc, &merged);
            fleet_analyse(&merged, opt->tolerance);
        }
        if (code)
            print_err(&err);
    }
    if (!code) {
        const char *path = opt->output ? opt->output : "-";
        const char *fmt = report_format_for(opt->format, opt->output);
        cw_error_clear(&err);
        int wrc = !strcmp(fmt, "table") ? write_table(&merged, path, &err)
                                        : report_write_file(&merged, path, fmt, &err);
        if (wrc)
            print_err(&err);
        code = wrc ? app_exit_for_error(&err) : worst;
        report_free(&merged);
    }
    for (int i = 0; i < nread; i++)
        report_free(&in[i]);
    free(in);
    return code;
}
