/* clockwork.h - the ABI of a native CPU kernel measured by Clockwork.
 *
 * A plan entry with "kind": "cpu" names a shared object ("library") and an
 * exported function ("symbol") of this type:
 *
 *     int kernel(void *const buffers[], const int64_t args[]);
 *
 * buffers: the plan's "buffers", in plan order.  Each is 64-byte aligned,
 *          holds exactly the bytes the plan asks for (elements x 4 bytes
 *          when "elements" is given: CPU buffers are float arrays) and is
 *          filled per its "init" before every warm-up and sampled call
 *          sequence (the buffers are NOT refilled between calls).
 * args:    the plan's "args" values, in the order they are written in the
 *          plan's "args" object, as 64-bit integers.
 * return:  0 on success; any other value is reported as the kernel's
 *          failure (the measurement is abandoned, exit code 4).
 *
 * The kernel may start threads (OpenMP, pthreads, a BLAS pool): wall time
 * covers the whole call and the counters are inherited by threads created
 * during the call.  Threads created before the call (a pool started when the
 * library was loaded) are counted only if created after the counters were
 * opened; Clockwork opens them before loading the library.
 *
 * Build with: cc -O2 -fPIC -shared -o libmykernel.so mykernel.c
 */
#ifndef CLOCKWORK_H
#define CLOCKWORK_H

#include <stdint.h>

#define CLOCKWORK_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

typedef int clockwork_kernel_fn(void *const buffers[], const int64_t args[]);

#ifdef __cplusplus
}
#endif

#endif
