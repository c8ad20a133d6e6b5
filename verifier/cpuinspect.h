/* cpuinspect.h - static look at a native kernel's machine code (x86-64).
 *
 * Contract: cpuinspect_symbol() reads the shared object's ELF file (never
 * loads or runs it: `clockwork check` must not execute the library's
 * constructors), finds the symbol in .symtab or .dynsym (address and
 * st_size), disassembles it with Capstone, finds its loops (backward
 * branches: the body is [target, branch]) and classifies the floating-point
 * arithmetic inside them as packed vector (addps, vfmadd231ps on
 * xmm/ymm/zmm, ...) or scalar (addss, mulsd, x87).  Direct calls to other
 * functions of the same object are followed (bounded depth); calls through
 * the PLT/GOT are named from the relocations ("cblas_sgemm") but not
 * followed, since their code lives in another object chosen at load time.
 *
 * It returns 0 and fills out, or -1 with out->reason saying why nothing
 * could be inspected (file missing, not ELF x86-64, symbol absent, ...).
 * out->unusable is set (with the reason) when the run could not call the
 * symbol either: the file is not a 64-bit x86-64 ELF shared object, or the
 * symbol is missing, not exported (static or hidden: dlsym cannot see it)
 * or a data symbol.  Those are input errors for `check`; other failures
 * (no section headers, Capstone) only mean "not inspected".
 * out is plain data (no ownership).
 */
#ifndef CW_CPUINSPECT_H
#define CW_CPUINSPECT_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    CPUI_UNKNOWN = 0, /* not inspected */
    CPUI_SCALAR,      /* loops do FP arithmetic, none of it packed */
    CPUI_VECTOR,      /* loops use packed vector FP arithmetic */
    CPUI_CALLS,       /* no FP loops here; the work is in named callees */
    CPUI_NO_FP,       /* no FP arithmetic in any loop, no callees */
} cpuinspect_class;

#define CPUI_MAX_CALLEES 8

typedef struct cpuinspect_result {
    cpuinspect_class cls;
    char reason[320];        /* why not inspected (cls == CPUI_UNKNOWN) */
    int unusable;            /* see above: 1 library, 2 symbol */
    char symbol[128];
    uint64_t addr, size;     /* of the symbol in the file */
    size_t nfunctions;       /* the symbol + followed local callees */
    size_t ninsns;
    size_t nloops;           /* backward branches */
    size_t fp_scalar, fp_packed;           /* FP arithmetic, everywhere */
    size_t loop_fp_scalar, loop_fp_packed; /* inside loops */
    size_t loop_packed_by_width[3];        /* xmm, ymm, zmm */
    int vector_bits;         /* widest packed FP in loops: 0/128/256/512 */
    int loop_fma;            /* FMA instructions in loops */
    int vex_fp;              /* FP code is VEX/EVEX-encoded (v-prefixed
                                mnemonics, FMA): the compiler already
                                targeted AVX or later (-march=native or
                                -mavx...), so narrow or scalar code is the
                                loop's shape, not the target flags */
    char callees[CPUI_MAX_CALLEES][96]; /* external (PLT/GOT) callees */
    size_t ncallees;
    size_t nindirect_calls;  /* call through a register or memory */
    char summary[512];       /* one sentence for reports */
} cpuinspect_result;

int cpuinspect_symbol(const char *path, const char *symbol,
                      cpuinspect_result *out);
const char *cpuinspect_class_name(cpuinspect_class c);

/* Exposed for tests: classify one instruction by mnemonic and first
 * operand.  Returns 0 not FP arithmetic, 1 scalar, 2 packed; *bits gets
 * the vector width for packed, *fma whether it is a fused multiply-add. */
int cpuinspect_classify(const char *mnemonic, const char *op_str, int *bits,
                        int *fma);

#endif
