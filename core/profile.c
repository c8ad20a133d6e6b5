/* profile.c - device profiles: built-ins, JSON load/save, cache paths.
 *
 * The JSON form (schema 1) groups the fields of device_profile:
 *
 *   { "schema": 1, "name": ..., "key": ..., "driver": ..., "uuid": ...,
 *     "date": ..., "command": ..., "source": "builtin", "is_cpu": false,
 *     "limits":   { "max_wg_size": [x,y,z], ... },
 *     "ceilings": { "dram_gbs": 4300, "l2_gbs": null, ... },   null = unknown
 *     "shape":    { "units": 132, ..., "mem_latency_ns": 420 } }
 *
 * Every field is optional except "schema"; a missing field stays unknown
 * (profile_init), so a hand-written profile may give only what it knows.
 * Unknown keys, wrong types, negative or overflowing values are errors with
 * file:line:column.  jansson does not keep the positions of values, so
 * positions of semantic errors are found again in the text (the first
 * `"key":` after the enclosing group's key): exact for the documents we
 * write and for any document without repeated keys.
 */
#include "input.h"
#include "profile.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jsonpos.h"
#include <unistd.h>

#include "plan.h"
#include "report.h"

#define PROFILE_SCHEMA 1
#define PROFILE_MAX_FILE (1u << 20)

const char *profile_source_name(profile_source s)
{
    switch (s) {
    case PROFILE_BUILTIN: return "builtin";
    case PROFILE_CALIBRATED: return "calibrated";
    case PROFILE_LIMITS_ONLY: return "limits-only";
    }
    return "limits-only";
}

