/* units.h - the one formatter of numbers for people: times, memory sizes,
 * rates and counts, each with its unit; and exact numbers for machines.
 *
 * Conventions (issue 16, "Units"): memory sizes in binary units (B, KiB,
 * MiB, GiB, TiB); rates in decimal SI (GB/s, TFLOP/s: "FLOP/s" spelled one
 * way); times pick ns, µs, ms or s; three significant digits, never an
 * exponent ("8.07 µs", not "8.07e+03 ns").  Unknown values (negative, NaN,
 * infinite) print "-".  Every function writes a NUL-terminated string of at
 * most n bytes into buf.  CSV and JSON use units_exact: integers in full.
 */
#ifndef CW_UNITS_H
#define CW_UNITS_H

#include <stddef.h>

/* "12 ns", "245 µs", "1.78 ms", "3.20 s", "5120 s" */
void units_time_us(char *buf, size_t n, double us);
/* At most 7 columns for tables: "2.45µs", "178ms", "3.20s" */
void units_time_compact(char *buf, size_t n, double us);
/* "512 B", "48 KiB", "1.50 MiB", "384 MiB", "4 GiB" */
void units_bytes(char *buf, size_t n, double bytes);
/* per_s in unit per second, unit without "/s": ("B", 3.28e12) ->
 * "3.28 TB/s", ("FLOP", 5.39e13) -> "53.9 TFLOP/s" */
void units_rate(char *buf, size_t n, double per_s, const char *unit);
/* A count: "812", "35.8 k", "1.23 G" (decimal SI prefixes). */
void units_count(char *buf, size_t n, double v);
/* A counter value per dispatch, in the event's own unit: task-clock and
 * cpu-clock are nanoseconds ("35.8 ms"), everything else a count. */
void units_counter(char *buf, size_t n, const char *event, double per_dispatch);
/* For machines (CSV): an integer-valued number below 2^53 in full
 * ("12582912"), anything else with 10 significant digits; "" if unknown. */
void units_exact(char *buf, size_t n, double v);

#endif
