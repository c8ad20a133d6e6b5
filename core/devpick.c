/* devpick.c - see devpick.h. */
#include "devpick.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Lower-case hex digits of s, dashes dropped; 0 when s holds anything else
 * or not exactly 32 digits. */
static int uuid_digits(const char *s, size_t len, char out[33])
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '-')
            continue;
        if (!isxdigit((unsigned char)s[i]) || o == 32)
            return 0;
        out[o++] = (char)tolower((unsigned char)s[i]);
    }
    out[o] = 0;
    return o == 32;
}

static int by_uuid(const devpick_device *d, size_t n, const char *cvd, size_t *idx, char *why,
                   size_t whylen)
{
    for (const char *p = cvd; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char want[33];
        if (len > 4 && !strncasecmp(p, "GPU-", 4) && uuid_digits(p + 4, len - 4, want)) {
            for (size_t i = 0; i < n; i++) {
                char have[33];
                if (d[i].uuid_hex && uuid_digits(d[i].uuid_hex, strlen(d[i].uuid_hex), have) &&
                    !strcmp(have, want)) {
                    snprintf(why, whylen, "CUDA_VISIBLE_DEVICES entry %.*s is device %zu (%s)",
                             (int)len, p, i, d[i].name ? d[i].name : "?");
                    *idx = i;
                    return 1;
                }
            }
        }
        p += len + (end ? 1 : 0);
    }
    return 0;
}

static const devpick_device *sorting;

static int cmp_pci(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const devpick_device *x = &sorting[a], *y = &sorting[b];
    if (x->has_pci != y->has_pci)
        return x->has_pci ? -1 : 1;
    if (x->has_pci) {
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
        CMP(domain);
        CMP(bus);
        CMP(device);
        CMP(function);
#undef CMP
    }
    return a < b ? -1 : a > b;
}

int devpick_auto(const devpick_device *d, size_t n, cw_env_fn env, void *user, size_t *idx,
                 char *why, size_t whylen, cw_error *err)
{
    if (why && whylen)
        why[0] = 0;
    if (n == 0)
        return 1;
    const char *cvd = launch_env(env, user, "CUDA_VISIBLE_DEVICES");
    if (cvd && by_uuid(d, n, cvd, idx, why, whylen))
        return 0;
    const char *var = "SLURM_LOCALID";
    const char *lr = launch_env(env, user, var);
    if (!lr) {
        var = "OMPI_COMM_WORLD_LOCAL_RANK";
        lr = launch_env(env, user, var);
    }
    if (!lr)
        return 1;
    char *end;
    long rank = strtol(lr, &end, 10);
    if (end == lr || *end || rank < 0 || rank > 1000000) {
        cw_error_set(err, NULL, 0, 0, "--device auto: %s='%s' is not a local rank (a "
                     "non-negative integer)", var, lr);
        return CW_STATUS_INPUT;
    }
    size_t *order = xcalloc(n, sizeof *order), m = 0;
    int have_gpu = 0;
    for (size_t i = 0; i < n; i++)
        have_gpu |= !d[i].is_cpu;
    for (size_t i = 0; i < n; i++)
        if (!have_gpu || !d[i].is_cpu)
            order[m++] = i;
    sorting = d;
    qsort(order, m, sizeof *order, cmp_pci);
    sorting = NULL;
    size_t pick = order[(size_t)rank % m];
    snprintf(why, whylen, "%s=%ld: device %zu (%s), position %zu of the %zu %s in PCI bus "
             "order%s", var, rank, pick, d[pick].name ? d[pick].name : "?", (size_t)rank % m,
             m, have_gpu ? "GPUs" : "devices",
             (size_t)rank >= m ? " (more ranks than devices: ranks share)" : "");
    *idx = pick;
    free(order);
    return 0;
}
