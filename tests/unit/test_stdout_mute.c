/* test_stdout_mute.c - glslang's printing is muted (core/stdout_mute.h,
 * issue 17).  The preflight in shader.c refuses the inputs known to make
 * glslang print its built-ins (no #version, #version 140), so the mute
 * behind it is tested directly: the real libshaderc compiles a
 * '#version 140' compute shader with stdout on a file.  Unmuted, glslang
 * writes thousands of lines there (the control: the test reaches the
 * printing); muted, the file stays empty; and stdout works again after. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "shaderc_guard.h"
#include "stdout_mute.h"

static const char old_glsl[] = "#version 140\nlayout(local_size_x = 1) in;\nvoid main() {}\n";

/* Compile old_glsl with stdout on a fresh file, muted or not; returns the
 * bytes that reached the file. */
static long compile_into_file(int mute)
{
    char path[] = "/tmp/cw_mute_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    fflush(stdout);
    int keep = dup(STDOUT_FILENO);
    assert_true(keep >= 0);
    assert_true(dup2(fd, STDOUT_FILENO) >= 0);
    int saved = mute ? cw_stdout_mute() : -1;
    if (mute)
        assert_true(saved >= 0); /* a file is not a terminal: muted */
    shaderc_compilation_result_t res = NULL;
    char why[256];
    int st = cw_shaderc_compile("old.comp", old_glsl, sizeof old_glsl - 1, &res, why,
                                sizeof why);
    if (mute)
        cw_stdout_unmute(saved);
    printf("after\n"); /* stdout is the file again */
    fflush(stdout);
    dup2(keep, STDOUT_FILENO);
    close(keep);
    assert_int_equal(st, CW_SHADERC_FAILED); /* 140 has no compute shaders */
    if (res)
        shaderc_result_release(res);
    long n = lseek(fd, 0, SEEK_END);
    char tail[6] = {0};
    assert_true(n >= 6);
    assert_int_equal(pread(fd, tail, 6, n - 6), 6);
    assert_memory_equal(tail, "after\n", 6);
    close(fd);
    return n - 6;
}

static void test_glslang_prints_when_not_muted(void **state)
{
    (void)state;
    long n = compile_into_file(0);
    assert_true(n > 10000); /* ~4,500 lines of built-ins */
}

static void test_muted_nothing_reaches_stdout(void **state)
{
    (void)state;
    assert_int_equal(compile_into_file(1), 0);
}

static void test_terminal_is_left_alone(void **state)
{
    (void)state;
    /* the TUI's stdout: a terminal is never pointed away */
    int pty = posix_openpt(O_RDWR | O_NOCTTY);
    if (pty < 0)
        skip();
    fflush(stdout);
    int keep = dup(STDOUT_FILENO);
    grantpt(pty);
    unlockpt(pty);
    int slave = open(ptsname(pty), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    dup2(slave, STDOUT_FILENO);
    int saved = cw_stdout_mute();
    dup2(keep, STDOUT_FILENO);
    close(keep);
    close(slave);
    close(pty);
    assert_int_equal(saved, -1);
}

CW_UNIT_MAIN(NULL, NULL, cmocka_unit_test(test_glslang_prints_when_not_muted),
             cmocka_unit_test(test_muted_nothing_reaches_stdout),
             cmocka_unit_test(test_terminal_is_left_alone))
