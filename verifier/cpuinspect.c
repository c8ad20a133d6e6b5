/* cpuinspect.c - ELF symbol lookup + Capstone loop/vector classification.
 *
 * The file is mapped read-only and every offset, size and index taken from
 * it is bounds-checked before use: a truncated or hostile .so gives a
 * reason, not a crash.
 */
#include "cpuinspect.h"
#include "alloc.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FUNCS 32        /* functions followed per inspection */
#define MAX_DEPTH 4         /* call depth followed */
#define MAX_FUNC_BYTES (128u << 10) /* decoded with detail: ~1.7 KB/insn */
#define MAX_LOOPS 4096

typedef struct elf_file {
    const unsigned char *data;
    size_t size;
    const Elf64_Ehdr *eh;
    const Elf64_Shdr *sh;
    size_t nsh;
} elf_file;

typedef struct inspector {
    elf_file *ef;
    csh cs;
    cpuinspect_result *out;
    uint64_t visited[MAX_FUNCS];
    size_t nvisited;
} inspector;

const char *cpuinspect_class_name(cpuinspect_class c)
{
    switch (c) {
    case CPUI_SCALAR: return "scalar";
    case CPUI_VECTOR: return "vector";
    case CPUI_CALLS: return "calls";
    case CPUI_NO_FP: return "no-fp";
    default: return "unknown";
    }
}

