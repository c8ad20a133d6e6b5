#!/bin/sh
# Sizes and constants that check passed and that crashed run inside the
# driver (issue 17, second attack round).  Each module is valid SPIR-V
# (spirv-val --target-env vulkan1.0 accepts it):
#   - a workgroup array whose size overflows 64 bits ((2^32-1)^2 floats,
#     65536^4 floats, or spec constants at 2^32-1): the size wrapped to 0,
#     so check said nothing and lavapipe died of SIGSEGV building the
#     pipeline; now a shared-memory-limit error naming "2^64 bytes or more";
#   - OpSpecConstantOp SDiv/SRem/SMod of INT_MIN by -1 (32 and 64 bits, and
#     with the -1 coming from the plan's "spec"): lavapipe folds it with the
#     host's division and dies of SIGFPE; now a spec-constant-trap error,
#     so run does not build the pipeline (exit 1, no crash in the report);
#   - an "init" list longer than its buffer: a plan-invalid warning;
#   - a 3 KB module whose struct types expand to 2^40 members: validated
#     under the time budget (it ran for hours in-process), exit 2;
#   - a call tree that a driver inlines into 2^40 calls (lavapipe crashed
#     compiling it): an inline-size-limit error;
#   - binding 4294967295 or descriptor set 4294967295 (lavapipe SIGSEGV): a
#     binding-number-limit error;
#   - a push-constant block past 4 GiB (it read as 0 bytes): push-constant-limit;
#   - a storage block of 2^64 bytes bound to 64 bytes: buffer-too-small.
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
# ASan's shadow memory cannot be reserved under any `ulimit -v`
LIMIT="ulimit -v 4000000"
grep -q __asan_init "$CW" && LIMIT=:
command -v spirv-as > /dev/null || fail "spirv-as (spirv-tools, scripts/deps.sh) is not installed"

# module NAME TYPES BODY [DECORATIONS] [NAMES]: a one-buffer compute module
# ($FUNCS: more functions after main; $SET and $BINDING: the buffer's, 0)
module() {
    cat > "$T/$1.spvasm" <<EOF
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %buf "B"
${5:-}
OpDecorate %rt ArrayStride 4
OpMemberDecorate %S 0 Offset 0
OpDecorate %S BufferBlock
OpDecorate %buf DescriptorSet ${SET:-0}
OpDecorate %buf Binding ${BINDING:-0}
${4:-}
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%rt = OpTypeRuntimeArray %float
%S = OpTypeStruct %rt
%pS = OpTypePointer Uniform %S
%buf = OpVariable %pS Uniform
%pf = OpTypePointer Uniform %float
%c0 = OpConstant %int 0
%u0 = OpConstant %uint 0
%f1 = OpConstant %float 1
$2
%main = OpFunction %void None %fn
%l = OpLabel
%p = OpAccessChain %pf %buf %c0 %c0
$3
OpReturn
OpFunctionEnd
${FUNCS:-}
EOF
    spirv-as --target-env spv1.0 "$T/$1.spvasm" -o "$T/$1.spv" || fail "$1: spirv-as"
    printf '{"kernels": [{"name": "%s", "shader": "%s.spv", "workgroups": [1, 1, 1], %s"buffers": [{"set": %s, "binding": %s, "elements": 16}]}]}\n' \
        "$1" "$1" "${SPEC:-}" "${SET:-0}" "${BINDING:-0}" > "$T/$1.json"
}
# expect NAME EXIT FINDING TEXT: check's exit and the finding's id and text
expect() {
    ( $LIMIT; timeout 60 "$CW" check --format json -o "$T/$1.out.json" "$T/$1.json" \
        > /dev/null 2> "$T/err" ); rc=$?
    [ $rc -eq "$2" ] || fail "$1: check exit $rc, want $2: $(cat "$T/err")"
    python3 - "$T/$1.out.json" "$3" "$4" <<'PY' || fail "$1: no $3 finding with '$4'"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["kernels"][0]["findings"] if x["id"] == sys.argv[2]]
