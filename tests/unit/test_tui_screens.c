/* test_tui_screens.c - golden screens of the pure renderer: every view of
 * a fixed hand-made state at 80x24 and 160x48 (UTF-8) and 80x24 (ASCII),
 * compared byte for byte with tests/screen/fixture-VIEW-COLSxROWS[-ascii].txt.
 * CW_UPDATE_GOLDEN=1 rewrites the files (review the diff before committing).
 * The real binary's screens are tested by tests/integration/tui_tmux.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canvas.h"
#include "test_tui_fixture.h"
#include "views.h"

static const char *const view_names[VIEW_COUNT] = {
    "main", "detail", "source", "roofline", "device", "help"};

static char *render_text(tui_state *st, int rows, int cols, int utf8,
                         size_t *len)
{
    canvas cv;
    canvas_init(&cv, rows, cols, utf8);
    views_render(&cv, st);
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    canvas_write_text(&cv, f);
    fclose(f);
    canvas_free(&cv);
    return buf;
}

static void check_golden(const char *name, const char *text, size_t len)
{
    const char *root = getenv("CW_TEST_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/screen/%s.txt",
             root && *root ? root : ".", name);
    const char *up = getenv("CW_UPDATE_GOLDEN");
    if (up && *up == '1') {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(text, 1, len, f);
        fclose(f);
        return;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s: missing golden (CW_UPDATE_GOLDEN=1 writes it)", path);
    static char want[1 << 17];
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = '\0';
    if (n != len || memcmp(want, text, len) != 0) {
        /* show the first differing line */
        const char *a = want, *b = text;
        int line = 1;
        while (*a && *b && *a == *b) {
            if (*a == '\n')
                line++;
            a++;
            b++;
        }
        fail_msg("%s differs from the rendering at line %d:\n%s", path, line,
                 text);
    }
}

static void test_goldens(void **s)
{
    (void)s;
    static const struct {
        int rows, cols, utf8;
    } sizes[] = {{24, 80, 1}, {48, 160, 1}, {24, 80, 0}};
    for (size_t z = 0; z < 3; z++)
        for (int v = 0; v < VIEW_COUNT; v++) {
            tui_state st;
            fixture_state(&st, 7, 1);
            st.sel = 6; /* saxpy_noguard: findings of every severity */
            st.view = (tui_view)v;
            st.back = VIEW_MAIN;
            st.source_cursor = 7;
            size_t len;
            char *text = render_text(&st, sizes[z].rows, sizes[z].cols,
                                     sizes[z].utf8, &len);
            char name[128];
            snprintf(name, sizeof name, "fixture-%s-%dx%d%s", view_names[v],
                     sizes[z].cols, sizes[z].rows,
                     sizes[z].utf8 ? "" : "-ascii");
            check_golden(name, text, len);
            free(text);
            state_free(&st);
        }
    /* static only, and a screen too small */
    tui_state st;
    fixture_state(&st, 7, 0);
    size_t len;
    char *text = render_text(&st, 24, 80, 1, &len);
    check_golden("fixture-main-static-80x24", text, len);
    free(text);
    text = render_text(&st, 8, 40, 1, &len);
    check_golden("fixture-too-small-40x8", text, len);
    free(text);
    state_free(&st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
