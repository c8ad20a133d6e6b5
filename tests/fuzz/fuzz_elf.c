/* libFuzzer harness: the CPU-kernel inspector (ELF symbol lookup and
 * Capstone classification of loops) on arbitrary bytes as the library of a
 * CPU kernel: `clockwork check` inspects a plan's library without loading
 * it, so a truncated or hostile .so must give a reason, never a crash.
 * Seeds: the example CPU kernels (symbol "sgemm"). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpuinspect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("cw-fuzz-elf", 0);
        if (fd < 0)
            return 0;
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        return 0;
    cpuinspect_result r;
    cpuinspect_symbol(path, "sgemm", &r);
    return 0;
}
