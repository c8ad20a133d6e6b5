/* eval.c - the evaluator's scheduler: executes one workgroup of the
 * plan's dispatch, every invocation together, in lock-step between
 * barriers.  See eval.h for the contract and eval_ctx.h for the pieces.
 *
 * Scheduling: each invocation (lane) has its own block and instruction
 * position.  The runnable lanes that sit at the earliest block in a
 * structured order (a depth-first order that puts a construct's merge block
 * after all of its body) run one block together; so lanes reconverge at
 * merge blocks and a loop's lanes iterate together until the last leaves.
 * A lane stops at a barrier; when no lane can run, the barrier completes if
 * every invocation of the group waits at that same barrier, otherwise that
 * is a barrier-divergence record.
 */
#include "eval_ctx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static int g_unknown_init;

/* ------------------------------------------------------------------ */
/* control flow and scheduling                                          */

static void lane_goto_block(ev_ctx *c, uint32_t lane, uint32_t from, uint32_t t)
{
    if (t == SPV_NONE || t >= c->m->nblocks) {
        c->l_state[lane] = LS_DEAD;
        if (c->nlive)
            c->nlive--;
        return;
    }
    c->l_prev[lane] = from;
    c->l_block[lane] = t;
    c->l_inst[lane] = c->m->blocks[t].first + 1;
}

static void lane_goto(ev_ctx *c, uint32_t lane, uint32_t from, uint32_t label)
{
    lane_goto_block(c, lane, from, spv_block_of_label(c->m, label));
}

static int inst_line_or_block(ev_ctx *c, uint32_t ii, uint32_t b)
{
    int line = ev_inst_line(c->m, ii);
    const spv_block *bl = &c->m->blocks[b];
    for (uint32_t k = bl->last + 1; line == 0 && k-- > bl->first;)
        line = ev_inst_line(c->m, k);
    return line;
}

/* The block of label ends the invocation before doing anything: a return
 * or a kill, with nothing but free instructions before it. */
static int exits_at_once(ev_ctx *c, uint32_t label)
{
    uint32_t b = spv_block_of_label(c->m, label);
    if (b == SPV_NONE || b >= c->m->nblocks)
        return 0;
    const spv_block *bl = &c->m->blocks[b];
    for (uint32_t i = bl->first + 1; i <= bl->last; i++) {
        uint32_t op = c->m->insts[i].opcode;
        switch (op) {
        case SpvOpReturn: case SpvOpReturnValue: case SpvOpKill:
        case SpvOpTerminateInvocation: case SpvOpUnreachable:
            return 1;
        case SpvOpLine: case SpvOpNoLine: case SpvOpNop:
            continue;
        default:
            return 0;
        }
    }
    return 0;
}

/* Is id's value the same in every one of these lanes, by its inputs?
 * Known and equal values are; so is a load from a buffer at the same
 * address (flag[gid / 64] in a workgroup of 64), or any operation of
 * such values.  Function, private and shared memory and phis are not
 * followed (depth-limited: a no means "may differ"). */
static int same_in_lanes(ev_ctx *c, uint32_t id, const uint16_t *lanes, int n, int depth,
                         int *visits)
{
    if (!has_reg(c, id))
        return 1;
    uint32_t nf = c->nflat[id];
    if (nf > 16 || ++*visits > 64)
        return 0; /* large values or a large expression: may differ */
    int equal = 1;
    const ev_val *v0 = V(c, id, lanes[0]);
    for (uint32_t k = 0; k < nf && equal; k++)
        equal = known(&v0[k]);
    for (int j = 1; j < n && equal; j++) {
        const ev_val *v = V(c, id, lanes[j]);
        for (uint32_t k = 0; k < nf && equal; k++)
            equal = v[k].lo == v0[k].lo && v[k].hi == v0[k].hi;
    }
    if (equal)
        return 1;
    const spv_inst *d = spv_def(c->m, id);
    if (!d || depth >= 8 || d->opcode == SpvOpPhi || d->opcode == SpvOpFunctionParameter ||
        d->opcode == SpvOpFunctionCall)
        return 0;
    if (d->opcode == SpvOpLoad || d->opcode == SpvOpAccessChain ||
        d->opcode == SpvOpInBoundsAccessChain) {
        uint32_t vi = d->nops ? ev_root_var(c, d->ops[0]) : EV_NONE;
        if (vi == EV_NONE)
            return 0;
        int cls = c->info.vars[vi].cls;
        if (cls != EVM_STORAGE && cls != EVM_UNIFORM && cls != EVM_PUSH)
            return 0;
    }
    if (d->opcode >= SpvOpGroupNonUniformElect && d->opcode <= SpvOpGroupNonUniformQuadSwap)
        return 0;
    for (uint32_t k = 0; k < d->nops; k++)
        if (d->ops[k] < c->bound && !same_in_lanes(c, d->ops[k], lanes, n, depth + 1, visits))
            return 0;
    return 1;
}

