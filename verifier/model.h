/* model.h - the static performance model: counts + profile -> prediction.
 *
 * Contract: model_predict() is a pure function of the evaluator's counts,
 * the reflection, the plan kernel and the device profile.  It fills
 * pred (time_us, ideal_time_us, bound, flops, bytes, invocations,
 * confidence, assumptions, per-ceiling terms) and appends performance
 * findings (uncoalesced-access, bank-conflict, low-occupancy,
 * small-dispatch, tail-effect, far-below-roofline) to kr.  Any profile field
 * that is unknown (< 0) is replaced by a stated assumption, never a silent
 * default.  Registers per invocation (c->regs_per_invocation, filled in
 * by the pipeline from the driver when a device is open) limit occupancy
 * when known; pred->registers_per_invocation carries them.  The formulas
 * are in docs/model.md.
 */
#ifndef CW_MODEL_H
#define CW_MODEL_H

#include "plan.h"
#include "profile.h"
#include "report.h"
#include "verifier.h"

void model_predict(const kernel_counts *c, const reflection *refl,
                   const plan_kernel *k, const device_profile *prof,
                   prediction *pred, kernel_report *kr);

#endif
