/* test_findings.c - the findings registry (core/findings.def): ids are
 * well formed and unique, every anchor names an existing heading of a
 * docs/ file, docs/checks.md's index lists exactly the registered ids with
 * their descriptions, and SARIF rules carry the descriptions.
 *
 *   build/tests/test_findings --update docs/checks.md
 * rewrites the index between the markers (after adding an id). */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "findings.h"
#include "input.h"
#include "report.h"

#define BEGIN_MARK "<!-- finding index: generated from core/findings.def -->\n"
#define END_MARK "<!-- end of finding index -->\n"

static const char *root(void)
{
    const char *tr = getenv("CW_TEST_ROOT");
    return tr && tr[0] ? tr : ".";
}

static char *slurp(const char *path)
{
    char *buf;
    size_t len;
    cw_error err;
    return cw_read_input(path, "file", 0, 4u << 20, 1, &buf, &len, &err) ? NULL : buf;
}

/* The index as it must appear in docs/checks.md, markers included. */
static char *index_text(void)
{
    size_t cap = 64 * 1024, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    len += (size_t)snprintf(s + len, cap - len, "%s%s", BEGIN_MARK,
                            "| id | category | default severity | what it means | where |\n"
                            "| --- | --- | --- | --- | --- |\n");
    for (int k = 0; k < FINDING_COUNT; k++) {
        const finding_info *fi = finding_info_of((finding_kind)k);
        const char *file = fi->anchor;
        const char *hash = strchr(file, '#');
        len += (size_t)snprintf(s + len, cap - len, "| `%s` | %s | %s | %s | [%.*s](%s) |\n",
                                fi->id, finding_category_name(fi->category),
                                severity_name(fi->default_sev), fi->description,
                                (int)(hash - file), file, file);
        assert_true(len < cap);
    }
    len += (size_t)snprintf(s + len, cap - len, "%s", END_MARK);
    return s;
}

/* GitHub's heading anchor: lower case, spaces to '-', punctuation dropped. */
static void slug(const char *heading, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)heading[i];
        if (isalnum(c) || c == '-' || c == '_')
            out[o++] = (char)tolower(c);
        else if (c == ' ')
            out[o++] = '-';
        else if (c >= 0x80)
            out[o++] = (char)c;
    }
    out[o] = 0;
}

static int has_anchor(const char *doc, const char *anchor)
{
    for (const char *p = doc; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (*p != '#')
            continue;
        const char *h = p;
        while (*h == '#')
            h++;
        while (*h == ' ')
            h++;
        const char *e = strchr(h, '\n');
        char s[256];
        slug(h, e ? (size_t)(e - h) : strlen(h), s, sizeof s);
        if (strcmp(s, anchor) == 0)
            return 1;
    }
    return 0;
}

static void test_registry_well_formed(void **state)
{
    (void)state;
    for (int k = 0; k < FINDING_COUNT; k++) {
        const finding_info *fi = finding_info_of((finding_kind)k);
        assert_non_null(fi);
        assert_non_null(fi->id);
        for (const char *c = fi->id; *c; c++)
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-');
        assert_ptr_equal(finding_lookup(fi->id), fi);
        size_t d = strlen(fi->description);
        assert_true(d > 10 && d < 100);
        assert_true(fi->description[d - 1] != '.');
        assert_null(strchr(fi->description, '|')); /* a Markdown table cell */
        for (int j = 0; j < k; j++)
            assert_string_not_equal(finding_info_of((finding_kind)j)->id, fi->id);
    }
    assert_null(finding_lookup("no-such-finding"));
    assert_null(finding_lookup(NULL));
    assert_null(finding_info_of(FINDING_COUNT));
}

static void test_anchors_exist(void **state)
{
    (void)state;
    for (int k = 0; k < FINDING_COUNT; k++) {
        const finding_info *fi = finding_info_of((finding_kind)k);
        const char *hash = strchr(fi->anchor, '#');
        assert_non_null(hash);
        char path[1024];
        snprintf(path, sizeof path, "%s/docs/%.*s", root(), (int)(hash - fi->anchor), fi->anchor);
        char *doc = slurp(path);
        if (!doc)
            fail_msg("%s: anchor file %s cannot be read", fi->id, path);
        if (!has_anchor(doc, hash + 1))
            fail_msg("%s: %s has no heading for #%s", fi->id, path, hash + 1);
        free(doc);
    }
}