/* Target for a lane whose branch condition depends on unknown data. */
static uint32_t pick_unknown(ev_ctx *c, uint32_t b, uint32_t ii,
                             uint32_t lane, uint32_t t_true, uint32_t t_false)
{
    const spv_module *m = c->m;
    const spv_block *bl = &m->blocks[b];
    uint32_t hdr = bl->merge == SPV_MERGE_LOOP ? b : bl->loop_header;
    c->l_taint[lane] = 1;
    c->grp->unknown_branch = 1;
    c->info.control_from_contents = 1;
    if (hdr != SPV_NONE && hdr < m->nblocks) {
        uint32_t mb = m->blocks[hdr].merge_block;
        uint32_t ml = mb < m->nblocks ? m->blocks[mb].label : 0;
        if (ml && (t_true == ml || t_false == ml)) {
            uint32_t exit = ml, stay = t_true == ml ? t_false : t_true;
            ev_trk_bad(c, ii); /* the assumed trip count is not a comparison */
            if (!c->noted_inst[ii]) {
                c->noted_inst[ii] = 1;
                ev_note(c, "loop at line %d depends on buffer contents: "
                           "assumed %u iterations",
                        inst_line_or_block(c, ii, b), c->opt.unknown_loop_iterations);
            }
            if (c->l_unk_iter[lane] < c->opt.unknown_loop_iterations) {
                c->l_unk_iter[lane]++;
                return stay;
            }
            c->l_unk_iter[lane] = 0;
            return exit;
        }
    }
    if (!c->noted_inst[ii]) {
        c->noted_inst[ii] = 1;
        ev_note(c, "branch at line %d depends on buffer contents: both sides analysed "
                   "(counts from the side that goes on)", inst_line_or_block(c, ii, b));
    }
    c->grp->unknown_select = 1;
    /* the side that goes on (rather than returning at once) in the first
       run; other runs flip sites by unk_mask and, for a condition that
       differs between invocations, neighbouring lanes (ev_group_run) */
    int ex_t = exits_at_once(c, t_true), ex_f = exits_at_once(c, t_false);
    uint32_t go_on = ex_t && !ex_f ? t_false : t_true;
    uint32_t other = go_on == t_true ? t_false : t_true;
    if (!c->unk_site[ii] && c->unk_nsites < 255)
        c->unk_site[ii] = (uint8_t)++c->unk_nsites;
    unsigned site = c->unk_site[ii] ? c->unk_site[ii] - 1u : 0;
    int flip = site < 32 ? (int)((c->unk_mask >> site) & 1u) : c->unk_mask == ~0u;
    const spv_inst *br = &m->insts[ii];
    int per_lane = br->nops && (ev_dep_of(c, br->ops[0]) & (DEP_LID | DEP_GID | DEP_SUB)) &&
                   !c->unk_same;
    if (per_lane) {
        c->unk_per_lane = 1;
        if (c->unk_mix)
            flip ^= (int)((c->lane_real[lane] ^ (uint32_t)(c->unk_mix - 1)) & 1u);
    }
    return flip ? other : go_on;
}

static void lane_finish(ev_ctx *c, uint32_t lane, uint32_t ii, int depth,
                        int kill)
{
    if (kill || depth == 0) {
        c->l_state[lane] = kill ? LS_DEAD : LS_RET;
        c->l_ret_inst[lane] = ii;
        if (c->nlive)
            c->nlive--;
    } else {
        c->l_state[lane] = LS_RET;
    }
}

static void run_frame(ev_ctx *c, uint32_t f, const uint16_t *lanes, int n,
                      int depth, uint32_t ret_id);

static void init_function_vars(ev_ctx *c, uint32_t f, const uint16_t *lanes,
                               int n)
{
    ev_info *I = &c->info;
    for (size_t i = 0; i < I->nvars; i++) {
        ev_var *v = &I->vars[i];
        if (v->cls != EVM_FUNCTION || !v->mem)
            continue;
        const spv_var *sv = spv_var_of(c->m, v->id);
        if (!sv || sv->func != f)
            continue;
        for (int j = 0; j < n; j++) {
            ev_val *dst = v->mem + (size_t)lanes[j] * v->nflat;
            if (sv->init && NF(c, sv->init) == v->nflat)
                memcpy(dst, V(c, sv->init, lanes[j]), v->nflat * sizeof *dst);
            else
                ev_fill_unknown(c, v->pointee, dst, v->nflat);
        }
    }
}

static void exec_call(ev_ctx *c, uint32_t ii, const spv_inst *in,
                      const uint16_t *lanes, int n, int depth)
{
    const spv_function *fn = in->nops ? spv_func_of(c->m, in->ops[0]) : NULL;
    if (!fn || depth + 1 >= c->depth_max) {
        if (has_reg(c, in->result_id))
            for (int j = 0; j < n; j++)
                ev_fill_unknown(c, in->type_id, RV(c, in->result_id, lanes[j]),
                             c->nflat[in->result_id]);
        ev_note(c, "function call at line %d not evaluated (nesting too deep)",
                ev_inst_line(c->m, ii));
        return;
    }
    uint32_t fi = (uint32_t)(fn - c->m->funcs);
    for (uint32_t k = 0; k < fn->nparams && k + 1 < in->nops; k++) {
        uint32_t pid = fn->params[k];
        if (!has_reg(c, pid))
            continue;
        uint32_t nf = c->nflat[pid];
        for (int j = 0; j < n; j++)
            memcpy(RV(c, pid, lanes[j]), Vn(c, in->ops[k + 1], lanes[j], nf),
                   nf * sizeof(ev_val));
    }
    uint32_t *save = xcalloc((size_t)n * 2, sizeof *save);
    for (int j = 0; j < n; j++) {
        save[2 * j] = c->l_block[lanes[j]];
        save[2 * j + 1] = c->l_prev[lanes[j]];
    }
    run_frame(c, fi, lanes, n, depth + 1, in->result_id);
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        if (c->l_state[l] == LS_DEAD)
            continue;
        if (c->l_state[l] == LS_RET && c->budget_hit)
            continue;
        c->l_state[l] = LS_RUN;
        c->l_block[l] = save[2 * j];
        c->l_prev[l] = save[2 * j + 1];
        c->l_inst[l] = ii + 1;
    }
    free(save);
}

