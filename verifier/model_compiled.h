/* model_compiled.h - the loop control of the loops the driver's compiler
 * keeps, priced per trip instead of as counted instructions.
 *
 * Contract: mc_loop_control() reads the evaluator's share of the counts
 * that is kept loops' control (kernel_counts.loop_ctl_instructions,
 * loop_ctl_int_ops, loop_trips: verifier/eval_compiled.h) and the
 * profile's per-trip costs (calibrate `loop trip issue` ->
 * loop_trip_slots, FP32-FMA issue slots a lane-trip takes beyond its
 * body; `loop trip latency` -> loop_trip_cycles, cycles a trip adds to a
 * dependent chain).  It is on only for a GPU profile with both costs and a
 * kernel with recognised kept loops; then the model
 *   - leaves the control out of the integer and issue terms and of the
 *     path's counted instructions,
 *   - adds issue_us (lane-trips x slots at the FP32 FMA rate) to each pipe
 *     term (fp32, int, issue): the control takes issue slots whatever pipe
 *     the loop's body uses,
 *   - adds chain_cycles (trips per invocation x cycles) to the path's
 *     dependent chain.
 * Off: every field 0, the model as before. */
#ifndef CW_MODEL_COMPILED_H
#define CW_MODEL_COMPILED_H

#include "profile.h"
#include "verifier.h"

typedef struct mc_loops {
    int on;
    double ctl_instructions, ctl_int_ops; /* to leave out */
    double issue_us;      /* the control's issue time over the dispatch */
    double chain_cycles;  /* per invocation, on the dependent path */
} mc_loops;

/* fma_lanes_pus: FP32 FMA lane-instructions per µs (FP32 rate / 2);
 * inv: launched invocations. */
void mc_loop_control(const device_profile *p, const kernel_counts *c,
                     double fma_lanes_pus, double inv, mc_loops *out);

/* GPU with executed counts (full_unroll_trips): every executed
 * lane-instruction takes one issue slot, at the FP32 FMA lane rate
 * (fma_lanes_pus; an SM sub-partition issues one warp-instruction a
 * clock, and FP32 FMAs reach exactly that rate): executed instructions
 * (less a kept loop's control, priced per trip in loops->issue_us) over
 * that rate, µs; 0 when off. */
double mc_issue_slots_us(const device_profile *p, const kernel_counts *c,
                         const mc_loops *loops, double fma_lanes_pus);

#endif
