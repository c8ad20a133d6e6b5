/* limits.c - static checks that need no evaluation: the plan against the
 * shader's reflection (entry point, bindings, buffer sizes, push and spec
 * keys) and the dispatch against the device limits.
 *
 * Severity: error only where the kernel cannot run correctly as planned
 * (a used binding without a buffer, a buffer smaller than its block, a
 * limit exceeded); a plan item the shader ignores is a warning.  A device
 * limit of 0 means unknown and its check is skipped.
 */
#include "checks.h"
#include "alloc.h"

#include <spirv/unified1/spirv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HINT_MAX 600

/* ---- source positions ---- */

const char *limits_shader_file(const spv_module *m, const plan_kernel *k)
{
    /* a .spv built with -g names its GLSL file: the lines are that file's */
    const char *glsl = m ? spv_string(m, m->source_file) : NULL;
    const char *sp = k ? (k->shader_path ? k->shader_path : k->shader) : NULL;
    size_t n = sp ? strlen(sp) : 0;
    if (glsl && glsl[0] && n >= 4 && strcmp(sp + n - 4, ".spv") == 0)
        return glsl;
    if (k && k->shader_path)
        return k->shader_path;
    if (k && k->shader)
        return k->shader;
    return m ? spv_string(m, m->source_file) : NULL;
}

/* 1-based line of the first source line containing a and (if given) b as
 * whole words; 0 if none. */
static int is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int has_word(const char *line, size_t len, const char *w)
{
    size_t wl = strlen(w);
    if (wl == 0 || wl > len)
        return 0;
    for (size_t i = 0; i + wl <= len; i++) {
        if (memcmp(line + i, w, wl) != 0)
            continue;
        if (i > 0 && is_word_char(line[i - 1]))
            continue;
        if (i + wl < len && is_word_char(line[i + wl]))
            continue;
        return 1;
    }
    return 0;
}

/* Copy of one source line with comments blanked; *in_block carries an
 * open block comment to the next line. */
static size_t strip_comments(const char *p, size_t len, char *out, size_t cap, int *in_block)
{
    size_t n = len < cap - 1 ? len : cap - 1;
    for (size_t i = 0; i < n; i++) {
        if (*in_block) {
            if (p[i] == '*' && i + 1 < n && p[i + 1] == '/') {
                *in_block = 0;
                out[i] = out[i + 1] = ' ';
                i++;
                continue;
            }
            out[i] = ' ';
            continue;
        }
        if (p[i] == '/' && i + 1 < n && p[i + 1] == '/') {
            memset(out + i, ' ', n - i);
            break;
        }
        if (p[i] == '/' && i + 1 < n && p[i + 1] == '*') {
            *in_block = 1;
            out[i] = out[i + 1] = ' ';
            i++;
            continue;
        }
        out[i] = p[i];
    }
    out[n] = 0;
    return n;
}

/* 1-based line of the first code line at or after line `from` holding a
 * and (if given) b as whole words, comments ignored; 0 if none. */
static int source_line_from(const char *src, int from, const char *a, const char *b)
{
    char buf[1024];
    int in_block = 0;
    if (!src || !a)
        return 0;
    int line = 1;
    const char *p = src;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t n = strip_comments(p, len, buf, sizeof buf, &in_block);
        if (line >= from && has_word(buf, n, a) && (!b || has_word(buf, n, b)))
            return line;
        if (!e)
            break;
        p = e + 1;
        line++;
    }
    return 0;
}

static int source_line(const char *src, const char *a, const char *b)
{
    return source_line_from(src, 1, a, b);
}

/* The source line setting local_size_<axis> (or local_size_<axis>_id, a
 * spec constant), 0 when the source does not say. */
static int local_size_line(const char *src, char axis)
{
    char key[24];
    snprintf(key, sizeof key, "local_size_%c", axis);
    int line = source_line(src, key, NULL);
    if (!line) {
        snprintf(key, sizeof key, "local_size_%c_id", axis);
        line = source_line(src, key, NULL);
    }
    return line;
}

/* Line declaring push-constant member name: on or after the
 * push_constant layout line. */
static int push_member_line(const char *src, const char *name)
{
    int start = source_line(src, "push_constant", NULL);
    int l = start ? source_line_from(src, start, name, NULL) : 0;
    return l ? l : start;
}

/* Per id: GLSL line of the first instruction that reaches that variable
 * directly (access chain, load, store); 0 if none.  One pass over the
 * module, so the checks stay linear however many bindings there are. */
static int *first_use_lines(const spv_module *m)
{
    int *first = xcalloc(m->bound ? m->bound : 1, sizeof *first);
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || in->nops < 1 || !in->line || in->ops[0] >= m->bound ||
            first[in->ops[0]])
            continue;
        switch (in->opcode) {
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain: case SpvOpLoad: case SpvOpStore:
        case SpvOpArrayLength:
            if (spv_var_of(m, in->ops[0]))
                first[in->ops[0]] = in->line;
            break;
        default:
            break;
        }
    }
    return first;
}

/* Does the module index the trailing array member of buffer variable var
 * (an access chain from var whose first index is that member, or
 * .length() of it)?  Only then is an empty array a certain problem. */
static int uses_trailing_array(const spv_module *m, uint32_t var)
{
    const spv_var *v = spv_var_of(m, var);
    const spv_type *st = v ? spv_type_of(m, v->pointee) : NULL;
    if (!st || st->kind != SPV_T_STRUCT || st->nmembers == 0)
        return 0;
    uint64_t last = st->nmembers - 1;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || in->nops < 2 || in->ops[0] != var)
            continue;
        uint64_t idx;
        switch (in->opcode) {
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
            if (spv_const_u64(m, in->ops[1], &idx) == 0 && idx == last)
                return 1;
            break;
        case SpvOpArrayLength:
            if (in->ops[1] == last)
                return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}

static int first_use_line(const int *first, const spv_module *m, uint32_t var)
{
    return var < m->bound ? first[var] : 0;
}

static const char *kind_name(desc_kind k)
{
    switch (k) {
    case DESC_STORAGE_BUFFER: return "storage buffer";
    case DESC_UNIFORM_BUFFER: return "uniform buffer";
    default: return "image or sampler";
    }
}

static void list_bindings(const reflection *r, char *buf, size_t n)
{
    buf[0] = 0;
    for (size_t i = 0; i < r->nbindings && strlen(buf) + 64 < n; i++) {
        char one[128];
        snprintf(one, sizeof one, "%s%u.%u '%s'", i ? ", " : "", r->bindings[i].set,
                 r->bindings[i].binding, r->bindings[i].name);
        strncat(buf, one, n - strlen(buf) - 1);
    }
    if (!buf[0])
        snprintf(buf, n, "none");
}