static void exec_phis(ev_ctx *c, uint32_t b, uint32_t *pi,
                      const uint16_t *lanes, int n)
{
    const spv_module *m = c->m;
    uint32_t i = *pi, end = m->blocks[b].last;
    uint32_t first = i;
    size_t need = 0;
    while (i <= end && (m->insts[i].opcode == SpvOpPhi ||
                        m->insts[i].opcode == SpvOpLine ||
                        m->insts[i].opcode == SpvOpNoLine)) {
        if (m->insts[i].opcode == SpvOpPhi && has_reg(c, m->insts[i].result_id))
            need += (size_t)c->nflat[m->insts[i].result_id] * (size_t)n;
        i++;
    }
    *pi = i;
    if (i == first)
        return;
    /* every slot of tmp is written before it is read; most blocks' phis
     * fit the stack (an allocation per block was a tenth of a lone lane's
     * loop) */
    ev_val small[256];
    ev_val *tmp = need <= 256 ? small : xmalloc(need * sizeof *tmp);
    size_t pos = 0;
    for (uint32_t k = first; k < i; k++) {
        const spv_inst *in = &m->insts[k];
        if (in->opcode != SpvOpPhi || !has_reg(c, in->result_id))
            continue;
        uint32_t nf = c->nflat[in->result_id];
        c->grp->icount[k] += n;
        for (int j = 0; j < n; j++) {
            uint32_t lane = lanes[j];
            uint32_t prev = c->l_prev[lane];
            uint32_t plabel = prev < m->nblocks ? m->blocks[prev].label : 0;
            const ev_val *src = ev_unknown_vals;
            for (uint32_t q = 0; q + 1 < in->nops; q += 2)
                if (in->ops[q + 1] == plabel) {
                    src = Vn(c, in->ops[q], lane, nf);
                    break;
                }
            memcpy(tmp + pos, src, nf * sizeof *tmp);
            pos += nf;
        }
    }
    pos = 0;
    for (uint32_t k = first; k < i; k++) {
        const spv_inst *in = &m->insts[k];
        if (in->opcode != SpvOpPhi || !has_reg(c, in->result_id))
            continue;
        uint32_t nf = c->nflat[in->result_id];
        for (int j = 0; j < n; j++) {
            memcpy(RV(c, in->result_id, lanes[j]), tmp + pos, nf * sizeof *tmp);
            pos += nf;
        }
    }
    if (tmp != small)
        free(tmp);
}

/* A subgroup-scope control barrier executed by these lanes together: the
 * active invocations of each subgroup synchronise with each other (Vulkan:
 * only active invocations take part, so a subgroup barrier in
 * non-uniform flow is no divergence); other subgroups are not ordered. */
static void subgroup_barrier(ev_ctx *c, uint32_t ii, const uint16_t *lanes, int n)
{
    uint32_t last = EV_NONE;
    for (int j = 0; j < n; j++) {
        uint32_t sg = ev_sg_of(c, lanes[j]);
        if (sg == last)
            continue;
        last = sg;
        if (c->bar_kind[ii] & EV_BAR_ORDERS) {
            c->sg_epoch[sg]++;
            c->sg_bar_inst[sg] = ii;
        }
        ev_trk_barrier(c, ii, (int)sg);
    }
}

/* Instructions [from, to] stepped by each of the n lanes (a block's
 * rest, counted when it starts; given back with sign -1 where it stops
 * early, to be resumed), as info.instr counts them. */
static void lanes_step(ev_ctx *c, const uint16_t *lanes, int n, uint32_t from,
                       uint32_t to, double sign)
{
    double k = sign * (c->instr_before[to + 1] - c->instr_before[from]);
    if (k != 0)
        for (int j = 0; j < n; j++)
            c->lane_instr[lanes[j]] += k;
}

