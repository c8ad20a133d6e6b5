#!/bin/sh
# check_json.sh compare|update - the JSON `clockwork check` writes for
# examples/ and every tests/corpus case, against tests/golden/check/*.json.
#
# Every plan is checked from the repository root with a pinned device
# profile: profiles/lavapipe.json with the fields the built-in derives from
# the host CPU (cores, clock, peaks, cache) replaced by tests/golden/host.json.
# The report is reduced by normalize.py (host- and build-specific fields
# out, floats to 6 digits).
# compare: prints a diff and exits 1 on any difference or missing golden.
# update:  rewrites the goldens (run it in the commit that changes
#          behaviour on purpose: sh tests/golden/update.sh).
mode=${1:?usage: check_json.sh compare|update}
ROOT=${CW_TEST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 2
CW=${CW:-$ROOT/build/clockwork}
G=tests/golden/check
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ -x "$CW" ] || { echo "no clockwork binary at $CW (make all first)" >&2; exit 2; }
python3 - "$T/lavapipe.json" <<'PY' || exit 2
import json, sys
prof = json.load(open("profiles/lavapipe.json"))
host = json.load(open("tests/golden/host.json"))
host.pop("_comment", None)
for key, value in host.items():
    if isinstance(value, dict):
        prof.setdefault(key, {}).update(value)
    else:
        prof[key] = value
json.dump(prof, open(sys.argv[1], "w"), indent=2)
PY

plans="examples/plan.json examples/cpu/plan.json"
for d in tests/corpus/*/; do
    [ -f "$d/plan.json" ] && plans="$plans ${d}plan.json"
done

bad=0; n=0; seen=""
for p in $plans; do
    case $p in
        examples/plan.json) slug=examples ;;
        examples/cpu/plan.json) slug=examples_cpu ;;
        *) slug=corpus_$(basename "$(dirname "$p")") ;;
    esac
    seen="$seen $slug.json"
    "$CW" check --profile "$T/lavapipe.json" --format json -o "$T/r.json" "$p" \
        > /dev/null 2> "$T/stderr"
    rc=$?
    [ -f "$T/r.json" ] || printf '{}' > "$T/r.json"
    python3 tests/golden/normalize.py "$rc" "$T/r.json" > "$T/$slug.json" || exit 2
    rm -f "$T/r.json"
    n=$((n + 1))
    if [ "$mode" = update ]; then
        cp "$T/$slug.json" "$G/$slug.json"
    elif [ ! -f "$G/$slug.json" ]; then
        echo "missing golden $G/$slug.json for $p (sh tests/golden/update.sh)"
        bad=$((bad + 1))
    elif ! diff -u "$G/$slug.json" "$T/$slug.json" > "$T/diff"; then
        echo "check JSON of $p differs from $G/$slug.json:"
        head -n 60 "$T/diff"
        bad=$((bad + 1))
    fi
done
# goldens of plans that no longer exist
for f in "$G"/*.json; do
    b=$(basename "$f")
    case " $seen " in *" $b "*) ;; *)
        if [ "$mode" = update ]; then rm -f "$f"
        else echo "stale golden $f (no such plan)"; bad=$((bad + 1)); fi ;;
    esac
done
if [ "$mode" = update ]; then
    echo "wrote $n goldens to $G"
    exit 0
fi
echo "$n plans compared, $bad differ"
[ "$bad" -eq 0 ]