static void fmt_size(char *buf, size_t n, uint64_t bytes)
{
    if (bytes == UINT64_MAX) /* saturated: the true size overflows 64 bits */
        snprintf(buf, n, "2^64 bytes or more");
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, n, "%llu bytes (%llu KiB)", (unsigned long long)bytes,
                 (unsigned long long)(bytes / 1024));
    else
        snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
}

/* ---- entry point ---- */

void limits_entry_missing(const spv_module *m, const plan_kernel *k,
                          kernel_report *kr)
{
    char list[512] = "";
    const char **names = xcalloc(m->nentries ? m->nentries : 1, sizeof *names);
    size_t nglc = 0;
    for (size_t i = 0; i < m->nentries; i++) {
        if (m->entries[i].model != SpvExecutionModelGLCompute)
            continue;
        names[nglc++] = m->entries[i].name;
        if (strlen(list) + strlen(m->entries[i].name) + 4 < sizeof list) {
            if (list[0])
                strcat(list, ", ");
            strcat(list, m->entries[i].name);
        }
    }
    const char *want = k->entry ? k->entry : "main";
    const char *sug = plan_suggest(want, names, nglc);
    char hint[HINT_MAX];
    if (sug)
        snprintf(hint, sizeof hint, "did you mean \"entry\": \"%s\"?", sug);
    else if (nglc)
        snprintf(hint, sizeof hint, "set the kernel's \"entry\" to one of: %s", list);
    else
        snprintf(hint, sizeof hint, "the shader has no compute entry point: give it "
                 "'layout(local_size_x = ...) in;' and a main()");
    report_add_finding(kr, FINDING_ENTRY_POINT_MISSING, SEV_ERROR,
                       k->plan_path ? k->plan_path : limits_shader_file(m, k),
                       k->plan_path ? k->line : 0, hint,
                       "entry point '%s' is not a compute entry point of %s (it has: %s)", want,
                       k->shader ? k->shader : "the shader", list[0] ? list : "none");
    free(names);
}

/* ---- bindings and buffers ---- */

static const refl_binding *find_binding(const reflection *r, uint32_t set, uint32_t binding)
{
    for (size_t i = 0; i < r->nbindings; i++)
        if (r->bindings[i].set == set && r->bindings[i].binding == binding)
            return &r->bindings[i];
    return NULL;
}

static int check_buffer(const spv_module *m, const int *first, const reflection *r,
                        const plan_kernel *k, const plan_buffer *b, const refl_binding *rb,
                        const device_profile *prof, const char *shader_file, const char *src,
                        kernel_report *kr)
{
    const char *pf = k->plan_path;
    char hint[HINT_MAX], need[64], have[64];
    int errors = 0;
    uint64_t bytes = 0;
    cw_error err;

    if (rb->kind == DESC_OTHER) {
        report_add_finding(kr, FINDING_BINDING_TYPE_MISMATCH, SEV_ERROR, pf, b->line,
                           "declare the binding as a buffer "
                           "('layout(set = S, binding = B) buffer Name { ... };') or remove the "
                           "plan's buffer: images and samplers cannot be bound from a plan",
                           "the plan gives a buffer for set %u binding %u, but the shader "
                           "declares '%s' there as an image or sampler, not a buffer",
                           b->set, b->binding, rb->name);
        return 1;
    }
    {
        const spv_var *dv = spv_var_of(m, rb->var_id);
        const spv_type *at = dv ? spv_type_of(m, dv->pointee) : NULL;
        if (at && (at->kind == SPV_T_ARRAY || at->kind == SPV_T_RUNTIME_ARRAY)) {
            char count[32] = "";
            if (at->kind == SPV_T_ARRAY && at->length)
                snprintf(count, sizeof count, "%llu ", (unsigned long long)at->length);
            report_add_finding(kr, FINDING_BINDING_TYPE_MISMATCH, SEV_ERROR, pf, b->line,
                               "declare one buffer per binding (a plan binds a single buffer "
                               "to each set/binding)",
                               "set %u binding %u is an array of %sbuffers ('%s'); a plan can "
                               "bind only one buffer there", b->set, b->binding, count,
                               rb->name);
            return 1;
        }
    }
    cw_error_clear(&err);
    if (verifier_buffer_bytes(r, k, b, &bytes, &err)) {
        /* a size that cannot be computed is the plan's fault: exit 2 */
        report_add_finding(kr, FINDING_PLAN_INVALID, SEV_ERROR, pf, b->line,
                           "give the buffer's size as \"bytes\"", "%s", err.text);
        kr->input_error = 1;
        return 1;
    }
    /* an "init" list longer than the buffer: the values past its end were
     * dropped without a word (the plan means a larger buffer) */
    size_t esz = scalar_size(rb->elem) ? scalar_size(rb->elem) : 4;
    if (b->init == PLAN_INIT_VALUES && b->ninit_values > bytes / esz)
        report_add_finding(kr, FINDING_PLAN_INVALID, SEV_WARNING, pf, b->line,
                           "make the buffer larger, or the list shorter",
                           "buffer '%s' (set %u binding %u): \"init\" lists %zu values, but "
                           "the buffer holds %llu of %zu bytes; the last %llu are not used",
                           rb->name, b->set, b->binding, b->ninit_values,
                           (unsigned long long)(bytes / esz), esz,
                           (unsigned long long)(b->ninit_values - bytes / esz));
    int used = rb->reads || rb->writes;
    int use_line = first_use_line(first, m, rb->var_id);
    const spv_var *var = spv_var_of(m, rb->var_id);
    const spv_type *blk = var ? spv_type_of(m, var->pointee) : NULL;
    const char *bname = blk ? spv_name(m, blk->id) : NULL;
    int decl_line = bname && bname[0] ? source_line(src, bname, NULL) : 0;
    fmt_size(have, sizeof have, bytes);
    if (bytes < rb->fixed_bytes) {
        fmt_size(need, sizeof need, rb->fixed_bytes);
        snprintf(hint, sizeof hint, "give binding %u at least %llu bytes%s", b->binding,
                 (unsigned long long)rb->fixed_bytes,
                 rb->array_stride ? " plus the array's elements" : "");
        finding *f = report_add_finding(kr, FINDING_BUFFER_TOO_SMALL, SEV_ERROR, pf, b->line, hint,
                                        "buffer '%s' (set %u binding %u) is %s, smaller than "
                                        "its block's fixed part of %s (declared at %s:%d)",
                                        rb->name, b->set, b->binding, have, need,
                                        shader_file ? shader_file : "shader",
                                        decl_line ? decl_line : use_line);
        finding_detail_uint(f, "binding", b->binding);
        finding_detail_uint(f, "set", b->set);
        finding_detail_uint(f, "bytes", (unsigned long long)bytes);
        finding_detail_uint(f, "needed_bytes", (unsigned long long)rb->fixed_bytes);
        errors++;
    } else if (rb->array_stride && used && bytes < rb->array_offset + rb->array_stride &&
               uses_trailing_array(m, rb->var_id)) {
        snprintf(hint, sizeof hint, "give binding %u at least %llu bytes (one element of %u "
                 "bytes after the fixed part), or set \"elements\"", b->binding,
                 (unsigned long long)(rb->array_offset + rb->array_stride), rb->array_stride);
        finding *f = report_add_finding(kr, FINDING_BUFFER_TOO_SMALL, SEV_ERROR, pf, b->line, hint,
                                        "buffer '%s' (set %u binding %u) is %s: it holds no "
                                        "whole element of its array (stride %u bytes at "
                                        "offset %llu), yet the shader indexes it",
                                        rb->name, b->set, b->binding, have, rb->array_stride,
                                        (unsigned long long)rb->array_offset);
        finding_detail_uint(f, "binding", b->binding);
        finding_detail_uint(f, "set", b->set);
        finding_detail_uint(f, "bytes", (unsigned long long)bytes);
        finding_detail_uint(f, "needed_bytes",
                            (unsigned long long)(rb->array_offset + rb->array_stride));
        errors++;
    } else if (rb->array_stride && bytes > rb->array_offset &&
               (bytes - rb->array_offset) % rb->array_stride != 0) {
        uint64_t extra = (bytes - rb->array_offset) % rb->array_stride;
        snprintf(hint, sizeof hint, "make the size %llu + a multiple of %u bytes, or give "
                 "\"elements\" instead of \"bytes\"",
                 (unsigned long long)rb->array_offset, rb->array_stride);
        report_add_finding(kr, FINDING_BUFFER_TOO_SMALL, SEV_WARNING, pf, b->line, hint,
                           "buffer '%s' (set %u binding %u) is %s: its last %llu bytes are a "
                           "partial element of the array (stride %u bytes)",
                           rb->name, b->set, b->binding, have, (unsigned long long)extra,
                           rb->array_stride);
    }
    if (prof && prof->limits.max_storage_range && rb->kind == DESC_STORAGE_BUFFER &&
        bytes > prof->limits.max_storage_range) {
        fmt_size(need, sizeof need, prof->limits.max_storage_range);
        snprintf(hint, sizeof hint, "split the data over several bindings or dispatches of "
                 "at most %llu bytes each", (unsigned long long)prof->limits.max_storage_range);
        report_add_finding(kr, FINDING_BUFFER_RANGE_LIMIT, SEV_ERROR, pf, b->line, hint,
                           "buffer '%s' (set %u binding %u) is %s, more than the device's "
                           "maxStorageBufferRange of %s", rb->name, b->set, b->binding, have,
                           need);
        errors++;
    }
    return errors;
}