static void set_reason(cpuinspect_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_reason(cpuinspect_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    r->cls = CPUI_UNKNOWN;
}

/* ---- instruction classification ---- */

static const char *const fp_stems[] = {
    "add", "sub", "mul", "div", "sqrt", "min", "max", "rcp", "rsqrt",
    "hadd", "hsub", "addsub", "dp", "rcp14", "rsqrt14",
};

static int is_fma_stem(const char *stem, size_t len)
{
    static const char *const fma[] = {"fmaddsub", "fmsubadd", "fnmadd",
                                      "fnmsub", "fmadd", "fmsub"};
    for (size_t i = 0; i < sizeof fma / sizeof fma[0]; i++) {
        size_t fl = strlen(fma[i]);
        if (len < fl || memcmp(stem, fma[i], fl) != 0)
            continue;
        /* the rest is the operand order: 132, 213, 231 (or nothing) */
        for (size_t k = fl; k < len; k++)
            if (stem[k] < '0' || stem[k] > '9')
                return 0;
        return 1;
    }
    return 0;
}

int cpuinspect_classify(const char *mnemonic, const char *op_str, int *bits,
                        int *fma)
{
    if (bits)
        *bits = 0;
    if (fma)
        *fma = 0;
    if (!mnemonic)
        return 0;
    /* x87 arithmetic is scalar */
    static const char *const x87[] = {"fadd", "faddp", "fsub", "fsubp",
                                      "fsubr", "fsubrp", "fmul", "fmulp",
                                      "fdiv", "fdivp", "fdivr", "fdivrp",
                                      "fsqrt"};
    for (size_t i = 0; i < sizeof x87 / sizeof x87[0]; i++)
        if (strcmp(mnemonic, x87[i]) == 0)
            return 1;

    const char *m = mnemonic;
    if (m[0] == 'v')
        m++;
    size_t len = strlen(m);
    if (len < 4)
        return 0;
    const char *suf = m + len - 2;
    int scalar = strcmp(suf, "ss") == 0 || strcmp(suf, "sd") == 0 ||
                 strcmp(suf, "sh") == 0;
    int packed = strcmp(suf, "ps") == 0 || strcmp(suf, "pd") == 0 ||
                 strcmp(suf, "ph") == 0;
    if (!scalar && !packed)
        return 0;
    size_t stem_len = len - 2;
    int arith = 0, isfma = is_fma_stem(m, stem_len);
    if (isfma)
        arith = 1;
    for (size_t i = 0; !arith && i < sizeof fp_stems / sizeof fp_stems[0];
         i++)
        if (strlen(fp_stems[i]) == stem_len &&
            memcmp(m, fp_stems[i], stem_len) == 0)
            arith = 1;
    if (!arith)
        return 0;
    if (fma)
        *fma = isfma;
    if (scalar)
        return 1;
    if (bits) {
        const char *o = op_str ? op_str : "";
        while (*o == ' ')
            o++;
        *bits = strncmp(o, "zmm", 3) == 0   ? 512
                : strncmp(o, "ymm", 3) == 0 ? 256
                                            : 128;
    }
    return 2;
}

/* ---- ELF ---- */

static int elf_open(const char *path, elf_file *ef, cpuinspect_result *r)
{
    memset(ef, 0, sizeof *ef);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_reason(r, "cannot open %s: %s", path, strerror(errno));
        r->unusable = 1;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        set_reason(r, "%s is not a regular file", path);
        r->unusable = 1;
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size < sizeof(Elf64_Ehdr)) {
        set_reason(r, "%s is too small to be an ELF file (%lld bytes): not a shared "
                   "object", path, (long long)st.st_size);
        r->unusable = 1;
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        set_reason(r, "cannot map %s: %s", path, strerror(errno));
        return -1;
    }
    ef->data = p;
    ef->size = (size_t)st.st_size;
    ef->eh = p;
    const Elf64_Ehdr *eh = ef->eh;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB) {
        set_reason(r, "%s is not a 64-bit little-endian ELF file: not a shared "
                   "object this machine can load", path);
        r->unusable = 1;
        return -1;
    }
    if (eh->e_machine != EM_X86_64) {
        set_reason(r, "%s is not x86-64 code (e_machine %u); only x86-64 "
                   "is inspected or loaded", path, eh->e_machine);
        r->unusable = 1;
        return -1;
    }
    if (eh->e_type != ET_DYN) {
        set_reason(r, "%s is not a shared object (ELF type %u%s); build it with "
                   "-shared -fPIC", path, eh->e_type,
                   eh->e_type == ET_REL ? ", an object file" :
                   eh->e_type == ET_EXEC ? ", an executable" : "");
        r->unusable = 1;
        return -1;
    }
    /* what dlopen maps: program headers inside the file, and every loaded
     * segment's file bytes too (a truncated copy passed check clean and
     * died of SIGBUS while loading in run) */
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
        eh->e_phoff > ef->size || eh->e_phoff % 8 ||
        (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > ef->size - eh->e_phoff) {
        set_reason(r, "%s has no readable program headers (truncated or not a shared "
                   "object the loader can map; %zu bytes)", path, ef->size);
        r->unusable = 1;
        return -1;
    }
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(ef->data + eh->e_phoff);
    for (uint16_t i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD &&
            (ph[i].p_offset > ef->size || ph[i].p_filesz > ef->size - ph[i].p_offset)) {
            set_reason(r, "%s is truncated: its loadable segment %u ends at byte %llu, past "
                       "the file's %zu bytes (the loader would fault reading it)", path,
                       (unsigned)i,
                       (unsigned long long)ph[i].p_offset + (unsigned long long)ph[i].p_filesz,
                       ef->size);
            r->unusable = 1;
            return -1;
        }
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff == 0 ||
        eh->e_shoff % 8 ||
        eh->e_shoff > ef->size ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > ef->size - eh->e_shoff) {
        set_reason(r, "%s has no readable section headers", path);
        return -1;
    }
    ef->sh = (const Elf64_Shdr *)(ef->data + eh->e_shoff);
    ef->nsh = eh->e_shnum;
    return 0;
}

static void elf_close(elf_file *ef)
{
    if (ef->data)
        munmap((void *)ef->data, ef->size);
    memset(ef, 0, sizeof *ef);
}

/* A section's contents, or NULL when it points outside the file. */
static const unsigned char *sec_data(const elf_file *ef, const Elf64_Shdr *s)
{
    if (s->sh_type == SHT_NOBITS || s->sh_offset > ef->size ||
        s->sh_size > ef->size - s->sh_offset)
        return NULL;
    return ef->data + s->sh_offset;
}

static const char *sec_name(const elf_file *ef, const Elf64_Shdr *s)
{
    size_t shstrndx = ef->eh->e_shstrndx;
    if (shstrndx >= ef->nsh)
        return "";
    const Elf64_Shdr *strs = &ef->sh[shstrndx];
    const unsigned char *d = sec_data(ef, strs);
    if (!d || s->sh_name >= strs->sh_size)
        return "";
    /* must be NUL-terminated inside the section */
    if (!memchr(d + s->sh_name, 0, strs->sh_size - s->sh_name))
        return "";
    return (const char *)d + s->sh_name;
}

