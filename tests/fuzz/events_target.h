/* The --events list parser on arbitrary bytes: what fuzz_events.c fuzzes
 * and tests/unit/test_fuzz_regressions.c replays its finds through.
 * Header-only, like spirv_target.h. */
#ifndef CW_FUZZ_EVENTS_TARGET_H
#define CW_FUZZ_EVENTS_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pfm.h"

static inline int events_target_run(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char **names = NULL;
    size_t n = 0;
    cw_error err;
    if (pfm_parse_event_list(text, &names, &n, &err) == 0)
        pfm_free_event_list(names, n);
    free(text);
    return 0;
}

#endif
