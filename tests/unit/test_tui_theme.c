/* test_tui_theme.c - the theme parser (table of good and bad lines, each
 * tagged with __LINE__), the bundled theme files, the search path and
 * colour degradation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "theme.h"

/* Theme texts that parse, and the refusals with control characters in
 * them (the rest are in tests/unit/bad_themes.txt). */
static const struct {
    int line;
    const char *text;
    int err_line;     /* 0: parses */
    const char *want; /* substring of the error */
} cases[] = {
    {__LINE__, "", 0, NULL},
    {__LINE__, "# only a comment\n\n   \n", 0, NULL},
    {__LINE__, "color header black cyan bold", 0, NULL}, /* no newline */
    {__LINE__, "color header black cyan\r\n", 0, NULL},  /* CRLF */
    {__LINE__, "\tcolor  warn\tyellow default bold underline # c\n", 0, NULL},
    {__LINE__, "color error color196 -1\n", 0, NULL},
    {__LINE__, "color error 255 0 reverse standout italic blink dim\n", 0,
     NULL},
    {__LINE__, "color good bright-green gray\n", 0, NULL},
    {__LINE__, "color header black\x01 cyan\n", 1, "control character"},
};

static int parse_bad_theme(const cw_bad_text *c, const char *path, cw_error *err)
{
    theme t;
    return theme_parse(path, c->text, c->len, &t, err);
}

static void test_parse_table(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        theme t;
        cw_error err;
        memset(&err, 0, sizeof err);
        int rc = theme_parse("t.theme", cases[i].text, strlen(cases[i].text),
                             &t, &err);
        if (cases[i].err_line == 0) {
            if (rc != 0)
                fail_msg("line %d: unexpected error %s:%d: %s", cases[i].line,
                         err.file, err.line, err.text);
            continue;
        }
        if (rc == 0)
            fail_msg("line %d: accepted bad input", cases[i].line);
        if (err.line != cases[i].err_line || strcmp(err.file, "t.theme") != 0)
            fail_msg("line %d: error at %s:%d, want t.theme:%d",
                     cases[i].line, err.file, err.line, cases[i].err_line);
        if (!strstr(err.text, cases[i].want))
            fail_msg("line %d: error '%s' lacks '%s'", cases[i].line,
                     err.text, cases[i].want);
    }
    cw_check_refusals("bad_themes.txt", 16, "t.theme", parse_bad_theme);
}

static void test_parse_values(void **s)
{
    (void)s;
    const char *text = "color header black cyan bold\n"
                       "color error color196 default underline reverse\n"
                       "color good bright-green 17\n"
                       "color header white blue\n"; /* later line wins */
    theme t;
    cw_error err;
    assert_int_equal(theme_parse("x", text, strlen(text), &t, &err), 0);
    assert_int_equal(t.el[EL_HEADER].fg, 7);
    assert_int_equal(t.el[EL_HEADER].bg, 4);
    assert_int_equal(t.el[EL_HEADER].attr, 0);
    assert_int_equal(t.el[EL_ERROR].fg, 196);
    assert_int_equal(t.el[EL_ERROR].bg, -1);
    assert_int_equal(t.el[EL_ERROR].attr, THEME_UNDERLINE | THEME_REVERSE);
    assert_int_equal(t.el[EL_GOOD].fg, 10);
    assert_int_equal(t.el[EL_GOOD].bg, 17);
    assert_false(t.monochrome);
    /* unnamed elements keep the monochrome base: the cursor row stays
     * visible even in a theme that forgets it */
    assert_int_equal(t.el[EL_SELECTED].attr, THEME_REVERSE);
    /* length-bounded: the text after len is never read */
    const char buf[] = "color header red blue\nGARBAGE";
    assert_int_equal(theme_parse("x", buf, 22, &t, &err), 0);
    assert_int_equal(t.el[EL_HEADER].fg, 1);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_bundled_files(void **s)
{
    (void)s;
    for (size_t i = 0; theme_bundled[i]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/themes/%s.theme", cw_test_root(),
                 theme_bundled[i]);
        theme t;
        cw_error err;
        if (theme_load_file(path, &t, &err) != 0)
            fail_msg("%s:%d: %s", err.file, err.line, err.text);
        /* every element named explicitly in every bundled theme */
        char *text = slurp(path);
        assert_non_null(text);
        for (int e = 0; e < EL_COUNT; e++) {
            char needle[64];
            snprintf(needle, sizeof needle, "color %s ",
                     theme_element_name((theme_element)e));
            if (!strstr(text, needle))
                fail_msg("%s does not set '%s'", path, needle);
        }
    }
    /* the compiled-in default equals themes/default.theme */
    char path[1024];
    snprintf(path, sizeof path, "%s/themes/default.theme", cw_test_root());
    theme file, builtin;
    cw_error err;
    assert_int_equal(theme_load_file(path, &file, &err), 0);
    theme_default(&builtin);
    assert_memory_equal(file.el, builtin.el, sizeof file.el);
    assert_string_equal(slurp(path), theme_default_text);
    /* and the monochrome file equals the built-in base */
    snprintf(path, sizeof path, "%s/themes/monochrome.theme", cw_test_root());
    theme mono;
    assert_int_equal(theme_load_file(path, &file, &err), 0);
    theme_monochrome(&mono);
    assert_memory_equal(file.el, mono.el, sizeof file.el);
    assert_true(file.monochrome);
}