/* Symbol name from a symbol table section, or NULL. */
static const char *sym_name(const elf_file *ef, const Elf64_Shdr *symtab,
                            const Elf64_Sym *sym)
{
    if (symtab->sh_link >= ef->nsh)
        return NULL;
    const Elf64_Shdr *strs = &ef->sh[symtab->sh_link];
    const unsigned char *d = sec_data(ef, strs);
    if (!d || sym->st_name >= strs->sh_size)
        return NULL;
    if (!memchr(d + sym->st_name, 0, strs->sh_size - sym->st_name))
        return NULL;
    return (const char *)d + sym->st_name;
}

static int sym_table(const elf_file *ef, const Elf64_Shdr *s,
                     const Elf64_Sym **syms, size_t *n)
{
    if (s->sh_type != SHT_SYMTAB && s->sh_type != SHT_DYNSYM)
        return -1;
    const unsigned char *d = sec_data(ef, s);
    /* misaligned tables are malformed (and unsafe to index as structs) */
    if (!d || s->sh_entsize != sizeof(Elf64_Sym) || (uintptr_t)d % 8)
        return -1;
    *syms = (const Elf64_Sym *)d;
    *n = s->sh_size / sizeof(Elf64_Sym);
    return 0;
}

static int find_symbol(const elf_file *ef, const char *name, uint64_t *addr,
                       uint64_t *size)
{
    /* .symtab first (it has local functions too), then .dynsym */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < ef->nsh; i++) {
            const Elf64_Shdr *s = &ef->sh[i];
            if (s->sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
                continue;
            const Elf64_Sym *syms;
            size_t n;
            if (sym_table(ef, s, &syms, &n))
                continue;
            for (size_t k = 0; k < n; k++) {
                int type = ELF64_ST_TYPE(syms[k].st_info);
                if (syms[k].st_shndx == SHN_UNDEF ||
                    (type != STT_FUNC && type != STT_GNU_IFUNC &&
                     type != STT_NOTYPE))
                    continue;
                const char *nm = sym_name(ef, s, &syms[k]);
                if (nm && strcmp(nm, name) == 0) {
                    *addr = syms[k].st_value;
                    *size = syms[k].st_size;
                    return 0;
                }
            }
        }
    return -1;
}

/* Name of the defined function starting at addr (for local calls), with
 * its size; -1 when none. */
static int symbol_at(const elf_file *ef, uint64_t addr, uint64_t *size)
{
    for (size_t i = 0; i < ef->nsh; i++) {
        const Elf64_Shdr *s = &ef->sh[i];
        const Elf64_Sym *syms;
        size_t n;
        if (sym_table(ef, s, &syms, &n))
            continue;
        for (size_t k = 0; k < n; k++)
            if (syms[k].st_shndx != SHN_UNDEF && syms[k].st_value == addr &&
                ELF64_ST_TYPE(syms[k].st_info) == STT_FUNC) {
                *size = syms[k].st_size;
                return 0;
            }
    }
    return -1;
}

/* Start of the next function symbol after addr (bounds a size-0 symbol). */
static uint64_t next_symbol_after(const elf_file *ef, uint64_t addr)
{
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < ef->nsh; i++) {
        const Elf64_Sym *syms;
        size_t n;
        if (sym_table(ef, &ef->sh[i], &syms, &n))
            continue;
        for (size_t k = 0; k < n; k++)
            if (syms[k].st_shndx != SHN_UNDEF && syms[k].st_value > addr &&
                syms[k].st_value < best)
                best = syms[k].st_value;
    }
    return best;
}

/* Executable section holding [addr, addr+len): its bytes, or NULL. */
static const unsigned char *code_at(const elf_file *ef, uint64_t addr,
                                    uint64_t *len, const Elf64_Shdr **sec)
{
    for (size_t i = 0; i < ef->nsh; i++) {
        const Elf64_Shdr *s = &ef->sh[i];
        if (!(s->sh_flags & SHF_EXECINSTR) || addr < s->sh_addr ||
            addr >= s->sh_addr + s->sh_size)
            continue;
        const unsigned char *d = sec_data(ef, s);
        if (!d)
            return NULL;
        uint64_t avail = s->sh_addr + s->sh_size - addr;
        if (*len == 0 || *len > avail)
            *len = avail;
        if (sec)
            *sec = s;
        return d + (addr - s->sh_addr);
    }
    return NULL;
}