static int profile_source_parse(const char *s, profile_source *out)
{
    static const profile_source all[] = {PROFILE_LIMITS_ONLY, PROFILE_BUILTIN,
                                         PROFILE_CALIBRATED};
    for (size_t i = 0; i < 3; i++)
        if (strcmp(s, profile_source_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return -1;
}

/* ---- field table: one row per JSON field, so load and save agree ---- */

/* What a rate, cost or latency field may hold, in its own unit (GB/s,
 * G/s, ns, us, cycles, bytes): the measured ones of every profile we keep
 * lie between 0.017 (costs.dram_page_ns) and 7.4e4 (issue_glanes, G
 * lanes/s); outside this range a value is a typo or a broken calibration,
 * and would turn every prediction into 1e300 us or 0. */
#define RATE_MIN 1e-6
#define RATE_MAX 1e8

/* F_TRI: true / false / null (unknown, -1); F_WPOL: "write-through" /
 * "write-back" / null, stored as 0 / 1 / -1. */
typedef enum {
    F_STR, F_BOOL, F_SOURCE, F_U32, F_U64, F_U32X3, F_RATE, F_TRI, F_WPOL,
    F_WIDTH, /* an access width in bytes: 0 (none), 8, 16 or 32 */
    F_BLOCK, /* a block of bytes: F_RATE that is a power of two */
    F_KIND /* device_kind as "is_cpu" (see profile.h) */
} ftype;

typedef struct field {
    const char *group; /* NULL = top level */
    const char *name;
    ftype type;
    size_t off;
    size_t size;       /* F_STR: buffer size */
} field;

#define P(m) offsetof(device_profile, m)
#define S(m) sizeof(((device_profile *)0)->m)
#define L(m) (offsetof(device_profile, limits) + offsetof(device_limits, m))

static const field fields[] = {
    {NULL, "name", F_STR, P(name), S(name)},
    {NULL, "key", F_STR, P(key), S(key)},
    {NULL, "driver", F_STR, P(driver), S(driver)},
    {NULL, "uuid", F_STR, P(uuid), S(uuid)},
    {NULL, "date", F_STR, P(date), S(date)},
    {NULL, "command", F_STR, P(command), S(command)},
    {NULL, "source", F_SOURCE, P(source), 0},
    {NULL, "is_cpu", F_KIND, P(kind), 0},

    {"limits", "max_wg_size", F_U32X3, L(max_wg_size), 0},
    {"limits", "max_wg_invocations", F_U32, L(max_wg_invocations), 0},
    {"limits", "max_wg_count", F_U32X3, L(max_wg_count), 0},
    {"limits", "max_shared_bytes", F_U32, L(max_shared_bytes), 0},
    {"limits", "max_push_bytes", F_U32, L(max_push_bytes), 0},
    {"limits", "max_storage_range", F_U64, L(max_storage_range), 0},
    {"limits", "subgroup_size", F_U32, L(subgroup_size), 0},

    {"ceilings", "dram_gbs", F_RATE, P(dram_gbs), 0},
    {"ceilings", "dram_read_gbs", F_RATE, P(dram_read_gbs), 0},
    {"ceilings", "dram_write_gbs", F_RATE, P(dram_write_gbs), 0},
    {"ceilings", "l2_gbs", F_RATE, P(l2_gbs), 0},
    {"ceilings", "l2_sector_gops", F_RATE, P(l2_sector_gops), 0},
    {"ceilings", "l2_line_gops", F_RATE, P(l2_line_gops), 0},
    {"ceilings", "l2_store_run_gops", F_RATE, P(l2_store_run_gops), 0},
    {"ceilings", "tlb_miss_gops", F_RATE, P(tlb_miss_gops), 0},
    {"ceilings", "l2_partial_write_gops", F_RATE, P(l2_partial_write_gops), 0},
    {"ceilings", "l2_partial_stream_gops", F_RATE, P(l2_partial_stream_gops), 0},
    {"ceilings", "shared_gbs", F_RATE, P(shared_gbs), 0},
    {"ceilings", "fp32_gflops", F_RATE, P(fp32_gflops), 0},
    {"ceilings", "fp16_gflops", F_RATE, P(fp16_gflops), 0},
    {"ceilings", "fp64_gflops", F_RATE, P(fp64_gflops), 0},
    {"ceilings", "int32_gops", F_RATE, P(int32_gops), 0},
    {"ceilings", "sfu_gops", F_RATE, P(sfu_gops), 0},
    {"ceilings", "atomic_gops", F_RATE, P(atomic_gops), 0},
    {"ceilings", "launch_us", F_RATE, P(launch_us), 0},
    {"ceilings", "launch_memory_us", F_RATE, P(launch_memory_us), 0},
    {"ceilings", "timestamp_res_ns", F_RATE, P(timestamp_res_ns), 0},
    {"ceilings", "l1_gbs", F_RATE, P(l1_gbs), 0},
    {"ceilings", "l1_row_lines_gops", F_RATE, P(l1_row_lines_gops), 0},
    {"ceilings", "l1_spread_lines_gops", F_RATE, P(l1_spread_lines_gops), 0},
    {"ceilings", "atomic_shared_gops", F_RATE, P(atomic_shared_gops), 0},
    {"ceilings", "issue_glanes", F_RATE, P(issue_glanes), 0},

    {"shape", "units", F_U32, P(units), 0},
    {"shape", "max_threads_per_unit", F_U32, P(max_threads_per_unit), 0},
    {"shape", "max_groups_per_unit", F_U32, P(max_groups_per_unit), 0},
    {"shape", "shared_per_unit", F_U32, P(shared_per_unit), 0},
    {"shape", "regs_per_unit", F_U32, P(regs_per_unit), 0},
    {"shape", "l2_bytes", F_U64, P(l2_bytes), 0},
    {"shape", "sector_bytes", F_U32, P(sector_bytes), 0},
    {"shape", "line_bytes", F_U32, P(line_bytes), 0},
    {"shape", "shared_banks", F_U32, P(shared_banks), 0},
    {"shape", "mem_latency_ns", F_RATE, P(mem_latency_ns), 0},
    {"shape", "clock_ghz", F_RATE, P(clock_ghz), 0},
    {"shape", "l1_bytes", F_U64, P(l1_bytes), 0},
    {"shape", "l1_shared_unified", F_TRI, P(l1_shared_unified), 0},
    {"shape", "l1_ways", F_U32, P(l1_ways), 0},
    {"shape", "l2_ways", F_U32, P(l2_ways), 0},
    {"shape", "l1_write_policy", F_WPOL, P(l1_write_back), 0},
    {"shape", "reg_alloc_granule", F_U32, P(reg_alloc_granule), 0},
    {"shape", "atomic_unit_bytes", F_U32, P(atomic_unit_bytes), 0},
    {"shape", "atomic_slice_bytes", F_U32, P(atomic_slice_bytes), 0},
    {"shape", "atomic_unit_queues", F_U32, P(atomic_unit_queues), 0},
    {"shape", "l2_partitions", F_U32, P(l2_partitions), 0},
    {"shape", "dram_page_bytes", F_U32, P(dram_page_bytes), 0},
    {"shape", "dram_open_pages", F_U32, P(dram_open_pages), 0},
    {"shape", "partial_write_fill", F_TRI, P(partial_write_fill), 0},
    {"shape", "full_unroll_trips", F_U32, P(full_unroll_trips), 0},
    {"shape", "tlb_reach_mib", F_RATE, P(tlb_reach_mib), 0},
    {"shape", "merge_buffer_bytes", F_WIDTH, P(merge_buffer_bytes), 0},
    {"shape", "merge_shared_bytes", F_WIDTH, P(merge_shared_bytes), 0},
    {"shape", "shared_wide_broadcast", F_TRI, P(shared_wide_broadcast), 0},

    {"costs", "l1_latency_ns", F_RATE, P(l1_latency_ns), 0},
    {"costs", "l2_latency_ns", F_RATE, P(l2_latency_ns), 0},
    {"costs", "shared_latency_ns", F_RATE, P(shared_latency_ns), 0},
    {"costs", "fp_latency_cycles", F_RATE, P(fp_latency_cycles), 0},
    {"costs", "atomic_same_ns", F_RATE, P(atomic_same_ns), 0},
    {"costs", "atomic_shared_same_ns", F_RATE, P(atomic_shared_same_ns), 0},
    {"costs", "atomic_combine", F_TRI, P(atomic_combine), 0},
    {"costs", "atomic_shared_combine", F_TRI, P(atomic_shared_combine), 0},
    {"costs", "barrier_ns", F_RATE, P(barrier_ns), 0},
    {"costs", "subgroup_op_ns", F_RATE, P(subgroup_op_ns), 0},
    {"costs", "dram_page_ns", F_RATE, P(dram_page_ns), 0},
    {"costs", "atomic_line_ns", F_RATE, P(atomic_line_ns), 0},
    {"costs", "atomic_request_ns", F_RATE, P(atomic_request_ns), 0},
    {"costs", "atomic_word_ns", F_RATE, P(atomic_word_ns), 0},
    {"costs", "atomic_collide_ns", F_RATE, P(atomic_collide_ns), 0},
    {"costs", "group_start_ns", F_RATE, P(group_start_ns), 0},
    {"costs", "loop_trip_cycles", F_RATE, P(loop_trip_cycles), 0},
    {"costs", "loop_trip_slots", F_RATE, P(loop_trip_slots), 0},
    {"costs", "dram_random_read_bytes", F_RATE, P(dram_random_read_bytes), 0},
    {"costs", "l2_fetch_bytes", F_BLOCK, P(l2_fetch_bytes), 0},
    {"costs", "dram_walk_fetch_bytes", F_RATE, P(dram_walk_fetch_bytes), 0},
    {"costs", "dram_random_write_bytes", F_RATE, P(dram_random_write_bytes),
     0},

    {"cpu_costs", "cycles_per_instruction", F_RATE,
     P(cpu_cycles_per_instruction), 0},
    {"cpu_costs", "cycles_per_fp_instruction", F_RATE,
     P(cpu_cycles_per_fp_instruction), 0},
    {"cpu_costs", "cycles_per_int_instruction", F_RATE,
     P(cpu_cycles_per_int_instruction), 0},
    {"cpu_costs", "cycles_per_sfu_instruction", F_RATE,
     P(cpu_cycles_per_sfu_instruction), 0},
    {"cpu_costs", "cycles_per_storage_lane", F_RATE,
     P(cpu_cycles_per_storage_lane), 0},
    {"cpu_costs", "cycles_per_shared_lane", F_RATE,
     P(cpu_cycles_per_shared_lane), 0},
    {"cpu_costs", "ns_per_barrier_lane", F_RATE, P(cpu_ns_per_barrier_lane),
     0},
    {"cpu_costs", "ns_per_group", F_RATE, P(cpu_ns_per_group), 0},
    {"cpu_costs", "cycles_per_subgroup", F_RATE, P(cpu_cycles_per_subgroup),
     0},
    {"cpu_costs", "cycles_per_chain_step", F_RATE,
     P(cpu_cycles_per_chain_step), 0},
    {"cpu_costs", "fp16_conversions_per_flop", F_RATE,
     P(cpu_fp16_conversions_per_flop), 0},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static const char *const groups[] = {"limits", "ceilings", "shape", "costs",
                                     "cpu_costs"};
#define NGROUPS (sizeof groups / sizeof groups[0])

#undef P
#undef S
#undef L

void profile_init(device_profile *p)
{
    memset(p, 0, sizeof *p);
    p->source = PROFILE_LIMITS_ONLY;
    char *base = (char *)p;
    for (size_t i = 0; i < NFIELDS; i++) {
        if (fields[i].type == F_RATE)
            *(double *)(base + fields[i].off) = -1.0;
        else if (fields[i].type == F_TRI || fields[i].type == F_WPOL)
            *(int *)(base + fields[i].off) = -1;
    }
}


/* ---- positions: find `"key"` followed by ':' in the text ---- */

typedef struct src {
    const char *path;
    const char *text;
    size_t len;
} src;

/* Offset of the value of the first `"key":` at or after from; len if none. */
static size_t src_find_key(const src *s, const char *key, size_t from)
{
    size_t klen = strlen(key);
    for (size_t i = from; i + klen + 2 <= s->len; i++) {
        if (s->text[i] != '"' || memcmp(s->text + i + 1, key, klen) != 0 ||
            s->text[i + 1 + klen] != '"')
            continue;
        /* skip a key that is really the tail of a longer string */
        if (i > 0 && s->text[i - 1] == '\\')
            continue;
        size_t j = i + klen + 2;
        while (j < s->len && strchr(" \t\r\n", s->text[j]))
            j++;
        if (j < s->len && s->text[j] == ':') {
            j++;
            while (j < s->len && strchr(" \t\r\n", s->text[j]))
                j++;
            return j;
        }
    }
    return s->len;
}

/* Position of `key`'s value (inside group when given); 0:0 if not found. */
static void src_pos(const src *s, const char *group, const char *key,
                    int *line, int *col)
{
    size_t from = 0;
    *line = 0;
    *col = 0;
    if (group) {
        from = src_find_key(s, group, 0);
        if (from >= s->len)
            return;
    }
    size_t at = key ? src_find_key(s, key, from) : from;
    if (at >= s->len)
        return;
    int l = 1, c = 1;
    for (size_t i = 0; i < at; i++) {
        if (s->text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static void src_error(const src *s, cw_error *err, const char *group,
                      const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void src_error(const src *s, cw_error *err, const char *group,
                      const char *key, const char *fmt, ...)
{
    int line, col;
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    src_pos(s, group, key, &line, &col);
    cw_error_set(err, s->path, line, col, "%s", text);
}


/* Non-negative integer up to max (from an integer, or a real with no
 * fraction: 1e9 is a fine way to write a count). */
static int get_count(const json_t *v, uint64_t max, uint64_t *out)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0 || (uint64_t)i > max)
            return -1;
        *out = (uint64_t)i;
        return 0;
    }
    if (json_is_string(v)) {
        /* counts above 2^63 are written as decimal strings (jansson's
         * integers are signed 64-bit) */
        const char *t = json_string_value(v);
        if (!t[0] || strlen(t) > 20 || strspn(t, "0123456789") != strlen(t))
            return -1;
        errno = 0;
        unsigned long long u = strtoull(t, NULL, 10);
        if (errno || u > max)
            return -1;
        *out = u;
        return 0;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d >= 9007199254740992.0) /* 2^53: not exact as a real */
            return -1;
        if (!(d >= 0) || d > (double)max || d != floor(d))
            return -1;
        *out = (uint64_t)d;
        return 0;
    }
    return -1;
}

static int load_field(const src *s, const field *f, const json_t *v,
                      device_profile *p, cw_error *err)
{
    char *base = (char *)p;
    const char *g = f->group;
    switch (f->type) {
    case F_STR: {
        if (!json_is_string(v)) {
            src_error(s, err, g, f->name, "'%s' must be a string, not %s",
                      f->name, jsonpos_type_phrase(v));
            return -1;
        }
        const char *str = json_string_value(v);
        if (strlen(str) >= f->size) {
            src_error(s, err, g, f->name,
                      "'%s' is too long (%zu characters, at most %zu)",
                      f->name, strlen(str), f->size - 1);
            return -1;
        }
        snprintf(base + f->off, f->size, "%s", str);
        return 0;
    }
    case F_BOOL:
        if (!json_is_boolean(v)) {
            src_error(s, err, g, f->name, "'%s' must be true or false, not %s",
                      f->name, jsonpos_type_phrase(v));
            return -1;
        }
        *(int *)(base + f->off) = json_is_true(v);
        return 0;
    case F_KIND: {
        if (!json_is_boolean(v)) {
            src_error(s, err, g, f->name, "'%s' must be true or false, not %s",
                      f->name, jsonpos_type_phrase(v));
            return -1;
        }
        /* "driver" comes before "is_cpu" in the table */
        const device_profile *dp = (const device_profile *)base;
        *(device_kind *)(base + f->off) = !json_is_true(v) ? DEVICE_KIND_GPU
                                          : strcmp(dp->driver, "native") == 0
                                              ? DEVICE_KIND_NATIVE_CPU
                                              : DEVICE_KIND_CPU_VULKAN;
        return 0;
    }
    case F_SOURCE:
        if (!json_is_string(v) ||
            profile_source_parse(json_string_value(v),
                                 (profile_source *)(base + f->off)) != 0) {
            src_error(s, err, g, f->name,
                      "'source' must be \"builtin\", \"calibrated\" or "
                      "\"limits-only\"");
            return -1;
        }
        return 0;
    case F_U32:
    case F_U64: {
        uint64_t max = f->type == F_U32 ? UINT32_MAX : UINT64_MAX;
        uint64_t u;
        if (get_count(v, max, &u) != 0) {
            src_error(s, err, g, f->name,
                      "'%s' must be a non-negative integer%s (0 = unknown), "
                      "not %s",
                      f->name, f->type == F_U32 ? " below 2^32" : "",
                      json_is_number(v) ? "this value" : jsonpos_type_phrase(v));
            return -1;
        }
        if (f->type == F_U32)
            *(uint32_t *)(base + f->off) = (uint32_t)u;
        else
            *(uint64_t *)(base + f->off) = u;
        return 0;
    }
    case F_WIDTH: {
        /* the widest access a compiler forms is 128 bits on the GPUs we
         * know; 32 bytes (256 bits) for wider ones; anything else makes
         * the merge planner widen a lane's window past any real access */
        uint64_t u;
        if (get_count(v, 32, &u) != 0 || (u != 0 && u != 8 && u != 16 && u != 32)) {
            src_error(s, err, g, f->name,
                      "'%s' must be 0 (no merging), 8, 16 or 32 (bytes)",
                      f->name);
            return -1;
        }
        *(uint32_t *)(base + f->off) = (uint32_t)u;
        return 0;
    }
    case F_U32X3: {
        uint32_t *dst = (uint32_t *)(base + f->off);
        if (!json_is_array(v) || json_array_size(v) != 3) {
            src_error(s, err, g, f->name,
                      "'%s' must be an array of 3 integers [x, y, z]",
                      f->name);
            return -1;
        }
        for (size_t i = 0; i < 3; i++) {
            uint64_t u;
            if (get_count(json_array_get(v, i), UINT32_MAX, &u) != 0) {
                src_error(s, err, g, f->name,
                          "'%s'[%zu] must be a non-negative integer below 2^32",
                          f->name, i);
                return -1;
            }
            dst[i] = (uint32_t)u;
        }
        return 0;
    }
    case F_TRI:
        if (json_is_null(v)) {
            *(int *)(base + f->off) = -1;
            return 0;
        }
        if (!json_is_boolean(v)) {
            src_error(s, err, g, f->name,
                      "'%s' must be true, false or null (unknown), not %s",
                      f->name, jsonpos_type_phrase(v));
            return -1;
        }
        *(int *)(base + f->off) = json_is_true(v);
        return 0;
    case F_WPOL: {
        const char *w = json_is_string(v) ? json_string_value(v) : NULL;
        if (json_is_null(v))
            *(int *)(base + f->off) = -1;
        else if (w && strcmp(w, "write-through") == 0)
            *(int *)(base + f->off) = 0;
        else if (w && strcmp(w, "write-back") == 0)
            *(int *)(base + f->off) = 1;
        else {
            src_error(s, err, g, f->name,
                      "'%s' must be \"write-through\", \"write-back\" or "
                      "null (unknown)", f->name);
            return -1;
        }
        return 0;
    }
    case F_RATE:
    case F_BLOCK: {
        double *dst = (double *)(base + f->off);
        if (json_is_null(v)) {
            *dst = -1.0;
            return 0;
        }
        if (!json_is_number(v)) {
            src_error(s, err, g, f->name,
                      "'%s' must be a number or null (unknown), not %s",
                      f->name, jsonpos_type_phrase(v));
            return -1;
        }
        double d = json_number_value(v);
        if (!(d > 0) || !isfinite(d)) {
            src_error(s, err, g, f->name,
                      "'%s' must be a positive number (write null when it is "
                      "unknown)",
                      f->name);
            return -1;
        }
        if (d < RATE_MIN || d > RATE_MAX) {
            src_error(s, err, g, f->name,
                      "'%s' is %g: no device has that (every rate, cost and "
                      "latency of a profile lies between %g and %g in its "
                      "unit; write null when it is unknown)",
                      f->name, d, RATE_MIN, RATE_MAX);
            return -1;
        }
        /* a cache fetches aligned blocks of a power of two of bytes; the
         * model would otherwise take the sector alone, silently */
        if (f->type == F_BLOCK &&
            (d != floor(d) || ((uint64_t)d & ((uint64_t)d - 1)))) {
            src_error(s, err, g, f->name,
                      "'%s' is %g: it must be a power of two of bytes (the "
                      "aligned block the cache fetches; write null when it "
                      "is unknown)",
                      f->name, d);
            return -1;
        }
        *dst = d;
        return 0;
    }
    }
    return -1;
}

static const field *find_field(const char *group, const char *name)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        if (strcmp(f->name, name) != 0)
            continue;
        if ((group == NULL) != (f->group == NULL))
            continue;
        if (group && strcmp(group, f->group) != 0)
            continue;
        return f;
    }
    return NULL;
}

static void unknown_key(const src *s, cw_error *err, const char *group,
                        const char *key)
{
    const char *cand[NFIELDS + NGROUPS + 1];
    size_t n = 0;
    for (size_t i = 0; i < NFIELDS; i++)
        if ((group == NULL && fields[i].group == NULL) ||
            (group && fields[i].group && strcmp(group, fields[i].group) == 0))
            cand[n++] = fields[i].name;
    if (!group) {
        for (size_t i = 0; i < NGROUPS; i++)
            cand[n++] = groups[i];
        cand[n++] = "schema";
    }
    const char *sug = plan_suggest(key, cand, n);
    if (sug)
        src_error(s, err, group, key, "unknown key '%s'%s%s - did you mean '%s'?",
                  key, group ? " in " : "", group ? group : "", sug);
    else
        src_error(s, err, group, key, "unknown key '%s'%s%s", key,
                  group ? " in " : "", group ? group : "");
}

static int load_group(const src *s, const char *group, json_t *obj,
                      device_profile *p, cw_error *err)
{
    if (!json_is_object(obj)) {
        src_error(s, err, NULL, group, "'%s' must be an object, not %s", group,
                  jsonpos_type_phrase(obj));
        return -1;
    }
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        const field *f = find_field(group, key);
        if (!f) {
            unknown_key(s, err, group, key);
            return -1;
        }
        if (load_field(s, f, v, p, err) != 0)
            return -1;
    }
    return 0;
}