static void test_checks_md_index(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/checks.md", root());
    char *doc = slurp(path);
    assert_non_null(doc);
    char *want = index_text();
    const char *b = strstr(doc, BEGIN_MARK), *e = strstr(doc, END_MARK);
    if (!b || !e || e < b)
        fail_msg("%s has no finding index (markers missing); run "
                 "build/tests/test_findings --update docs/checks.md", path);
    size_t have_len = (size_t)(e - b) + strlen(END_MARK);
    if (have_len != strlen(want) || memcmp(b, want, have_len) != 0)
        fail_msg("%s: the finding index differs from core/findings.def; run "
                 "build/tests/test_findings --update docs/checks.md\nwanted:\n%s", path, want);
    /* every "## id" section of checks.md is a registered id */
    for (const char *p = doc; p; p = strstr(p, "\n## ")) {
        p += (*p == '\n');
        if (strncmp(p, "## ", 3) != 0) {
            p = strchr(p, '\n');
            continue;
        }
        char id[128];
        if (sscanf(p + 3, "%127[a-z0-9-]", id) == 1 && strchr(id, '-') &&
            strlen(id) == strcspn(p + 3, "\n"))
            if (!finding_lookup(id))
                fail_msg("%s has a section '## %s', which is no registered finding id", path, id);
        p = strchr(p, '\n');
    }
    free(want);
    free(doc);
}

static void test_sarif_rules_described(void **state)
{
    (void)state;
    report r;
    report_init(&r);
    kernel_report *k = report_add_kernel(&r, "k");
    report_add_finding(k, FINDING_OUT_OF_BOUNDS, SEV_WARNING, "k.comp", 3, NULL, "x");
    report_add_finding_id(k, "from-the-future", SEV_NOTE, NULL, 0, NULL, "y");
    char *text = report_to_sarif_text(&r);
    json_t *root_j = json_loads(text, 0, NULL);
    assert_non_null(root_j);
    json_t *rules = json_object_get(json_object_get(json_object_get(
        json_array_get(json_object_get(root_j, "runs"), 0), "tool"), "driver"), "rules");
    assert_int_equal(json_array_size(rules), 2);
    json_t *r0 = json_array_get(rules, 0);
    assert_string_equal(json_string_value(json_object_get(r0, "id")), "out-of-bounds");
    assert_string_equal(json_string_value(json_object_get(json_object_get(r0, "shortDescription"), "text")),
                        finding_info_of(FINDING_OUT_OF_BOUNDS)->description);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r0, "defaultConfiguration"), "level")),
                        "error");
    json_t *r1 = json_array_get(rules, 1);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r1, "shortDescription"), "text")),
                        "from-the-future");
    json_decref(root_j);
    free(text);
    report_free(&r);
}

/* --update FILE: replace the index between the markers, or append it. */
static int update(const char *path)
{
    char *doc = slurp(path);
    if (!doc) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 2;
    }
    char *want = index_text();
    char *b = strstr(doc, BEGIN_MARK), *e = strstr(doc, END_MARK);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "%s: cannot write\n", path);
        return 2;
    }
    if (b && e && e > b) {
        fwrite(doc, 1, (size_t)(b - doc), f);
        fputs(want, f);
        fputs(e + strlen(END_MARK), f);
    } else {
        fputs(doc, f);
        fputs("\n", f);
        fputs(want, f);
    }
    int bad = fclose(f) != 0;
    free(want);
    free(doc);
    return bad ? 2 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--update") == 0)
        return update(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_well_formed),
        cmocka_unit_test(test_anchors_exist),
        cmocka_unit_test(test_checks_md_index),
        cmocka_unit_test(test_sarif_rules_described),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