/* Name of the symbol whose GOT slot is at slot (relocations), or NULL. */
static const char *got_slot_name(const elf_file *ef, uint64_t slot)
{
    for (size_t i = 0; i < ef->nsh; i++) {
        const Elf64_Shdr *s = &ef->sh[i];
        if (s->sh_type != SHT_RELA || s->sh_entsize != sizeof(Elf64_Rela))
            continue;
        const unsigned char *d = sec_data(ef, s);
        if (!d || (uintptr_t)d % 8 || s->sh_link >= ef->nsh)
            continue;
        const Elf64_Shdr *symsec = &ef->sh[s->sh_link];
        const Elf64_Sym *syms;
        size_t nsyms;
        if (sym_table(ef, symsec, &syms, &nsyms))
            continue;
        const Elf64_Rela *rel = (const Elf64_Rela *)d;
        size_t n = s->sh_size / sizeof(Elf64_Rela);
        for (size_t k = 0; k < n; k++) {
            if (rel[k].r_offset != slot)
                continue;
            size_t si = ELF64_R_SYM(rel[k].r_info);
            if (si == 0 || si >= nsyms)
                return NULL;
            return sym_name(ef, symsec, &syms[si]);
        }
    }
    return NULL;
}

/* ---- disassembly ---- */

/* RIP-relative memory operand of a call/jmp: the slot address, or 0. */
static uint64_t rip_slot(const cs_insn *in)
{
    if (!in->detail)
        return 0;
    const cs_x86 *x = &in->detail->x86;
    for (int i = 0; i < x->op_count; i++)
        if (x->operands[i].type == X86_OP_MEM &&
            x->operands[i].mem.base == X86_REG_RIP &&
            x->operands[i].mem.index == X86_REG_INVALID)
            return in->address + in->size + (uint64_t)x->operands[i].mem.disp;
    return 0;
}

static int imm_target(const cs_insn *in, uint64_t *target)
{
    if (!in->detail)
        return 0;
    const cs_x86 *x = &in->detail->x86;
    if (x->op_count >= 1 && x->operands[0].type == X86_OP_IMM) {
        *target = (uint64_t)x->operands[0].imm;
        return 1;
    }
    return 0;
}

static void add_callee(cpuinspect_result *r, const char *name)
{
    for (size_t i = 0; i < r->ncallees; i++)
        if (strcmp(r->callees[i], name) == 0)
            return;
    if (r->ncallees < CPUI_MAX_CALLEES)
        snprintf(r->callees[r->ncallees++], sizeof r->callees[0], "%s", name);
}

/* A call/jump to target outside the function: name it if it is a PLT
 * stub; returns 1 when it was (external), 0 otherwise. */
static int plt_callee(inspector *in, uint64_t target)
{
    uint64_t len = 32;
    const Elf64_Shdr *sec = NULL;
    const unsigned char *code = code_at(in->ef, target, &len, &sec);
    if (!code || strncmp(sec_name(in->ef, sec), ".plt", 4) != 0)
        return 0;
    cs_insn *insn = cs_malloc(in->cs);
    const uint8_t *p = code;
    size_t left = len;
    uint64_t a = target;
    int found = 0;
    for (int k = 0; k < 4 && cs_disasm_iter(in->cs, &p, &left, &a, insn);
         k++) {
        if (insn->id == X86_INS_JMP) {
            uint64_t slot = rip_slot(insn);
            const char *nm = slot ? got_slot_name(in->ef, slot) : NULL;
            add_callee(in->out, nm ? nm : "(unnamed PLT entry)");
            found = 1;
            break;
        }
    }
    cs_free(insn, 1);
    return found;
}

static void inspect_function(inspector *in, uint64_t addr, uint64_t size,
                             int depth);

typedef struct span { uint64_t lo, hi; } span;