/* A known fetch block outside the known sector..line range (the model
 * would take the sector alone). */
static int fetch_outside_line(const device_profile *p)
{
    double f = p->l2_fetch_bytes;
    return f > 0 && ((p->sector_bytes && f < p->sector_bytes) ||
                     (p->line_bytes && f > p->line_bytes));
}

int profile_load_text(const char *path, const char *text, unsigned long len,
                      device_profile *out, cw_error *err)
{
    src s = {path ? path : "<profile>", text, len};
    json_error_t jerr;
    device_profile p;
    profile_init(&p);
    cw_error_clear(err);

    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root && (json_error_code(&jerr) == json_error_out_of_memory || !jerr.text[0])) {
        cw_error_set_env(err, s.path, "out of memory reading the profile (%zu bytes)", len);
        return -1;
    }
    if (!root) {
        cw_error_set(err, s.path, jerr.line > 0 ? jerr.line : 0,
                     jerr.column > 0 ? jerr.column : 0,
                     "malformed profile JSON: %s", jerr.text);
        return -1;
    }
    int rc = -1;
    if (!json_is_object(root)) {
        cw_error_set(err, s.path, 1, 1,
                     "a profile must be a JSON object, not %s",
                     jsonpos_type_phrase(root));
        goto out;
    }
    json_t *schema = json_object_get(root, "schema");
    if (!schema) {
        cw_error_set(err, s.path, 1, 1,
                     "missing \"schema\": 1 (is this a Clockwork profile?)");
        goto out;
    }
    if (!json_is_integer(schema) ||
        json_integer_value(schema) != PROFILE_SCHEMA) {
        src_error(&s, err, NULL, "schema",
                  "unsupported profile schema (this version reads schema %d)",
                  PROFILE_SCHEMA);
        goto out;
    }
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        if (strcmp(key, "schema") == 0)
            continue;
        int is_group = 0;
        for (size_t i = 0; i < NGROUPS; i++)
            if (strcmp(key, groups[i]) == 0) {
                if (load_group(&s, groups[i], v, &p, err) != 0)
                    goto out;
                is_group = 1;
            }
        if (is_group)
            continue;
        const field *f = find_field(NULL, key);
        if (!f) {
            unknown_key(&s, err, NULL, key);
            goto out;
        }
        if (load_field(&s, f, v, &p, err) != 0)
            goto out;
    }
    if (fetch_outside_line(&p)) {
        src_error(&s, err, "costs", "l2_fetch_bytes",
                  "'l2_fetch_bytes' is %g: the block L2 fetches for a "
                  "missed sector lies from sector_bytes (%u) to line_bytes "
                  "(%u)",
                  p.l2_fetch_bytes, p.sector_bytes, p.line_bytes);
        goto out;
    }
    *out = p;
    rc = 0;
