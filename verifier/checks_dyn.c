/* checks_dyn.c - the dynamic correctness checks: what the evaluator saw
 * while executing workgroups becomes findings (ARCHITECTURE §5):
 *   out-of-bounds              a buffer or fixed-size array indexed past its end
 *   barrier-divergence         a barrier only part of the workgroup reaches
 *   workgroup-race             two invocations touch one shared element in
 *                              the same barrier interval, one of them writing
 *   uninitialized-shared-read  a shared element read before any invocation
 *                              of the workgroup wrote it
 * A finding is an error only when the evaluator saw it happen with values
 * that do not depend on buffer contents; otherwise it is a warning that
 * says what could not be proven.
 */
#include "checks.h"
#include "alloc.h"
#include "eval_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

/* ---- source text ---- */

/* Text of GLSL line `line` from the module's embedded source (honouring
 * '#line N' directives, which glslang puts before the user's text), trimmed,
 * into buf.  Returns 0 when unknown. */
static int source_line(const spv_module *m, int line, char *buf, size_t n)
{
    buf[0] = 0;
    if (!m->source_text || line <= 0)
        return 0;
    const char *s = m->source_text, *end = s + m->source_len;
    int cur = 1;
    while (s < end) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e)
            e = end;
        if (e - s > 6 && strncmp(s, "#line ", 6) == 0) {
            cur = atoi(s + 6);
            s = e + 1;
            continue;
        }
        if (cur == line) {
            while (s < e && isspace((unsigned char)*s))
                s++;
            while (e > s && (isspace((unsigned char)e[-1]) || e[-1] == '{'))
                e--;
            size_t len = (size_t)(e - s);
            if (len >= n)
                len = n - 1;
            memcpy(buf, s, len);
            buf[len] = 0;
            return 1;
        }
        cur++;
        s = e + 1;
    }
    return 0;
}

/* The bracket expression after `name[` on the line, e.g. "i". */
static int index_expr(const char *text, const char *name, char *out, size_t n)
{
    out[0] = 0;
    if (!name || !*name)
        return 0;
    size_t nl = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p += nl) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))
            continue;
        const char *q = p + nl;
        while (*q == ' ')
            q++;
        if (*q != '[')
            continue;
        int depth = 0;
        const char *st = q + 1;
        for (const char *r = q; *r; r++) {
            if (*r == '[')
                depth++;
            else if (*r == ']' && --depth == 0) {
                size_t len = (size_t)(r - st);
                if (len >= n)
                    return 0;
                memcpy(out, st, len);
                out[len] = 0;
                return 1;
            }
        }
    }
    return 0;
}