static void inspect_function(inspector *in, uint64_t addr, uint64_t size,
                             int depth)
{
    cpuinspect_result *r = in->out;
    for (size_t i = 0; i < in->nvisited; i++)
        if (in->visited[i] == addr)
            return;
    if (in->nvisited >= MAX_FUNCS)
        return;
    in->visited[in->nvisited++] = addr;
    r->nfunctions++;

    if (size == 0) {
        uint64_t next = next_symbol_after(in->ef, addr);
        size = next == UINT64_MAX ? 4096 : next - addr;
    }
    if (size > MAX_FUNC_BYTES)
        size = MAX_FUNC_BYTES;
    uint64_t len = size;
    const unsigned char *code = code_at(in->ef, addr, &len, NULL);
    if (!code)
        return;

    /* pass 1: decode once, keep what the two passes need */
    cs_insn *all = NULL;
    size_t n = cs_disasm(in->cs, code, len, addr, 0, &all);
    r->ninsns += n;

    span *loops = xmalloc(MAX_LOOPS * sizeof *loops);
    size_t nloops = 0;
    uint64_t callees[MAX_FUNCS];
    uint64_t callee_size[MAX_FUNCS];
    size_t ncallees = 0;
    for (size_t i = 0; i < n; i++) {
        const cs_insn *ins = &all[i];
        uint64_t t;
        int is_call = cs_insn_group(in->cs, ins, CS_GRP_CALL);
        int is_jump = cs_insn_group(in->cs, ins, CS_GRP_JUMP);
        if (!is_call && !is_jump)
            continue;
        if (imm_target(ins, &t)) {
            int inside = t >= addr && t < addr + len;
            if (is_jump && inside && t <= ins->address) {
                if (nloops < MAX_LOOPS)
                    loops[nloops++] = (span){t, ins->address};
            } else if (!inside && (is_call || ins->id == X86_INS_JMP)) {
                uint64_t csz;
                if (plt_callee(in, t))
                    continue;
                if (depth < MAX_DEPTH && ncallees < MAX_FUNCS &&
                    symbol_at(in->ef, t, &csz) == 0) {
                    callees[ncallees] = t;
                    callee_size[ncallees++] = csz;
                }
            }
        } else if (is_call || ins->id == X86_INS_JMP) {
            uint64_t slot = rip_slot(ins);
            const char *nm = slot ? got_slot_name(in->ef, slot) : NULL;
            if (nm)
                add_callee(r, nm); /* -fno-plt: call [rip+GOT] */
            else if (is_call)
                r->nindirect_calls++;
        }
    }
    r->nloops += nloops;

    /* pass 2: FP arithmetic, inside loops or not */
    for (size_t i = 0; i < n; i++) {
        int bits, fma;
        int c = cpuinspect_classify(all[i].mnemonic, all[i].op_str, &bits,
                                    &fma);
        if (!c)
            continue;
        if (all[i].mnemonic[0] == 'v' || fma)
            r->vex_fp = 1;
        int in_loop = 0;
        for (size_t k = 0; k < nloops && !in_loop; k++)
            in_loop = all[i].address >= loops[k].lo &&
                      all[i].address <= loops[k].hi;
        if (c == 1) {
            r->fp_scalar++;
            r->loop_fp_scalar += (size_t)in_loop;
        } else {
            r->fp_packed++;
            if (in_loop) {
                r->loop_fp_packed++;
                r->loop_packed_by_width[bits == 512 ? 2 : bits == 256]++;
                if (bits > r->vector_bits)
                    r->vector_bits = bits;
            }
        }
        if (in_loop && fma)
            r->loop_fma = 1;
    }
    if (all)
        cs_free(all, n);
    free(loops);

    for (size_t k = 0; k < ncallees; k++)
        inspect_function(in, callees[k], callee_size[k], depth + 1);
}

