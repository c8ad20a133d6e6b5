/* libFuzzer harness: the report reader used by `diff`, then a write-back
 * and a diff of the report against itself. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "diff.h"
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
    report_free(&r);
    return 0;
}