static void exec_block(ev_ctx *c, uint32_t b, uint32_t start,
                       const uint16_t *lanes, int n, int depth,
                       uint32_t ret_id)
{
    const spv_module *m = c->m;
    const spv_block *bl = &m->blocks[b];
    uint32_t i = start;
    lanes_step(c, lanes, n, start, bl->last, 1);
    if (i == bl->first + 1) {
        exec_phis(c, b, &i, lanes, n);
        if (bl->merge == SPV_MERGE_LOOP)
            ev_trk_arrive(c, b, lanes, n);
    }
    for (; i <= bl->last; i++) {
        const spv_inst *in = &m->insts[i];
        uint32_t op = in->opcode;
        c->grp->icount[i] += n;
        c->steps_total += n;
        switch (op) {
        case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge:
        case SpvOpLoopMerge: case SpvOpNop: case SpvOpVariable: case SpvOpPhi:
        case SpvOpMemoryBarrier:
            break;
        case SpvOpControlBarrier:
            if ((c->bar_kind[i] & EV_BAR_KIND) == EV_BAR_SUBGROUP) {
                subgroup_barrier(c, i, lanes, n);
                break;
            }
            if ((c->bar_kind[i] & EV_BAR_KIND) == EV_BAR_INVOCATION)
                break;
            for (int j = 0; j < n; j++) {
                c->l_state[lanes[j]] = LS_BAR;
                c->l_block[lanes[j]] = b;
                c->l_inst[lanes[j]] = i;
            }
            if (i < bl->last) /* resumed at i + 1 */
                lanes_step(c, lanes, n, i + 1, bl->last, -1);
            return;
        case SpvOpFunctionCall:
            for (int j = 0; j < n; j++) {
                c->l_block[lanes[j]] = b;
                c->l_inst[lanes[j]] = i + 1;
            }
            if (i < bl->last) /* resumed at i + 1 */
                lanes_step(c, lanes, n, i + 1, bl->last, -1);
            exec_call(c, i, in, lanes, n, depth);
            return;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
            ev_exec_access_chain(c, i, in, lanes, n);
            break;
        case SpvOpBranch: {
            uint32_t tb = spv_block_of_label(m, in->ops[0]);
            for (int j = 0; j < n; j++)
                lane_goto_block(c, lanes[j], b, tb);
            return;
        }
        case SpvOpBranchConditional: {
            uint32_t tbt = spv_block_of_label(m, in->ops[1]);
            uint32_t tbf = spv_block_of_label(m, in->ops[2]);
            int same = -1; /* the condition equal in all these lanes (pick_unknown) */
            for (int j = 0; j < n; j++) {
                const ev_val *cd = V(c, in->ops[0], lanes[j]);
                uint32_t t;
                if (!known(cd) && same < 0) {
                    int visits = 0;
                    same = same_in_lanes(c, in->ops[0], lanes, n, 0, &visits);
                    c->unk_same = same;
                }
                if (c->narmed && known(cd))
                    ev_trk_branch(c, i, lanes[j], in->ops[0]);
                if (known(cd))
                    t = cd->lo ? in->ops[1] : in->ops[2];
                else if (in->ops[1] == in->ops[2])
                    t = in->ops[1];
                else
                    t = pick_unknown(c, b, i, lanes[j], in->ops[1], in->ops[2]);
                lane_goto_block(c, lanes[j], b, t == in->ops[1] ? tbt : tbf);
            }
            return;
        }
        case SpvOpSwitch: {
            const ev_type *st = ev_val_type(c, in->ops[0]);
            uint32_t lw = st->width > 32 ? 2 : 1;
            for (int j = 0; j < n; j++) {
                const ev_val *sel = V(c, in->ops[0], lanes[j]);
                uint32_t t = in->ops[1];
                if (known(sel)) {
                    for (uint32_t q = 2; q + lw < in->nops; q += lw + 1) {
                        uint64_t lit = in->ops[q];
                        if (lw == 2)
                            lit |= (uint64_t)in->ops[q + 1] << 32;
                        if ((lit & wmask(st->width ? st->width : 32)) == sel->lo) {
                            t = in->ops[q + lw];
                            break;
                        }
                    }
                } else {
                    /* a guess like pick_unknown's: the group did not
                     * decide this switch, its executions are assumed */
                    c->l_taint[lanes[j]] = 1;
                    c->grp->unknown_branch = 1;
                    c->info.control_from_contents = 1;
                    if (!c->noted_inst[i]) {
                        c->noted_inst[i] = 1;
                        ev_note(c, "switch at line %d depends on buffer contents: "
                                   "assumed default", inst_line_or_block(c, i, b));
                    }
                }
                lane_goto(c, lanes[j], b, t);
            }
            return;
        }
        case SpvOpReturnValue:
            if (has_reg(c, ret_id) && in->nops >= 1)
                for (int j = 0; j < n; j++)
                    memcpy(RV(c, ret_id, lanes[j]), Vn(c, in->ops[0], lanes[j], c->nflat[ret_id]),
                           c->nflat[ret_id] * sizeof(ev_val));
            /* fall through */
        case SpvOpReturn:
            for (int j = 0; j < n; j++)
                lane_finish(c, lanes[j], i, depth, 0);
            return;
        case SpvOpKill: case SpvOpTerminateInvocation: case SpvOpUnreachable:
            for (int j = 0; j < n; j++)
                lane_finish(c, lanes[j], i, depth, 1);
            return;
        case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory:
        case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
        case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement:
        case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
        case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax:
        case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
        case SpvOpAtomicXor: case SpvOpAtomicFAddEXT:
            ev_exec_memory(c, i, in, lanes, n);
            break;
        default:
            ev_exec_value(c, i, in, lanes, n);
            break;
        }
    }
    /* a block without terminator cannot come from the reader; be safe */
    for (int j = 0; j < n; j++)
        lane_finish(c, lanes[j], bl->last, depth, 1);
}

/* The frame's lanes that wait at a barrier, bar[0..n) in the frame's
 * order, complete it (or leave a divergence record) and run on. */
