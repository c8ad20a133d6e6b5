/* test_alloc.c - core/alloc: no NULL results, overflow of n * size is out
 * of memory, out of memory calls the hook (the TUI restores the terminal
 * there) and then aborts with a message. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "alloc.h"

static void test_copies(void **state)
{
    (void)state;
    assert_null(cw_strdup(NULL));
    assert_null(xmemdup(NULL, 4));
    assert_null(xmemdup("abc", 0));
    char *s = cw_strdup("kernel");
    assert_string_equal(s, "kernel");
    char *n = cw_strndup("kernel", 3);
    assert_string_equal(n, "ker");
    char *a = cw_asprintf("%s-%d", s, 42);
    assert_string_equal(a, "kernel-42");
    cw_set_str(&s, "other");
    assert_string_equal(s, "other");
    cw_set_str(&s, NULL);
    assert_null(s);
    free(n);
    free(a);
}

static void test_zero_sizes(void **state)
{
    (void)state;
    void *p = xmalloc(0), *q = xcalloc(0, 8), *r = xrealloc(NULL, 0);
    assert_non_null(p);
    assert_non_null(q);
    assert_non_null(r);
    free(p);
    free(q);
    free(r);
}

static int hook_fd = -1;
static void hook(void)
{
    if (write(hook_fd, "H", 1) != 1)
        _exit(99);
}

/* In a child: the overflowing call must run the hook, then abort.  Only
 * overflows are provoked: they fail in alloc.c itself, before any allocator
 * (a sanitizer's would report a huge request on its own). */
static void expect_oom(void (*call)(void))
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        hook_fd = fds[1];
        cw_set_oom_hook(hook);
        if (!freopen("/dev/null", "w", stderr))
            _exit(98);
        call();
        _exit(0); /* returned: wrong */
    }
    close(fds[1]);
    char c = 0;
    ssize_t got = read(fds[0], &c, 1);
    close(fds[0]);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGABRT);
    assert_int_equal(got, 1);
    assert_int_equal(c, 'H');
}

static void calloc_overflow(void) { free(xcalloc(SIZE_MAX / 2, 4)); }
static void reallocarray_overflow(void) { free(xreallocarray(NULL, SIZE_MAX / 8, 16)); }

static void test_out_of_memory(void **state)
{
    (void)state;
    expect_oom(calloc_overflow);
    expect_oom(reallocarray_overflow);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_copies),
             cmocka_unit_test(test_zero_sizes),
             cmocka_unit_test(test_out_of_memory))
