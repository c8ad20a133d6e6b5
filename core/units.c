/* units.c - see units.h. */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int unknown(double v) { return !isfinite(v) || v < 0; }

/* three significant digits without an exponent: 1.23, 12.3, 123, 1234 */
static void sig3(char *buf, size_t n, double v, const char *sp, const char *unit)
{
    if (v < 9.995)
        snprintf(buf, n, "%.2f%s%s", v, sp, unit);
    else if (v < 99.95)
        snprintf(buf, n, "%.1f%s%s", v, sp, unit);
    else
        snprintf(buf, n, "%.0f%s%s", v, sp, unit);
}

/* like sig3 but trailing zeros of an exact value go: "4 GiB", "48 KiB" */
static void sig3_trim(char *buf, size_t n, double v, const char *unit)
{
    if (v == floor(v))
        snprintf(buf, n, "%.0f %s", v, unit);
    else
        sig3(buf, n, v, " ", unit);
}

void units_time_us(char *buf, size_t n, double us)
{
    if (unknown(us))
        snprintf(buf, n, "-");
    else if (us < 0.9995)
        snprintf(buf, n, "%.3g ns", us * 1e3);
    else if (us < 999.5)
        snprintf(buf, n, "%.3g µs", us);
    else if (us < 999.5e3)
        snprintf(buf, n, "%.3g ms", us / 1e3);
    else if (us < 999.5e6)
        snprintf(buf, n, "%.3g s", us / 1e6);
    else if (us < 1e15) /* up to 31 years in whole seconds */
        snprintf(buf, n, "%.0f s", us / 1e6);
    else /* an absurd profile: 1e302 s was written as 303 digits */
        snprintf(buf, n, "over 31 years");
}

void units_time_compact(char *buf, size_t n, double us)
{
    if (unknown(us))
        snprintf(buf, n, "-");
    else if (us < 999.5)
        sig3(buf, n, us, "", "µs");
    else if (us < 999.5e3)
        sig3(buf, n, us / 1e3, "", "ms");
    else if (us < 9.995e7)
        sig3(buf, n, us / 1e6, "", "s");
    else
        snprintf(buf, n, "%.0fs", us / 1e6);
}

void units_bytes(char *buf, size_t n, double bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (unknown(bytes)) {
        snprintf(buf, n, "-");
        return;
    }
    int i = 0;
    while (bytes >= 1023.5 && i < 6) {
        bytes /= 1024;
        i++;
    }
    if (i == 0)
        snprintf(buf, n, "%.0f B", bytes);
    else
        sig3_trim(buf, n, bytes, unit[i]);
}

static void si(char *buf, size_t n, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (v >= 999.5 && i < 6) {
        v /= 1000;
        i++;
    }
    char u[48];
    snprintf(u, sizeof u, "%s%s", pre[i], unit);
    const char *sp = *u ? " " : "";
    if (i == 0 && v == floor(v))
        snprintf(buf, n, "%.0f%s%s", v, sp, u);
    else
        sig3(buf, n, v, sp, u);
}

void units_rate(char *buf, size_t n, double per_s, const char *unit)
{
    if (unknown(per_s)) {
        snprintf(buf, n, "-");
        return;
    }
    char u[40];
    snprintf(u, sizeof u, "%s/s", unit ? unit : "");
    si(buf, n, per_s, u);
}

void units_count(char *buf, size_t n, double v)
{
    if (unknown(v))
        snprintf(buf, n, "-");
    else
        si(buf, n, v, "");
}

void units_counter(char *buf, size_t n, const char *event, double per_dispatch)
{
    if (event && (strcmp(event, "task-clock") == 0 || strcmp(event, "cpu-clock") == 0))
        units_time_us(buf, n, per_dispatch / 1e3); /* software clocks count ns */
    else
        units_count(buf, n, per_dispatch);
}

void units_exact(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "%s", "");
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.10g", v);
}