static void barrier_sync(ev_ctx *c, const uint16_t *bar, int n)
{
    uint32_t inst = EV_NONE, other = EV_NONE, reached = 0;
    uint32_t lane_r = 0, lane_o = EV_NONE;
    for (int j = 0; j < n; j++) {
        uint32_t l = bar[j];
        if (inst == EV_NONE) {
            inst = c->l_inst[l];
            lane_r = l;
        }
        if (c->l_inst[l] == inst) {
            reached++;
        } else if (other == EV_NONE) {
            other = c->l_inst[l];
            lane_o = l;
        }
    }
    if (reached != c->exec_lanes) {
        ev_info *I = &c->info;
        int dup = 0;
        for (size_t i = 0; i < I->nbars && !dup; i++)
            dup = I->bars[i].inst == inst;
        if (!dup) {
            int tainted = 0;
            for (uint32_t l = 0; l < c->exec_lanes; l++)
                tainted |= c->l_taint[l];
            ev_bar_rec r;
            memset(&r, 0, sizeof r);
            r.inst = inst;
            r.other_inst = other;
            r.ret_inst = EV_NONE;
            for (uint32_t l = 0; l < c->exec_lanes; l++)
                if ((c->l_state[l] == LS_RET || c->l_state[l] == LS_DEAD) &&
                    c->l_ret_inst[l] != EV_NONE) {
                    r.ret_inst = c->l_ret_inst[l];
                    if (lane_o == EV_NONE)
                        lane_o = l;
                    break;
                }
            if (lane_o == EV_NONE)
                for (uint32_t l = 0; l < c->exec_lanes; l++)
                    if (c->l_state[l] != LS_BAR || c->l_inst[l] != inst) {
                        lane_o = l;
                        break;
                    }
            r.reached = reached;
            r.missing = c->exec_lanes - reached;
            r.lane_reached = c->lane_real[lane_r];
            r.lane_missing = lane_o == EV_NONE ? 0 : c->lane_real[lane_o];
            memcpy(r.group, c->gid, sizeof r.group);
            r.certain = !tainted;
            ev_add_rec((void **)&I->bars, &I->nbars, sizeof r, &r);
        }
    }
    if (inst != EV_NONE && (c->bar_kind[inst] & EV_BAR_ORDERS))
        c->epoch++;
    for (uint32_t s = 0; s < c->nsub; s++)
        c->sg_bar_inst[s] = EV_NONE;
    ev_trk_barrier(c, inst, -1);
    c->grp->barriers += 1;
    for (int j = 0; j < n; j++) {
        c->l_state[bar[j]] = LS_RUN;
        c->l_inst[bar[j]]++;
    }
}

/* A frame's lanes by their state, as bit sets over their positions in
 * the frame's lane list (so that a set iterates in the frame's order):
 * only the lanes that ran a block change state, and a barrier wakes the
 * waiting ones, so a pass visits the runnable lanes alone (one lane
 * looping while the rest wait or have returned was a scan of them all a
 * block, and of them all again at each barrier). */
typedef struct frame_sets {
    const uint16_t *lanes;
    uint16_t *pos;        /* position of each lane of the frame */
    uint64_t *run, *bar;  /* words bits each */
    size_t words;
} frame_sets;

static void sets_init(frame_sets *fs, const ev_ctx *c, const uint16_t *lanes, int n)
{
    fs->lanes = lanes;
    fs->words = ((size_t)n + 63) / 64;
    fs->pos = xmalloc(((size_t)c->exec_lanes + 1) * sizeof *fs->pos);
    fs->run = xcalloc(2 * fs->words + 1, sizeof *fs->run);
    fs->bar = fs->run + fs->words;
    for (int j = 0; j < n; j++) {
        fs->pos[lanes[j]] = (uint16_t)j;
        if (c->l_state[lanes[j]] == LS_RUN)
            fs->run[j / 64] |= 1ull << (j % 64);
    }
}

/* After a block: the lanes that ran it move to the set of their state. */
static void sets_update(frame_sets *fs, const ev_ctx *c, const uint16_t *grp, int ng)
{
    for (int k = 0; k < ng; k++) {
        uint32_t j = fs->pos[grp[k]];
        uint64_t bit = 1ull << (j % 64);
        fs->run[j / 64] &= ~bit;
        if (c->l_state[grp[k]] == LS_RUN)
            fs->run[j / 64] |= bit;
        else if (c->l_state[grp[k]] == LS_BAR)
            fs->bar[j / 64] |= bit;
    }
}

/* The lanes of set, in the frame's order, into out; returns how many. */
static int sets_list(const frame_sets *fs, const uint64_t *set, uint16_t *out)
{
    int k = 0;
    for (size_t w = 0; w < fs->words; w++)
        for (uint64_t b = set[w]; b; b &= b - 1)
            out[k++] = fs->lanes[w * 64 + (size_t)__builtin_ctzll(b)];
    return k;
}

static void run_frame(ev_ctx *c, uint32_t f, const uint16_t *lanes, int n,
                      int depth, uint32_t ret_id)
{
    const spv_module *m = c->m;
    const spv_function *fn = &m->funcs[f];
    uint32_t entry = fn->first_block;
    init_function_vars(c, f, lanes, n);
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        c->l_block[l] = entry;
        c->l_inst[l] = m->blocks[entry].first + 1;
        c->l_prev[l] = EV_NONE;
        c->l_state[l] = LS_RUN;
    }
    uint16_t *grp = c->lane_buf + (size_t)(depth + 1) * c->exec_lanes;
    frame_sets fs;
    sets_init(&fs, c, lanes, n);
    uint16_t *list = xmalloc(((size_t)n + 1) * sizeof *list);
    for (;;) {
        if (c->steps_total > c->opt.step_budget) {
            c->budget_hit = 1;
            for (int j = 0; j < n; j++)
                if (c->l_state[lanes[j]] != LS_DEAD)
                    c->l_state[lanes[j]] = LS_RET;
            break;
        }
        /* one pass: the earliest runnable position and its lanes */
        uint64_t best = UINT64_MAX;
        int ng = 0;
        for (size_t w = 0; w < fs.words; w++)
            for (uint64_t bits = fs.run[w]; bits; bits &= bits - 1) {
                uint32_t l = lanes[w * 64 + (size_t)__builtin_ctzll(bits)];
                uint64_t key = ((uint64_t)c->order[c->l_block[l]] << 32) | c->l_inst[l];
                if (key < best) {
                    best = key;
                    ng = 0;
                }
                if (key == best)
                    grp[ng++] = (uint16_t)l;
            }
        if (best == UINT64_MAX) {
            int nb = sets_list(&fs, fs.bar, list);
            if (!nb)
                break;
            barrier_sync(c, list, nb);
            for (size_t w = 0; w < fs.words; w++) {
                fs.run[w] = fs.bar[w];
                fs.bar[w] = 0;
            }
            continue;
        }
        uint32_t b = c->l_block[grp[0]], start = c->l_inst[grp[0]];
        exec_block(c, b, start, grp, ng, depth, ret_id);
        sets_update(&fs, c, grp, ng);
    }
    free(list);
    free(fs.pos);
    free(fs.run);
}