out:
    json_decref(root);
    return rc;
}

static int parse_profile(const char *path, const char *text, size_t len, void *out,
                         cw_error *err)
{
    return profile_load_text(path, text, len, out, err);
}

int profile_load_file(const char *path, device_profile *out, cw_error *err)
{
    return cw_parse_input(path, "profile", 0, PROFILE_MAX_FILE, 1, parse_profile, out, err);
}

/* ---- saving ---- */

static json_t *field_to_json(const device_profile *p, const field *f)
{
    const char *base = (const char *)p;
    switch (f->type) {
    case F_STR: return json_string(base + f->off);
    case F_BOOL: return json_boolean(*(const int *)(base + f->off));
    case F_KIND:
        return json_boolean(*(const device_kind *)(base + f->off) != DEVICE_KIND_GPU);
    case F_SOURCE:
        return json_string(
            profile_source_name(*(const profile_source *)(base + f->off)));
    case F_U32:
    case F_WIDTH: return json_integer(*(const uint32_t *)(base + f->off));
    case F_U64: {
        uint64_t u = *(const uint64_t *)(base + f->off);
        /* jansson integers are signed 64-bit; larger counts as reals */
        if (u > (uint64_t)INT64_MAX) {
            char buf[32];
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)u);
            return json_string(buf);
        }
        return json_integer((json_int_t)u);
    }
    case F_U32X3: {
        const uint32_t *a = (const uint32_t *)(base + f->off);
        return json_pack("[III]", (json_int_t)a[0], (json_int_t)a[1],
                         (json_int_t)a[2]);
    }
    case F_RATE:
    case F_BLOCK: {
        double d = *(const double *)(base + f->off);
        return d > 0 && isfinite(d) ? json_real(d) : json_null();
    }
    case F_TRI: {
        int t = *(const int *)(base + f->off);
        return t < 0 ? json_null() : json_boolean(t);
    }
    case F_WPOL: {
        int t = *(const int *)(base + f->off);
        return t < 0 ? json_null()
                     : json_string(t ? "write-back" : "write-through");
    }
    }
    return json_null();
}