static int simple_ident(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

static const char *dep_name(uint8_t d)
{
    if (d & DEP_LID)
        return "gl_LocalInvocationID";
    if (d & DEP_GID)
        return "gl_GlobalInvocationID";
    if (d & DEP_SUB)
        return "the subgroup (gl_SubgroupID or gl_SubgroupInvocationID)";
    if (d & DEP_WG)
        return "gl_WorkGroupID";
    if (d & DEP_DATA)
        return "buffer contents";
    return NULL;
}

static uint8_t dep_of(const ev_info *I, uint32_t id)
{
    return ev_dep_of((const ev_ctx *)(const void *)I, id);
}

static int one_dim(const ev_info *I)
{
    return I->local[1] == 1 && I->local[2] == 1 && I->k &&
           I->k->workgroups[1] <= 1 && I->k->workgroups[2] <= 1;
}

static void fmt_inv(const ev_info *I, const uint32_t *a, const uint32_t *b,
                    char *buf, size_t n)
{
    if (one_dim(I)) {
        if (a[0] == b[0])
            snprintf(buf, n, "invocation %u", a[0]);
        else
            snprintf(buf, n, "invocations %u\xe2\x80\x93%u", a[0], b[0]);
    } else if (I->local[2] == 1 && (!I->k || I->k->workgroups[2] <= 1)) {
        snprintf(buf, n, "global ids (%u,%u)\xe2\x80\x93(%u,%u)", a[0], a[1], b[0], b[1]);
    } else {
        snprintf(buf, n, "global ids (%u,%u,%u)\xe2\x80\x93(%u,%u,%u)", a[0], a[1], a[2],
                 b[0], b[1], b[2]);
    }
}

static void fmt_local(const ev_info *I, uint32_t lane, char *buf, size_t n)
{
    uint32_t x = lane % I->local[0], y = (lane / I->local[0]) % I->local[1],
             z = lane / (I->local[0] * I->local[1]);
    if (I->local[1] == 1 && I->local[2] == 1)
        snprintf(buf, n, "%u", x);
    else if (I->local[2] == 1)
        snprintf(buf, n, "(%u,%u)", x, y);
    else
        snprintf(buf, n, "(%u,%u,%u)", x, y, z);
}

static void fmt_group(const ev_info *I, const uint32_t g[3], char *buf, size_t n)
{
    if (one_dim(I))
        snprintf(buf, n, "%u", g[0]);
    else
        snprintf(buf, n, "(%u,%u,%u)", g[0], g[1], g[2]);
}

static const char *shader_file(const ev_info *I)
{
    return limits_shader_file(I->m, I->k);
}

/* Is block b inside a loop (so an out-of-range index may come from the
 * loop bound)? Returns the header's line or 0. */
static int loop_line(const spv_module *m, uint32_t inst)
{
    uint32_t b = m->insts[inst].block;
    if (b >= m->nblocks)
        return 0;
    uint32_t h = m->blocks[b].merge == SPV_MERGE_LOOP ? b : m->blocks[b].loop_header;
    if (h == SPV_NONE || h >= m->nblocks)
        return 0;
    for (uint32_t i = m->blocks[h].first; i <= m->blocks[h].last; i++)
        if (m->insts[i].line)
            return m->insts[i].line;
    /* the condition block follows the header */
    for (uint32_t i = m->blocks[h].last + 1; i < m->ninsts && i < m->blocks[h].last + 40; i++)
        if (m->insts[i].line)
            return m->insts[i].line;
    return 0;
}

/* Does d dominate b? */
static int dominates(const spv_module *m, uint32_t d, uint32_t b)
{
    for (int guard = 0; guard < 100000 && b != SPV_NONE && b < m->nblocks; guard++) {
        if (b == d)
            return 1;
        b = m->blocks[b].idom;
    }
    return 0;
}

/* Innermost selection/loop construct enclosing block b whose branch
 * depends on ids; fills its branch instruction. */
static uint32_t enclosing_divergent(const ev_info *I, uint32_t b, uint32_t *branch_inst)
{
    const spv_module *m = I->m;
    uint32_t d = b < m->nblocks ? m->blocks[b].idom : SPV_NONE;
    for (int guard = 0; guard < 100000 && d != SPV_NONE && d < m->nblocks; guard++) {
        const spv_block *db = &m->blocks[d];
        uint32_t cand = SPV_NONE;
        if (db->merge != SPV_MERGE_NONE && db->merge_block < m->nblocks &&
            !dominates(m, db->merge_block, b))
            cand = d;
        if (cand != SPV_NONE) {
            /* the conditional branch: in the header, or for a loop in the
               block after it (the condition block) */
            for (uint32_t x = d, k = 0; k < 3 && x < m->nblocks; k++) {
                const spv_inst *t = &m->insts[m->blocks[x].last];
                if (t->opcode == SpvOpBranchConditional || t->opcode == SpvOpSwitch) {
                    uint8_t dm = t->nops ? dep_of(I, t->ops[0]) : 0;
                    if (dm & (DEP_LID | DEP_GID | DEP_SUB | DEP_DATA)) {
                        *branch_inst = m->blocks[x].last;
                        return d;
                    }
                    break;
                }
                if (t->opcode == SpvOpBranch && m->blocks[x].nsucc == 1)
                    x = m->blocks[x].succ[0];
                else
                    break;
            }
        }
        d = db->idom;
    }
    return SPV_NONE;
}

static int inst_line(const spv_module *m, uint32_t i)
{
    return ev_inst_line(m, i);
}

/* ---- out of bounds ---- */

/* The nth occurrence of name[...] in text (0-based), among those on the
 * left of the first '=' (lhs) or after it; falls back to any occurrence. */
static int index_expr_at(const char *text, const char *name, int lhs, int nth, char *out,
                         size_t n)
{
    const char *eq = NULL;
    for (const char *p = text; *p; p++)
        if (*p == '=' && p[1] != '=' && (p == text || (p[-1] != '=' && p[-1] != '<' &&
                                                      p[-1] != '>' && p[-1] != '!'))) {
            eq = p;
            break;
        }
    const char *from = lhs || !eq ? text : eq + 1;
    char part[512];
    size_t len = lhs && eq ? (size_t)(eq - text) : strlen(from);
    if (len >= sizeof part)
        len = sizeof part - 1;
    memcpy(part, from, len);
    part[len] = 0;
    /* skip nth occurrences */
    const char *p = part;
    size_t nl = strlen(name);
    for (int k = 0; k < nth && p; k++) {
        p = strstr(p, name);
        if (p)
            p += nl;
    }
    if (p && index_expr(p, name, out, n))
        return 1;
    return index_expr(text, name, out, n);
}

/* A return or kill before the end of function f: an early exit that may
 * guard what follows it. */
static int has_early_exit(const spv_module *m, uint32_t f)
{
    if (f >= m->nfuncs)
        return 0;
    const spv_function *fn = &m->funcs[f];
    size_t nret = 0;
    for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks && b < m->nblocks; b++) {
        uint32_t op = m->insts[m->blocks[b].last].opcode;
        nret += op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
                op == SpvOpTerminateInvocation;
    }
    return nret > 1;
}

