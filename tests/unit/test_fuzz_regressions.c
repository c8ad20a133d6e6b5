/* Every input the fuzzers ever found a problem with stays a test: each file
 * under tests/fuzz/regressions/<harness>/ goes through the same code as its
 * harness, and must neither crash, hang (alarm) nor be accepted silently
 * where it is invalid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpuinspect.h"
#include "model.h"
#include "pfm.h"
#include "plan.h"
#include "report.h"
#include "shader.h"
#include "theme.h"
#include "verifier.h"
#include "../fuzz/events_target.h"
#include "../fuzz/spirv_target.h"

typedef void (*feed_fn)(const char *path, const char *data, size_t len);

/* FEED_LOADER(name, type, load, release): a feed that loads the file as a
 * type, releases what the loader accepted and wants the reason for what it
 * refused. */
#define FEED_LOADER(name, type, load, release)                                \
    static void name(const char *path, const char *data, size_t len)          \
    {                                                                         \
        type v;                                                               \
        cw_error err;                                                         \
        if (load(path, data, len, &v, &err) == 0)                             \
            release(&v);                                                      \
        else                                                                  \
            assert_true(err.text[0] != 0);                                    \
    }

/* a device profile owns no memory */
static void profile_release(device_profile *p)
{
    (void)p;
}

FEED_LOADER(feed_plan, plan, plan_load_text, plan_free)
FEED_LOADER(feed_report, report, report_read_text, report_free)
FEED_LOADER(feed_profile, device_profile, profile_load_text, profile_release)

static void feed_theme(const char *path, const char *data, size_t len)
{
    theme t;
    cw_error err;
    theme_parse(path, data, len, &t, &err);
}

/* exactly what fuzz_events runs */
static void feed_events(const char *path, const char *data, size_t len)
{
    (void)path;
    events_target_run((const uint8_t *)data, len);
}

/* the regression file itself is the library */
static void feed_elf(const char *path, const char *data, size_t len)
{
    (void)data;
    (void)len;
    cpuinspect_result r;
    if (cpuinspect_symbol(path, "sgemm", &r) != 0)
        assert_true(r.reason[0] != 0);
}

/* exactly what the fuzz_spirv* harnesses run */
static void feed_spirv(const char *path, const char *data, size_t len)
{
    (void)path;
    spirv_target_run((const uint8_t *)data, len);
}

static int replay(const char *dir, feed_fn feed)
{
    char base[512];
    snprintf(base, sizeof base, "tests/fuzz/regressions/%s", dir);
    DIR *d = opendir(base);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", base, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        static char buf[1 << 22];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        alarm(30); /* a hang fails the test instead of the whole suite */
        feed(path, buf, len);
        alarm(0);
        /* an out-of-memory find must stay fixed: peak RSS well below the
         * fuzzers' 2 GiB limit (ru_maxrss is in KiB) */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if (ru.ru_maxrss > 1024L * 1024)
            fail_msg("%s: peak RSS %ld KiB", path, ru.ru_maxrss);
        n++;
    }
    closedir(d);
    return n;
}

static void test_replay(void **state)
{
    (void)state;
    int n = replay("plan", feed_plan) + replay("report", feed_report) +
            replay("theme", feed_theme) + replay("events", feed_events) +
            replay("spirv", feed_spirv) + replay("profile", feed_profile) +
            replay("elf", feed_elf);
    assert_true(n >= 1); /* the folder is there and was read */
}

CW_UNIT_MAIN(NULL, NULL, cmocka_unit_test(test_replay))