static char *profile_to_text(const device_profile *p)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_integer(PROFILE_SCHEMA));
    for (size_t i = 0; i < NFIELDS; i++)
        if (!fields[i].group)
            json_object_set_new(root, fields[i].name,
                                field_to_json(p, &fields[i]));
    for (size_t g = 0; g < NGROUPS; g++) {
        json_t *obj = json_object();
        for (size_t i = 0; i < NFIELDS; i++)
            if (fields[i].group && strcmp(fields[i].group, groups[g]) == 0)
                json_object_set_new(obj, fields[i].name,
                                    field_to_json(p, &fields[i]));
        json_object_set_new(root, groups[g], obj);
    }
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                      JSON_REAL_PRECISION(17));
    json_decref(root);
    return text;
}

/* mkdir -p of path's folder (the cache folder may not exist yet). */
static int make_parents(const char *path, cw_error *err)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = 0;
    for (char *q = dir + 1;; q++) {
        if (*q == '/' || *q == 0) {
            char saved = *q;
            *q = 0;
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                cw_error_set(err, path, 0, 0, "cannot create folder %s: %s",
                             dir, strerror(errno));
                return -1;
            }
            *q = saved;
            if (!saved)
                break;
        }
    }
    return 0;
}

int profile_save_file(const device_profile *p, const char *path,
                      cw_error *err)
{
    if (strcmp(path, "-") != 0 && make_parents(path, err) != 0)
        return -1;
    char *text = profile_to_text(p);
    if (!text) {
        cw_error_set(err, path, 0, 0, "cannot encode the profile as JSON");
        return -1;
    }
    size_t n = strlen(text);
    /* newline-terminated text file */
    char *buf = malloc(n + 2);
    if (!buf) {
        free(text);
        cw_error_set(err, path, 0, 0, "out of memory");
        return -1;
    }
    memcpy(buf, text, n);
    buf[n] = '\n';
    buf[n + 1] = 0;
    free(text);
    int rc = cw_write_file_atomic_as(path, buf, n + 1, "the profile", err);
    free(buf);
    return rc;
}

