/* vk_cachedir.h - keep the Vulkan driver's disk cache off unusable folders.
 *
 * Why: Mesa's shader cache maps an index file it has just sized with
 * ftruncate; on a full disk the first touch of that mapping is a SIGBUS in
 * the driver's cache thread, which killed `run` and `calibrate` (exit 135)
 * with no report.  A read-only cache folder is no better.
 *
 * Contract: vk_cachedir_guard(log) is called before the Vulkan instance is
 * created.  It finds the folder the driver will use (MESA_SHADER_CACHE_DIR,
 * else $XDG_CACHE_HOME, else $HOME/.cache; unless MESA_SHADER_CACHE_DISABLE
 * is already set) and checks that a file can be created and written there
 * and that the file system has at least VK_CACHEDIR_MIN_FREE bytes free.
 * If not, it turns the driver's disk caches off for this process
 * (MESA_SHADER_CACHE_DISABLE=true, __GL_SHADER_DISK_CACHE=0) and writes one
 * warning to log (may be NULL) naming the folder and why.  Returns 1 when
 * it turned them off, 0 otherwise.  Runs its checks once per process.
 * vk_cachedir_usable(dir, why, n) is the check itself (1 usable), also used
 * for Clockwork's own pipeline-cache file.
 */
#ifndef CW_VK_CACHEDIR_H
#define CW_VK_CACHEDIR_H

#include <stddef.h>
#include <stdio.h>

#define VK_CACHEDIR_MIN_FREE (16u << 20)

int vk_cachedir_guard(FILE *log);
int vk_cachedir_usable(const char *dir, char *why, size_t n);

#endif
