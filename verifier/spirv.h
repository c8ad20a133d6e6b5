/* spirv.h - a parsed SPIR-V module: the reader the verifier is built on.
 *
 * Contract:
 *   spv_parse(words, n, &m, &err) copies the words (either endianness),
 *   walks every instruction once and builds the tables below.  It never
 *   trusts the file: a bad magic, a word count of 0 or one that runs past the
 *   end, an id >= the header's bound, a redefined id, a type that contains
 *   itself (other than through a pointer), an absurd size, a branch to a
 *   non-label, an instruction outside a block or an irreducible CFG make it
 *   return non-zero with err->text saying why (err->line = 0, err->column =
 *   the word offset + 1 where there is one).  It never crashes or hangs: all
 *   loops and recursion are bounded by the module's size.  Unreachable blocks
 *   are accepted (valid SPIR-V allows them) and marked reachable = 0.
 *   spv_parse also folds every specialization constant with its default,
 *   so a parsed module is usable as is.
 *
 *   spv_specialize(&m, values) applies specialization values (keys are
 *   SpecId digits or the constant's OpName; the reader knows nothing of
 *   where they come from: verifier_specialize passes a plan's "spec"
 *   object), re-folds
 *   OpSpecConstantOp / OpSpecConstantComposite, and recomputes array lengths
 *   and the entry points' local sizes.  It may be called again with other
 *   values.  matched[i] (optional, nspec entries) is set to 1 for each plan
 *   key that named a spec constant.
 *
 *   The module owns all memory (including a copy of the words; ops pointers
 *   point into it); spv_free() releases it.  Everything else here is a
 *   read-only accessor that bound-checks its id and returns NULL / 0 / -1
 *   for an id that is out of range or not of the asked kind.
 *
 * Opcode, decoration, storage class, builtin and execution-mode numbers are
 * those of SPIRV-Headers (<spirv/unified1/spirv.h>, SpvOp*, SpvDecoration*,
 * SpvStorageClass*, ...), which callers include themselves.
 */
#ifndef CW_SPIRV_H
#define CW_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define SPV_NONE 0xffffffffu /* "no index" for block/function/etc. indices */

/* ---- instructions ---- */

typedef struct spv_inst {
    uint16_t opcode;       /* SpvOp */
    uint16_t nwords;       /* total words, opcode word included */
    uint32_t offset;       /* word offset of the instruction in m->words */
    uint32_t type_id;      /* result type id; 0 if the opcode has none */
    uint32_t result_id;    /* result id; 0 if the opcode has none */
    const uint32_t *ops;   /* operand words after result type / result id */
    uint32_t nops;
    uint32_t block;        /* index into m->blocks, SPV_NONE outside one */
    uint32_t func;         /* index into m->funcs, SPV_NONE outside one */
    int line, column;      /* source position from the most recent OpLine
                              (or NonSemantic DebugLine) in this function,
                              carried across blocks (0 = unknown; OpNoLine,
                              DebugNoLine and OpFunctionEnd clear it) */
    uint32_t file;         /* OpString id naming the source file; 0 unknown */
} spv_inst;

/* ---- types ---- */

typedef enum {
    SPV_T_NONE = 0,        /* not a type */
    SPV_T_VOID,
    SPV_T_BOOL,
    SPV_T_INT,
    SPV_T_FLOAT,
    SPV_T_VECTOR,
    SPV_T_MATRIX,
    SPV_T_ARRAY,
    SPV_T_RUNTIME_ARRAY,
    SPV_T_STRUCT,
    SPV_T_POINTER,
    SPV_T_FUNCTION,
    SPV_T_IMAGE,
    SPV_T_SAMPLER,
    SPV_T_SAMPLED_IMAGE,
    SPV_T_OTHER,           /* events, queues, acceleration structures... */
} spv_type_kind;

typedef struct spv_member {
    uint32_t type;         /* member type id */
    int has_offset;
    uint32_t offset;       /* Offset decoration (bytes) */
    uint32_t matrix_stride;/* MatrixStride, 0 if none */
    int row_major;
    int non_writable, non_readable;
    int builtin;           /* SpvBuiltIn value, -1 if none */
    const char *name;      /* OpMemberName, NULL if none */
} spv_member;