/* The hint that follows from where the index went. */
static void oob_hint(const ev_info *I, const ev_access_def *d, const ev_acc *u, uint64_t elems,
                     int have_expr, const char *expr, const char *arr, char *hint, size_t n)
{
    const spv_module *m = I->m;
    int lline = loop_line(m, d->inst);
    if (u->oob_idx_min < 0) {
        snprintf(hint, n,
                 "the index goes negative (down to %lld): clamp the neighbour offset at the "
                 "edge (e.g. max(i, 1) - 1) or guard it", (long long)u->oob_idx_min);
        return;
    }
    const int64_t wrap = (int64_t)1 << 32;
    if (u->oob_idx_max < wrap && u->oob_idx_max >= wrap - 65536) {
        snprintf(hint, n,
                 "the index %lld is %lld wrapped around: an unsigned subtraction went below "
                 "zero; clamp the neighbour offset at the edge (e.g. max(i, 1u) - 1u)",
                 (long long)u->oob_idx_max, (long long)(u->oob_idx_max - wrap));
        return;
    }
    if (lline && elems && (uint64_t)u->oob_idx_min == elems && (uint64_t)u->oob_idx_max == elems) {
        snprintf(hint, n, "the index reaches %s's length %llu inside the loop at line %d: "
                 "check its bound ('<' vs '<=')", arr, (unsigned long long)elems, lline);
        return;
    }
    /* a push constant holding the buffer's length names the guard */
    const char *len_name = NULL;
    for (size_t q = 0; I->r && q < I->r->npush && !len_name; q++) {
        const plan_value *pv = verifier_push_value(I->r, I->k, q);
        if (pv && pv->is_integer && elems && pv->ivalue == (int64_t)elems &&
            I->r->push[q].name[0])
            len_name = I->r->push[q].name;
    }
    if (len_name && have_expr && simple_ident(expr))
        snprintf(hint, n, "the guard 'if (%s < %s)' is missing: add it around the access "
                 "(%s = %llu is the length of %s)", expr, len_name, len_name,
                 (unsigned long long)elems, arr);
    else if (lline)
        snprintf(hint, n, "the index comes from the loop at line %d and reaches %lld: bound "
                 "the loop by the buffer's length, or make the buffer hold every index",
                 lline, (long long)u->oob_idx_max);
    else
        snprintf(hint, n, "guard the access with a bounds check (e.g. 'if (i < n)') or make "
                 "the buffer hold every index the dispatch touches");
}

/* One buffer access expression out of bounds (the accesses of group[]
 * have the same buffer, line and range: one expression). */
