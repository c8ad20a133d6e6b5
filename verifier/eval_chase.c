/* eval_chase.c - accesses that chase a pointer (eval_chase.h). */
#include "eval_chase.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

/* The variable a pointer id is rooted at (through access chains and
 * copies), or 0. */
static uint32_t root_var(const spv_module *m, uint32_t id)
{
    for (int depth = 0; depth < 64; depth++) {
        if (spv_var_of(m, id))
            return id;
        const spv_inst *d = spv_def(m, id);
        if (!d || !d->nops)
            return 0;
        switch (d->opcode) {
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
        case SpvOpCopyObject:
            id = d->ops[0];
            break;
        default:
            return 0;
        }
    }
    return 0;
}

static int is_chain(uint16_t op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
           op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
}

/* Reads memory and returns what it read (loads and atomics). */
static int is_load_like(uint16_t op)
{
    return op == SpvOpLoad || op == SpvOpAtomicLoad ||
           (op >= SpvOpAtomicExchange && op <= SpvOpAtomicXor);
}

static int is_buffer_class(uint32_t sc)
{
    return sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassUniform ||
           sc == SpvStorageClassPhysicalStorageBuffer;
}

int ev_chase_init(ev_chase *c, const spv_module *m)
{
    memset(c, 0, sizeof *c);
    uint32_t bound = m->bound;
    c->first = calloc((size_t)bound + 1, sizeof *c->first);
    c->stamp = calloc(bound ? bound : 1, sizeof *c->stamp);
    if (!c->first || !c->stamp) {
        ev_chase_free(c);
        return -1;
    }
    c->bound = bound;
    /* counting sort of the stores by their root variable */
    size_t n = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode == SpvOpStore && in->nops >= 2) {
            uint32_t v = root_var(m, in->ops[0]);
            if (v && v < bound) {
                c->first[v + 1]++;
                n++;
            }
        }
    }
    for (uint32_t v = 0; v < bound; v++)
        c->first[v + 1] += c->first[v];
    c->vals = malloc((n ? n : 1) * sizeof *c->vals);
    uint32_t *fill = calloc(bound ? bound : 1, sizeof *fill);
    if (!c->vals || !fill) {
        free(fill);
        ev_chase_free(c);
        return -1;
    }
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode == SpvOpStore && in->nops >= 2) {
            uint32_t v = root_var(m, in->ops[0]);
            if (v && v < bound)
                c->vals[c->first[v] + fill[v]++] = in->ops[1];
        }
    }
    free(fill);
    return 0;
}

void ev_chase_free(ev_chase *c)
{
    free(c->first);
    free(c->vals);
    free(c->stamp);
    memset(c, 0, sizeof *c);
}

typedef struct walk {
    ev_chase *c;
    const spv_module *m;
    uint32_t *out;
    size_t cap, n;
    uint32_t steps;
    int cut;             /* the step limit was reached */
} walk;

static void visit(walk *w, uint32_t id);
static void visit_operands(walk *w, const spv_inst *d);

/* The indices of every access chain on the way to pointer ptr's root. */
static void visit_chain(walk *w, uint32_t ptr)
{
    for (int depth = 0; depth < 64; depth++) {
        const spv_inst *p = spv_def(w->m, ptr);
        if (!p || !p->nops || !is_chain(p->opcode))
            return;
        visit_operands(w, p);
        ptr = p->ops[0];
    }
}

/* The operands of d that are values (not literals, labels or types). */
static void visit_operands(walk *w, const spv_inst *d)
{
    uint32_t from = 0, to = d->nops;
    switch (d->opcode) {
    case SpvOpCompositeExtract: to = 1; break;
    case SpvOpCompositeInsert: to = 2; break;
    case SpvOpVectorShuffle: to = 2; break;
    case SpvOpExtInst: from = 2; break;
    case SpvOpFunctionCall: from = 1; break; /* the arguments: what the
                                                 result is computed from */
    case SpvOpFunction: return;
    default:
        if (is_chain(d->opcode))
            from = 1; /* the indices; the base is a variable or a chain */
        break;
    }
    for (uint32_t k = from; k < to && k < d->nops; k++) {
        const spv_inst *o = spv_def(w->m, d->ops[k]);
        if (o && o->type_id)
            visit(w, d->ops[k]);
    }
}

static void visit(walk *w, uint32_t id)
{
    ev_chase *c = w->c;
    if (w->cut || id >= c->bound || c->stamp[id] == c->walk)
        return;
    c->stamp[id] = c->walk;
    if (++w->steps > EV_CHASE_STEPS) {
        w->cut = 1;
        return;
    }
    const spv_inst *d = spv_def(w->m, id);
    if (!d)
        return;
    if (d->opcode == SpvOpVariable) {
        /* a local passed by reference (a function's argument): what is
         * stored into it */
        const spv_var *sv = spv_var_of(w->m, id);
        if (sv && (sv->storage == SpvStorageClassFunction ||
                   sv->storage == SpvStorageClassPrivate))
            for (uint32_t k = c->first[id]; k < c->first[id + 1]; k++)
                visit(w, c->vals[k]);
        return;
    }
    switch (d->opcode) {
    case SpvOpUndef: case SpvOpFunctionParameter:
    case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
    case SpvOpConstantComposite: case SpvOpConstantNull:
    case SpvOpSpecConstant: case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse: case SpvOpSpecConstantComposite:
    case SpvOpSpecConstantOp:
        return;
    default:
        break;
    }
    if (is_load_like(d->opcode)) {
        if (!d->nops)
            return;
        uint32_t v = root_var(w->m, d->ops[0]);
        const spv_var *sv = v ? spv_var_of(w->m, v) : NULL;
        if (sv && is_buffer_class(sv->storage)) {
            if (w->n < w->cap)
                w->out[w->n++] = (uint32_t)(d - w->m->insts);
            return;
        }
        if (sv && (sv->storage == SpvStorageClassFunction ||
                   sv->storage == SpvStorageClassPrivate)) {
            for (uint32_t k = c->first[v]; k < c->first[v + 1]; k++)
                visit(w, c->vals[k]);
        }
        /* the indices of its pointer: an element picked by a loaded value */
        visit_chain(w, d->ops[0]);
        return;
    }
    visit_operands(w, d);
}

size_t ev_chase_sources(ev_chase *c, const spv_module *m, uint32_t inst,
                        uint32_t *out, size_t cap)
{
    if (!c->stamp || inst >= m->ninsts)
        return 0;
    const spv_inst *in = &m->insts[inst];
    if (!in->nops)
        return 0;
    uint32_t ptr = in->ops[0]; /* OpLoad, OpStore and the atomics */
    if (++c->walk == 0) { /* the stamps wrapped: start them again */
        memset(c->stamp, 0, c->bound * sizeof *c->stamp);
        c->walk = 1;
    }
    walk w = {c, m, out, cap, 0, 0, 0};
    visit_chain(&w, ptr);
    return w.cut ? 0 : w.n;
}
