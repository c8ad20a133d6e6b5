#!/bin/sh
# The Vulkan driver's disk cache on an unusable folder (issue 17): Mesa maps
# its cache index after sizing it with ftruncate, and on a full disk the
# first touch was a SIGBUS in its cache thread (run and calibrate died with
# 135, no report).  Clockwork checks the folder before the driver loads and
# turns the disk cache off with a warning.
#   - a full 64 KiB tmpfs as XDG_CACHE_HOME (when this machine lets us mount
#     one): run and calibrate finish, warn, write the report / profile;
#   - a folder on a file system with no free space (/proc) as
#     MESA_SHADER_CACHE_DIR (no privileges needed): the same warning;
#   - calibrate that cannot store its profile exits 4 (and still prints it).
set -u
fail() { echo "FAIL: $*"; exit 1; }
: "${CW:?}"
ROOT=${CW_TEST_ROOT:-$(pwd)}
T=$(mktemp -d)
cleanup() { umount "$T/tiny" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
export XDG_CACHE_HOME="$T/cache"
cat > "$T/plan.json" <<J
{"kernels": [{"name": "saxpy_small", "shader": "$ROOT/examples/kernels/saxpy.comp",
  "workgroups": [4, 1, 1], "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
J
RUN="--samples 2 --warmup 1"

mkdir -p "$T/tiny"
if mount -t tmpfs -o size=64k tmpfs "$T/tiny" 2>/dev/null; then
    dd if=/dev/zero of="$T/tiny/fill" bs=4096 2>/dev/null   # fill it up
    XDG_CACHE_HOME="$T/tiny" timeout 120 "$CW" run $RUN --format json -o "$T/r.json" \
        "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "full tmpfs: run exit $rc (135 = SIGBUS): $(cat "$T/err")"
    grep -q "shader cache folder $T/tiny/mesa_shader_cache is not usable" "$T/err" ||
        fail "full tmpfs: no warning: $(cat "$T/err")"
    python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['kernels'][0]['measurement']['median_us'] > 0" \
        "$T/r.json" || fail "full tmpfs: no measurement in the report"
    XDG_CACHE_HOME="$T/tiny" timeout 300 "$CW" calibrate --budget 0.2 --no-save \
        -o "$T/p.json" > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 0 ] || fail "full tmpfs: calibrate exit $rc (135 = SIGBUS): $(tail -3 "$T/err")"
    grep -q "is not usable" "$T/err" || fail "full tmpfs: calibrate did not warn"
    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/p.json" || fail "full tmpfs: profile"
    echo "ok: full tmpfs cache: run and calibrate finish with a warning (no SIGBUS)"
else
    echo "skip: cannot mount a tmpfs here (not privileged); the /proc case below still runs"
fi

MESA_SHADER_CACHE_DIR=/proc/clockwork-no-cache timeout 120 "$CW" run $RUN --format json \
    -o "$T/r2.json" "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "/proc cache dir: run exit $rc: $(cat "$T/err")"
grep -q "shader cache folder /proc/clockwork-no-cache is not usable" "$T/err" ||
    fail "/proc cache dir: no warning: $(cat "$T/err")"
MESA_SHADER_CACHE_DISABLE=true MESA_SHADER_CACHE_DIR=/proc/x timeout 120 "$CW" run $RUN \
    "$T/plan.json" > /dev/null 2> "$T/err"
grep -q "not usable" "$T/err" && fail "a cache already turned off must not be warned about"
echo "ok: an unusable cache folder is detected and the driver's cache turned off, with a warning"

: > "$T/afile"
XDG_CACHE_HOME="$T/afile/cache" timeout 120 "$CW" calibrate --cpu --budget 0.2 --force \
    -o "$T/cpu.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "calibrate that cannot store: exit $rc, want 4: $(tail -3 "$T/err")"
grep -q "cannot store the profile" "$T/err" || fail "calibrate: message: $(tail -3 "$T/err")"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/cpu.json" || fail "calibrate: -o profile"
echo "ok: calibrate that cannot store its profile exits 4 (the profile still printed)"
# the message names a profile, not a report (it said "cannot write the report")
timeout 120 "$CW" calibrate --cpu --budget 0.2 --no-save -o /dev/full > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "calibrate -o /dev/full: exit $rc, want 2"
grep -q "/dev/full: cannot write the profile: No space left on device" "$T/err" ||
    fail "calibrate -o /dev/full: message: $(tail -1 "$T/err")"
echo "ok: calibrate -o on a full disk: exit 2, 'cannot write the profile'"

# past `ulimit -f` the write fails and is reported; no SIGXFSZ (153)
"$CW" check --format json -o "$T/keep.json" "$T/plan.json" > /dev/null 2>&1
cp "$T/keep.json" "$T/keep.before"
( ulimit -f 1; "$CW" check --format json -o "$T/keep.json" "$T/plan.json" ) > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "ulimit -f: exit $rc, want 2 (153 = SIGXFSZ): $(cat "$T/err")"
cmp -s "$T/keep.json" "$T/keep.before" || fail "ulimit -f: the previous report was damaged"
echo "ok: ulimit -f: exit 2, no signal, previous report intact"