static void report_oob_one(const ev_info *I, const ev_acc *u, size_t a, int loads, int stores,
                           int certain, int nth, kernel_report *kr)
{
    const spv_module *m = I->m;
    const ev_access_def *d = &I->acc[a];
    const ev_var *v = &I->vars[u->var];
    const char *what = loads && stores ? "load and store" : stores ? "store" : "load";
    const char *prep = loads && stores ? "of" : stores ? "to" : "from";
    /* name of the indexed array: the runtime array member */
    const char *arr = NULL;
    const spv_type *st = spv_type_of(m, v->pointee);
    if (st && st->kind == SPV_T_STRUCT && st->nmembers && v->rt_stride)
        arr = st->members[st->nmembers - 1].name;
    if (!arr || !*arr)
        arr = v->name && *v->name ? v->name : "buffer";
    char text[512], expr[128], inv[160], holds[160], acc_txt[300], hint[400];
    source_line(m, d->line, text, sizeof text);
    int have_expr = index_expr_at(text, arr, stores, nth, expr, sizeof expr);
    uint64_t elems = 0;
    if (v->rt_stride) {
        elems = v->buf_bytes > v->rt_base ? (v->buf_bytes - v->rt_base) / v->rt_stride : 0;
        const char *tn = ev_type_name(m, v->rt_elem);
        if (have_expr && simple_ident(expr))
            snprintf(acc_txt, sizeof acc_txt, "%s %s %s[%s] for %s in [%lld, %lld]", what,
                     prep, arr, expr, expr, (long long)u->oob_idx_min,
                     (long long)u->oob_idx_max);
        else
            snprintf(acc_txt, sizeof acc_txt, "%s %s %s[%s] with index in [%lld, %lld]",
                     what, prep, arr, have_expr ? expr : "", (long long)u->oob_idx_min,
                     (long long)u->oob_idx_max);
        snprintf(holds, sizeof holds, "binding %u holds %llu %s%s", v->binding,
                 (unsigned long long)elems, tn, elems == 1 ? "" : "s");
    } else {
        /* a block without an array: byte offsets throughout */
        uint32_t sz = d->bytes ? d->bytes : 4;
        snprintf(acc_txt, sizeof acc_txt, "%s %s %s at bytes [%lld, %lld)", what, prep, arr,
                 (long long)u->oob_idx_min * sz, (long long)(u->oob_idx_max + 1) * sz);
        snprintf(holds, sizeof holds, "binding %u holds %llu bytes", v->binding,
                 (unsigned long long)v->buf_bytes);
    }
    fmt_inv(I, u->oob_gid_min, u->oob_gid_max, inv, sizeof inv);
    oob_hint(I, d, u, elems, have_expr, expr, arr, hint, sizeof hint);
    finding *f;
    if (certain) {
        const char *tail = "";
        uint32_t bi = SPV_NONE;
        if (!loop_line(m, d->inst) &&
            enclosing_divergent(I, m->insts[d->inst].block, &bi) == SPV_NONE &&
            !has_early_exit(m, m->insts[d->inst].func))
            tail = " \xe2\x80\x94 no bounds guard encloses it";
        f = report_add_finding(kr, FINDING_OUT_OF_BOUNDS, SEV_ERROR, shader_file(I), d->line,
                               hint, "%s (%s) but %s%s", acc_txt, inv, holds, tail);
    } else {
        f = report_add_finding(kr, FINDING_OUT_OF_BOUNDS, SEV_WARNING, shader_file(I),
                               d->line, hint,
                               "%s (%s) may exceed the buffer: %s, and %s depends on buffer "
                               "contents, so it could not be proven in bounds",
                               acc_txt, inv, holds,
                               u->idx_unknown ? "the index" : "whether it runs");
    }
    finding_detail_str(f, "buffer", arr);
    finding_detail_uint(f, "set", v->set);
    finding_detail_uint(f, "binding", v->binding);
    finding_detail_str(f, "access", what);
    finding_detail_int(f, "index_min", (long long)u->oob_idx_min);
    finding_detail_int(f, "index_max", (long long)u->oob_idx_max);
    finding_detail_uint(f, "elements", (unsigned long long)elems);
    finding_detail_uint(f, "buffer_bytes", (unsigned long long)v->buf_bytes);
    finding_detail_u32x3(f, "invocation_min", u->oob_gid_min);
    finding_detail_u32x3(f, "invocation_max", u->oob_gid_max);
    finding_detail_bool(f, "certain", certain);
}

