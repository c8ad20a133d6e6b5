/* libFuzzer harness: the native-kernel runner (collectors/cpu_isolate.c)
 * against a kernel that does what the input says.  The kernel runs in a
 * child process and is not trusted: whatever it does (return codes, writes
 * anywhere in or around its buffers, signals, exit, _exit, stdout, closing
 * or scribbling fuzz bytes onto every descriptor, the result socket
 * included, once or forever, sleeping, forking) the parent must return with a cause, within
 * its timeout, without crashing, leaking or leaving a child behind.
 *
 * Input: [nbuf 1..3][size u16 x nbuf][8 x int64 args][ncalls 1..4][rest:
 * the bytes of buffer 0].  The kernel's action is args[0] % 16 on call
 * args[7] % 4 (other calls return 0); see kernel_src for the operands.
 * The kernel library is compiled once with cc, on the first input (the
 * replay driver of `make test` has no initialisation hook).
 * Seeds: tests/fuzz/seeds/cpurun/. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu_isolate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char kernel_src[] =
    "#include <signal.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#include <string.h>\n#include <unistd.h>\n"
    "static int calls;\n"
    "int act(void *const b[], const int64_t a[]) {\n"
    "  if (calls++ != (int)(a[7] & 3)) return 0;\n"
    "  volatile char *p = b[0];\n"
    "  switch ((int)(a[0] & 15)) {\n"
    "  case 0: return (int)a[1];\n"
    "  case 1: p[a[1] % (1 << 20)] = (char)a[2]; return 0;\n"
    "  case 2: { volatile int64_t d = a[2] & 1; return (int)(a[1] / d); }\n"
    "  case 3: raise((int)(a[1] & 31)); return 0;\n"
    "  case 4: exit((int)a[1]);\n"
    "  case 5: for (int fd = 3; fd < 64; fd++) if (write(fd, (const void *)p, (size_t)(a[2] & 4095)) < 0) {} return 0;\n"
    "  case 6: usleep((useconds_t)(a[1] & 0x3ffff)); return 0;\n"
    "  case 7: printf(\"%lld\\n\", (long long)a[1]); return 0;\n"
    "  case 8: for (int fd = 3; fd < 64; fd++) close(fd); return (int)a[1];\n"
    "  case 9: abort();\n"
    "  case 10: memset((char *)p + (a[1] % 8192) - 4096, (int)a[2], (size_t)(a[3] & 0x7fff)); return 0;\n"
    "  case 11: _exit((int)a[1]);\n"
    "  case 12: if (fork() == 0) { for (int fd = 3; fd < 64; fd++) if (write(fd, (const void *)p, 64) < 0) {} _exit(0); } return 0;\n"
    "  case 13: { volatile char big[1 << 16]; big[a[1] & 0xffff] = 1; return act(b, a) + big[0]; }\n"
    "  case 14: for (;;) {}\n"
    "  case 15: for (;;) for (int fd = 3; fd < 64; fd++) if (write(fd, (const void *)p, (size_t)(a[2] & 4095)) < 0) {}\n"
    "  default: return 0;\n"
    "  }\n"
    "}\n";

static char lib_path[256], src_path[300], dir_path[64];

static void remove_kernel(void)
{
    unlink(lib_path);
    unlink(src_path);
    rmdir(dir_path);
}

static void build_kernel(void)
{
    char dir[] = "/tmp/cw-fuzz-cpurun.XXXXXX";
    if (!mkdtemp(dir))
        abort();
    char cmd[800];
    const char *src = src_path;
    snprintf(dir_path, sizeof dir_path, "%s", dir);
    snprintf(src_path, sizeof src_path, "%s/act.c", dir);
    snprintf(lib_path, sizeof lib_path, "%s/libact.so", dir);
    FILE *f = fopen(src, "w");
    if (!f)
        abort();
    fputs(kernel_src, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -O1 -w -fPIC -shared -o %s %s", lib_path, src);
    if (system(cmd) != 0)
        abort();
    atexit(remove_kernel);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!lib_path[0])
        build_kernel();
    size_t at = 0;
    if (size < 1)
        return 0;
    size_t nbuf = 1 + data[at++] % 3;
    uint64_t sizes[3] = {0};
    for (size_t i = 0; i < nbuf; i++) {
        if (at + 2 > size)
            return 0;
        sizes[i] = (uint64_t)data[at] | (uint64_t)data[at + 1] << 8;
        at += 2;
    }
    int64_t args[8];
    if (at + sizeof args + 1 > size)
        return 0;
    memcpy(args, data + at, sizeof args);
    at += sizeof args;
    unsigned ncalls = 1 + data[at++] % 4;

    cpu_isolate_buffers bufs;
    char why[1200];
    if (cpu_isolate_buffers_alloc(&bufs, sizes, nbuf, why, sizeof why) != 0)
        return 0;
    size_t rest = size - at;
    if (rest > sizes[0])
        rest = (size_t)sizes[0];
    memcpy(bufs.ptr[0], data + at, rest);
    cpu_isolate_spec spec = {
        .kernel = "fuzz", .library = lib_path, .symbol = "act", .args = args,
        .threads = 1, .timeout_s = 0.5, .cancel = NULL,
    };
    cpu_child *c = NULL;
    if (cpu_isolate_start(&spec, &bufs, &c, why, sizeof why) == 0) {
        for (unsigned i = 0; i < ncalls; i++) {
            int rc;
            double us, dl;
            if (cpu_isolate_call(c, i + 1, &rc, &us, &dl, why, sizeof why) != 0)
                break;
        }
        cpu_isolate_stop(c);
    }
    if (strlen(why) >= sizeof why)
        abort();
    cpu_isolate_buffers_free(&bufs);
    /* no child may be left behind (grandchildren of case 12 exit at once) */
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
    return 0;
}
