/* Hostile native kernels for tests/integration/cpu_hostile.sh: each symbol
 * misbehaves in one way (signal, exit, overrun, hang, stdout). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int good(void *const b[], const int64_t a[]) { float *x = b[0]; for (int64_t i = 0; i < a[0]; i++) x[i] = x[i] * 2 + 1; return 0; }
int segv(void *const b[], const int64_t a[]) { (void)b; (void)a; *(volatile int *)16 = 1; return 0; }
int aborts(void *const b[], const int64_t a[]) { (void)b; (void)a; abort(); }
int divzero(void *const b[], const int64_t a[]) { (void)b; volatile int64_t z = a[1] - a[1]; return (int)(100 / z); }
static int deep(volatile char *p, int n) { volatile char big[4096]; big[0] = p ? p[0] : 0; return n + deep(big, n + 1) + big[100]; }
int overflow(void *const b[], const int64_t a[]) { (void)b; (void)a; return deep(0, 0); }
int exits(void *const b[], const int64_t a[]) { (void)b; (void)a; exit(0); }
int past16k(void *const b[], const int64_t a[]) { (void)a; memset((char *)b[0] + 4096, 1, 16384 + 4096); return 0; }
int past64(void *const b[], const int64_t a[]) { (void)a; memset((char *)b[0] + 4000, 1, 64); return 0; }
int past1(void *const b[], const int64_t a[]) { (void)a; ((char *)b[0])[4000] = 7; return 0; }
int spins(void *const b[], const int64_t a[]) { (void)b; (void)a; for (;;) ; }
int chatty(void *const b[], const int64_t a[]) { (void)b; (void)a; printf("KERNEL-STDOUT\n"); fflush(stdout); return 0; }
int data_symbol[16] = {1};
int forker(void *const b[], const int64_t a[]) { (void)b; (void)a; if (fork() == 0) { sleep(30); _exit(0); } *(volatile int *)16 = 1; return 0; }
int spew(void *const b[], const int64_t a[]) { (void)b; (void)a; static char junk[4096]; for (int i = 0; i < 4096; i++) junk[i] = (char)i; for (;;) for (int fd = 3; fd < 32; fd++) if (write(fd, junk, sizeof junk) < 0) {} }