typedef struct spv_type {
    spv_type_kind kind;
    uint32_t id;
    /* INT / FLOAT */
    uint32_t width;        /* bits */
    int is_signed;         /* INT only */
    /* VECTOR / MATRIX (elem = component / column type, count = n),
     * ARRAY / RUNTIME_ARRAY (elem = element type), POINTER (elem = pointee),
     * SAMPLED_IMAGE (elem = image type) */
    uint32_t elem;
    uint32_t count;        /* VECTOR / MATRIX component or column count */
    /* ARRAY */
    uint32_t length_id;    /* constant (maybe spec constant) giving length */
    uint64_t length;       /* its value after specialization; 0 if unknown */
    uint32_t array_stride; /* ArrayStride decoration, 0 if none */
    /* STRUCT */
    spv_member *members;
    uint32_t nmembers;
    int block;             /* decorated Block */
    int buffer_block;      /* decorated BufferBlock (pre-1.3 storage buffers) */
    /* POINTER */
    uint32_t storage;      /* SpvStorageClass */
    /* FUNCTION: elem = return type, params / nparams = parameter types */
    uint32_t *params;
    uint32_t nparams;
    /* IMAGE: dim, sampled (1 sampled, 2 storage), format */
    uint32_t image_dim, image_sampled, image_format;
} spv_type;

/* ---- constants and specialization constants ---- */

typedef enum {
    SPV_C_SCALAR = 0,      /* bool / int / float; value in bits */
    SPV_C_COMPOSITE,       /* parts = constituent ids */
    SPV_C_NULL,            /* OpConstantNull: all zero */
    SPV_C_UNDEF,           /* OpUndef at module scope: value unknown */
} spv_const_kind;

typedef struct spv_const {
    uint32_t id;
    uint32_t type;         /* type id */
    spv_const_kind kind;
    /* SCALAR: raw bits, zero-extended from the type's width (ints keep
     * their two's complement bit pattern; floats their IEEE bits in the
     * type's width; bools 0/1).  Use spv_const_i64/u64/f64 to read. */
    uint64_t bits;
    int known;             /* 0: a spec-constant op that could not be folded */
    uint32_t *parts;       /* COMPOSITE */
    uint32_t nparts;
    /* specialization */
    int is_spec;           /* OpSpecConstant{,True,False,Composite,Op} */
    int has_spec_id;
    uint32_t spec_id;      /* SpecId decoration */
    uint64_t default_bits; /* SCALAR spec constants: the module's default */
    int overridden;        /* the plan set it */
    uint32_t spec_op;      /* OpSpecConstantOp: the folded opcode, else 0 */
    int traps;             /* OpSpecConstantOp SDiv/SRem/SMod of the minimum
                              integer by -1: the driver traps (SIGFPE) folding it */
    const char *name;      /* OpName, NULL if none */
} spv_const;

/* ---- decorations and names ---- */

typedef struct spv_decoration {
    uint32_t target;       /* decorated id */
    int32_t member;        /* -1: the id itself; else member index */
    uint32_t decoration;   /* SpvDecoration */
    const uint32_t *args;  /* literal operands after the decoration */
    uint32_t nargs;
} spv_decoration;

/* ---- variables ---- */

typedef struct spv_var {
    uint32_t id;
    uint32_t type;         /* pointer type id */
    uint32_t pointee;      /* type id the pointer points to */
    uint32_t storage;      /* SpvStorageClass */
    uint32_t init;         /* initializer id, 0 if none */
    uint32_t func;         /* function index for Function variables, else
                              SPV_NONE */
    int has_binding, has_set;
    uint32_t binding, set;
    int builtin;           /* SpvBuiltIn of the variable, -1 if none (for a
                              builtin block, see the members) */
    const char *name;      /* OpName, NULL if none */
} spv_var;

/* ---- entry points ---- */

typedef enum {
    SPV_LS_NONE = 0,       /* no LocalSize given: 1x1x1 assumed */
    SPV_LS_LITERAL,        /* OpExecutionMode LocalSize */
    SPV_LS_ID,             /* OpExecutionModeId LocalSizeId */
    SPV_LS_BUILTIN,        /* WorkgroupSize builtin constant (wins) */
} spv_ls_source;

typedef struct spv_entry {
    char *name;
    uint32_t model;        /* SpvExecutionModel */
    uint32_t func_id;      /* the OpFunction's id */
    uint32_t func;         /* index into m->funcs, SPV_NONE if missing */
    uint32_t *interface;   /* interface variable ids */
    uint32_t ninterface;
    spv_ls_source ls_source;
    uint32_t local_size_ids[3]; /* LocalSizeId operands or the builtin's
                                   constituents; 0 when literal */
    uint32_t local_size[3];     /* after specialization; 0 when unknown */
    int local_size_known;
} spv_entry;

/* ---- functions, blocks, CFG ---- */

typedef enum {
    SPV_MERGE_NONE = 0,
    SPV_MERGE_SELECTION,   /* OpSelectionMerge */
    SPV_MERGE_LOOP,        /* OpLoopMerge */
} spv_merge_kind;

