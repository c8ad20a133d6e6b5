/* libFuzzer harness: the report reader used by `diff` and `merge`, then a
 * write-back, a diff of the report against itself, a merge of it alone
 * and with itself (provenance, sources, shard sets) and the fleet view. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "diff.h"
#include "fleet.h"
#include "merge.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    report r;
    cw_error err;
    if (report_read_text("fuzz.json", (const char *)data, size, &r, &err) != 0)
        return 0;
    char *text = report_to_json_text(&r);
    free(text);
    diff_result d;
    diff_reports(&r, &r, 0.1, &d);
    diff_result_free(&d);
    report two[2] = {r, r};
    const char *files[2] = {"a.json", "b.json"};
    for (size_t n = 1; n <= 2; n++) {
        report m;
        if (merge_reports(two, files, n, &m, &err) == 0) {
            fleet_analyse(&m, 0.25);
            free(report_to_json_text(&m));
        }
        report_free(&m);
    }
    report_free(&r);
    return 0;
}
