/* findings.c - the registry table, expanded from findings.def. */
#include "findings.h"

#include <string.h>

static const finding_info registry[FINDING_COUNT] = {
#define CW_FINDING(name, id, sev, cat, desc, anchor) \
    [FINDING_##name] = {id, sev, FINDING_CAT_##cat, desc, anchor},
#include "findings.def"
#undef CW_FINDING
};

const finding_info *finding_info_of(finding_kind kind)
{
    return (unsigned)kind < FINDING_COUNT ? &registry[kind] : NULL;
}

const finding_info *finding_lookup(const char *id)
{
    if (!id)
        return NULL;
    for (size_t i = 0; i < FINDING_COUNT; i++)
        if (strcmp(registry[i].id, id) == 0)
            return &registry[i];
    return NULL;
}

const char *finding_category_name(finding_category c)
{
    static const char *const names[] = {
        [FINDING_CAT_CORRECTNESS] = "correctness",
        [FINDING_CAT_PERFORMANCE] = "performance",
        [FINDING_CAT_INPUT] = "input",
    };
    return (unsigned)c < sizeof names / sizeof *names && names[c] ? names[c] : "?";
}