assert f and sys.argv[3] in f[0]["message"], f
PY
}

# array_module NAME STORAGE CONSTANT LENGTH DIMS: a DIMS-deep array of
# floats, each level LENGTH long, in STORAGE memory, stored to and loaded
# (so that it is used); CONSTANT is OpConstant or OpSpecConstant
array_module() {
    types="%n = $3 %uint $4"; prev=%float; idx=""
    for d in $(seq 1 "$5"); do
        types="$types
%a$d = OpTypeArray $prev %n"; prev=%a$d; idx="$idx %u0"
    done
    types="$types
%pa = OpTypePointer $2 $prev
%v = OpVariable %pa $2
%pe = OpTypePointer $2 %float"
    deco=""
    [ "$3" = OpSpecConstant ] && deco="OpDecorate %n SpecId 3"
    module "$1" "$types" "%e = OpAccessChain %pe %v$idx
OpStore %e %f1
%ld = OpLoad %float %e
OpStore %p %ld" "$deco"
}
array_module wg2d Workgroup OpConstant 4294967295 2
expect wg2d 1 shared-memory-limit "2^64 bytes or more"
array_module wg4d Workgroup OpConstant 65536 4
expect wg4d 1 shared-memory-limit "2^64 bytes or more"
array_module wgspec Workgroup OpSpecConstant 4294967295 2
expect wgspec 1 shared-memory-limit "2^64 bytes or more"
# the same array in private memory names the size, not a wrapped one
array_module priv2d Private OpConstant 4294967295 2
expect priv2d 1 private-memory-limit "the largest: an unnamed variable, 2^64 bytes or more"
# the 4-D one crashed lavapipe in run; now it is not run at all
( $LIMIT; timeout 120 "$CW" run --samples 2 --warmup 1 "$T/wg4d.json" > /dev/null 2> "$T/err" ); rc=$?
[ $rc -eq 1 ] || fail "wg4d: run exit $rc, want 1 (not run): $(cat "$T/err")"
grep -q "driver crashed" "$T/err" && fail "wg4d: run still reached the driver: $(cat "$T/err")"
echo "ok: workgroup arrays of 2^64 bytes or more are a shared-memory-limit error, not 0 bytes"

for op in SDiv SRem SMod; do
    for w in int long; do
        [ $w = int ] && min=-2147483648 || min=-9223372036854775808
        module "trap_${op}_$w" "%min = OpConstant %$w $min
%m1 = OpConstant %$w -1
%q = OpSpecConstantOp %$w $op %min %m1" "%qf = OpConvertSToF %float %q
OpStore %p %qf" "" 'OpName %q "quot"'
        expect "trap_${op}_$w" 1 spec-constant-trap "specialization constant 'quot' divides the minimum integer by -1"
    done
done
# a harmless division (INT_MIN / 1, and INT_MIN / -1 computed in the body,
# which the driver does not fold at pipeline build) is no finding
module nodiv "%min = OpConstant %int -2147483648
%one = OpConstant %int 1
%q = OpSpecConstantOp %int SDiv %min %one" "%qf = OpConvertSToF %float %q
OpStore %p %qf"
"$CW" check --format json -o "$T/nodiv.out.json" "$T/nodiv.json" > /dev/null 2>&1 || fail "nodiv: check failed"
grep -q spec-constant-trap "$T/nodiv.out.json" && fail "nodiv: a division by 1 was flagged"
# the -1 from the plan: the default (1) is fine, the plan's -1 is caught
SPEC='"spec": {"7": -1}, ' module fromplan "%min = OpConstant %int -2147483648
%d = OpSpecConstant %int 1
%q = OpSpecConstantOp %int SDiv %min %d" "%qf = OpConvertSToF %float %q
OpStore %p %qf" "OpDecorate %d SpecId 7"
unset SPEC
expect fromplan 1 spec-constant-trap "divides the minimum integer by -1"
( $LIMIT; timeout 120 "$CW" run --samples 2 --warmup 1 "$T/fromplan.json" > /dev/null 2> "$T/err" ); rc=$?
[ $rc -eq 1 ] || fail "fromplan: run exit $rc, want 1 (not run; 4 = the driver died of SIGFPE): $(cat "$T/err")"
echo "ok: a spec-constant INT_MIN / -1 is a spec-constant-trap error (the driver dies of SIGFPE folding it)"

