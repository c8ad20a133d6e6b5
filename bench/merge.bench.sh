#!/bin/sh
# Merge: `clockwork merge` of synthetic reports (generated at run time):
# 16 shards of a 20,000-kernel set, and 4 devices x 5,000 kernels (the
# fleet view; one device 1.4x slower, which must be the one flagged).
# Prints wall and CPU seconds, peak RSS of merge, the exit code, the kernels
# in the merged report and the outlier devices.  MERGE_KERNELS overrides
# 20000 (the fleet case takes a quarter per device).
BUILD=${1:-build}
CW="$BUILD/clockwork"
[ -x "$CW" ] || { echo "no $CW: make first"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
K=${MERGE_KERNELS:-20000}
python3 - "$T" "$K" << 'PY' || exit 1
import json, sys
T, K = sys.argv[1], int(sys.argv[2])
def kernel(i, us):
    return {"name": "k%d" % i, "kind": "gpu", "shader": "x.comp", "entry": "main",
            "workgroups": [1, 1, 1], "local_size": [64, 1, 1], "findings": [],
            "prediction": {"time_us": 10.0 + i % 7, "ideal_time_us": 5, "bound": "dram",
                           "flops": 1, "bytes": 1, "invocations": 64, "confidence": "exact",
                           "registers_per_invocation": None, "assumptions": [], "terms_us": {}},
            "measurement": {"samples": 10, "median_us": us, "mad_us": 0.1, "min_us": us,
                            "max_us": us, "p90_us": us, "sample_us": [us] * 10, "counters": {}},
            "divergence": None, "plan": "p.json", "plan_index": i}
def report(ks, host, uuid, job, index, count, total):
    return {"schema": 1, "tool": {"name": "clockwork", "version": "0.1.0"},
            "device": {"name": "GPU", "uuid": uuid},
            "provenance": {"host": host, "node": None, "job": job, "rank": index,
                           "shard": {"index": index, "count": count, "source": "bench"},
                           "kernels_total": total, "set_id": "00000000000000be",
                           "plans": ["p.json"], "exit_code": 0},
            "kernels": ks}
for s in range(16):
    ks = [kernel(i, 11.0 + i % 7) for i in range(s, K, 16)]
    json.dump(report(ks, "h%d" % s, "%032x" % s, "1", s, 16, K), open("%s/s-%02d.json" % (T, s), "w"))
for d in range(4):
    ks = [kernel(i, (11.0 + i % 7) * (1.4 if d == 1 else 1.0)) for i in range(K // 4)]
    json.dump(report(ks, "g%d" % d, "%032x" % (100 + d), str(d), 0, 1, K // 4), open("%s/f-%d.json" % (T, d), "w"))
PY
printf '%-22s %7s %7s %12s %5s %8s %s\n' case wall_s cpu_s peak_rss_MiB exit kernels outliers
status=0
for c in shards fleet; do
    case $c in shards) set -- "$T"/s-*.json ;; fleet) set -- "$T"/f-*.json ;; esac
    python3 - "$CW" "$T/$c.json" "$@" > "$T/m" << 'PY'
import json, resource, subprocess, sys, time
t0 = time.time()
rc = subprocess.call([sys.argv[1], "merge", "-o", sys.argv[2]] + sys.argv[3:])
wall = time.time() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
m = json.load(open(sys.argv[2])) if rc == 0 else {"kernels": []}
out = [d["device"] for d in m.get("fleet", {}).get("devices", []) if d["outlier"]]
print(f"{wall:.2f} {ru.ru_utime + ru.ru_stime:.2f} {ru.ru_maxrss / 1024:.1f} {rc} {len(m['kernels'])} {','.join(out) or '-'}")
PY
    read -r wall cpu rss rc n out < "$T/m"
    label="$c ($#x$(( $# == 16 ? K / 16 : K / 4 )))"
    printf '%-22s %7s %7s %12s %5s %8s %s\n' "$label" "$wall" "$cpu" "$rss" "$rc" "$n" "$out"
    [ "$rc" = 0 ] && [ "$n" = "$K" ] || { echo "  $c: exit $rc, $n kernels, expected $K"; status=1; }
    if [ $c = fleet ]; then
        [ "$out" = "g1/00000000000000000000000000000065" ] || { echo "  fleet: outliers $out"; status=1; }
    fi
done
exit $status
