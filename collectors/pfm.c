/* pfm.c - libpfm4 + perf_event_open counters (see pfm.h).
 *
 * Each event is opened on its own (no group): inherit=1 (needed to count
 * lavapipe's worker threads) cannot be combined with PERF_FORMAT_GROUP
 * reads on many kernels, so members are read one by one with
 * TOTAL_TIME_ENABLED/RUNNING and scaled individually when multiplexed.
 * start/stop accumulate deltas, so a session can bracket many dispatches
 * and read the sum once.
 */
#include "pfm.h"
#include "alloc.h"

#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

const char *const pfm_default_events[] = {
    "cycles", "instructions", "cache-references", "cache-misses",
    "branch-misses", "task-clock", "page-faults", "context-switches",
    NULL,
};

typedef struct pfm_event {
    char *name;         /* as the user wrote it */
    int fd;             /* -1 when unavailable */
    char *reason;       /* why unavailable */
    uint64_t last[3];   /* value, enabled, running at the last start */
    uint64_t acc[3];    /* accumulated deltas over start/stop brackets */
} pfm_event;

struct pfm_session {
    pfm_event *ev;
    size_t n;
    int running;
    unsigned long brackets;
};

/* ---- event list syntax ---- */

static int name_char(int c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '.';
}

/* The offset of the first character from i on that keep refuses (len at
 * the end). */
static size_t skip_while(const char *s, size_t i, size_t len, int (*keep)(int))
{
    while (i < len && keep((unsigned char)s[i]))
        i++;
    return i;
}

/* Validate one event "[pmu::]event[:attr[=value]]..."; returns the
 * offset of the first bad character, or -1 when well formed. */
static long check_event_syntax(const char *s, size_t len, const char **why)
{
    size_t i = 0;
    const char *dc = NULL;
    for (size_t k = 0; k + 1 < len; k++)
        if (s[k] == ':' && s[k + 1] == ':') {
            dc = s + k;
            break;
        }
    if (dc) {
        size_t plen = (size_t)(dc - s);
        if (plen == 0) {
            *why = "missing PMU name before '::'";
            return 0;
        }
        for (; i < plen; i++)
            if (!name_char((unsigned char)s[i])) {
                *why = "invalid character in PMU name";
                return (long)i;
            }
        i += 2;
    }
    size_t start = i;
    i = skip_while(s, i, len, name_char);
    if (i == start) {
        *why = i < len ? "invalid character in event name"
                       : "missing event name";
        return (long)i;
    }
    while (i < len) {
        if (s[i] != ':') {
            *why = "invalid character in event name";
            return (long)i;
        }
        i++;
        size_t a = i;
        i = skip_while(s, i, len, name_char);
        if (i == a) {
            *why = "missing modifier or unit mask after ':'";
            return (long)i;
        }
        if (i < len && s[i] == '=') {
            i++;
            size_t v = i;
            i = skip_while(s, i, len, isalnum);
            if (i == v) {
                *why = "missing value after '='";
                return (long)i;
            }
        }
    }
    return -1;
}

void pfm_free_event_list(char **names, size_t n)
{
    if (!names)
        return;
    cw_free_strv(names, n);
}

int pfm_parse_event_list(const char *text, char ***names, size_t *n,
                         cw_error *err)
{
    *names = NULL;
    *n = 0;
    if (!text) {
        cw_error_set(err, "--events", 0, 0, "no event list given");
        return 1;
    }
    size_t cap = 0, count = 0;
    char **out = NULL;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        int col = (int)(a - text) + 1;
        if (a == b) {
            cw_error_set(err, "--events", 0, col,
                         "empty event name at position %d of '%s' "
                         "(events are separated by single commas)",
                         col, text);
            pfm_free_event_list(out, count);
            return 1;
        }
        const char *why = NULL;
        long bad = check_event_syntax(a, (size_t)(b - a), &why);
        if (bad >= 0) {
            col += (int)bad;
            cw_error_set(err, "--events", 0, col,
                         "%s at position %d of '%s' (expected "
                         "[pmu::]event[:umask][:modifier], e.g. "
                         "'cycles' or 'perf::PERF_COUNT_SW_TASK_CLOCK')",
                         why, col, text);
            pfm_free_event_list(out, count);
            return 1;
        }
        if (count == cap) {
            cap = cap ? 2 * cap : 8;
            char **nn = xrealloc(out, cap * sizeof *nn);
            out = nn;
        }
        out[count] = cw_strndup(a, (size_t)(b - a));
        count++;
        if (!*end)
            break;
        p = end + 1;
    }
    *names = out;
    *n = count;
    return 0;
}

/* ---- opening ---- */

static int pfm_init_status = PFM_SUCCESS;
static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;