static void test_search_path(void **s)
{
    (void)s;
    const char *dir = cw_tmpdir("cwtheme");
    char sub[256], path[300];
    snprintf(sub, sizeof sub, "%s/clockwork", dir);
    mkdir(sub, 0700);
    snprintf(sub, sizeof sub, "%s/clockwork/themes", dir);
    mkdir(sub, 0700);
    static const char mine[] = "color header red green\n",
                      broken[] = "color header red green\ncolor x\n";
    snprintf(path, sizeof path, "%s/mine.theme", sub);
    cw_write_file(path, mine, strlen(mine));
    char bad[300];
    snprintf(bad, sizeof bad, "%s/broken.theme", sub);
    cw_write_file(bad, broken, strlen(broken));
    char *old = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME"))
                                          : NULL;
    setenv("XDG_CONFIG_HOME", dir, 1);
    theme t;
    cw_error err;
    assert_int_equal(theme_load("mine", &t, &err), 0);
    assert_int_equal(t.el[EL_HEADER].fg, 1);
    assert_string_equal(t.name, "mine");
    assert_int_not_equal(theme_load("broken", &t, &err), 0);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.file, "broken.theme"));
    assert_int_not_equal(theme_load("nosuchtheme", &t, &err), 0);
    assert_non_null(strstr(err.text, "bundled: default"));
    assert_int_not_equal(theme_load("a b", &t, &err), 0);
    assert_non_null(strstr(err.text, "bad theme name"));
    assert_int_equal(theme_load(path, &t, &err), 0); /* a path */
    assert_int_equal(theme_load("default", &t, &err), 0);
    assert_int_equal(theme_load("monochrome", &t, &err), 0);
    assert_true(t.monochrome);
    assert_int_not_equal(theme_load_file("/nonexistent/x.theme", &t, &err), 0);
    assert_non_null(strstr(err.text, "cannot open"));
    unlink(path);
    unlink(bad);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/clockwork", dir);
    rmdir(sub);
    rmdir(dir);
    if (old) {
        setenv("XDG_CONFIG_HOME", old, 1);
        free(old);
    } else {
        unsetenv("XDG_CONFIG_HOME");
    }
}

/* One row of a degradation table: colour at ncolors -> want, with extra
 * the bold flag (theme_degrade) or the attributes (theme_degrade_fg). */
typedef struct degrade_row {
    int line, color, ncolors, want;
    unsigned extra;
} degrade_row;