static void report_oob(const ev_info *I, const ev_acc *merged, kernel_report *kr)
{
    const spv_module *m = I->m;
    uint8_t *done = xcalloc(I->nacc + 1, 1);
    for (size_t a = 0; a < I->nacc; a++) {
        const ev_acc *s = &merged[a];
        if (done[a] || s->oob_count <= 0 || s->var == EV_NONE)
            continue;
        const ev_access_def *d = &I->acc[a];
        const ev_var *v = &I->vars[s->var];
        if (v->cls != EVM_STORAGE && v->cls != EVM_UNIFORM)
            continue;
        /* the accesses of one expression: same buffer, line and range (a
           load and store of y[i]); another expression of the same buffer
           on the line is another finding */
        int loads = 0, stores = 0, certain = 0;
        ev_acc u = *s;
        for (size_t b = a; b < I->nacc; b++) {
            const ev_acc *t = &merged[b];
            if (done[b] || t->oob_count <= 0 || t->var != s->var || I->acc[b].line != d->line ||
                t->oob_idx_min != s->oob_idx_min || t->oob_idx_max != s->oob_idx_max)
                continue;
            done[b] = 1;
            if (I->acc[b].is_store || I->acc[b].is_atomic)
                stores = 1;
            if (!I->acc[b].is_store)
                loads = 1;
            certain |= t->oob_certain;
            u.idx_unknown |= t->idx_unknown;
            for (int k = 0; k < 3; k++) {
                if (t->oob_gid_min[k] < u.oob_gid_min[k]) u.oob_gid_min[k] = t->oob_gid_min[k];
                if (t->oob_gid_max[k] > u.oob_gid_max[k]) u.oob_gid_max[k] = t->oob_gid_max[k];
            }
        }
        /* which occurrence in the source line: earlier load-only accesses
           of this buffer on the line come first */
        int nth = 0;
        for (size_t b = 0; b < a && !stores; b++)
            if (I->acc[b].line == d->line && merged[b].var == s->var && !I->acc[b].is_store &&
                !I->acc[b].is_atomic && merged[b].idx_any)
                nth++;
        report_oob_one(I, &u, a, loads, stores, certain, nth, kr);
    }
    free(done);
    (void)m;

    /* fixed-size arrays (shared, private, inside blocks) */
    for (size_t i = 0; i < I->narrs; i++) {
        const ev_arr_rec *r = &I->arrs[i];
        const ev_var *v = &I->vars[r->var];
        int line = inst_line(m, r->inst);
        char g[64], l[64];
        fmt_group(I, r->group, g, sizeof g);
        fmt_local(I, (uint32_t)r->lane, l, sizeof l);
        const char *name = v->name && *v->name ? v->name : "array";
        char hint[300];
        int lline = loop_line(m, r->inst);
        if (r->idx_min < 0)
            snprintf(hint, sizeof hint, "the index goes negative (down to %lld): clamp the "
                     "neighbour offset at the edge, or guard the access", (long long)r->idx_min);
        else if (lline && r->idx_min == (int64_t)r->length && r->idx_max == r->idx_min)
            snprintf(hint, sizeof hint, "the index reaches the length %llu in the loop at line "
                     "%d: check its bound ('<' vs '<=')", (unsigned long long)r->length, lline);
        else
            snprintf(hint, sizeof hint, "the index reaches %lld: make the array hold %lld "
                     "elements (a larger halo) or keep the index below %llu",
                     (long long)r->idx_max, (long long)r->idx_max + 1,
                     (unsigned long long)r->length);
        finding *f = report_add_finding(
            kr, FINDING_OUT_OF_BOUNDS, r->certain ? SEV_ERROR : SEV_WARNING, shader_file(I), line,
            hint,
            r->certain ? "index in [%lld, %lld] into an array of %llu elements in %s "
                         "(local invocation %s of workgroup %s)"
                       : "index in [%lld, %lld] into an array of %llu elements in %s "
                         "could not be proven in bounds (local invocation %s of "
                         "workgroup %s; it depends on buffer contents)",
            (long long)r->idx_min, (long long)r->idx_max, (unsigned long long)r->length,
            name, l, g);
        finding_detail_str(f, "variable", name);
        finding_detail_int(f, "index_min", (long long)r->idx_min);
        finding_detail_int(f, "index_max", (long long)r->idx_max);
        finding_detail_uint(f, "length", (unsigned long long)r->length);
        finding_detail_bool(f, "certain", r->certain);
    }
}

/* ---- barriers ---- */

