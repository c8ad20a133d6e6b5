/* Hostile native kernels for tests/integration/cpu_hostile.sh: each symbol
 * misbehaves in one way (signal, exit, overrun, hang, stdout). */
#include <stdint.h>
__attribute__((constructor)) static void boom(void) { *(volatile int *)8 = 1; }
int k(void *const b[], const int64_t a[]) { (void)b; (void)a; return 0; }
