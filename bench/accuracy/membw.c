/* membw.c - the machine's copy bandwidth (read + write) with plain C threads:
 * the DRAM figure the built-in lavapipe profile starts from (docs/model.md).
 *   cc -O2 -march=native -o membw bench/accuracy/membw.c -lpthread && ./membw
 * Copies 256 MiB -> 256 MiB with 1 and 2 threads, best of 3 each.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N (64u << 20) /* floats per buffer */

static float *a, *b;
static unsigned nthreads;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *run(void *p)
{
    size_t h = (size_t)p, per = N / nthreads;
    for (size_t i = h * per; i < (h + 1) * per; i++)
        b[i] = a[i];
    return NULL;
}

int main(void)
{
    a = malloc((size_t)N * 4);
    b = malloc((size_t)N * 4);
    if (!a || !b)
        return 1;
    memset(a, 1, (size_t)N * 4);
    memset(b, 0, (size_t)N * 4); /* first touch outside the timing */
    for (nthreads = 1; nthreads <= 2; nthreads++) {
        double best = 0;
        for (int r = 0; r < 3; r++) {
            pthread_t t[2];
            double t0 = now();
            for (size_t i = 0; i < nthreads; i++)
                pthread_create(&t[i], NULL, run, (void *)i);
            for (size_t i = 0; i < nthreads; i++)
                pthread_join(t[i], NULL);
            double gbs = 2.0 * N * 4 / (now() - t0) / 1e9;
            if (gbs > best)
                best = gbs;
        }
        printf("copy, %u thread(s): %.1f GB/s (read + write)\n", nthreads, best);
    }
    return (int)b[5] & 0;
}
