/* validate.c - SPIRV-Tools validation (C API) for the Vulkan environment
 * that matches the module's SPIR-V version.
 *
 * A context per environment is created once and kept (creating one builds
 * the grammar tables: too slow to repeat per kernel); creation is guarded
 * by a mutex so callers on several threads are safe.
 *
 * SPIRV-Tools has superlinear paths (a valid 50k-deep call chain took
 * minutes in ComputeRecursiveEntryPoints): a large module is validated in
 * a child process under a time budget, killed when it runs over, so that
 * every input finishes in seconds with a clear error.
 */
#include "checks.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <string.h>

#define NENV 4
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static spv_context contexts[NENV];

static spv_target_env env_for(uint32_t version, int *slot)
{
    if (version >= 0x00010600u) {
        *slot = 3;
        return SPV_ENV_VULKAN_1_3;
    }
    if (version >= 0x00010500u) {
        *slot = 2;
        return SPV_ENV_VULKAN_1_2;
    }
    if (version >= 0x00010400u) {
        *slot = 1;
        return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
    }
    *slot = 0;
    return SPV_ENV_VULKAN_1_1;
}

static uint32_t bswap(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

static int validate_inproc(const uint32_t *words, size_t nwords, int relaxed_layout,
                           char *msg, size_t msgsize, long *inst)
{
    uint32_t version = 0;
    int slot;
    if (inst)
        *inst = 0;
    if (msg && msgsize)
        msg[0] = 0;
    if (words && nwords >= 2)
        version = words[0] == 0x07230203u ? words[1] : bswap(words[1]);
    spv_target_env env = env_for(version, &slot);

    pthread_mutex_lock(&ctx_lock);
    if (!contexts[slot])
        contexts[slot] = spvContextCreate(env);
    spv_context ctx = contexts[slot];
    pthread_mutex_unlock(&ctx_lock);
    if (!ctx) {
        if (msg)
            snprintf(msg, msgsize, "SPIRV-Tools could not create a %s context",
                     spvTargetEnvDescription(env));
        return -1;
    }

    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = {words, nwords};
    spv_validator_options opts = spvValidatorOptionsCreate();
    if (relaxed_layout) {
        /* layouts that need device features (scalarBlockLayout,
         * uniformBufferStandardLayout, workgroup scalar layout) */
        spvValidatorOptionsSetScalarBlockLayout(opts, true);
        spvValidatorOptionsSetUniformBufferStandardLayout(opts, true);
        spvValidatorOptionsSetWorkgroupScalarBlockLayout(opts, true);
    }
    spv_result_t res = spvValidateWithOptions(ctx, opts, &bin, &diag);
    spvValidatorOptionsDestroy(opts);
    if (res == SPV_SUCCESS) {
        spvDiagnosticDestroy(diag);
        return 0;
    }
    if (msg) {
        const char *text = diag && diag->error ? diag->error : "validation failed";
        size_t j = 0;
        /* one line: the diagnostic, then the instruction it quotes */
        for (size_t i = 0; text[i] && j + 3 < msgsize; i++) {
            char ch = text[i];
            if (ch == '\n') {
                while (text[i + 1] == ' ')
                    i++;
                if (text[i + 1] == 0)
                    break;
                msg[j++] = ';';
                msg[j++] = ' ';
                continue;
            }
            msg[j++] = ch;
        }
        msg[j] = 0;
    }
    /* for validation (not parsing) diagnostics SPIRV-Tools' position
     * index is the 1-based instruction number */
    if (inst && diag)
        *inst = (long)diag->position.index;
    spvDiagnosticDestroy(diag);
    return -1;
}

/* ---- budgeted validation in a child process ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int read_full(int fd, void *p, size_t n, double deadline)
{
    size_t got = 0;
    while (got < n) {
        double left = deadline - now_s();
        if (left <= 0)
            return -2;
        struct pollfd pf = {fd, POLLIN, 0};
        int r = poll(&pf, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r == 0 ? -2 : -1;
        ssize_t k = read(fd, (char *)p + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    return 0;
}

static int write_full(int fd, const void *p, size_t n)
{
    size_t put = 0;
    while (put < n) {
        ssize_t k = write(fd, (const char *)p + put, n - put);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        put += (size_t)k;
    }
    return 0;
}

double validate_budget_s(void)
{
    const char *e = getenv("CW_VALIDATE_BUDGET_S");
    double b = e ? atof(e) : 0;
    return b > 0 ? b : 5.0;
}

/* The largest number of nodes a type expands to, members repeated (a
 * struct of two copies of a struct of two copies ... doubles per level).
 * SPIRV-Tools walks such types without memo (ContainsType): a 30-level
 * doubling struct, 2 KB of SPIR-V, validated for minutes in-process.  One
 * pass in id order (a type is declared before its users), saturating. */
#define TYPE_EXPANSION_INPROC 100000
static uint64_t type_expansion(const uint32_t *words, size_t nwords)
{
    if (nwords < 5 || words[0] != 0x07230203u || words[3] == 0 || words[3] > (1u << 24))
        return 0;
    uint32_t bound = words[3];
    uint64_t *n = calloc(bound, sizeof *n);
    if (!n)
        return UINT64_MAX; /* unknown: take the budgeted path */
    uint64_t most = 0;
    for (size_t i = 5; i < nwords;) {
        uint32_t op = words[i] & 0xffff, wc = words[i] >> 16;
        if (wc == 0 || i + wc > nwords)
            break;
        const uint32_t *w = words + i;
        uint32_t first = 0, last = 0; /* operand words holding type ids */
        switch (op) {
        case 23: case 24: case 28: case 29: first = 2; last = 3; break; /* vector .. runtime array */
        case 30: first = 2; last = wc; break;                            /* struct */
        case 32: first = 3; last = 4; break;                             /* pointer */
        default: break;
        }
        if (last && wc >= last && w[1] < bound) {
            uint64_t sum = 1;
            for (uint32_t k = first; k < last; k++) {
                uint64_t m = w[k] < bound ? n[w[k]] : 0;
                sum = sum > UINT64_MAX - m ? UINT64_MAX : sum + m;
            }
            n[w[1]] = sum;
            if (sum > most)
                most = sum;
        }
        i += wc;
    }
    free(n);
    return most;
}

int validate_spirv(const uint32_t *words, size_t nwords, int relaxed_layout,
                   char *msg, size_t msgsize, long *inst)
{
    if (nwords <= VALIDATE_INPROC_WORDS && type_expansion(words, nwords) <= TYPE_EXPANSION_INPROC)
        return validate_inproc(words, nwords, relaxed_layout, msg, msgsize, inst);
    /* the context is created here, not in the child (a lock held by
       another thread at fork time would never be released there) */
    uint32_t version = words && nwords >= 2 ? (words[0] == 0x07230203u ? words[1]
                                                                         : bswap(words[1]))
                                            : 0;
    int slot;
    spv_target_env env = env_for(version, &slot);
    pthread_mutex_lock(&ctx_lock);
    if (!contexts[slot])
        contexts[slot] = spvContextCreate(env);
    pthread_mutex_unlock(&ctx_lock);
    int fds[2];
    if (pipe(fds) != 0)
        return validate_inproc(words, nwords, relaxed_layout, msg, msgsize, inst);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return validate_inproc(words, nwords, relaxed_layout, msg, msgsize, inst);
    }
    if (pid == 0) {
        close(fds[0]);
        char m[1024];
        long at = 0;
        int rc = validate_inproc(words, nwords, relaxed_layout, m, sizeof m, &at);
        uint32_t len = (uint32_t)strlen(m);
        if (write_full(fds[1], &rc, sizeof rc) || write_full(fds[1], &at, sizeof at) ||
            write_full(fds[1], &len, sizeof len) || write_full(fds[1], m, len))
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    double budget = validate_budget_s(), deadline = now_s() + budget;
    int rc = 0;
    long at = 0;
    uint32_t len = 0;
    char m[1024] = "";
    int r = read_full(fds[0], &rc, sizeof rc, deadline);
    if (r == 0)
        r = read_full(fds[0], &at, sizeof at, deadline);
    if (r == 0)
        r = read_full(fds[0], &len, sizeof len, deadline);
    if (r == 0 && len < sizeof m)
        r = read_full(fds[0], m, len, deadline);
    else if (r == 0)
        r = -1;
    close(fds[0]);
    if (r != 0)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (inst)
        *inst = 0;
    if (r == -2) {
        if (msg)
            snprintf(msg, msgsize, "SPIRV-Tools did not finish validating the module (%zu "
                     "words) within %.3g s (CW_VALIDATE_BUDGET_S): not validated", nwords,
                     budget);
        return VALIDATE_BUDGET;
    }
    if (r != 0) {
        if (msg)
            snprintf(msg, msgsize, "SPIRV-Tools failed validating the module (%s %d)",
                     WIFSIGNALED(status) ? "signal" : "exit status",
                     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        return -1;
    }
    m[len] = 0;
    if (msg)
        snprintf(msg, msgsize, "%s", m);
    if (inst)
        *inst = at;
    return rc;
}
