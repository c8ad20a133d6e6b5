# Helpers for integration tests (sourced).  $CW is the binary under test.
: "${CW:?CW must point at the clockwork binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok"; exit 0; }
# expect_rc CODE CMD...: the command exits with CODE.
expect_rc() {
    want=$1; shift
    "$@" > /dev/null 2>&1; got=$?
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
}
# expect_out TEXT CMD...: stdout contains TEXT.
expect_out() {
    want=$1; shift
    out=$("$@" 2>/dev/null)
    case "$out" in *"$want"*) ;; *) fail "'$*' stdout lacks '$want': $out" ;; esac
}
# expect_err TEXT CMD...: stderr contains TEXT.
expect_err() {
    want=$1; shift
    err=$("$@" 2>&1 >/dev/null)
    case "$err" in *"$want"*) ;; *) fail "'$*' stderr lacks '$want': $err" ;; esac
}
# test_tmpdir: T is a fresh folder removed at exit, ROOT the checkout, and
# the shader cache lives under T (no test reads another's cache).
test_tmpdir() {
    ROOT=${CW_TEST_ROOT:-$(pwd)}
    T=$(mktemp -d)
    trap 'rm -rf "$T"' EXIT
    export XDG_CACHE_HOME="$T/cache"
}
# saxpy_plan FILE N: one SAXPY kernel, 4 workgroups over 1024-element
# buffers (x a ramp, y 0.5), push n = N (below 1024 leaves a tail untouched).
saxpy_plan() {
    cat > "$1" <<JSON
{
  "kernels": [
    {
      "name": "saxpy",
      "shader": "${CW_TEST_ROOT:-$(pwd)}/examples/kernels/saxpy.comp",
      "workgroups": [4, 1, 1],
      "push": {"n": $2, "alpha": 2.0},
      "buffers": [
        {"binding": 0, "elements": 1024, "init": "ramp"},
        {"binding": 1, "elements": 1024, "init": 0.5}
      ]
    }
  ]
}
JSON
}
# saxpy_small_plan FILE: the smallest valid plan, one SAXPY kernel named
# saxpy_small over 1024 elements with default buffer contents.
saxpy_small_plan() {
    cat > "$1" <<J
{"kernels": [{"name": "saxpy_small", "shader": "${CW_TEST_ROOT:-$(pwd)}/examples/kernels/saxpy.comp",
  "workgroups": [4, 1, 1], "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
J
}
# spin_shader FILE: a compute shader (local size 64, buffer at binding 0)
# that loops until b[0] becomes nonzero, which never happens with a zeroed
# buffer: a kernel that does not finish.
spin_shader() {
    cat > "$1" <<'GLSL'
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 1023u;
    while (b[0] == 0u)
        b[1u + i] += 1u;
}
GLSL
}