static void report_barriers(const ev_info *I, kernel_report *kr)
{
    const spv_module *m = I->m;
    for (size_t i = 0; i < I->nbars; i++) {
        const ev_bar_rec *r = &I->bars[i];
        int line = inst_line(m, r->inst);
        char g[64], lr[64], lm[64], msg[900], cond[300];
        fmt_group(I, r->group, g, sizeof g);
        fmt_local(I, r->lane_reached, lr, sizeof lr);
        fmt_local(I, r->lane_missing, lm, sizeof lm);
        uint32_t bi = SPV_NONE;
        uint32_t hdr = enclosing_divergent(I, m->insts[r->inst].block, &bi);
        /* a barrier in a called function: look at the call sites */
        uint32_t fn = m->insts[r->inst].func;
        for (size_t ci = 0; hdr == SPV_NONE && fn < m->nfuncs && ci < m->ninsts; ci++)
            if (m->insts[ci].opcode == SpvOpFunctionCall && m->insts[ci].nops &&
                m->insts[ci].ops[0] == m->funcs[fn].id)
                hdr = enclosing_divergent(I, m->insts[ci].block, &bi);
        int n = 0;
        if (hdr != SPV_NONE) {
            const spv_inst *t = &m->insts[bi];
            int cl = t->line ? t->line : inst_line(m, m->blocks[hdr].last);
            const char *dn = dep_name(dep_of(I, t->ops[0]));
            int have = source_line(m, cl, cond, sizeof cond);
            const char *kind = m->blocks[hdr].merge == SPV_MERGE_LOOP ? "a loop" : "a branch";
            if (have)
                n = snprintf(msg, sizeof msg, "barrier() inside '%s' (line %d), which depends "
                             "on %s: only part of the workgroup reaches it",
                             cond, cl, dn ? dn : "the invocation");
            else
                n = snprintf(msg, sizeof msg, "barrier() inside %s at line %d that depends "
                             "on %s: only part of the workgroup reaches it",
                             kind, cl, dn ? dn : "the invocation");
        } else if (r->ret_inst != EV_NONE && r->other_inst == EV_NONE) {
            int rl = inst_line(m, r->ret_inst);
            n = snprintf(msg, sizeof msg, "barrier() is not reached by every invocation of "
                         "the workgroup: some returned earlier (line %d)", rl);
        } else if (r->other_inst != EV_NONE) {
            n = snprintf(msg, sizeof msg, "invocations of one workgroup wait at different "
                         "barriers (lines %d and %d)", line, inst_line(m, r->other_inst));
        } else {
            n = snprintf(msg, sizeof msg, "barrier() reached by only part of the workgroup");
        }
        if (n > 0 && (size_t)n < sizeof msg)
            snprintf(msg + n, sizeof msg - (size_t)n,
                     " (%u of %u invocations of workgroup %s reach it, e.g. invocation %s "
                     "does and %s does not)%s",
                     r->reached, r->reached + r->missing, g, lr, lm,
                     r->certain ? "" : "; the control flow depends on buffer contents, so "
                                       "this could not be proven");
        finding *f = report_add_finding(
            kr, FINDING_BARRIER_DIVERGENCE, r->certain ? SEV_ERROR : SEV_WARNING, shader_file(I),
            line,
            "every invocation of a workgroup must execute the same barrier(): move it out "
            "of the condition (or the early return) and keep the condition for the work "
            "around it",
            "%s", msg);
        finding_detail_uint(f, "reached", r->reached);
        finding_detail_uint(f, "workgroup_size", (unsigned)(r->reached + r->missing));
        finding_detail_u32x3(f, "workgroup", r->group);
        finding_detail_bool(f, "certain", r->certain);
    }
}

/* ---- races and uninitialised reads ---- */

