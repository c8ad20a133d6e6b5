/* spirv_cfg.c - the CFG of each function, the call graph and entry points.
 * See spirv_int.h. */
#include "spirv_int.h"
#include "alloc.h"

#include <spirv/unified1/spirv.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_edge(uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t v)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 2;
        uint32_t *nl = xrealloc(*list, nc * sizeof *nl);
        *list = nl;
        *cap = nc;
    }
    (*list)[(*n)++] = v;
}

int spv_build_edges(spv_module *m, parse_ctx *c)
{
    uint32_t *scap = xcalloc(m->nblocks, sizeof *scap);
    uint32_t *pcap = xcalloc(m->nblocks, sizeof *pcap);
    /* the branch targets of one block are contiguous in brefs: a stamp per
     * target block (source block + 1) removes duplicate edges in O(1) */
    uint32_t *stamp = xcalloc(m->nblocks, sizeof *stamp);
    int rc = 0;
    for (size_t i = 0; i < c->nbrefs && !rc; i++) {
        spv_block *b = &m->blocks[c->brefs[i].block];
        uint32_t t = spv_block_of_label(m, c->brefs[i].label);
        if (t == SPV_NONE || m->blocks[t].func != b->func) {
            spv_set_err(c->err, m->insts[b->last].offset,
                    "branch to %%%u, which is not a block of the same function",
                    c->brefs[i].label);
            rc = -1;
            break;
        }
        if (stamp[t] == c->brefs[i].block + 1)
            continue;
        stamp[t] = c->brefs[i].block + 1;
        push_edge(&b->succ, &b->nsucc, &scap[c->brefs[i].block], t);
        push_edge(&m->blocks[t].pred, &m->blocks[t].npred, &pcap[t], c->brefs[i].block);
    }
    free(stamp);
    for (size_t i = 0; i < m->nblocks && !rc; i++) {
        spv_block *b = &m->blocks[i];
        if (b->merge_inst == SPV_NONE)
            continue;
        const spv_inst *mi = &m->insts[b->merge_inst];
        b->merge_block = spv_block_of_label(m, mi->ops[0]);
        if (b->merge_block == SPV_NONE || m->blocks[b->merge_block].func != b->func) {
            spv_set_err(c->err, mi->offset, "merge target %%%u is not a block of the same function",
                    mi->ops[0]);
            rc = -1;
            break;
        }
        if (b->merge == SPV_MERGE_LOOP) {
            b->continue_block = spv_block_of_label(m, mi->ops[1]);
            if (b->continue_block == SPV_NONE ||
                m->blocks[b->continue_block].func != b->func) {
                spv_set_err(c->err, mi->offset, "continue target %%%u is not a block of the same function",
                        mi->ops[1]);
                rc = -1;
            }
        }
    }
    free(scap);
    free(pcap);
    return rc;
}

/* Dominators (Cooper, Harvey, Kennedy), irreducibility and natural loops
 * for one function. */