static int check_bindings(const spv_module *m, const reflection *r, const plan_kernel *k,
                          const device_profile *prof, const char *shader_file, const char *src,
                          kernel_report *kr)
{
    int *first = first_use_lines(m);
    int errors = 0;
    char list[512], hint[HINT_MAX];
    list_bindings(r, list, sizeof list);
    for (size_t i = 0; i < k->nbuffers; i++) {
        const plan_buffer *b = &k->buffers[i];
        const refl_binding *rb = find_binding(r, b->set, b->binding);
        if (!rb) {
            /* a used binding the plan leaves empty is the likely intent */
            const refl_binding *cand = NULL;
            int ncand = 0;
            for (size_t j = 0; j < r->nbindings; j++)
                if ((r->bindings[j].reads || r->bindings[j].writes) &&
                    r->bindings[j].kind != DESC_OTHER &&
                    !plan_kernel_buffer(k, r->bindings[j].set, r->bindings[j].binding)) {
                    cand = &r->bindings[j];
                    ncand++;
                }
            if (ncand == 1)
                snprintf(hint, sizeof hint, "did you mean \"set\": %u, \"binding\": %u "
                         "('%s', which has no buffer)?", cand->set, cand->binding, cand->name);
            else
                snprintf(hint, sizeof hint, "remove this buffer from the plan or correct its "
                         "\"set\"/\"binding\" (the shader declares set.binding: %s)", list);
            report_add_finding(kr, FINDING_BINDING_MISSING, SEV_WARNING, k->plan_path, b->line, hint,
                               "the plan gives a buffer for set %u binding %u, but %s declares "
                               "no binding there", b->set, b->binding,
                               k->shader ? k->shader : "the shader");
            continue;
        }
        errors += check_buffer(m, first, r, k, b, rb, prof, shader_file, src, kr);
    }
    for (size_t i = 0; i < r->nbindings; i++) {
        const refl_binding *rb = &r->bindings[i];
        if (!(rb->reads || rb->writes) || plan_kernel_buffer(k, rb->set, rb->binding))
            continue;
        const char *use = rb->reads && rb->writes ? "reads and writes"
                          : rb->writes ? "writes" : "reads";
        if (rb->kind == DESC_OTHER) {
            report_add_finding(kr, FINDING_BINDING_MISSING, SEV_ERROR, shader_file,
                               first_use_line(first, m, rb->var_id),
                               "Clockwork binds only storage and uniform buffers: replace the "
                               "image or sampler by a buffer",
                               "the shader uses '%s' (set %u binding %u, an %s), which the plan "
                               "cannot provide", rb->name, rb->set, rb->binding,
                               kind_name(rb->kind));
        } else {
            char size[160] = "";
            if (rb->array_stride)
                snprintf(size, sizeof size, ", \"elements\": N} (%u bytes each)",
                         rb->array_stride);
            else
                snprintf(size, sizeof size, ", \"bytes\": %llu}",
                         (unsigned long long)rb->fixed_bytes);
            snprintf(hint, sizeof hint, "add {\"set\": %u, \"binding\": %u%s to the kernel's "
                     "\"buffers\" in the plan", rb->set, rb->binding, size);
            finding *f = report_add_finding(kr, FINDING_BINDING_MISSING, SEV_ERROR, shader_file,
                                            first_use_line(first, m, rb->var_id), hint,
                                            "the shader %s %s '%s' (set %u binding %u), but "
                                            "the plan gives no buffer for it", use,
                                            kind_name(rb->kind), rb->name, rb->set,
                                            rb->binding);
            finding_detail_uint(f, "set", rb->set);
            finding_detail_uint(f, "binding", rb->binding);
        }
        errors++;
    }
    free(first);
    return errors;
}

