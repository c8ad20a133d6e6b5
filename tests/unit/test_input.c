/* test_input.c - core/input: the one whole-file reader refuses what is not
 * a file, too large and (when asked) empty input with a message naming the
 * file; reads regular files and pipes whole, NUL-terminated; a parser is
 * handed the text after a leading UTF-8 byte order mark. */
#include <fcntl.h>
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

#include "input.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cw_input_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void test_reads_whole_file(void **state)
{
    (void)state;
    char path[128], *buf;
    size_t len;
    cw_error err;
    put("plan.json", "{\"kernels\": []}", path, sizeof path);
    assert_int_equal(cw_read_input(path, "plan", 0, 1024, 0, &buf, &len, &err), 0);
    assert_int_equal(len, 15);
    assert_string_equal(buf, "{\"kernels\": []}");
    free(buf);
}

static void test_refusals(void **state)
{
    (void)state;
    char path[128], *buf = (char *)1;
    size_t len = 7;
    cw_error err;
    put("big.json", "0123456789abcdef", path, sizeof path);
    assert_int_equal(cw_read_input(path, "plan", 0, 8, 0, &buf, &len, &err), -1);
    assert_null(buf);
    assert_int_equal(len, 0);
    assert_string_equal(err.file, path);
    assert_non_null(strstr(err.text, "the plan is too large (16 bytes; at most 8 bytes)"));
    assert_int_equal(cw_read_input(path, "plan", 0, 16, 0, &buf, &len, &err), 0);
    free(buf);

    put("empty.json", "", path, sizeof path);
    assert_int_equal(cw_read_input(path, "report", 0, 1024, 0, &buf, &len, &err), -1);
    assert_non_null(strstr(err.text, "the report is empty"));
    assert_int_equal(cw_read_input(path, "theme file", 0, 1024, 1, &buf, &len, &err), 0);
    assert_int_equal(len, 0);
    assert_string_equal(buf, "");
    free(buf);

    assert_int_equal(cw_read_input(dir, "profile", 0, 1024, 0, &buf, &len, &err), -1);
    assert_non_null(strstr(err.text, "the profile is a directory"));
    snprintf(path, sizeof path, "%s/missing", dir);
    assert_int_equal(cw_read_input(path, "shader", 0, 1024, 0, &buf, &len, &err), -1);
    assert_non_null(strstr(err.text, "cannot open the shader"));
    put("two.json", "{}{}", path, sizeof path);
    assert_int_equal(cw_read_input(path, "profile", 0, 3, 0, &buf, &len, &err), -1);
    assert_non_null(strstr(err.text, "at most 3 bytes"));
}

/* records what the parser was handed */
static int seen_parse(const char *path, const char *text, size_t len, void *out, cw_error *err)
{
    (void)path;
    (void)err;
    snprintf(out, 64, "%zu:%s", len, text);
    return text[0] == '{' ? 0 : -1;
}

static void test_byte_order_mark_skipped(void **state)
{
    (void)state;
    assert_int_equal(cw_utf8_bom_length("\xEF\xBB\xBF{}", 5), 3);
    assert_int_equal(cw_utf8_bom_length("\xEF\xBB", 2), 0); /* too short */
    assert_int_equal(cw_utf8_bom_length("\xEF\xBB\xBE{}", 5), 0);
    assert_int_equal(cw_utf8_bom_length("{}", 2), 0);
    char path[128], seen[64];
    cw_error err;
    put("bom.json", "\xEF\xBB\xBF{\"a\": 1}", path, sizeof path);
    assert_int_equal(cw_parse_input(path, "plan", 0, 1024, 0, seen_parse, seen, &err), 0);
    assert_string_equal(seen, "8:{\"a\": 1}");
    /* only at the start: a mark after the first byte is the parser's to refuse */
    put("late.json", " \xEF\xBB\xBF{}", path, sizeof path);
    assert_int_equal(cw_parse_input(path, "plan", 0, 1024, 0, seen_parse, seen, &err), -1);
    assert_int_equal(seen[0], '6');
}

static void test_pipe_streams(void **state)
{
    (void)state;
    char path[128], *buf;
    size_t len;
    cw_error err;
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    /* not allowed: refused without blocking */
    assert_int_equal(cw_read_input(path, "plan", 0, 1024, 0, &buf, &len, &err), -1);
    assert_non_null(strstr(err.text, "FIFO"));
    /* allowed, with no writer: empty at once, refused as empty */
    assert_int_equal(cw_read_input(path, "report", 1, 1024, 0, &buf, &len, &err), -1);
    assert_non_null(strstr(err.text, "empty"));
    /* a pipe holding data (written, writer closed): read as a stream; one
     * longer than the limit is refused, not read on */
    for (int pass = 0; pass < 2; pass++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        for (int i = 0; i < 64; i++)
            assert_int_equal(write(p[1], "0123456789abcdef", 16), 16);
        close(p[1]);
        char via[64];
        snprintf(via, sizeof via, "/proc/self/fd/%d", p[0]);
        size_t lim = pass ? 100 : 4096;
        int rc = cw_read_input(via, "report", 1, lim, 0, &buf, &len, &err);
        close(p[0]);
        if (pass == 0) {
            assert_int_equal(rc, 0);
            assert_int_equal(len, 1024);
            assert_int_equal(buf[1023], 'f');
            assert_int_equal(buf[1024], 0);
            free(buf);
        } else {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(err.text, "the report is too large (more than 100 bytes)"));
        }
    }
}

CW_UNIT_MAIN(setup, teardown,
             cmocka_unit_test(test_reads_whole_file),
             cmocka_unit_test(test_refusals),
             cmocka_unit_test(test_byte_order_mark_skipped),
             cmocka_unit_test(test_pipe_streams))