/* ---- built-ins ---- */

/* A built-in is its file, profiles/<key>.json, as built into the binary
 * (profile_embed.c); docs/model.md section 7 gives the origin of every
 * figure.  A unit test loads each file and compares. */
static int builtin_from_file(const char *key, device_profile *p)
{
    const char *text = profile_embedded(key);
    char path[96];
    snprintf(path, sizeof path, "profiles/%s.json (built in)", key);
    cw_error err = {0};
    if (!text || profile_load_text(path, text, strlen(text), p, &err) != 0) {
        /* test_profile loads every committed file, so this is a build made
         * from an edited one: say so, and refuse the key, rather than
         * predict with every fallback (a launch of 5 us, 100x off) */
        char msg[1200] = "not embedded";
        if (text)
            cw_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "clockwork: error: the built-in profile %s does not load: %s\n",
                path, msg);
        profile_init(p);
        snprintf(p->key, sizeof p->key, "%s", key);
        return -1;
    }
    p->source = PROFILE_BUILTIN;
    snprintf(p->key, sizeof p->key, "%s", key);
    return 0;
}

/* NVIDIA H200: profiles/h200.json, a `clockwork calibrate` output on one
 * H200 with the datasheet shape (docs/model.md section 7). */
static int builtin_h200(device_profile *p)
{
    return builtin_from_file("h200", p);
}