static uint64_t sig_hash(const double *ic, size_t n, double active)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        if (ic[i] == 0)
            continue;
        uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (uint64_t)ic[i];
        h = (h ^ x) * 1099511628211ull;
    }
    h = (h ^ (uint64_t)active) * 1099511628211ull;
    return h;
}

static void group_run_once(ev_ctx *c, const uint32_t g[3], ev_group *out);

/* The other sides of ifs on buffer contents: out-of-bounds evidence and
 * index ranges join the first run's (records are joined already). */
static void merge_other_side(ev_ctx *c, ev_group *out, const ev_group *o)
{
    ev_info *I = &c->info;
    for (size_t a = 0; a < I->nacc; a++) {
        ev_acc *s = &out->acc[a];
        const ev_acc *t = &o->acc[a];
        if (t->idx_any) {
            if (!s->idx_any || t->idx_min < s->idx_min) s->idx_min = t->idx_min;
            if (!s->idx_any || t->idx_max > s->idx_max) s->idx_max = t->idx_max;
            if (!s->idx_any || t->off_min < s->off_min) s->off_min = t->off_min;
            if (!s->idx_any || t->off_max > s->off_max) s->off_max = t->off_max;
            s->idx_any = 1;
            s->idx_unknown |= t->idx_unknown;
            if (s->var == 0 && t->var)
                s->var = t->var;
        }
        if (t->oob_count > 0) {
            if (s->oob_count == 0 || t->oob_idx_min < s->oob_idx_min)
                s->oob_idx_min = t->oob_idx_min;
            if (s->oob_count == 0 || t->oob_idx_max > s->oob_idx_max)
                s->oob_idx_max = t->oob_idx_max;
            for (int d = 0; d < 3; d++) {
                if (s->oob_count == 0 || t->oob_gid_min[d] < s->oob_gid_min[d])
                    s->oob_gid_min[d] = t->oob_gid_min[d];
                if (s->oob_count == 0 || t->oob_gid_max[d] > s->oob_gid_max[d])
                    s->oob_gid_max[d] = t->oob_gid_max[d];
            }
            s->oob_count += t->oob_count;
            s->oob_certain |= t->oob_certain;
            s->var = t->var;
        }
    }
    out->budget_hit |= o->budget_hit;
}

static void run_other_side(ev_ctx *c, const uint32_t g[3], ev_group *out,
                           uint32_t mask, int mix)
{
    ev_group other;
    c->unk_mask = mask;
    c->unk_mix = mix;
    group_run_once(c, g, &other);
    c->unk_mask = 0;
    c->unk_mix = 0;
    merge_other_side(c, out, &other);
    out->steps += other.steps;
    ev_group_free(c, &other);
}

/* Branches on buffer contents: the first run takes the side that goes on
 * at each; then every site flipped; with up to 3 sites every combination;
 * where the condition differs between invocations, neighbouring lanes on
 * opposite sides (both ways round), for races and divergence between
 * invocations that decide differently. */
void ev_group_run(ev_ctx *c, const uint32_t g[3], ev_group *out)
{
    c->unk_mask = 0;
    c->unk_mix = 0;
    c->unk_per_lane = 0;
    group_run_once(c, g, out);
    if (!out->unknown_select || c->budget_hit)
        return;
    run_other_side(c, g, out, ~0u, 0);
    unsigned n = c->unk_nsites;
    if (n >= 2 && n <= 3)
        for (uint32_t mask = 1; mask + 1 < (1u << n) && !c->budget_hit; mask++)
            run_other_side(c, g, out, mask, 0);
    else if (n > 3)
        ev_note(c, "%u branches depend on buffer contents: their sides were analysed all "
                   "one way, all the other way and alternating between neighbouring "
                   "invocations, not in all 2^%u combinations", n, n);
    if (c->unk_per_lane)
        for (int mix = 1; mix <= 2 && !c->budget_hit; mix++)
            run_other_side(c, g, out, 0, mix);
}

/* Access b is a load of a storage or uniform buffer (a chase step's
 * candidates: workgroup memory is not on the DRAM path). */
static int global_load(const ev_ctx *c, size_t b)
{
    const ev_access_def *d = &c->info.acc[b];
    uint32_t v = c->grp->acc[b].var;
    if (!d->is_load || v == EV_NONE || v >= c->info.nvars)
        return 0;
    return c->info.vars[v].cls == EVM_STORAGE || c->info.vars[v].cls == EVM_UNIFORM;
}

/* Keeps the CW_CHAIN_PEERS most executed loads in s's peer list. */
static void peer_add(ev_acc *s, uint32_t b, double n)
{
    int k = CW_CHAIN_PEERS;
    while (k > 0 && (!s->peer[k - 1] || s->peer_execs[k - 1] < n))
        k--;
    if (k == CW_CHAIN_PEERS)
        return;
    for (int j = CW_CHAIN_PEERS - 1; j > k; j--) {
        s->peer[j] = s->peer[j - 1];
        s->peer_execs[j] = s->peer_execs[j - 1];
    }
    s->peer[k] = b + 1;
    s->peer_execs[k] = n;
}