/* ---- push constants ---- */

/* Bit i set when push-constant member i is read (an access chain from a
 * push-constant variable with constant first index i); all bits when the
 * whole block is loaded or the index is not constant.  Members >= 64 are
 * treated as read. */
static uint64_t push_members_read(const spv_module *m)
{
    uint64_t mask = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || in->nops < 1)
            continue;
        const spv_var *v = spv_var_of(m, in->ops[0]);
        if (!v || v->storage != SpvStorageClassPushConstant)
            continue;
        uint64_t idx;
        if ((in->opcode == SpvOpAccessChain || in->opcode == SpvOpInBoundsAccessChain) &&
            in->nops >= 2 && spv_const_u64(m, in->ops[1], &idx) == 0 && idx < 64)
            mask |= (uint64_t)1 << idx;
        else
            mask = ~(uint64_t)0;
    }
    return mask;
}

static int check_push(const spv_module *m, const reflection *r, const plan_kernel *k,
                      const device_profile *prof, const char *shader_file, const char *src,
                      kernel_report *kr)
{
    int errors = 0;
    char hint[HINT_MAX], list[512] = "";
    const char **names = xcalloc(r->npush ? r->npush : 1, sizeof *names);
    int unnamed = verifier_push_unnamed(r);
    for (size_t i = 0; i < r->npush; i++) {
        names[i] = r->push[i].name;
        /* stripped modules: members as the plan can name them */
        char item[96];
        if (unnamed)
            snprintf(item, sizeof item, "\"%zu\" or \"@%u\" (%s)", i, r->push[i].offset,
                     scalar_name(r->push[i].type));
        else
            snprintf(item, sizeof item, "%s", names[i]);
        if (strlen(list) + strlen(item) + 4 < sizeof list) {
            if (list[0])
                strcat(list, ", ");
            strcat(list, item);
        }
    }
    for (size_t i = 0; i < k->npush; i++) {
        const plan_value *pv = &k->push[i];
        const refl_push_member *pm = verifier_push_member(r, pv->key);
        if (!pm && unnamed) {
            snprintf(hint, sizeof hint, "name the members by index in declaration order or "
                     "by byte offset: %s", list);
            report_add_finding(kr, FINDING_PUSH_CONSTANT_UNKNOWN, SEV_ERROR, k->plan_path, pv->line,
                               hint, "push constant '%s': %s carries no member names "
                               "(optimised SPIR-V, e.g. glslc -O, strips them), so the "
                               "members go by index (\"0\", \"1\", ...) or byte offset "
                               "(\"@0\", \"@4\", ...)", pv->key,
                               k->shader ? k->shader : "the shader");
            errors++;
            continue;
        }
        if (!pm) {
            const char *sug = plan_suggest(pv->key, names, r->npush);
            if (sug)
                snprintf(hint, sizeof hint, "did you mean '%s'? (members: %s)", sug, list);
            else if (r->npush)
                snprintf(hint, sizeof hint, "use one of the block's members: %s (or their "
                         "index, \"0\", \"1\", ..., or byte offset, \"@0\", ...)", list);
            else
                snprintf(hint, sizeof hint, "declare it in the shader: layout(push_constant) "
                         "uniform Params { ... %s; };", pv->key);
            report_add_finding(kr, FINDING_PUSH_CONSTANT_UNKNOWN, SEV_ERROR, k->plan_path, pv->line,
                               hint, "push constant '%s' is not a member of %s's push-constant "
                               "block%s%s%s", pv->key, k->shader ? k->shader : "the shader",
                               r->npush ? " (members: " : " (it declares none",
                               r->npush ? list : "", ")");
            errors++;
            continue;
        }
        if (pm->components != 1 || scalar_size(pm->type) == 0) {
            report_add_finding(kr, FINDING_PUSH_CONSTANT_TYPE, SEV_ERROR, k->plan_path, pv->line,
                               "a plan can set scalar members only; split the vector or array "
                               "into scalars", "push constant '%s' is not a scalar (%u "
                               "components), so the plan's number cannot be stored in it",
                               pv->key, pm->components);
            errors++;
            continue;
        }
        int is_int = pm->type != SCALAR_F16 && pm->type != SCALAR_F32 &&
                     pm->type != SCALAR_F64 && pm->type != SCALAR_BOOL;
        if (is_int && !pv->is_integer) {
            snprintf(hint, sizeof hint, "write an integer for '%s', or declare it float in "
                     "the shader", pv->key);
            report_add_finding(kr, FINDING_PUSH_CONSTANT_TYPE, SEV_ERROR, k->plan_path, pv->line, hint,
                               "push constant '%s' is a %s, but the plan gives %g", pv->key,
                               scalar_name(pm->type), pv->value);
            errors++;
        } else if (is_int) {
            size_t sz = scalar_size(pm->type);
            int sgn = pm->type == SCALAR_I8 || pm->type == SCALAR_I16 ||
                      pm->type == SCALAR_I32 || pm->type == SCALAR_I64;
            int64_t lo = sgn ? (sz >= 8 ? INT64_MIN : -((int64_t)1 << (sz * 8 - 1))) : 0;
            int64_t hi = sz >= 8 ? INT64_MAX
                         : sgn ? ((int64_t)1 << (sz * 8 - 1)) - 1
                               : (int64_t)(((uint64_t)1 << (sz * 8)) - 1);
            if (pv->ivalue < lo || pv->ivalue > hi) {
                snprintf(hint, sizeof hint, "give '%s' a value in [%lld, %lld]", pv->key,
                         (long long)lo, (long long)hi);
                report_add_finding(kr, FINDING_PUSH_CONSTANT_TYPE, SEV_ERROR, k->plan_path, pv->line,
                                   hint, "push constant '%s' is a %s; %lld does not fit",
                                   pv->key, scalar_name(pm->type), (long long)pv->ivalue);
                errors++;
            }
        }
    }
    /* members the shader reads and the plan does not set: they read as 0 */
    uint64_t read = push_members_read(m);
    for (size_t j = 0; j < r->npush; j++) {
        if (verifier_push_value(r, k, j))
            continue;
        if (j < 64 && !(read & ((uint64_t)1 << j)))
            continue;
        char key[64];
        if (r->push[j].name[0])
            snprintf(key, sizeof key, "%s", r->push[j].name);
        else
            snprintf(key, sizeof key, "%zu", j);
        snprintf(hint, sizeof hint, "add \"%s\": VALUE to the kernel's \"push\" in the plan%s",
                 key, r->push[j].name[0] ? "" : " (the module carries no member names: "
                 "members go by index or by byte offset, \"@OFFSET\")");
        if (r->push[j].name[0])
            report_add_finding(kr, FINDING_PUSH_CONSTANT_MISSING, SEV_WARNING, shader_file,
                               push_member_line(src, r->push[j].name), hint,
                               "push constant '%s' has no value in the plan: the kernel will "
                               "read 0", key);
        else
            report_add_finding(kr, FINDING_PUSH_CONSTANT_MISSING, SEV_WARNING, shader_file, 0,
                               hint, "push-constant member %s (offset %u, %s) has no value "
                               "in the plan: the kernel will read 0", key, r->push[j].offset,
                               scalar_name(r->push[j].type));
    }
    if (prof && prof->limits.max_push_bytes && r->push_bytes > prof->limits.max_push_bytes) {
        snprintf(hint, sizeof hint, "move members into a uniform or storage buffer until the "
                 "block is at most %u bytes", prof->limits.max_push_bytes);
        report_add_finding(kr, FINDING_PUSH_CONSTANT_LIMIT, SEV_ERROR, shader_file,
                           source_line(src, "push_constant", NULL), hint,
                           "the push-constant block is %u bytes%s, more than the device's "
                           "maxPushConstantsSize of %u bytes", r->push_bytes,
                           r->push_bytes == UINT32_MAX ? " or more" : "",
                           prof->limits.max_push_bytes);
        errors++;
    }
    free(names);
    return errors;
}

