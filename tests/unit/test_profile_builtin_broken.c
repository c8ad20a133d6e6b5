/* test_profile_builtin_broken.c - a built-in profile whose embedded file
 * does not load is refused, loudly, never handed out with every fallback.
 *
 * The test defines profile_embedded() itself, so the linker takes this one
 * instead of core/profile_embed.o's: "h200" is a file cut short (as an
 * edit of profiles/h200.json could leave it), "lavapipe" is missing. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "profile.h"

const char *profile_embedded(const char *key)
{
    if (key && strcmp(key, "h200") == 0)
        return "{\"schema\": 1, \"name\": \"NVIDIA H200\",\n \"ceilings\": {\"dram_gbs\": ";
    return NULL;
}

/* stderr of fn(key, &p) and its return value */
static int builtin_stderr(const char *key, char *out, size_t n)
{
    fflush(stderr);
    char path[] = "/tmp/cw_builtin_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int saved = dup(2);
    dup2(fd, 2);
    device_profile p;
    int rc = profile_builtin(key, &p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t got = pread(fd, out, n - 1, 0);
    out[got > 0 ? got : 0] = 0;
    close(fd);
    unlink(path);
    return rc;
}

static void test_broken_builtin_refused(void **state)
{
    (void)state;
    char err[2048];
    assert_int_equal(builtin_stderr("h200", err, sizeof err), -1);
    assert_non_null(strstr(err, "the built-in profile profiles/h200.json (built in)"));
    assert_non_null(strstr(err, ":2:")); /* the line where the text stops */
    assert_int_equal(builtin_stderr("lavapipe", err, sizeof err), -1);
    assert_non_null(strstr(err, "profiles/lavapipe.json (built in) does not load: not embedded"));
    /* an unknown key is not an error of the build: nothing said */
    assert_int_equal(builtin_stderr("a100", err, sizeof err), -1);
    assert_string_equal(err, "");
}

CW_UNIT_MAIN(NULL, NULL, cmocka_unit_test(test_broken_builtin_refused))