# an "init" list longer than the buffer: the extra values were dropped
# without a word; now a plan-invalid warning naming both counts
module initlong "" "OpStore %p %f1"
python3 - "$T/initlong.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["kernels"][0]["buffers"][0]["init"] = [1.0] * 20000
json.dump(p, open(sys.argv[1], "w"))
PY
expect initlong 0 plan-invalid '"init" lists 20000 values, but the buffer holds 16 of 4 bytes; the last 19984 are not used'
echo "ok: an init list longer than its buffer is a warning"

# a struct of two copies of a struct of two copies ... 40 levels: 3 KB of
# SPIR-V whose types expand to 2^40 members.  SPIRV-Tools walks them
# without memo, so in-process validation (for modules this small) ran for
# hours; such a module now goes to the budgeted validation process
types=""; prev=%float
for i in $(seq 1 40); do types="$types
%T$i = OpTypeStruct $prev $prev"; prev=%T$i; done
module dagstruct "$types
%pa = OpTypePointer Private $prev
%v = OpVariable %pa Private" "OpStore %p %f1"
start=$(date +%s)
( $LIMIT; CW_VALIDATE_BUDGET_S=2 timeout 60 "$CW" check --format json -o "$T/dag.out.json" \
    "$T/dagstruct.json" > /dev/null 2> "$T/err" ); rc=$?
[ $rc -eq 2 ] || fail "doubling struct: exit $rc, want 2 (124: validation never ended): $(cat "$T/err")"
grep -q '"validation-budget"' "$T/dag.out.json" || fail "doubling struct: no validation-budget finding"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "doubling struct: took $(( $(date +%s) - start )) s"
echo "ok: a type that expands to 2^40 members is validated under the budget (validation-budget error)"

# g1 calls g0 twice, g2 calls g1 twice, ... main calls g39: a few KB that a
# driver inlines into 2^40 calls (lavapipe compiled it for 38 s, then died
# of SIGSEGV); 20 levels (about 4 million instructions) are fine
call_chain() { # call_chain NAME LEVELS
    FUNCS="%g0 = OpFunction %void None %fn
%l0 = OpLabel
OpStore %pv %f1
OpReturn
OpFunctionEnd"
    for i in $(seq 1 $(($2 - 1))); do
        FUNCS="$FUNCS
%g$i = OpFunction %void None %fn
%l$i = OpLabel
%a$i = OpFunctionCall %void %g$((i - 1))
%b$i = OpFunctionCall %void %g$((i - 1))
OpReturn
OpFunctionEnd"
    done
    FUNCS="$FUNCS" module "$1" "%ppf = OpTypePointer Private %float
%pv = OpVariable %ppf Private" "%cm = OpFunctionCall %void %g$(($2 - 1))
%x = OpLoad %float %pv
OpStore %p %x"
    unset FUNCS # dash keeps an assignment made before a function call
}
call_chain calls40 40
expect calls40 1 inline-size-limit "entry point 'main' becomes 49478023249"
call_chain calls20 20
( $LIMIT; timeout 60 "$CW" check --format json -o "$T/calls20.out.json" "$T/calls20.json" ) > /dev/null 2>&1 ||
    fail "20 levels of calls: check failed"
grep -q inline-size-limit "$T/calls20.out.json" && fail "20 levels of calls were flagged"
echo "ok: a call tree that inlines to 2^40 calls is an inline-size-limit error; 20 levels are not"