static void report_races(const ev_info *I, kernel_report *kr)
{
    const spv_module *m = I->m;
    for (size_t i = 0; i < I->nraces; i++) {
        const ev_race_rec *r = &I->races[i];
        char el[160], la[64], lb[64], g[64];
        ev_comp_name(I, r->var, r->comp, el, sizeof el);
        fmt_local(I, (uint32_t)r->lane_a, la, sizeof la);
        fmt_local(I, (uint32_t)r->lane_b, lb, sizeof lb);
        fmt_group(I, r->group, g, sizeof g);
        int l1 = inst_line(m, r->inst_a), l2 = inst_line(m, r->inst_b);
        finding *f;
        char tail[320];
        int nt = 0;
        tail[0] = 0;
        if (r->sub_bar != EV_NONE)
            nt = snprintf(tail, sizeof tail,
                          "; the subgroupBarrier() at line %d between them orders only the "
                          "invocations of one subgroup (invocations %d and %d are in subgroups "
                          "%u and %u; subgroup size %u)",
                          inst_line(m, r->sub_bar), r->lane_a, r->lane_b,
                          (uint32_t)r->lane_a / I->subgroup, (uint32_t)r->lane_b / I->subgroup,
                          I->subgroup);
        if (!r->certain && nt >= 0 && (size_t)nt < sizeof tail)
            snprintf(tail + nt, sizeof tail - (size_t)nt, " (the addresses or the control flow "
                                                          "depend on buffer contents: not proven)");
        const char *bar_hint = r->sub_bar != EV_NONE
            ? "use barrier() (workgroup scope), not subgroupBarrier(), between accesses of "
              "different subgroups"
            : NULL;
        if (r->write_write)
            f = report_add_finding(
                kr, FINDING_WORKGROUP_RACE, r->certain ? SEV_ERROR : SEV_WARNING, shader_file(I),
                l2, bar_hint ? bar_hint : "give each invocation its own element, or order "
                                          "the writes with a barrier() (or use an atomic)",
                "%s is written by invocation %s (line %d) and by invocation %s (line %d) "
                "of workgroup %s with no barrier() between: the result depends on timing%s",
                el, la, l1, lb, l2, g, tail);
        else {
            const ev_shm *dummy = NULL;
            (void)dummy;
            int write_first = 0;
            /* inst_a is the earlier access; if it was a store, the read came after */
            const spv_inst *ia = &m->insts[r->inst_a];
            write_first = ia->opcode == SpvOpStore || (ia->opcode >= SpvOpAtomicStore &&
                                                       ia->opcode <= SpvOpAtomicXor);
            if (write_first)
                f = report_add_finding(
                    kr, FINDING_WORKGROUP_RACE, r->certain ? SEV_ERROR : SEV_WARNING,
                    shader_file(I), l2,
                    bar_hint ? bar_hint : "put a barrier() between the write and the read "
                                          "(reached by every invocation of the workgroup)",
                    "%s is written by invocation %s (line %d) and read by invocation %s "
                    "(line %d) of workgroup %s in the same barrier interval: the read may "
                    "see the old or the new value%s",
                    el, la, l1, lb, l2, g, tail);
            else
                f = report_add_finding(
                    kr, FINDING_WORKGROUP_RACE, r->certain ? SEV_ERROR : SEV_WARNING,
                    shader_file(I), l2,
                    bar_hint ? bar_hint : "put a barrier() between the read and the write "
                                          "(reached by every invocation of the workgroup)",
                    "%s is read by invocation %s (line %d) and written by invocation %s "
                    "(line %d) of workgroup %s in the same barrier interval: the read may "
                    "see the old or the new value%s",
                    el, la, l1, lb, l2, g, tail);
        }
        finding_detail_str(f, "element", el);
        finding_detail_int_pair(f, "lines", l1, l2);
        finding_detail_int_pair(f, "invocations", r->lane_a, r->lane_b);
        finding_detail_u32x3(f, "workgroup", r->group);
        finding_detail_str(f, "kind", r->write_write ? "write-write" : "read-write");
        finding_detail_bool(f, "certain", r->certain);
    }
    for (size_t i = 0; i < I->nuninit; i++) {
        const ev_uninit_rec *r = &I->uninit[i];
        char el[160], l[64], g[64];
        ev_comp_name(I, r->var, r->comp, el, sizeof el);
        fmt_local(I, (uint32_t)r->lane, l, sizeof l);
        fmt_group(I, r->group, g, sizeof g);
        int line = inst_line(m, r->inst);
        finding *f = report_add_finding(
            kr, FINDING_UNINITIALIZED_SHARED_READ, r->certain ? SEV_ERROR : SEV_WARNING,
            shader_file(I), line,
            "write every shared element that is read later (e.g. load the halo) before "
            "the barrier(), or guard the read",
            "%s is read by invocation %s of workgroup %s (and %u other read%s at this line) "
            "before any invocation of the workgroup wrote it%s",
            el, l, g, r->nlanes - 1, r->nlanes - 1 == 1 ? "" : "s",
            r->certain ? "" : " (a store at an address depending on buffer contents might "
                              "have written it: not proven)");
        finding_detail_str(f, "element", el);
        finding_detail_int(f, "invocation", r->lane);
        finding_detail_u32x3(f, "workgroup", r->group);
        finding_detail_uint(f, "reads", r->nlanes);
        finding_detail_bool(f, "certain", r->certain);
    }
}

void checks_dyn_report(const ev_info *info, const ev_acc *merged, kernel_report *kr)
{
    if (!info || !kr)
        return;
    report_oob(info, merged, kr);
    report_barriers(info, kr);
    report_races(info, kr);
}