/* Each access's longest chain in the group: the most executions of it by
 * one executed lane (a lane's own count, not scaled by sampling), and the
 * other loads that lane runs; then a new stamp, so the next group's
 * counts start from zero. */
static void group_chains(ev_ctx *c, ev_group *out)
{
    uint32_t L = c->exec_lanes, now = c->chain_stamp;
    for (uint32_t p = 0; p < c->nrun_slots; p++) {
        uint32_t s = c->run_slots[p], a = c->slot_acc[s], star = c->acc_star[s];
        out->acc[a].chain = c->acc_most[s];
        for (uint32_t q = 0; q < c->nrun_slots; q++) {
            uint32_t t = c->run_slots[q], b = c->slot_acc[t];
            size_t i = (size_t)t * L + star;
            if (t != s && c->lane_stamp[i] == now && c->lane_execs[i] > 0 &&
                global_load(c, b)) /* run here: its var is known */
                peer_add(&out->acc[a], b, c->lane_execs[i]);
        }
    }
    c->nrun_slots = 0;
    if (++c->chain_stamp == 0) { /* wrapped: every stamp is stale */
        memset(c->lane_stamp, 0, (c->nslots + 1) * (size_t)L * sizeof *c->lane_stamp);
        memset(c->acc_stamp, 0, (c->nslots + 1) * sizeof *c->acc_stamp);
        c->chain_stamp = 1;
    }
}

static void group_run_once(ev_ctx *c, const uint32_t g[3], ev_group *out)
{
    ev_info *I = &c->info;
    memset(out, 0, sizeof *out);
    memcpy(out->g, g, sizeof out->g);
    out->icount = xcalloc(c->m->ninsts + 1, sizeof(double));
    out->acc = xcalloc(I->nacc + 1, sizeof(ev_acc));
    out->fp = xcalloc((size_t)I->nfp + 1, sizeof(ev_runs));
    if (!g_unknown_init) {
        for (int i = 0; i < EV_MAX_FLAT; i++) {
            ev_unknown_vals[i].lo = 0;
            ev_unknown_vals[i].hi = ~0ull;
        }
        g_unknown_init = 1;
    }
    c->grp = out;
    memcpy(c->gid, g, sizeof c->gid);
    c->epoch = 1;
    c->acc_seq = 0;
    for (uint32_t s = 0; s < c->nsub; s++) {
        c->sg_epoch[s] = 0;
        c->sg_bar_inst[s] = EV_NONE;
    }
    ev_trk_group_start(c);
    double steps0 = c->steps_total;
    int budget0 = c->budget_hit;
    for (size_t i = 0; i < I->nvars; i++) {
        ev_var *v = &I->vars[i];
        if (!v->mem)
            continue;
        const spv_var *sv = spv_var_of(c->m, v->id);
        uint32_t init = sv ? sv->init : 0;
        if (v->cls == EVM_SHARED) {
            memset(v->shm, 0, (size_t)v->nflat * sizeof *v->shm);
            v->unknown_store = 0;
            v->settled_epoch = 0;
            v->marked_epoch = 0;
            if (init && NF(c, init) == v->nflat) {
                memcpy(v->mem, V(c, init, 0), v->nflat * sizeof *v->mem);
                for (uint32_t k = 0; k < v->nflat; k++)
                    v->shm[k].init = 1;
            } else {
                ev_fill_unknown(c, v->pointee, v->mem, v->nflat);
            }
        } else if (v->cls == EVM_PRIVATE) {
            for (uint32_t l = 0; l < c->exec_lanes; l++) {
                ev_val *dst = v->mem + (size_t)l * v->nflat;
                if (init && NF(c, init) == v->nflat)
                    memcpy(dst, V(c, init, l), v->nflat * sizeof *dst);
                else
                    ev_fill_unknown(c, v->pointee, dst, v->nflat);
            }
        }
    }
    uint16_t *lanes = c->lane_buf;
    for (uint32_t l = 0; l < c->exec_lanes; l++) {
        c->l_taint[l] = 0;
        c->l_side[l] = 0;
        c->l_ret_inst[l] = EV_NONE;
        c->l_unk_iter[l] = 0;
        c->l_state[l] = LS_DEAD;
    }
    memcpy(lanes, c->run_lanes, c->nrun * sizeof *lanes);
    c->nlive = c->nrun;
    c->budget_hit = 0;
    for (uint32_t j = 0; j < c->nrun; j++)
        c->lane_instr[c->run_lanes[j]] = 0;
    run_frame(c, c->entry_func, lanes, (int)c->nrun, 0, 0);
    group_chains(c, out);
    for (uint32_t j = 0; j < c->nrun; j++) {
        double k = c->lane_instr[c->run_lanes[j]];
        out->lane_instr_most = fmax(out->lane_instr_most, k);
        out->lane_instr_mean += k / c->nrun;
    }
    double active = 0;
    for (uint32_t j = 0; j < c->nrun; j++)
        active += c->l_side[c->run_lanes[j]];
    double scale = (double)I->lanes / c->nrun;
    if (scale != 1.0) {
        for (size_t i = 0; i < c->m->ninsts; i++)
            out->icount[i] *= scale;
        for (size_t a = 0; a < I->nacc; a++)
            out->acc[a].count *= scale;
    }
    out->active = active * scale;
    for (int s = 0; s < I->nfp; s++) {
        ev_runs_normalize(&out->fp[s]);
        if (c->sampled)
            out->fp[s].inexact = 1; /* the lanes in between are not in it */
    }
    out->steps = c->steps_total - steps0;
    out->budget_hit = c->budget_hit;
    c->budget_hit |= budget0;
    out->sig = sig_hash(out->icount, c->m->ninsts, out->active);
    c->grp = NULL;
}