typedef struct spv_block {
    uint32_t label;        /* the OpLabel's id */
    uint32_t func;         /* function index */
    uint32_t first;        /* instruction index of the OpLabel */
    uint32_t last;         /* instruction index of the terminator */
    spv_merge_kind merge;
    uint32_t merge_inst;   /* instruction index of the merge, SPV_NONE */
    uint32_t merge_block;  /* block index of the merge target, SPV_NONE */
    uint32_t continue_block; /* loops: block index of the continue target */
    uint32_t *succ;        /* successor block indices, in the terminator's
                              order (true before false; switch: default
                              then cases); duplicates removed */
    uint32_t nsucc;
    uint32_t *pred;        /* predecessor block indices */
    uint32_t npred;
    int reachable;         /* from the function's entry block */
    uint32_t idom;         /* immediate dominator block index; SPV_NONE for
                              the entry block and unreachable blocks */
    uint32_t rpo;          /* reverse-postorder number within the function
                              (reachable blocks only) */
    uint32_t loop_header;  /* header of the innermost natural loop (of a
                              back edge) containing this block, the header
                              itself included; SPV_NONE if none.  In
                              structured SPIR-V that header is the block
                              with the OpLoopMerge. */
} spv_block;

typedef struct spv_function {
    uint32_t id;
    uint32_t type;         /* OpTypeFunction id */
    uint32_t ret_type;
    uint32_t control;      /* SpvFunctionControlMask */
    uint32_t first_inst;   /* index of OpFunction */
    uint32_t end_inst;     /* index of OpFunctionEnd */
    uint32_t *params;      /* OpFunctionParameter result ids */
    uint32_t nparams;
    uint32_t first_block;  /* index into m->blocks; blocks of a function are
                              contiguous, in module order, entry first */
    uint32_t nblocks;
    uint32_t *rpo_order;   /* reachable block indices in reverse postorder */
    uint32_t nrpo;
    const char *name;      /* OpName, NULL if none */
} spv_function;

/* ---- the module ---- */

typedef struct spv_module {
    uint32_t *words;       /* host-endian copy */
    size_t nwords;
    uint32_t version;      /* header version word (0x00010300 = 1.3) */
    uint32_t generator;
    uint32_t bound;        /* every id is < bound */
    int swapped;           /* the file was the other endianness */

    spv_inst *insts;       size_t ninsts;
    spv_type *types;       size_t ntypes;
    spv_const *consts;     size_t nconsts;
    spv_var *vars;         size_t nvars;
    spv_decoration *decos; size_t ndecos;
    spv_entry *entries;    size_t nentries;
    spv_function *funcs;   size_t nfuncs;
    spv_block *blocks;     size_t nblocks;

    uint32_t *capabilities; size_t ncapabilities;
    uint32_t addressing, memory_model;
    uint32_t glsl_std_450; /* id of the GLSL.std.450 import, 0 if none */

    /* Source: OpSource (+ OpSourceContinued) and OpString */
    uint32_t source_lang, source_version;
    uint32_t source_file;  /* OpString id of the main file, 0 if none */
    char *source_text;     /* embedded source, NULL if not embedded */
    size_t source_len;

    /* Per-id tables, bound entries each (private to spirv.c; use the
     * accessors below). */
    uint32_t *id_inst;     /* instruction index + 1; 0 = not defined */
    uint32_t *id_type;     /* index into types + 1 */
    uint32_t *id_const;    /* index into consts + 1 */
    uint32_t *id_var;      /* index into vars + 1 */
    uint32_t *id_block;    /* index into blocks + 1 (label ids) */
    uint32_t *id_func;     /* index into funcs + 1 */
    char **id_name;        /* OpName text, NULL if none (owned) */
    char **id_string;      /* OpString text (owned) */
    uint32_t *deco_first;  /* first index in decos (sorted by target) + 1 */
    char **member_names;   /* OpMemberName texts (owned; referenced by
                              spv_member.name) */
    size_t nmember_names;
    uint32_t *param_pool;  /* backing store of every spv_function.params */
} spv_module;

int spv_parse(const uint32_t *words, size_t nwords, spv_module *out,
              cw_error *err);
/* Bytes (e.g. a .spv file): checks length % 4 and either-endian magic. */
int spv_parse_bytes(const void *bytes, size_t len, spv_module *out,
                    cw_error *err);
/* A specialization value: key = SpecId digits or OpName; line/column are
 * where it was written (copied into err on a type mismatch). */
typedef struct spv_spec_value {
    const char *key;
    double value;
    int is_integer;      /* written without fraction or exponent */
    int64_t ivalue;      /* exact value when is_integer */
    int line, column;
} spv_spec_value;