static int read_first_double(const char *path, double *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fscanf(f, "%lf", out) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

/* A conservative clock: the base frequency when the kernel exposes it, else
 * the lowest "cpu MHz" in /proc/cpuinfo (turbo is not sustained on all
 * cores), else 0. */
static double cpu_clock_ghz(void)
{
    double khz;
    if (read_first_double(
            "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency", &khz) == 0 &&
        khz > 0)
        return khz / 1e6;
    if (read_first_double(
            "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &khz) ==
            0 &&
        khz > 0)
        return khz / 1e6;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[512];
    double lowest = 0;
    while (fgets(line, sizeof line, f)) {
        double mhz;
        if (strncmp(line, "cpu MHz", 7) == 0 &&
            sscanf(strchr(line, ':') ? strchr(line, ':') + 1 : line, "%lf",
                   &mhz) == 1 &&
            mhz > 0 && (lowest == 0 || mhz < lowest))
            lowest = mhz;
    }
    fclose(f);
    return lowest / 1e3;
}

/* First value of "key : value" in /proc/cpuinfo, or "" */
void profile_cpuinfo_field(const char *key, char *buf, size_t n)
{
    buf[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[1024];
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) != 0 || !strchr(line, ':'))
            continue;
        const char *v = strchr(line, ':') + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(buf, n, "%s", v);
        buf[strcspn(buf, "\n")] = 0;
        break;
    }
    fclose(f);
}