static void summarise(cpuinspect_result *r)
{
    if (r->loop_fp_packed > 0)
        r->cls = CPUI_VECTOR;
    else if (r->loop_fp_scalar > 0)
        r->cls = CPUI_SCALAR;
    else if (r->ncallees > 0 || r->nindirect_calls > 0)
        r->cls = CPUI_CALLS;
    else
        r->cls = CPUI_NO_FP;

    char callees[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < r->ncallees && used < sizeof callees; i++) {
        int w = snprintf(callees + used, sizeof callees - used, "%s%s",
                         i ? ", " : "", r->callees[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    switch (r->cls) {
    case CPUI_VECTOR:
        snprintf(r->summary, sizeof r->summary,
                 "%s: %zu loop(s) with packed vector FP arithmetic "
                 "(%zu packed: %zu xmm, %zu ymm, %zu zmm; %zu scalar; %s)",
                 r->symbol, r->nloops, r->loop_fp_packed,
                 r->loop_packed_by_width[0], r->loop_packed_by_width[1],
                 r->loop_packed_by_width[2], r->loop_fp_scalar,
                 r->loop_fma ? "FMA" : "no FMA");
        break;
    case CPUI_SCALAR:
        snprintf(r->summary, sizeof r->summary,
                 "%s: %zu loop(s), FP arithmetic in them is scalar only "
                 "(%zu scalar, 0 packed instructions)",
                 r->symbol, r->nloops, r->loop_fp_scalar);
        break;
    case CPUI_CALLS:
        snprintf(r->summary, sizeof r->summary,
                 "%s: no FP loops of its own; the work is done by %s%s%s "
                 "(code of another object, chosen at load time: not "
                 "inspected)", r->symbol, used ? callees : "",
                 used && r->nindirect_calls ? " and " : "",
                 r->nindirect_calls ? "indirect calls" : "");
        break;
    case CPUI_NO_FP:
        snprintf(r->summary, sizeof r->summary,
                 "%s: %zu loop(s), no floating-point arithmetic in them",
                 r->symbol, r->nloops);
        break;
    default:
        break;
    }
}

/* What dlsym() would find: the symbol defined in .dynsym.  0 a function
 * (or untyped/IFUNC), else -1 with the reason set and r->unusable = 2. */
static int check_exported(const elf_file *ef, const char *path, const char *name,
                          cpuinspect_result *r)
{
    int have_dynsym = 0, local_fn = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < ef->nsh; i++) {
            const Elf64_Shdr *s = &ef->sh[i];
            if (s->sh_type != (pass == 0 ? SHT_DYNSYM : SHT_SYMTAB))
                continue;
            const Elf64_Sym *syms;
            size_t n;
            if (sym_table(ef, s, &syms, &n))
                continue;
            have_dynsym |= pass == 0;
            for (size_t k = 0; k < n; k++) {
                if (syms[k].st_shndx == SHN_UNDEF)
                    continue;
                const char *nm = sym_name(ef, s, &syms[k]);
                if (!nm || strcmp(nm, name) != 0)
                    continue;
                int type = ELF64_ST_TYPE(syms[k].st_info);
                int fn = type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE;
                if (pass == 1) {
                    local_fn |= fn;
                    continue;
                }
                if (fn)
                    return 0;
                set_reason(r, "symbol '%s' in %s is a data symbol (%s), not a function",
                           name, path, type == STT_OBJECT ? "an object" :
                           type == STT_TLS ? "thread-local data" :
                           type == STT_COMMON ? "common data" : "not code");
                r->unusable = 2;
                return -1;
            }
        }
    if (!have_dynsym) {
        set_reason(r, "%s has no dynamic symbol table: not a loadable shared object",
                   path);
        r->unusable = 1;
        return -1;
    }
    if (local_fn)
        set_reason(r, "symbol '%s' in %s is not exported (static or hidden "
                   "visibility): the loader cannot find it; make it a global, "
                   "default-visibility function", name, path);
    else
        set_reason(r, "symbol '%s' is not defined in %s", name, path);
    r->unusable = 2;
    return -1;
}

int cpuinspect_symbol(const char *path, const char *symbol,
                      cpuinspect_result *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->symbol, sizeof out->symbol, "%s", symbol ? symbol : "");
    if (!path || !symbol || !*symbol) {
        set_reason(out, "no library or symbol given");
        return -1;
    }
    elf_file ef;
    if (elf_open(path, &ef, out)) {
        elf_close(&ef);
        return -1;
    }
    uint64_t addr, size;
    if (check_exported(&ef, path, symbol, out)) {
        elf_close(&ef);
        return -1;
    }
    if (find_symbol(&ef, symbol, &addr, &size)) {
        set_reason(out, "symbol '%s' is not defined in %s", symbol, path);
        elf_close(&ef);
        return -1;
    }
    out->addr = addr;
    out->size = size;
    inspector in = {.ef = &ef, .out = out};
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &in.cs) != CS_ERR_OK) {
        set_reason(out, "Capstone cannot open an x86-64 disassembler");
        elf_close(&ef);
        return -1;
    }
    cs_option(in.cs, CS_OPT_DETAIL, CS_OPT_ON);
    uint64_t len = size ? size : 1;
    if (!code_at(&ef, addr, &len, NULL)) {
        set_reason(out, "symbol '%s' in %s is not in an executable section",
                   symbol, path);
        cs_close(&in.cs);
        elf_close(&ef);
        return -1;
    }
    inspect_function(&in, addr, size, 0);
    cs_close(&in.cs);
    elf_close(&ef);
    summarise(out);
    return 0;
}