static void pfm_init_once(void)
{
    pfm_init_status = pfm_initialize();
}

static int read_paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int level = -100;
    if (f) {
        if (fscanf(f, "%d", &level) != 1)
            level = -100;
        fclose(f);
    }
    return level;
}

/* Why perf_event_open failed, in words the user can act on. */
static char *open_failure_reason(int e)
{
    switch (e) {
    case ENOENT:
        return cw_asprintf("no hardware PMU (virtual machine?): "
                         "perf_event_open failed with ENOENT");
    case EACCES:
    case EPERM: {
        int level = read_paranoid();
        if (level == -100)
            return cw_asprintf("permission denied (%s) and "
                             "/proc/sys/kernel/perf_event_paranoid is "
                             "unreadable: run as root",
                             e == EACCES ? "EACCES" : "EPERM");
        if (level >= 3)
            return cw_asprintf("permission denied (%s): "
                             "kernel.perf_event_paranoid is %d, which "
                             "forbids unprivileged counting; run as root or "
                             "'sysctl kernel.perf_event_paranoid=2'",
                             e == EACCES ? "EACCES" : "EPERM", level);
        return cw_asprintf("permission denied (%s): "
                         "kernel.perf_event_paranoid is %d; run as root or "
                         "'sysctl kernel.perf_event_paranoid=1'",
                         e == EACCES ? "EACCES" : "EPERM", level);
    }
    case EINVAL:
        return cw_asprintf("unsupported by this kernel or CPU "
                         "(perf_event_open: EINVAL)");
    case EOPNOTSUPP:
        return cw_asprintf("unsupported by this PMU (perf_event_open: "
                         "EOPNOTSUPP)");
    case ENODEV:
        return cw_asprintf("no such PMU on this machine "
                         "(perf_event_open: ENODEV)");
    case EMFILE:
        return cw_asprintf("too many open files (perf_event_open: EMFILE)");
    default:
        return cw_asprintf("perf_event_open failed: %s", strerror(e));
    }
}

/* libpfm4's perf_event encoding of the event `name` at privilege levels
 * plm into *attr (zeroed first); a PFM_ return code. */
static int encode_event(const char *name, int plm, struct perf_event_attr *attr)
{
    memset(attr, 0, sizeof *attr);
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.attr = attr;
    arg.size = sizeof arg;
    return pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
}

static void open_event(pfm_event *ev, int inherit)
{
    struct perf_event_attr attr;
    int root = geteuid() == 0;
    int plm = root ? (PFM_PLM0 | PFM_PLM3) : PFM_PLM3;
    int ret = encode_event(ev->name, plm, &attr);
    if (ret != PFM_SUCCESS) {
        ev->reason = cw_asprintf("libpfm4 cannot encode '%s': %s",
                               ev->name, pfm_strerror(ret));
        return;
    }
    attr.size = sizeof attr;
    attr.disabled = 1;
    attr.inherit = inherit ? 1 : 0;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
                       PERF_FORMAT_TOTAL_TIME_RUNNING;
    if (!root) {
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
    }
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1,
                      (unsigned long)0);
    if (fd < 0) {
        ev->reason = open_failure_reason(errno);
        return;
    }
    ev->fd = (int)fd;
}

int pfm_validate_events(const char *events, cw_error *err)
{
    char **names = NULL;
    size_t n = 0;
    if (pfm_parse_event_list(events, &names, &n, err))
        return 1;
    const char *disable = getenv("CW_PFM_DISABLE");
    int disabled = disable && *disable && strcmp(disable, "0") != 0;
    if (!disabled)
        pthread_once(&pfm_once, pfm_init_once);
    int bad = 0;
    for (size_t i = 0; i < n && !bad && !disabled &&
                       pfm_init_status == PFM_SUCCESS; i++) {
        struct perf_event_attr attr;
        int ret = encode_event(names[i], PFM_PLM3, &attr);
        if (ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_ATTR ||
            ret == PFM_ERR_ATTR_VAL || ret == PFM_ERR_ATTR_SET) {
            cw_error_set(err, "--events", 0, 0,
                         "unknown event '%s' (libpfm4: %s); the names "
                         "this machine knows are listed by libpfm4's "
                         "showevtinfo or 'perf list', e.g. cycles, "
                         "instructions, perf::PERF_COUNT_SW_TASK_CLOCK",
                         names[i], pfm_strerror(ret));
            bad = 1;
        }
    }
    pfm_free_event_list(names, n);
    return bad;
}

