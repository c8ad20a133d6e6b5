/* replay.c - a plain driver for the fuzz harnesses: runs
 * LLVMFuzzerTestOneInput once per file named on the command line (or on
 * stdin when none is), so the harnesses build and replay with any C
 * compiler.  `make fuzzers` links each harness with it; `make fuzz` uses
 * libFuzzer instead (tests/fuzz/run.sh). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* libFuzzer's mutator, for harnesses with a custom mutator: replaying never
 * mutates. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    (void)data;
    (void)max_size;
    return size;
}

static int run(FILE *f, const char *name)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", name);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return run(stdin, "<stdin>");
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        bad |= run(f, argv[i]);
        fclose(f);
    }
    return bad;
}
