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
