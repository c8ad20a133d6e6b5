/* devpick.h - `--device auto`: which GPU of a multi-GPU node is this rank's.
 *
 * Vulkan ignores CUDA_VISIBLE_DEVICES, so a launcher's GPU binding has to
 * be applied here.  The rule, in order:
 *   1. the first GPU-... entry of CUDA_VISIBLE_DEVICES whose UUID equals a
 *      device's Vulkan deviceUUID (on NVIDIA they are the same 16 bytes;
 *      "GPU-8c3e5b8e-..." against "8c3e5b8e...", dashes and case aside);
 *   2. else the node-local rank (SLURM_LOCALID, else
 *      OMPI_COMM_WORLD_LOCAL_RANK) over the GPUs in PCI bus order
 *      (domain, bus, device, function from VK_EXT_pci_bus_info; devices
 *      without it follow in Vulkan order); CPU devices count only when
 *      there is no GPU; more ranks than GPUs wrap around (ranks share);
 *   3. else nothing: the caller's default device.
 * Contract: a pure function over a device list and an environment (env_fn,
 * launch.h).  Returns 0 with *idx and a sentence in why, 1 when no rule
 * applies (use the default), or CW_STATUS_INPUT with err for a local rank
 * that is not a number.
 */
#ifndef CW_DEVPICK_H
#define CW_DEVPICK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "launch.h"

typedef struct devpick_device {
    const char *name;
    const char *uuid_hex; /* 32 hex digits, or NULL */
    int is_cpu;           /* a CPU device (lavapipe) */
    int has_pci;
    uint32_t domain, bus, device, function;
} devpick_device;

int devpick_auto(const devpick_device *d, size_t n, cw_env_fn env, void *user, size_t *idx,
                 char *why, size_t whylen, cw_error *err);

#endif