/* ---- spec constants ---- */

static int check_spec(const reflection *r, const plan_kernel *k, const int *matched,
                      kernel_report *kr)
{
    int errors = 0;
    char hint[HINT_MAX], list[512] = "";
    size_t ncand = 0;
    const char **cand = xcalloc(r->nspecs * 2 + 1, sizeof *cand);
    char (*ids)[16] = xcalloc(r->nspecs + 1, sizeof *ids);
    for (size_t i = 0; i < r->nspecs; i++) {
        char one[128];
        snprintf(ids[i], sizeof ids[i], "%u", r->specs[i].id);
        cand[ncand++] = ids[i];
        if (r->specs[i].name)
            cand[ncand++] = r->specs[i].name;
        snprintf(one, sizeof one, "%s%u%s%s%s", list[0] ? ", " : "", r->specs[i].id,
                 r->specs[i].name ? " (" : "", r->specs[i].name ? r->specs[i].name : "",
                 r->specs[i].name ? ")" : "");
        if (strlen(list) + strlen(one) + 1 < sizeof list)
            strcat(list, one);
    }
    for (size_t i = 0; i < k->nspec; i++) {
        if (matched && matched[i])
            continue;
        const plan_value *pv = &k->spec[i];
        const char *sug = plan_suggest(pv->key, cand, ncand);
        if (sug)
            snprintf(hint, sizeof hint, "did you mean '%s'? (SpecIds: %s)", sug, list);
        else if (r->nspecs)
            snprintf(hint, sizeof hint, "use a SpecId or spec constant name: %s", list);
        else
            snprintf(hint, sizeof hint, "declare it in the shader: layout(constant_id = N) "
                     "const int %s = ...;", pv->key);
        int digits = pv->key[0] != 0;
        for (const char *q = pv->key; *q; q++)
            digits &= *q >= '0' && *q <= '9';
        if (digits) {
            /* a SpecId the module does not declare (optimised away, or
               one map for a family of pipelines): Vulkan ignores the
               entry, so the kernel runs with its defaults */
            report_add_finding(kr, FINDING_SPEC_CONSTANT_UNKNOWN, SEV_WARNING, k->plan_path,
                               pv->line, hint,
                               "SpecId %s is not declared by %s (it has: %s): Vulkan "
                               "ignores the entry, the value is not used",
                               pv->key, k->shader ? k->shader : "the shader",
                               list[0] ? list : "none");
            continue;
        }
        report_add_finding(kr, FINDING_SPEC_CONSTANT_UNKNOWN, SEV_ERROR, k->plan_path, pv->line, hint,
                           "spec constant '%s' is neither a SpecId nor the name of a "
                           "specialization constant of %s (it has: %s)", pv->key,
                           k->shader ? k->shader : "the shader", list[0] ? list : "none");
        errors++;
    }
    free(cand);
    free(ids);
    return errors;
}

/* ---- device limits ---- */

