/* vkfault.c - a crash "inside the Vulkan driver", for run_crash.sh: an
 * LD_PRELOAD library that interposes the loader's entry points and dies of
 * SIGSEGV where the environment says:
 *   VKFAULT_DISPATCH_X=N   in vkCmdDispatch when groupCountX == N (one kernel
 *                          of a plan, picked by its workgroup count)
 *   VKFAULT_HANG_X=N       or hangs there for good (a deadlock in the driver)
 *   VKFAULT_ABORT_X=N      or calls abort() there (an allocator out of
 *                          memory, std::terminate, an assertion)
 *   VKFAULT_CREATE_DEVICE=1  in vkCreateDevice (=hang: hangs there)
 *   VKFAULT_DESTROY_DEVICE=1 in vkDestroyDevice
 * Everything else goes to the real loader (dlsym RTLD_NEXT). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

static void crash_if(const char *var, long want, long have)
{
    const char *v = getenv(var);
    if (v && *v && (want < 0 ? 1 : atol(v) == have))
        raise(SIGSEGV);
}

VKAPI_ATTR void VKAPI_CALL vkCmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z)
{
    crash_if("VKFAULT_DISPATCH_X", 0, (long)x);
    const char *ab = getenv("VKFAULT_ABORT_X");
    if (ab && *ab && atol(ab) == (long)x)
        abort();
    const char *h = getenv("VKFAULT_HANG_X");
    if (h && *h && atol(h) == (long)x)
        for (;;)
            pause();
    PFN_vkCmdDispatch real = (PFN_vkCmdDispatch)dlsym(RTLD_NEXT, "vkCmdDispatch");
    real(cb, x, y, z);
}

VKAPI_ATTR VkResult VKAPI_CALL vkCreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                              const VkAllocationCallbacks *a, VkDevice *d)
{
    const char *cd = getenv("VKFAULT_CREATE_DEVICE");
    if (cd && !strcmp(cd, "hang"))
        for (;;)
            pause();
    crash_if("VKFAULT_CREATE_DEVICE", -1, 0);
    PFN_vkCreateDevice real = (PFN_vkCreateDevice)dlsym(RTLD_NEXT, "vkCreateDevice");
    return real(pd, ci, a, d);
}

VKAPI_ATTR void VKAPI_CALL vkDestroyDevice(VkDevice d, const VkAllocationCallbacks *a)
{
    crash_if("VKFAULT_DESTROY_DEVICE", -1, 0);
    PFN_vkDestroyDevice real = (PFN_vkDestroyDevice)dlsym(RTLD_NEXT, "vkDestroyDevice");
    real(d, a);
}
