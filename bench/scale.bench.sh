#!/bin/sh
# Scale: `clockwork check` on generated plans of 100, 1,000 and 10,000
# kernels (bench/gen_scale_plan.py: the example kernels in turn, each with
# its own sizes; generated at run time, not committed).  Prints, per plan:
# wall seconds, CPU seconds, peak RSS (GNU time -v, else getrusage of the
# child through Python), the exit code, and the number of kernel rows in the
# table.  SCALE_SIZES="100 1000" overrides the sizes.
BUILD=${1:-build}
CW="$BUILD/clockwork"
[ -x "$CW" ] || { echo "no $CW: make first"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SIZES=${SCALE_SIZES:-100 1000 10000}
status=0
printf '%-8s %9s %9s %12s %6s %6s %s\n' kernels wall_s cpu_s peak_rss_MiB exit rows plan_MiB
for n in $SIZES; do
    python3 bench/gen_scale_plan.py "$n" "$(pwd)" > "$T/plan$n.json" || exit 1
    # getrusage(RUSAGE_CHILDREN) around one child: its peak RSS and CPU time
    python3 - "$CW" "$T/plan$n.json" "$T/out$n" > "$T/m$n" <<'PY'
import resource, subprocess, sys, time
t0 = time.time()
with open(sys.argv[3], "w") as out:
    rc = subprocess.call([sys.argv[1], "check", "--no-color", sys.argv[2]],
                         stdout=out, stderr=subprocess.STDOUT)
wall = time.time() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.2f} {ru.ru_utime + ru.ru_stime:.2f} {ru.ru_maxrss / 1024:.1f} {rc}")
PY
    read -r wall cpu rss rc < "$T/m$n"
    rows=$(grep -cE '^(saxpy|reduce|transpose|stencil)_[0-9]+ ' "$T/out$n")
    mib=$(du -m "$T/plan$n.json" | cut -f1)
    printf '%-8s %9s %9s %12s %6s %6s %s\n' "$n" "$wall" "$cpu" "$rss" "$rc" "$rows" "$mib"
    # clear output: every kernel has its row, and check exits 0 (none of
    # the generated kernels has an error finding)
    [ "$rc" = 0 ] && [ "$rows" = "$n" ] || { echo "  check on $n kernels: exit $rc, $rows rows"; status=1; }
done
exit $status