static int check_device(const spv_module *m, const reflection *r, const plan_kernel *k,
                        const device_profile *prof, const char *shader_file, const char *src,
                        kernel_report *kr)
{
    int errors = 0;
    char hint[HINT_MAX];
    const device_limits *L = &prof->limits;
    const char *dev = prof->name[0] ? prof->name : "the device";
    const uint32_t *ls = r->local_size;
    int ls_line = source_line(src, "local_size_x", NULL);
    if (!ls_line)
        ls_line = source_line(src, "local_size_x_id", NULL);
    static const char axis[3] = {'x', 'y', 'z'};
    (void)m;

    if (ls[0] && ls[1] && ls[2]) {
        /* checked: 2^31 x 2^31 x 4 must not wrap to 0 */
        uint64_t inv = (uint64_t)ls[0] * ls[1];
        inv = inv > UINT64_MAX / ls[2] ? UINT64_MAX : inv * ls[2];
        for (int d = 0; d < 3; d++) {
            if (!L->max_wg_size[d] || ls[d] <= L->max_wg_size[d])
                continue;
            int line = local_size_line(src, axis[d]);
            snprintf(hint, sizeof hint, "use local_size_%c <= %u and scale the plan's "
                     "workgroups to keep the same number of invocations", axis[d],
                     L->max_wg_size[d]);
            finding *f = report_add_finding(kr, FINDING_WORKGROUP_SIZE_LIMIT, SEV_ERROR, shader_file,
                                            line ? line : ls_line, hint,
                                            "local_size_%c = %u exceeds %s's "
                                            "maxComputeWorkGroupSize[%d] = %u", axis[d], ls[d],
                                            dev, d, L->max_wg_size[d]);
            finding_detail_u32x3(f, "local_size", ls);
            finding_detail_uint(f, "limit", L->max_wg_size[d]);
            finding_detail_int(f, "axis", d);
            errors++;
        }
        char inv_txt[32];
        if (inv == UINT64_MAX)
            snprintf(inv_txt, sizeof inv_txt, "2^64 or more");
        else
            snprintf(inv_txt, sizeof inv_txt, "%llu", (unsigned long long)inv);
        if (L->max_wg_invocations && inv > L->max_wg_invocations) {
            snprintf(hint, sizeof hint, "make local_size_x * local_size_y * local_size_z <= %u "
                     "(e.g. %u x 1 x 1) and scale the plan's workgroups to match",
                     L->max_wg_invocations, L->max_wg_invocations);
            finding *f = report_add_finding(kr, FINDING_WORKGROUP_SIZE_LIMIT, SEV_ERROR, shader_file,
                                            ls_line, hint,
                                            "workgroup of %u x %u x %u = %s invocations "
                                            "exceeds %s's maxComputeWorkGroupInvocations = %u",
                                            ls[0], ls[1], ls[2], inv_txt, dev,
                                            L->max_wg_invocations);
            finding_detail_u32x3(f, "local_size", ls);
            finding_detail_uint(f, "invocations", (unsigned long long)inv);
            finding_detail_uint(f, "limit", L->max_wg_invocations);
            errors++;
        }
    }

    if (L->max_shared_bytes && r->shared_bytes > L->max_shared_bytes) {
        char parts[400] = "", have[64], lim[64];
        size_t big = 0;
        for (size_t i = 0; i < r->nshared; i++) {
            char one[128];
            if (r->shared[i].bytes == UINT64_MAX)
                snprintf(one, sizeof one, "%s%s 2^64+ B", i ? ", " : "",
                         r->shared[i].name[0] ? r->shared[i].name : "?");
            else
                snprintf(one, sizeof one, "%s%s %llu B", i ? ", " : "",
                         r->shared[i].name[0] ? r->shared[i].name : "?",
                         (unsigned long long)r->shared[i].bytes);
            if (strlen(parts) + strlen(one) + 1 < sizeof parts)
                strcat(parts, one);
            if (r->shared[i].bytes > r->shared[big].bytes)
                big = i;
        }
        int line = r->nshared ? source_line(src, "shared", r->shared[big].name) : 0;
        fmt_size(have, sizeof have, r->shared_bytes);
        fmt_size(lim, sizeof lim, L->max_shared_bytes);
        snprintf(hint, sizeof hint, "shrink the shared arrays (smaller tiles, or fewer "
                 "elements per workgroup) to at most %u bytes in total",
                 L->max_shared_bytes);
        finding *f = report_add_finding(kr, FINDING_SHARED_MEMORY_LIMIT, SEV_ERROR, shader_file, line,
                                        hint, "the workgroup uses %s of shared memory (%s), "
                                        "more than %s's maxComputeSharedMemorySize of %s",
                                        have, parts, dev, lim);
        finding_detail_uint(f, "shared_bytes", (unsigned long long)r->shared_bytes);
        finding_detail_uint(f, "limit", L->max_shared_bytes);
        errors++;
    }

    for (int d = 0; d < 3; d++) {
        if (k->workgroups[d] == 0) {
            snprintf(hint, sizeof hint, "set \"workgroups\"[%d] to at least 1", d);
            report_add_finding(kr, FINDING_DISPATCH_LIMIT, SEV_WARNING, k->plan_path, k->line, hint,
                               "workgroups[%d] is 0: the dispatch runs no invocation", d);
            continue;
        }
        if (!L->max_wg_count[d] || k->workgroups[d] <= L->max_wg_count[d])
            continue;
        snprintf(hint, sizeof hint, "split the dispatch, use the other dimensions, or give "
                 "each invocation more work so that workgroups[%d] <= %u", d,
                 L->max_wg_count[d]);
        finding *f = report_add_finding(kr, FINDING_DISPATCH_LIMIT, SEV_ERROR, k->plan_path, k->line,
                                        hint, "workgroups[%d] = %u exceeds %s's "
                                        "maxComputeWorkGroupCount[%d] = %u", d,
                                        k->workgroups[d], dev, d, L->max_wg_count[d]);
        finding_detail_u32x3(f, "workgroups", k->workgroups);
        finding_detail_uint(f, "limit", L->max_wg_count[d]);
        finding_detail_int(f, "axis", d);
        errors++;
    }
    return errors;
}

/* Two spec constants with one SpecId and different defaults (glslang does
 * this for local_size_x_id = N next to constant_id = N): unless the plan
 * sets the SpecId, each keeps its own default, which is rarely intended. */
typedef struct spec_ref {
    uint32_t spec_id;
    uint32_t index; /* into m->consts */
} spec_ref;

