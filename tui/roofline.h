/* roofline.h - the roofline view (pure, like every view).
 *
 * Contract: roofline_render() draws a log-log roofline of the state's
 * kernels inside rect r of the canvas: braille dots in UTF-8, one ASCII
 * character per cell otherwise; the profile's FP32 (and FP64) roofs and
 * DRAM (and L2) slopes; per kernel a lower-case letter at the predicted
 * point and the upper-case one at the measured point; a legend (right when
 * wide, below otherwise).  It records the legend rows in the state for
 * mouse clicks; nothing else of the state changes.
 */
#ifndef CW_TUI_ROOFLINE_H
#define CW_TUI_ROOFLINE_H

#include "canvas.h"
#include "state.h"

void roofline_render(canvas *cv, const rect *r, tui_state *st);

#endif