int spv_specialize(spv_module *m, const spv_spec_value *spec, size_t nspec,
                   int *matched, cw_error *err);
void spv_free(spv_module *m);

/* ---- accessors: all bound-checked; NULL / 0 / SPV_NONE when absent ---- */

const spv_inst *spv_def(const spv_module *m, uint32_t id);
const spv_type *spv_type_of(const spv_module *m, uint32_t type_id);
/* The type of a value id (its result type), NULL if none. */
const spv_type *spv_value_type(const spv_module *m, uint32_t id);
const spv_const *spv_const_of(const spv_module *m, uint32_t id);
const spv_var *spv_var_of(const spv_module *m, uint32_t id);
const spv_function *spv_func_of(const spv_module *m, uint32_t func_id);
uint32_t spv_block_of_label(const spv_module *m, uint32_t label_id);
const char *spv_name(const spv_module *m, uint32_t id);
const char *spv_member_name(const spv_module *m, uint32_t struct_id,
                            uint32_t member);
const char *spv_string(const spv_module *m, uint32_t string_id);
const spv_entry *spv_entry_find(const spv_module *m, const char *name);

/* Constant values (spec constants after specialization).  0 on success;
 * non-zero when id is not a known scalar constant (or a NULL constant,
 * which reads as 0).  i64 sign-extends signed ints, u64 zero-extends,
 * f64 converts ints and widens f16/f32. */
int spv_const_u64(const spv_module *m, uint32_t id, uint64_t *out);
int spv_const_i64(const spv_module *m, uint32_t id, int64_t *out);
int spv_const_f64(const spv_module *m, uint32_t id, double *out);
/* A scalar spec constant's default (the module's value, before the plan),
 * as f64; non-zero when id is not a scalar constant. */
int spv_const_default_f64(const spv_module *m, uint32_t id, double *out);
/* Constituent id i of a constant composite; 0 when id is not a composite
 * constant, i is out of range, or the constant is OpConstantNull (whose
 * components all read as zero). */
uint32_t spv_const_component(const spv_module *m, uint32_t id, uint32_t i);

/* Decorations.  spv_decoration_find returns the first match (member -1 for
 * the id itself) or NULL; spv_decorated fills *value with the first literal
 * (if any and value != NULL) and returns 1 when present. */
const spv_decoration *spv_decoration_find(const spv_module *m, uint32_t id,
                                          int32_t member, uint32_t deco);
int spv_decorated(const spv_module *m, uint32_t id, uint32_t deco,
                  uint32_t *value);
int spv_member_decorated(const spv_module *m, uint32_t struct_id,
                         uint32_t member, uint32_t deco, uint32_t *value);
/* All decorations of id (member ones included): *n set, NULL if none. */
const spv_decoration *spv_decorations(const spv_module *m, uint32_t id,
                                      size_t *n);

/* Layout.  spv_type_size: bytes of a type under its explicit layout
 * (Offset / ArrayStride / MatrixStride where decorated, else packed natural
 * sizes: scalars their width, vectors n x component, arrays length x
 * element, structs the end of the last member).  Runtime arrays count 0.
 * Returns 0 on success, -2 for a size over 2^62 (overflow), -1 for unsized
 * types or unknown array lengths. */
int spv_type_size(const spv_module *m, uint32_t type_id, uint64_t *bytes);
/* Packed bytes of a value of the type (private or workgroup memory: no
 * explicit layout), saturating at UINT64_MAX instead of failing on
 * overflow (a size no device holds is still a size); *zero set when an
 * array of length 0 is inside. */
uint64_t spv_type_size_saturated(const spv_module *m, uint32_t type_id, int *zero);
/* The scalar at the bottom of vectors/matrices/arrays: its type, and the
 * number of scalar components of a vector (1 for a scalar). */
const spv_type *spv_scalar_of(const spv_module *m, uint32_t type_id,
                              uint32_t *components);

/* Source position of instruction index i: file name (OpString text or
 * NULL) and line (0 unknown). */
const char *spv_inst_file(const spv_module *m, size_t i);

/* Human-readable opcode name ("OpLoad"), "Op?" if unknown; grammar class
 * ("Arithmetic", "Memory", "Atomic", "Barrier", "Control-Flow", ...), ""
 * if unknown.  Generated from the SPIRV-Headers grammar (spirv_ops.inc). */
const char *spv_opcode_name(uint32_t opcode);
const char *spv_opcode_class(uint32_t opcode);

/* Does the opcode have a result id / result type id (from SPIRV-Headers). */
void spv_opcode_shape(uint32_t opcode, int *has_result, int *has_type);

#endif