int spv_analyse_cfg(spv_module *m, spv_function *f, parse_ctx *c,
                       uint64_t *budget)
{
    uint32_t nb = f->nblocks, fb = f->first_block;
    if (nb == 0)
        return 0;
    uint32_t *post = xcalloc(nb, sizeof *post);
    uint32_t *stack = xcalloc(nb, sizeof *stack);
    uint32_t *next = xcalloc(nb, sizeof *next);
    uint8_t *seen = xcalloc(nb, 1);
    uint32_t npost = 0, sp = 0;
    int rc = 0;

    /* iterative DFS for postorder */
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        uint32_t u = stack[sp - 1];
        spv_block *b = &m->blocks[fb + u];
        if (next[u] < b->nsucc) {
            uint32_t v = b->succ[next[u]++] - fb;
            if (!seen[v]) {
                seen[v] = 1;
                stack[sp++] = v;
            }
        } else {
            post[npost++] = u;
            sp--;
        }
    }
    f->nrpo = npost;
    f->rpo_order = xcalloc(npost, sizeof *f->rpo_order);
    for (uint32_t i = 0; i < npost; i++) {
        uint32_t u = post[npost - 1 - i];
        f->rpo_order[i] = fb + u;
        m->blocks[fb + u].rpo = i;
        m->blocks[fb + u].reachable = 1;
    }

    /* dominators over RPO numbers; idom[] in local rpo numbering */
    uint32_t *idom = xcalloc(npost, sizeof *idom);
    for (uint32_t i = 0; i < npost; i++)
        idom[i] = SPV_NONE;
    idom[0] = 0;
    int changed = 1;
    uint32_t passes = 0;
    while (changed && rc == 0) {
        changed = 0;
        if (++passes > nb + 3) {
            spv_set_err(c->err, (size_t)-1, "dominator computation did not converge");
            rc = -1;
            break;
        }
        for (uint32_t i = 1; i < npost; i++) {
            spv_block *b = &m->blocks[f->rpo_order[i]];
            uint32_t nd = SPV_NONE;
            for (uint32_t p = 0; p < b->npred; p++) {
                spv_block *pb = &m->blocks[b->pred[p]];
                if (!pb->reachable || idom[pb->rpo] == SPV_NONE)
                    continue;
                uint32_t x = pb->rpo;
                if (nd == SPV_NONE) {
                    nd = x;
                    continue;
                }
                uint32_t y = nd, guard = 0;
                while (x != y && guard++ < 2 * nb + 2) {
                    while (x > y && guard++ < 2 * nb + 2) x = idom[x];
                    while (y > x && guard++ < 2 * nb + 2) y = idom[y];
                }
                nd = x;
                *budget += guard + 1;
                if (*budget > SPV_CFG_BUDGET)
                    break;
            }
            if (*budget > SPV_CFG_BUDGET)
                break;
            if (nd != SPV_NONE && idom[i] != nd) {
                idom[i] = nd;
                changed = 1;
            }
        }
        if (*budget > SPV_CFG_BUDGET) {
            spv_set_err(c->err, (size_t)-1, "control flow too large to analyse");
            rc = -1;
        }
    }
    for (uint32_t i = 1; i < npost && rc == 0; i++)
        m->blocks[f->rpo_order[i]].idom = idom[i] == SPV_NONE ? SPV_NONE : f->rpo_order[idom[i]];

    /* retreating edges must go to a dominator (reducible CFG); collect
     * the natural loop of each back edge, innermost header last */
    uint32_t *work = xcalloc(nb, sizeof *work);
    uint32_t *mark = xcalloc(nb, sizeof *mark);
    for (uint32_t hi = 0; hi < npost && rc == 0; hi++) {
        uint32_t h = f->rpo_order[hi];
        spv_block *hb = &m->blocks[h];
        uint32_t nw = 0;
        for (uint32_t p = 0; p < hb->npred; p++) {
            spv_block *ub = &m->blocks[hb->pred[p]];
            if (!ub->reachable || ub->rpo < hi)
                continue;
            /* retreating edge u -> h: h must dominate u */
            uint32_t x = ub->rpo, guard = 0;
            while (x != hi && x != 0 && guard++ <= nb)
                x = idom[x];
            *budget += guard + 1;
            if (*budget > SPV_CFG_BUDGET) {
                spv_set_err(c->err, (size_t)-1, "control flow too large to analyse");
                rc = -1;
                break;
            }
            if (x != hi) {
                spv_set_err(c->err, m->insts[ub->last].offset,
                        "irreducible control flow in function %s: the edge from block %%%u "
                        "to %%%u enters a loop other than through its header",
                        f->name ? f->name : "?", ub->label, hb->label);
                rc = -1;
                break;
            }
            if (mark[hb->pred[p] - fb] != hi + 1) {
                mark[hb->pred[p] - fb] = hi + 1;
                work[nw++] = hb->pred[p] - fb;
            }
        }
        if (rc || nw == 0)
            continue;
        /* reverse walk from the latches, stopping at h */
        mark[h - fb] = hi + 1;
        hb->loop_header = h;
        while (nw) {
            uint32_t u = work[--nw];
            spv_block *ub = &m->blocks[fb + u];
            ub->loop_header = h;
            if (fb + u == h)
                continue; /* do not walk out of the loop through its header */
            if (++*budget > SPV_CFG_BUDGET) {
                spv_set_err(c->err, (size_t)-1, "control flow too large to analyse");
                rc = -1;
                break;
            }
            for (uint32_t p = 0; p < ub->npred; p++) {
                uint32_t v = ub->pred[p] - fb;
                if (!m->blocks[fb + v].reachable || mark[v] == hi + 1)
                    continue;
                mark[v] = hi + 1;
                work[nw++] = v;
            }
        }
    }
    free(work);
    free(mark);
    free(idom);
    free(post);
    free(stack);
    free(next);
    free(seen);
    return rc;
}

