/* libFuzzer harness: the device-profile loader (the calibrated profiles in
 * $XDG_CACHE_HOME/clockwork/profiles/ and --profile FILE are files anyone
 * may have edited), then a save of what it accepted. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    device_profile p;
    cw_error err;
    if (profile_load_text("fuzz.json", (const char *)data, size, &p, &err) != 0)
        return 0;
    char path[64];
    snprintf(path, sizeof path, "/tmp/cw-fuzz-profile-%d.json", (int)getpid());
    if (profile_save_file(&p, path, &err) == 0)
        unlink(path);
    return 0;
}