static int spec_ref_cmp(const void *x, const void *y)
{
    const spec_ref *a = x, *b = y;
    if (a->spec_id != b->spec_id)
        return a->spec_id < b->spec_id ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void check_spec_defaults(const spv_module *m, const char *shader_file, const char *src,
                                kernel_report *kr)
{
    spec_ref *refs = xcalloc(m->nconsts ? m->nconsts : 1, sizeof *refs);
    size_t n = 0;
    for (size_t i = 0; i < m->nconsts; i++) {
        const spv_const *c = &m->consts[i];
        if (c->is_spec && c->has_spec_id && !c->spec_op && c->kind == SPV_C_SCALAR) {
            refs[n].spec_id = c->spec_id;
            refs[n].index = (uint32_t)i;
            n++;
        }
    }
    qsort(refs, n, sizeof *refs, spec_ref_cmp);
    for (size_t i = 0; i + 1 < n; i++) {
        const spv_const *a = &m->consts[refs[i].index];
        if (a->overridden)
            continue;
        for (size_t j = i + 1; j < n && refs[j].spec_id == refs[i].spec_id; j++) {
            const spv_const *b = &m->consts[refs[j].index];
            if (b->default_bits == a->default_bits)
                continue;
            double va = 0, vb = 0;
            spv_const_f64(m, a->id, &va);
            spv_const_f64(m, b->id, &vb);
            const char *na = a->name && a->name[0] ? a->name : NULL;
            const char *nb = b->name && b->name[0] ? b->name : NULL;
            static const char *const axes[3] = {"local_size_x", "local_size_y", "local_size_z"};
            for (size_t e = 0; e < m->nentries; e++)
                for (int d = 0; d < 3; d++) {
                    if (m->entries[e].local_size_ids[d] == a->id && !na)
                        na = axes[d];
                    if (m->entries[e].local_size_ids[d] == b->id && !nb)
                        nb = axes[d];
                }
            char hint[HINT_MAX];
            int line = source_line(src, "local_size_x_id", NULL);
            if (!line)
                line = source_line(src, "constant_id", NULL);
            snprintf(hint, sizeof hint, "set \"spec\": {\"%u\": VALUE} in the plan so both "
                     "get the same value, or give them different SpecIds", a->spec_id);
            report_add_finding(kr, FINDING_SPEC_CONSTANT_DEFAULT, SEV_WARNING, shader_file, line, hint,
                               "SpecId %u has two defaults: %s%s%s = %g and %s%s%s = %g; "
                               "without a plan value each keeps its own",
                               a->spec_id, na ? "'" : "", na ? na : "a constant", na ? "'" : "",
                               va, nb ? "'" : "", nb ? nb : "another constant",
                               nb ? "'" : "", vb);
            free(refs);
            return; /* one finding is enough */
        }
    }
    free(refs);
}

/* gl_GlobalInvocationID is 32-bit: groups x local size past 2^32 on an
 * axis makes the ids wrap (possible where maxComputeWorkGroupCount is
 * 2^31 - 1). */
static void check_id_range(const reflection *r, const plan_kernel *k, kernel_report *kr)
{
    static const char axis[3] = {'x', 'y', 'z'};
    for (int d = 0; d < 3; d++) {
        uint64_t n = (uint64_t)k->workgroups[d] * r->local_size[d];
        if (n <= 0x100000000ull)
            continue;
        char hint[HINT_MAX];
        snprintf(hint, sizeof hint, "split the dispatch or give each invocation several "
                 "elements so that workgroups[%d] x local_size_%c <= 2^32", d, axis[d]);
        report_add_finding(kr, FINDING_DISPATCH_LIMIT, SEV_WARNING, k->plan_path, k->line, hint,
                           "workgroups[%d] x local_size_%c = %llu invocations: "
                           "gl_GlobalInvocationID.%c (32-bit) wraps past 4294967295", d,
                           axis[d], (unsigned long long)n, axis[d]);
    }
}

/* ---- sizes no device can run (independent of the profile) ---- */

/* Private memory per invocation above which no driver runs the kernel
 * (lavapipe grew to 24 GiB and was killed on a 1 GiB array loaded by
 * value): an error before anything runs. */
#define PRIVATE_BYTES_MAX ((uint64_t)64 << 20)

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Instructions of the entry point once every call is inlined (drivers
 * inline all of them): a function called from two places is copied twice,
 * so a chain of functions each calling the next twice doubles per level.
 * 40 levels (a few KB of SPIR-V) made lavapipe compile for 38 s and die of
 * SIGSEGV.  Iterative, memoised, saturating; a cycle (invalid) counts 0. */
#define INLINE_INSTS_MAX ((uint64_t)1 << 24)
typedef struct inline_frame {
    uint32_t func, next;   /* the function, its next instruction to look at */
    uint64_t total;        /* its instructions and its callees' so far */
} inline_frame;

static uint64_t inlined_size(const spv_module *m, uint32_t entry_func)
{
    uint64_t *size = xcalloc(m->nfuncs, sizeof *size);
    uint8_t *state = xcalloc(m->nfuncs, 1); /* 0 new, 1 on the stack, 2 done */
    inline_frame *stack = xcalloc(m->nfuncs + 1, sizeof *stack);
    size_t sp = 0;
    const spv_function *ef = &m->funcs[entry_func];
    stack[sp++] = (inline_frame){entry_func, ef->first_inst,
                                 ef->end_inst > ef->first_inst ? ef->end_inst - ef->first_inst : 0};
    state[entry_func] = 1;
    while (sp) {
        inline_frame *fr = &stack[sp - 1];
        const spv_function *f = &m->funcs[fr->func];
        int pushed = 0;
        for (; fr->next < f->end_inst && fr->next < m->ninsts && !pushed; fr->next++) {
            const spv_inst *in = &m->insts[fr->next];
            if (in->opcode != SpvOpFunctionCall || in->nops < 1)
                continue;
            const spv_function *g = spv_func_of(m, in->ops[0]); /* as find_reachable */
            if (!g)
                continue;
            uint32_t gi = (uint32_t)(g - m->funcs);
            if (state[gi] == 0) { /* the callee first; this call is counted after */
                state[gi] = 1;
                stack[sp++] = (inline_frame){gi, g->first_inst,
                                             g->end_inst > g->first_inst ? g->end_inst - g->first_inst : 0};
                pushed = 1;
                break;
            }
            if (state[gi] == 2)
                fr->total = fr->total > UINT64_MAX - size[gi] ? UINT64_MAX : fr->total + size[gi];
        }
        if (pushed)
            continue;
        size[fr->func] = fr->total;
        state[fr->func] = 2;
        sp--;
    }
    uint64_t s = size[entry_func];
    free(size);
    free(state);
    free(stack);
    return s;
}

static int check_inline_size(const spv_module *m, const reflection *r, const char *shader_file,
                             kernel_report *kr)
{
    const spv_entry *e = NULL;
    for (size_t i = 0; r && i < m->nentries && !e; i++)
        if (m->entries[i].name && !strcmp(m->entries[i].name, r->entry) &&
            m->entries[i].func < m->nfuncs)
            e = &m->entries[i];
    if (!e)
        return 0;
    uint64_t n = inlined_size(m, e->func);
    if (n <= INLINE_INSTS_MAX)
        return 0;
    char have[64];
    if (n == UINT64_MAX)
        snprintf(have, sizeof have, "2^64 or more");
    else
        snprintf(have, sizeof have, "%llu", (unsigned long long)n);
    finding *f = report_add_finding(
        kr, FINDING_INLINE_SIZE_LIMIT, SEV_ERROR, shader_file, 0,
        "call a function from one place inside a loop instead of from several places, or "
        "keep the call tree shallow: drivers copy a function at every call",
        "entry point '%s' becomes %s instructions once every call is inlined (more than "
        "%llu): drivers inline every call, and lavapipe crashed compiling 2^40", r->entry, have,
        (unsigned long long)INLINE_INSTS_MAX);
    finding_detail_uint(f, "instructions", (unsigned long long)n);
    return 1;
}

/* Drivers size a descriptor set layout's table by its largest binding
 * number: lavapipe ran out of memory at 100,000,000 and died of SIGSEGV at
 * 4294967295 (check passed both). */
#define BINDING_NUMBER_MAX (1u << 24)
#define RUNNER_SETS 8u /* collectors/vk_run.c binds sets 0-7 */
static int check_binding_numbers(const reflection *r, const char *shader_file,
                                 kernel_report *kr)
{
    int errors = 0;
    for (size_t i = 0; r && i < r->nbindings; i++) {
        const refl_binding *b = &r->bindings[i];
        if (b->set >= RUNNER_SETS) { /* what run would refuse */
            finding *f = report_add_finding(
                kr, FINDING_BINDING_NUMBER_LIMIT, SEV_ERROR, shader_file, 0,
                "use descriptor sets 0 to 7 (layout(set = 0, ...))",
                "'%s' is in descriptor set %u: Clockwork's runner binds sets 0-%u (run "
                "refuses the kernel; set 4294967295 crashed lavapipe)", b->name, b->set,
                RUNNER_SETS - 1);
            finding_detail_uint(f, "set", b->set);
            errors++;
            continue;
        }
        if (b->binding <= BINDING_NUMBER_MAX)
            continue;
        finding *f = report_add_finding(
            kr, FINDING_BINDING_NUMBER_LIMIT, SEV_ERROR, shader_file, 0,
            "number the bindings from 0 (layout(binding = 0), 1, ...)",
            "'%s' is at set %u binding %u: drivers size the descriptor table by the largest "
            "binding number, and a table of %llu entries cannot be allocated (bindings above "
            "%u are refused)",
            b->name, b->set, b->binding, (unsigned long long)b->binding + 1, BINDING_NUMBER_MAX);
        finding_detail_uint(f, "binding", b->binding);
        errors++;
    }
    return errors;
}

/* Spec-constant divisions a driver cannot fold (see spv_const.traps). */
static int check_spec_traps(const spv_module *m, const char *shader_file, kernel_report *kr)
{
    int errors = 0;
    for (size_t i = 0; i < m->nconsts; i++) {
        const spv_const *c = &m->consts[i];
        if (!c->traps)
            continue;
        char name[64];
        if (c->name && *c->name)
            snprintf(name, sizeof name, "'%s'", c->name);
        else
            snprintf(name, sizeof name, "%%%u", c->id);
        finding *f = report_add_finding(
            kr, FINDING_SPEC_CONSTANT_TRAP, SEV_ERROR, shader_file, 0,
            "change the spec constants (or the plan's \"spec\" values) so that no "
            "specialization-constant division is of the minimum integer by -1",
            "specialization constant %s divides the minimum integer by -1 (after spec "
            "constants), which overflows: the driver computes it while building the "
            "pipeline and dies of SIGFPE", name);
        finding_detail_str(f, "constant", name);
        errors++;
    }
    return errors;
}

static int check_sizes(const spv_module *m, const reflection *r, const char *shader_file,
                       const char *src, kernel_report *kr)
{
    static const char axis[3] = {'x', 'y', 'z'};
    int errors = 0;
    char hint[HINT_MAX];
    for (int d = 0; r && d < 3; d++) {
        if (r->local_size[d])
            continue;
        int line = local_size_line(src, axis[d]);
        finding *f = report_add_finding(kr, FINDING_WORKGROUP_SIZE_LIMIT, SEV_ERROR, shader_file,
                                        line, "give every axis of the local size at least 1 "
                                        "(check the spec constants that set it)",
                                        "local_size_%c = 0: a workgroup needs at least one "
                                        "invocation on every axis", axis[d]);
        finding_detail_u32x3(f, "local_size", r->local_size);
        errors++;
        break;
    }
    uint64_t priv = 0;
    const char *biggest = NULL;
    uint64_t biggest_bytes = 0;
    for (size_t i = 0; m && i < m->nvars; i++) {
        const spv_var *v = &m->vars[i];
        if (v->storage != SpvStorageClassFunction && v->storage != SpvStorageClassPrivate &&
            v->storage != SpvStorageClassWorkgroup)
            continue;
        int zero = 0;
        uint64_t bytes = spv_type_size_saturated(m, v->pointee, &zero);
        const char *name = v->name && *v->name ? v->name : "an unnamed variable";
        if (zero) {
            snprintf(hint, sizeof hint, "give the array at least one element (a spec "
                     "constant that sizes it must be >= 1)");
            finding *f = report_add_finding(kr, FINDING_ARRAY_LENGTH_INVALID, SEV_ERROR,
                                            shader_file, source_line(src, name, NULL), hint,
                                            "%s has an array of length 0 (after spec "
                                            "constants): SPIR-V arrays hold at least one "
                                            "element, and drivers crash on it", name);
            finding_detail_str(f, "variable", name);
            errors++;
        }
        if (v->storage == SpvStorageClassWorkgroup)
            continue;
        priv = sat_add(priv, bytes);
        if (bytes > biggest_bytes) {
            biggest_bytes = bytes;
            biggest = name;
        }
    }
    if (priv > PRIVATE_BYTES_MAX) {
        char have[64];
        char big[64];
        if (priv == UINT64_MAX)
            snprintf(have, sizeof have, "more than 2^64 bytes");
        else
            snprintf(have, sizeof have, "%.1f MiB", (double)priv / 1048576.0);
        if (biggest_bytes == UINT64_MAX)
            snprintf(big, sizeof big, "2^64 bytes or more");
        else
            snprintf(big, sizeof big, "%.1f MiB", (double)biggest_bytes / 1048576.0);
        snprintf(hint, sizeof hint, "keep large arrays in a storage buffer or shared memory; "
                 "private and function variables are per invocation");
        finding *f = report_add_finding(kr, FINDING_PRIVATE_MEMORY_LIMIT, SEV_ERROR, shader_file,
                                        biggest ? source_line(src, biggest, NULL) : 0, hint,
                                        "each invocation needs %s of private and function "
                                        "variables (the largest: %s, %s), above the %llu "
                                        "MiB any driver gives an invocation", have,
                                        biggest ? biggest : "?", big,
                                        (unsigned long long)(PRIVATE_BYTES_MAX >> 20));
        finding_detail_uint(f, "bytes", (unsigned long long)priv);
        finding_detail_uint(f, "limit", (unsigned long long)PRIVATE_BYTES_MAX);
        errors++;
    }
    return errors;
}

int limits_check(const spv_module *m, const reflection *r, const plan_kernel *k,
                 const device_profile *prof, const int *spec_matched, const char *src,
                 kernel_report *kr)
{
    const char *shader_file = limits_shader_file(m, k);
    int errors = 0;
    if (!src && m)
        src = m->source_text;
    errors += check_bindings(m, r, k, prof, shader_file, src, kr);
    errors += check_push(m, r, k, prof, shader_file, src, kr);
    errors += check_spec(r, k, spec_matched, kr);
    check_spec_defaults(m, shader_file, src, kr);
    check_id_range(r, k, kr);
    errors += check_sizes(m, r, shader_file, src, kr);
    errors += check_spec_traps(m, shader_file, kr);
    errors += check_inline_size(m, r, shader_file, kr);
    errors += check_binding_numbers(r, shader_file, kr);
    if (prof)
        errors += check_device(m, r, k, prof, shader_file, src, kr);
    return errors;
}