int spv_check_calls(spv_module *m, parse_ctx *c)
{
    /* callee ids exist; the call graph has no cycle (Vulkan forbids
     * recursion, and the evaluator inlines calls) */
    size_t nf = m->nfuncs;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode != SpvOpFunctionCall)
            continue;
        if (in->nops < 1 || in->ops[0] >= m->bound || !m->id_func[in->ops[0]]) {
            spv_set_err(c->err, in->offset, "OpFunctionCall of %%%u, which is not a function",
                    in->nops ? in->ops[0] : 0);
            return -1;
        }
    }
    /* iterative DFS with colours over call edges found by scanning each
     * function's instructions */
    uint8_t *colour = xcalloc(nf, 1);
    uint32_t *stack = xcalloc(nf, sizeof *stack);
    uint32_t *pos = xcalloc(nf, sizeof *pos);
    int rc = 0;
    for (size_t s = 0; s < nf && !rc; s++) {
        if (colour[s])
            continue;
        uint32_t sp = 0;
        stack[sp++] = (uint32_t)s;
        colour[s] = 1;
        pos[s] = m->funcs[s].first_inst;
        while (sp && !rc) {
            uint32_t f = stack[sp - 1];
            uint32_t end = m->funcs[f].end_inst;
            uint32_t callee = SPV_NONE;
            while (pos[f] < end) {
                const spv_inst *in = &m->insts[pos[f]++];
                if (in->opcode == SpvOpFunctionCall) {
                    callee = m->id_func[in->ops[0]] - 1;
                    break;
                }
            }
            if (callee == SPV_NONE) {
                colour[f] = 2;
                sp--;
                continue;
            }
            if (colour[callee] == 1) {
                spv_set_err(c->err, (size_t)-1, "recursive call: function %s calls itself (directly or not)",
                        m->funcs[callee].name ? m->funcs[callee].name : "?");
                rc = -1;
            } else if (colour[callee] == 0) {
                colour[callee] = 1;
                pos[callee] = m->funcs[callee].first_inst;
                stack[sp++] = callee;
            }
        }
    }
    free(colour);
    free(stack);
    free(pos);
    return rc;
}

int spv_resolve_entries(spv_module *m, parse_ctx *c)
{
    for (size_t i = 0; i < m->nentries; i++) {
        spv_entry *e = &m->entries[i];
        if (!m->id_func[e->func_id]) {
            spv_set_err(c->err, (size_t)-1, "entry point '%s' names %%%u, which is not a function",
                    e->name, e->func_id);
            return -1;
        }
        e->func = m->id_func[e->func_id] - 1;
    }
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode != SpvOpExecutionMode && in->opcode != SpvOpExecutionModeId)
            continue;
        uint32_t mode = in->ops[1];
        if (mode != SpvExecutionModeLocalSize && mode != SpvExecutionModeLocalSizeId)
            continue;
        if (in->nops < 5) {
            spv_set_err(c->err, in->offset, "LocalSize needs three values");
            return -1;
        }
        for (size_t j = 0; j < m->nentries; j++) {
            spv_entry *e = &m->entries[j];
            if (e->func_id != in->ops[0])
                continue;
            if (mode == SpvExecutionModeLocalSize) {
                if (e->ls_source != SPV_LS_ID) {
                    e->ls_source = SPV_LS_LITERAL;
                    for (int d = 0; d < 3; d++) {
                        e->local_size[d] = in->ops[2 + d];
                        e->local_size_ids[d] = 0;
                    }
                }
            } else {
                e->ls_source = SPV_LS_ID;
                for (int d = 0; d < 3; d++) {
                    if (check_id(c, in->offset, in->ops[2 + d], "LocalSizeId"))
                        return -1;
                    e->local_size_ids[d] = in->ops[2 + d];
                }
            }
        }
    }
    return 0;
}