static void check_degrade(const degrade_row *t, size_t n, int fg)
{
    for (size_t i = 0; i < n; i++) {
        int bold = 0;
        uint16_t attr = 0;
        int c = fg ? theme_degrade_fg(t[i].color, t[i].ncolors, &attr)
                   : theme_degrade(t[i].color, t[i].ncolors, &bold);
        unsigned got = fg ? attr : (unsigned)bold;
        if (c != t[i].want || got != t[i].extra)
            fail_msg("line %d: %d at %d colours -> %d %s %u, want %d %s %u",
                     t[i].line, t[i].color, t[i].ncolors, c,
                     fg ? "attr" : "bold", got, t[i].want,
                     fg ? "attr" : "bold", t[i].extra);
    }
}

static void test_degrade(void **s)
{
    (void)s;
    static const degrade_row t[] = {
        {__LINE__, -1, 8, -1, 0},   {__LINE__, 3, 8, 3, 0},
        {__LINE__, 11, 16, 11, 0},  {__LINE__, 11, 8, 3, 1},
        {__LINE__, 196, 256, 196, 0}, {__LINE__, 196, 16, 9, 0},
        {__LINE__, 196, 8, 1, 1},   {__LINE__, 231, 16, 15, 0},
        {__LINE__, 16, 16, 0, 0},   {__LINE__, 244, 16, 8, 0},
        {__LINE__, 28, 16, 2, 0},   {__LINE__, 21, 8, 4, 0},
    };
    check_degrade(t, sizeof t / sizeof t[0], 0);
}

/* Foregrounds with the attributes they need: grey (the dim elements) on
 * 8 colours is the terminal's colour, dim (bold black vanishes on dark
 * backgrounds); bright colours there are bold. */
static void test_degrade_fg(void **s)
{
    (void)s;
    static const degrade_row t[] = {
        {__LINE__, 8, 8, -1, THEME_DIM},   {__LINE__, 8, 16, 8, 0},
        {__LINE__, 244, 8, -1, THEME_DIM}, {__LINE__, 244, 256, 244, 0},
        {__LINE__, 11, 8, 3, THEME_BOLD},  {__LINE__, 0, 8, 0, 0},
        {__LINE__, -1, 8, -1, 0},
    };
    check_degrade(t, sizeof t / sizeof t[0], 1);
}

/* Hostile input: random bytes and mutations never crash, and an error
 * always names a line inside the text. */
static void test_hostile(void **s)
{
    (void)s;
    srand(12345);
    char buf[512];
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = (size_t)(rand() % (int)sizeof buf);
        if (iter % 2) {
            for (size_t i = 0; i < n; i++)
                buf[i] = (char)(rand() % 256);
        } else { /* mutate a valid file */
            snprintf(buf, sizeof buf, "%s", theme_default_text);
            n = strlen(buf);
            for (int k = 0; k < 4; k++)
                buf[rand() % (int)n] = (char)(rand() % 256);
        }
        theme t;
        cw_error err;
        memset(&err, 0, sizeof err);
        if (theme_parse("h", buf, n, &t, &err) != 0) {
            int lines = 1;
            for (size_t i = 0; i < n; i++)
                lines += buf[i] == '\n';
            assert_true(err.line >= 1 && err.line <= lines);
            assert_true(err.text[0] != '\0');
        }
    }
}

static void test_no_color_env(void **s)
{
    (void)s;
    unsetenv("NO_COLOR");
    assert_false(theme_no_color_env());
    setenv("NO_COLOR", "", 1); /* empty means unset (no-color.org) */
    assert_false(theme_no_color_env());
    setenv("NO_COLOR", "1", 1);
    assert_true(theme_no_color_env());
    unsetenv("NO_COLOR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_parse_values),
        cmocka_unit_test(test_bundled_files),
        cmocka_unit_test(test_search_path),
        cmocka_unit_test(test_degrade),
        cmocka_unit_test(test_degrade_fg),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_no_color_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