int pfm_session_open(const char *events, int inherit, pfm_session **out,
                     cw_error *err)
{
    *out = NULL;
    char **names = NULL;
    size_t n = 0;
    if (events) {
        if (pfm_parse_event_list(events, &names, &n, err))
            return 1;
    } else {
        while (pfm_default_events[n])
            n++;
        names = xcalloc(n, sizeof *names);
        for (size_t i = 0; i < n; i++)
            names[i] = cw_strdup(pfm_default_events[i]);
    }
    pfm_session *s = xcalloc(1, sizeof *s);
    s->ev = xcalloc(n ? n : 1, sizeof *s->ev);
    s->n = n;
    const char *disable = getenv("CW_PFM_DISABLE");
    int disabled = disable && *disable && strcmp(disable, "0") != 0;
    if (!disabled)
        pthread_once(&pfm_once, pfm_init_once);
    for (size_t i = 0; i < n; i++) {
        pfm_event *ev = &s->ev[i];
        ev->name = names[i];
        ev->fd = -1;
        if (disabled)
            ev->reason = cw_asprintf("counters disabled by CW_PFM_DISABLE=1");
        else if (pfm_init_status != PFM_SUCCESS)
            ev->reason = cw_asprintf("libpfm4 initialisation failed: %s",
                                   pfm_strerror(pfm_init_status));
        else
            open_event(ev, inherit);
    }
    free(names); /* the strings now belong to the events */
    *out = s;
    return 0;
}

static int read_event(const pfm_event *ev, uint64_t v[3])
{
    ssize_t r = read(ev->fd, v, 3 * sizeof(uint64_t));
    return r == (ssize_t)(3 * sizeof(uint64_t)) ? 0 : -1;
}

void pfm_session_start(pfm_session *s)
{
    if (!s || s->running)
        return;
    for (size_t i = 0; i < s->n; i++) {
        pfm_event *ev = &s->ev[i];
        if (ev->fd < 0)
            continue;
        if (read_event(ev, ev->last)) {
            memset(ev->last, 0, sizeof ev->last);
        }
        ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0);
    }
    s->running = 1;
}

void pfm_session_stop(pfm_session *s)
{
    if (!s || !s->running)
        return;
    for (size_t i = 0; i < s->n; i++) {
        pfm_event *ev = &s->ev[i];
        if (ev->fd < 0)
            continue;
        ioctl(ev->fd, PERF_EVENT_IOC_DISABLE, 0);
        uint64_t v[3];
        if (read_event(ev, v)) {
            free(ev->reason);
            ev->reason = cw_asprintf("reading the counter failed: %s",
                                   strerror(errno));
            close(ev->fd);
            ev->fd = -1;
            continue;
        }
        for (int k = 0; k < 3; k++)
            ev->acc[k] += v[k] - ev->last[k];
    }
    s->running = 0;
    s->brackets++;
}

void pfm_session_reset(pfm_session *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        memset(s->ev[i].acc, 0, sizeof s->ev[i].acc);
    s->brackets = 0;
}

unsigned long pfm_session_brackets(const pfm_session *s)
{
    return s ? s->brackets : 0;
}

int pfm_scale_count(uint64_t value, uint64_t enabled, uint64_t running,
                    double *out, int *scaled)
{
    *scaled = 0;
    *out = (double)value;
    if (enabled > 0 && running == 0)
        return -1; /* never got a counter slot */
    if (running > 0 && running < enabled) {
        *out = (double)value * ((double)enabled / (double)running);
        *scaled = 1;
    }
    return 0;
}

/* The event's counter appended to m: available when the event opened,
 * else unavailable with the reason it did not. */
static counter_value *event_counter(const pfm_event *ev, measurement *m)
{
    counter_value *c = measurement_add_counter(m, ev->name);
    c->available = ev->fd >= 0;
    if (ev->fd < 0) {
        c->value = 0;
        cw_set_str(&c->reason, ev->reason);
    }
    return c;
}

void pfm_session_read(pfm_session *s, measurement *m)
{
    if (!s || !m)
        return;
    for (size_t i = 0; i < s->n; i++) {
        pfm_event *ev = &s->ev[i];
        counter_value *c = event_counter(ev, m);
        if (ev->fd < 0)
            continue;
        double v;
        int scaled;
        if (pfm_scale_count(ev->acc[0], ev->acc[1], ev->acc[2], &v,
                            &scaled)) {
            c->available = 0;
            cw_set_str(&c->reason, "opened but never scheduled on the PMU "
                                   "(too many events multiplexed)");
            continue;
        }
        c->available = 1;
        c->value = v;
        c->scaled = scaled;
    }
}

void pfm_session_describe(pfm_session *s, measurement *m)
{
    if (!s || !m)
        return;
    for (size_t i = 0; i < s->n; i++)
        event_counter(&s->ev[i], m);
}

void pfm_session_close(pfm_session *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        if (s->ev[i].fd >= 0)
            close(s->ev[i].fd);
        free(s->ev[i].name);
        free(s->ev[i].reason);
    }
    free(s->ev);
    free(s);
}
