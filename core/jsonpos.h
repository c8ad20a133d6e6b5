/* jsonpos.h - source positions of the values in a JSON text.
 *
 * jansson reports positions for syntax errors only; semantic errors in a
 * plan ("unknown key", "wrong type") must still name line and column.
 * jsonpos_index() walks a JSON text that jansson already accepted and
 * records, for every value, its path ("kernels/0/buffers/1/bytes") and the
 * line/column where the value (or, for object members, the key) starts.
 * The index owns its memory; jsonpos_free() releases it.  On text that is
 * not valid JSON it stops early and returns what it saw; lookups of the
 * rest then report position 0 (unknown).
 */
#ifndef CW_JSONPOS_H
#define CW_JSONPOS_H

#include <jansson.h>
#include <stddef.h>

typedef struct jsonpos_entry {
    char *path;
    int key_line, key_col;     /* of the member's key; = value's for arrays */
    int value_line, value_col;
} jsonpos_entry;

typedef struct jsonpos {
    jsonpos_entry *entries;
    size_t n, cap;
    size_t *slots;   /* hash of path -> entry index + 1; 0 = empty */
    size_t nslots;   /* power of two, >= 2n */
} jsonpos;

void jsonpos_index(const char *text, size_t len, jsonpos *out);
/* Entry for path or NULL. */
const jsonpos_entry *jsonpos_find(const jsonpos *ix, const char *path);
void jsonpos_free(jsonpos *ix);

/* The position of a value of a parsed document, for readers that walk
 * the jansson tree rather than paths (reports): finds target inside root
 * by identity, writes its path as jsonpos_index() does, and returns 0; -1
 * when target is not inside root (NULL, or a missing key). */
int jsonpos_path_of(const json_t *root, const json_t *target, char *buf, size_t n);
/* Line and column where target's value starts in text (the text root was
 * parsed from), or 0 and 0 when unknown.  Indexes the text: meant for the
 * one error a reader reports, not for every value. */
void jsonpos_locate(const char *text, size_t len, const json_t *root, const json_t *target,
                    int *line, int *col);

/* "an object", "an integer", ... for "must be X, not Y" messages. */
const char *jsonpos_type_phrase(const json_t *v);

#endif
