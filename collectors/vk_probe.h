/* vk_probe.h - the Vulkan device list, read in a child process.
 *
 * Why: `check` only needs the devices' names, limits and UUIDs, but loading
 * the driver maps its libraries into the process for good (lavapipe's LLVM
 * is ~150 MiB of address space that vkDestroyInstance does not give back):
 * under `ulimit -v` 256 MiB nothing was left for the compiler and the
 * report.  A driver that crashes while enumerating takes only the child.
 *
 * Contract: vk_probe_devices() has the meaning of vk_list_devices() (same
 * outputs, freed with vk_free_devices()), run in a forked child that sends
 * the list back over a pipe.  A child that crashes, hangs past timeout_s
 * (killed) or sends something malformed gives CW_STATUS_ENV with err saying
 * so.  Never blocks without a deadline, never leaves a zombie.
 */
#ifndef CW_VK_PROBE_H
#define CW_VK_PROBE_H

#include <stddef.h>

#include "error.h"
#include "vk.h"

int vk_probe_devices(double timeout_s, vk_device_info **out, size_t *n, cw_error *err);

#endif
