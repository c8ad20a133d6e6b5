/* findings.h - the registry of finding ids (core/findings.def).
 *
 * Contract: every finding a stage reports names a finding_kind; the id
 * string, default severity, category, one-line description and docs
 * anchor come from the one list in findings.def.  SARIF rules and
 * docs/checks.md's index are driven by it.  Reports read back from disk may
 * carry ids this build does not know (an older or newer Clockwork):
 * finding_lookup() returns NULL for those and callers keep the text.
 * Everything here is static data; nothing to free.
 */
#ifndef CW_FINDINGS_H
#define CW_FINDINGS_H

#include <stddef.h>

typedef enum { SEV_NOTE = 0, SEV_WARNING = 1, SEV_ERROR = 2 } severity;

typedef enum {
    FINDING_CAT_CORRECTNESS,
    FINDING_CAT_PERFORMANCE,
    FINDING_CAT_INPUT,
} finding_category;

typedef enum {
#define CW_FINDING(name, id, sev, cat, desc, anchor) FINDING_##name,
#include "findings.def"
#undef CW_FINDING
    FINDING_COUNT
} finding_kind;

typedef struct finding_info {
    const char *id;          /* stable id, ARCHITECTURE §5 */
    severity default_sev;
    finding_category category;
    const char *description; /* one line, no final period */
    const char *anchor;      /* relative to docs/, e.g. "checks.md#out-of-bounds" */
} finding_info;

/* The registry entry of a kind (kind < FINDING_COUNT). */
const finding_info *finding_info_of(finding_kind kind);
/* The entry with this id, or NULL when the id is not registered. */
const finding_info *finding_lookup(const char *id);
/* "correctness" | "performance" | "input" */
const char *finding_category_name(finding_category c);

#endif