void ev_group_free(ev_ctx *c, ev_group *g)
{
    if (!g)
        return;
    free(g->icount);
    free(g->acc);
    if (g->fp)
        for (int s = 0; s < c->info.nfp; s++)
            free(g->fp[s].r);
    free(g->fp);
    memset(g, 0, sizeof *g);
}

/* Independent floating-point chains in the hottest loop: float phis of its
 * header plus float function variables both loaded and stored inside it. */
int ev_fp_chains(ev_ctx *c, const double *icount)
{
    const spv_module *m = c->m;
    uint32_t best = EV_NONE;
    double bestw = 0;
    /* each loop's executed instructions: every block's count added once
     * to each header on its loop chain (64 steps), blocks in module order
     * (one walk per block: a scan of every block per loop was quadratic) */
    double *w = xcalloc(m->nblocks + 1, sizeof *w);
    for (size_t b = 0; b < m->nblocks; b++) {
        double bw = 0;
        int summed = 0;
        uint32_t chain[64];
        int n = 0;
        uint32_t x = (uint32_t)b;
        for (int guard = 0; guard < 64 && x != SPV_NONE && x < m->nblocks; guard++) {
            int seen = 0;
            for (int k = 0; k < n && !seen; k++)
                seen = chain[k] == x;
            if (!seen && m->blocks[x].merge == SPV_MERGE_LOOP) {
                chain[n++] = x;
                if (!summed) {
                    for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++)
                        bw += icount[i];
                    summed = 1;
                }
                w[x] += bw;
            }
            x = m->blocks[x].loop_header;
        }
    }
    for (size_t h = 0; h < m->nblocks; h++)
        if (m->blocks[h].merge == SPV_MERGE_LOOP && w[h] > bestw) {
            bestw = w[h];
            best = (uint32_t)h;
        }
    free(w);
    if (best == EV_NONE)
        return 1;
    uint8_t *ld = xcalloc(c->info.nvars + 1, 1), *st = xcalloc(c->info.nvars + 1, 1);
    int chains = 0;
    for (size_t b = 0; b < m->nblocks; b++) {
        uint32_t x = (uint32_t)b;
        int in_loop = 0;
        for (int guard = 0; guard < 64 && x != SPV_NONE && x < m->nblocks; guard++) {
            if (x == best) { in_loop = 1; break; }
            x = m->blocks[x].loop_header;
        }
        if (!in_loop)
            continue;
        for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++) {
            const spv_inst *in = &m->insts[i];
            if (b == best && in->opcode == SpvOpPhi) {
                const ev_type *t = ev_tinfo(c, in->type_id);
                if (t->kind == EVK_FLOAT && t->flat != EV_NONE)
                    chains += (int)t->flat;
            }
            if ((in->opcode == SpvOpLoad || in->opcode == SpvOpStore) && in->nops) {
                uint32_t vi = ev_root_var(c, in->ops[0]);
                if (vi == EV_NONE || c->info.vars[vi].cls != EVM_FUNCTION)
                    continue;
                (in->opcode == SpvOpLoad ? ld : st)[vi] = 1;
            }
        }
    }
    for (size_t v = 0; v < c->info.nvars; v++) {
        const ev_type *t = ev_tinfo(c, c->info.vars[v].pointee);
        if (ld[v] && st[v] && t->kind == EVK_FLOAT && t->flat != EV_NONE)
            chains += (int)t->flat;
    }
    free(ld);
    free(st);
    return chains > 0 ? chains : 1;
}

/* "tile[3][5]" for component comp of variable vi (component-addressed). */
void ev_comp_name(const ev_info *info, uint32_t vi, uint32_t comp, char *buf,
                  size_t n)
{
    ev_ctx *c = (ev_ctx *)(uintptr_t)info; /* info is the first member */
    const ev_var *v = &info->vars[vi];
    size_t len = (size_t)snprintf(buf, n, "%s", v->name && *v->name ? v->name : "shared");
    uint32_t t = v->pointee;
    for (int guard = 0; guard < 8 && len < n; guard++) {
        const spv_type *st = spv_type_of(c->m, t);
        if (!st || (st->kind != SPV_T_ARRAY && st->kind != SPV_T_VECTOR &&
                    st->kind != SPV_T_STRUCT))
            break;
        if (st->kind == SPV_T_STRUCT) {
            uint32_t off = 0, mi = 0;
            for (mi = 0; mi < st->nmembers; mi++) {
                uint32_t f = ev_tinfo(c, st->members[mi].type)->flat;
                if (f == EV_NONE || comp < off + f)
                    break;
                off += f;
            }
            if (mi >= st->nmembers)
                break;
            const char *mn = st->members[mi].name;
            len += (size_t)snprintf(buf + len, n - len, ".%s", mn ? mn : "member");
            comp -= off;
            t = st->members[mi].type;
            continue;
        }
        uint32_t f = ev_tinfo(c, st->elem)->flat;
        if (f == EV_NONE || f == 0)
            break;
        len += (size_t)snprintf(buf + len, n - len, "[%u]", comp / f);
        comp %= f;
        t = st->elem;
    }
}