# binding 4294967295 (and the plan's buffer there): check passed it and
# lavapipe died of SIGSEGV creating the descriptor set layout (a table of
# 2^32 entries); 2^24 is still accepted
# limit_case VAR BAD GOOD MESSAGE: a module with VAR=BAD (read by module)
# is a binding-number-limit error saying MESSAGE and is not run; one with
# VAR=GOOD passes check unflagged
limit_case() {
    eval "$1=\$2"; module "${1}bad" "" "OpStore %p %f1"
    expect "${1}bad" 1 binding-number-limit "$4"
    ( $LIMIT; timeout 120 "$CW" run --samples 2 --warmup 1 "$T/${1}bad.json" > /dev/null 2> "$T/err" ); rc=$?
    [ $rc -eq 1 ] || fail "$1=$2: run exit $rc, want 1 (not run): $(cat "$T/err")"
    eval "$1=\$3"; module "${1}good" "" "OpStore %p %f1"
    "$CW" check --format json -o "$T/${1}good.out.json" "$T/${1}good.json" > /dev/null 2>&1 ||
        fail "$1=$3: check failed"
    grep -q binding-number-limit "$T/${1}good.out.json" && fail "$1=$3 was flagged"
    unset "$1"
}
limit_case BINDING 4294967295 16777216 "'B' is at set 0 binding 4294967295: drivers size the descriptor table"
# descriptor set 4294967295: the runner's set count (set + 1) wrapped to 0
# and lavapipe died of SIGSEGV; sets past 7 are refused by run, so check
# says so first
limit_case SET 4294967295 7 "'B' is in descriptor set 4294967295: Clockwork's runner binds sets 0-7"
echo "ok: a binding number past 2^24 is a binding-number-limit error, not a driver crash"

# a push-constant member at Offset 2^32-4: the block's 2^32 bytes did not
# fit 32 bits and read as 0, so check passed it as an empty block
module pushoff "%PS = OpTypeStruct %uint
%ppc = OpTypePointer PushConstant %PS
%pc = OpVariable %ppc PushConstant
%ppu = OpTypePointer PushConstant %uint" "%pu = OpAccessChain %ppu %pc %c0
%n = OpLoad %uint %pu
%nf = OpConvertUToF %float %n
OpStore %p %nf" "OpMemberDecorate %PS 0 Offset 4294967292
OpDecorate %PS Block"
expect pushoff 1 push-constant-limit "the push-constant block is 4294967295 bytes or more"
echo "ok: a push-constant block past 4 GiB is a push-constant-limit error, not an empty block"

# a storage block of 2^64 bytes (float[2^32-1] at ArrayStride 2^32-4) bound
# to a 64-byte buffer: the overflowing size read as 0 and check passed it
module bigblock "%n = OpConstant %uint 4294967295
%a0 = OpTypeArray %float %n
%S2 = OpTypeStruct %a0
%pS2 = OpTypePointer Uniform %S2
%big = OpVariable %pS2 Uniform
%pbf = OpTypePointer Uniform %float" "%e = OpAccessChain %pbf %big %c0 %u0
OpStore %e %f1" "OpDecorate %a0 ArrayStride 4294967292
OpMemberDecorate %S2 0 Offset 0
OpDecorate %S2 BufferBlock
OpDecorate %big DescriptorSet 0
OpDecorate %big Binding 1" 'OpName %big "BIG"'
python3 - "$T/bigblock.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["kernels"][0]["buffers"].append({"binding": 1, "bytes": 64})
json.dump(p, open(sys.argv[1], "w"))
PY
expect bigblock 1 buffer-too-small "buffer 'BIG' (set 0 binding 1) is 64 bytes, smaller than its block's fixed part of 2^64 bytes or more"
echo "ok: a storage block of 2^64 bytes or more is buffer-too-small, not 0 bytes"