static void cpu_model_name(char *buf, size_t n)
{
    profile_cpuinfo_field("model name", buf, n);
}

static uint64_t cpu_llc_bytes(void)
{
    long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (v > 0)
        return (uint64_t)v;
    v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return v > 0 ? (uint64_t)v : 0;
}

/* Lavapipe (llvmpipe) on this CPU.  The generated-code costs, DRAM
 * bandwidth, launch and atomic rates are profiles/lavapipe.json (measured
 * on the development machine: docs/model.md, "lavapipe calibration");
 * the shape and the hardware peaks are derived here from this CPU. */
static int builtin_lavapipe(device_profile *p)
{
    if (builtin_from_file("lavapipe", p) != 0)
        return -1;
    char cpu[200];
    cpu_model_name(cpu, sizeof cpu);
    snprintf(p->name, sizeof p->name, "llvmpipe (%s)",
             cpu[0] ? cpu : "this CPU");
    snprintf(p->date, sizeof p->date, "derived at run time");
    snprintf(p->command, sizeof p->command,
             "built-in: profiles/lavapipe.json with the shape derived from "
             "this CPU (sysconf, cpuid, /proc/cpuinfo)");
    p->kind = DEVICE_KIND_CPU_VULKAN;

    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t cores = ncpu > 0 ? (uint32_t)ncpu : 1;
    /* lavapipe runs one worker thread per core unless LP_NUM_THREADS says
     * otherwise (0: everything on the submitting thread, i.e. one core) */
    const char *lp = getenv("LP_NUM_THREADS");
    if (lp && lp[0] >= '0' && lp[0] <= '9') {
        long want = strtol(lp, NULL, 10);
        if (want <= 0)
            cores = 1;
        else if ((uint32_t)want < cores)
            cores = (uint32_t)want;
    }
    double ghz = cpu_clock_ghz();
    if (ghz <= 0)
        ghz = -1;

    int avx2 = __builtin_cpu_supports("avx2");
    int fma = __builtin_cpu_supports("fma");
    /* llvmpipe packs 8 invocations of 32 bits into one 256-bit vector with
     * AVX2, 4 with SSE only (128-bit). */
    uint32_t lanes = avx2 ? 8 : 4;
    double fma_pipes = 2; /* two vector FMA/FP pipes on current x86 cores */
    double flops_per_lane = fma ? 2.0 : 1.0;

    p->limits.subgroup_size = lanes;
    p->units = cores;
    p->clock_ghz = ghz;
    p->l2_bytes = cpu_llc_bytes();
    if (ghz > 0) {
        double lane_rate = cores * ghz * lanes; /* G lane-cycles per second */
        /* Peaks of the hardware.  What lavapipe's generated code reaches
         * is modelled in verifier/model.c from the cpu_costs. */
        p->fp32_gflops = lane_rate * fma_pipes * flops_per_lane;
        p->fp16_gflops = p->fp32_gflops; /* computed as FP32 */
        p->fp64_gflops = p->fp32_gflops / 2; /* half the lanes */
        p->int32_gops = lane_rate * fma_pipes;
        p->sfu_gops = lane_rate / 8; /* polynomial expansions, ~16 ops */
    }
    return 0;
}

static const char *const builtin_keys[] = {"lavapipe", "h200", NULL};

const char *const *profile_builtin_keys(void)
{
    return builtin_keys;
}

int profile_builtin(const char *key, device_profile *out)
{
    if (!key)
        return -1;
    if (strcmp(key, "h200") == 0)
        return builtin_h200(out);
    if (strcmp(key, "lavapipe") == 0 || strcmp(key, "llvmpipe") == 0)
        return builtin_lavapipe(out);
    return -1;
}

/* ---- cache path ---- */

/* File names keep [A-Za-z0-9._-]; anything else becomes '_'. */
static void sanitize(char *dst, size_t n, const char *s)
{
    size_t j = 0;
    for (; s && *s && j + 1 < n; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        dst[j++] = ok ? c : '_';
    }
    dst[j] = 0;
}

int profile_cache_path(const char *uuid, const char *driver, char *buf,
                       unsigned long size)
{
    char base[PATH_MAX];
    const char *xdg = getenv("XDG_CACHE_HOME");
    /* the XDG spec: a relative path is invalid and must be ignored */
    if (xdg && xdg[0] == '/') {
        snprintf(base, sizeof base, "%s", xdg);
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/')
            return -1;
        snprintf(base, sizeof base, "%s/.cache", home);
    }
    char u[80], d[160];
    sanitize(u, sizeof u, uuid && uuid[0] ? uuid : "unknown");
    sanitize(d, sizeof d, driver && driver[0] ? driver : "unknown");
    int n = snprintf(buf, size, "%s/clockwork/profiles/%s-%s.json", base, u, d);
    return n < 0 || (unsigned long)n >= size ? -1 : 0;
}
