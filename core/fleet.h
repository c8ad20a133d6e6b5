/* fleet.h - the same kernels measured on several devices: the spread per
 * kernel, and the device that is off (a throttling or sick GPU).
 *
 * Contract: fleet_analyse() reads a merged report (merge.h: kernels with a
 * `source`, sources with provenance and device) and, for every kernel
 * identity (plan, name, plan position) measured on two or more devices,
 * records min / median / max of the devices' medians.  A device is off on
 * a kernel when its median is beyond `threshold` (0.25 = 25%) of the
 * median of its siblings, by more than 3 x its own MAD, and it is further
 * from the model's prediction than its siblings are (without a prediction:
 * the siblings must agree among themselves, which needs three devices).  A
 * device off on at least half of the kernels it shares is an outlier: each
 * of those kernels gets a `device-outlier` warning finding naming the
 * device, its ratio to the siblings and to the model.  The summary goes to
 * r->fleet_json ("fleet" in the report; docs/report.md); nothing is
 * written when no kernel was measured on two devices.  Returns the number
 * of outlier devices.
 */
#ifndef CW_FLEET_H
#define CW_FLEET_H

#include <stdio.h>

#include "report.h"

int fleet_analyse(report *r, double threshold);

/* The fleet summary as a table (merge --format table); nothing when the
 * report has no fleet. */
void fleet_write_table(const report *r, FILE *out);

#endif
