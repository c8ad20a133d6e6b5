#!/bin/sh
# A real Slurm cluster on loopback (munged, slurmctld and two slurmd with
# fake GPU GRES, all in a temporary folder, all on free ports), then:
#   srun -N2 -n4 clockwork check --shard auto -o DIR/r-%r.json PLANS...
#   sbatch --array=0-3 of the same
#   mpirun -n 4 of the same (OpenMPI, no Slurm)
# Each set is merged and must equal a single-process check kernel by
# kernel, with the same exit status; a deleted or doubled shard makes merge
# exit 2 naming it.  Every daemon started here is stopped by its PID
# (TERM, then KILL after 3 s) and reaped; nothing is left behind.
# Needs root (slurmd and munged); the packages come from `make deps`.
. "$(dirname "$0")/../lib.sh"
ROOT=${CW_TEST_ROOT:-$(pwd)}
PATH=$PATH:/usr/sbin:/sbin
started=$(date +%s.%N)
if [ "$(id -u)" != 0 ]; then echo "skip: the Slurm cluster test needs root"; exit 0; fi
for b in munged slurmctld slurmd srun sbatch squeue sinfo mpirun setpriv python3; do
    command -v "$b" > /dev/null || fail "$b is not installed (make deps installs it)"
done
[ -r /etc/munge/munge.key ] || fail "no /etc/munge/munge.key (the munge package creates it)"

T=$(mktemp -d) || fail "mktemp"
chmod 0755 "$T" # munged refuses a private parent folder
PIDS="" LEFT=""
stop_all() {
    for p in $PIDS; do kill -TERM "$p" 2> /dev/null; done
    i=0
    while [ $i -lt 30 ]; do
        alive=""
        for p in $PIDS; do kill -0 "$p" 2> /dev/null && alive="$alive $p"; done
        [ -z "$alive" ] && break
        sleep 0.1; i=$((i + 1))
    done
    for p in $alive; do kill -KILL "$p" 2> /dev/null; done
    for p in $PIDS; do wait "$p" 2> /dev/null; done
    PIDS=""
    # a job step stuck in launch outlives slurmd: anything still naming our
    # folder is ours, stopped by its PID
    for d in /proc/[0-9]*; do
        p=${d#/proc/}
        [ "$p" = $$ ] && continue
        cmd=$(tr '\0' ' ' 2> /dev/null < "$d/cmdline")
        if case "$cmd" in *"$T"*) true ;; *) false ;; esac; then
            LEFT="$LEFT
left behind: $p $cmd"
            kill -KILL "$p" 2> /dev/null
        fi
    done
}
cleanup() { stop_all; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- the cluster ----
H=$(hostname -s)
set -- $(python3 -c '
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')
CTLD_PORT=$1 N1_PORT=$2 N2_PORT=$3
install -d -o munge -g munge -m 0755 "$T/munge"
mkdir -p "$T/dev" "$T/state" "$T/out" "$T/array" "$T/mpi"
# fake GPUs: character devices, or plain files where the container lacks
# CAP_MKNOD (slurmd accepts both without AutoDetect)
for n in 0 1; do
    mknod "$T/dev/gpu$n" c 1 3 2> /dev/null || : > "$T/dev/gpu$n" || fail "cannot create $T/dev/gpu$n"
done
cat > "$T/slurm.conf" << EOF
ClusterName=cwtest
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool-%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
GresTypes=gpu
NodeName=n1 NodeHostname=$H NodeAddr=127.0.0.1 Port=$N1_PORT CPUs=4 Gres=gpu:2 State=UNKNOWN
NodeName=n2 NodeHostname=$H NodeAddr=127.0.0.1 Port=$N2_PORT CPUs=4 Gres=gpu:2 State=UNKNOWN
PartitionName=p Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
cat > "$T/gres.conf" << EOF
AutoDetect=off
NodeName=n1 Name=gpu File=$T/dev/gpu[0-1]
NodeName=n2 Name=gpu File=$T/dev/gpu[0-1]
EOF
export SLURM_CONF="$T/slurm.conf"
# foreground daemons, children of this script: stopped by PID and reaped
setpriv --reuid=munge --regid=munge --clear-groups munged -F --socket="$T/munge/munge.sock" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
    --seed-file="$T/munge/seed" > "$T/munged.out" 2>&1 &
PIDS="$PIDS $!"
i=0; while [ ! -S "$T/munge/munge.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$T/munge/munge.sock" ] || fail "munged did not start: $(tail -n 3 "$T/munge/munged.log")"
slurmctld -D -f "$T/slurm.conf" > "$T/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
for n in n1 n2; do
    slurmd -D -f "$T/slurm.conf" -N $n > "$T/slurmd-$n.out" 2>&1 &
    PIDS="$PIDS $!"
done
i=0; state=""
while [ $i -lt 200 ]; do
    state=$(sinfo -h -o %T 2> /dev/null | sort -u | tr '\n' ' ')
    [ "$state" = "idle " ] && break
    sleep 0.1; i=$((i + 1))
done
[ "$state" = "idle " ] || fail "nodes not idle after 20 s ($state): $(tail -n 5 "$T/slurmctld.log")"
up=$(date +%s.%N)

# ---- what every rank runs ----
python3 - "$ROOT" "$T/dup.json" << 'PY' || fail "plan generator"
import json, sys
root, out = sys.argv[1], sys.argv[2]
k = {"shader": root + "/examples/kernels/saxpy.comp", "workgroups": [64, 1, 1],
     "push": {"n": 16384, "alpha": 2.0},
     "buffers": [{"binding": 0, "elements": 16384}, {"binding": 1, "elements": 16384}]}
# two kernels named "twice": two identities, on whatever shards they hash to
kernels = [dict(k, name=n, workgroups=[w, 1, 1])
           for n, w in [("twice", 64), ("other", 32), ("twice", 16), ("third", 8)]]
json.dump({"kernels": kernels}, open(out, "w"))
PY
PLANS="examples/plan.json tests/corpus/clean_examples/plan.json $T/dup.json"
cat > "$T/rank.sh" << EOF
#!/bin/sh
# one rank: check its shard, keep its exit status (a non-zero rank makes
# mpirun tear the job down slowly), say where it ran
cd "$ROOT" || exit 99
"$CW" check --shard auto -o "\$1/r-%r.json" $PLANS > /dev/null 2>> "\$1/stderr"
echo \$? > "\$1/rc.\$\$"
exit 0
EOF
chmod +x "$T/rank.sh" # run through sh: /tmp may be noexec

cd "$ROOT" || fail "cd $ROOT"
"$CW" check -o "$T/single.json" $PLANS > /dev/null 2> "$T/single.err"
single_rc=$?
[ $single_rc -eq 1 ] || fail "the single-process check exited $single_rc, expected 1 (examples has a buggy kernel)"

# merged DIR: merge DIR/r-*.json, compare with the single run
merged() {
    dir=$1 what=$2
    n=$(ls "$dir"/r-*.json 2> /dev/null | wc -l)
    [ "$n" -eq 4 ] || fail "$what: $n reports, expected 4 ($(cat "$dir/stderr" 2> /dev/null))"
    for f in "$dir"/rc.*; do
        [ "$(cat "$f")" = "$single_rc" ] || [ "$(cat "$f")" = 0 ] ||
            fail "$what: a rank exited $(cat "$f")"
    done
    "$CW" merge -o "$dir/merged.json" "$dir"/r-*.json 2> "$dir/merge.err"
    rc=$?
    [ $rc -eq $single_rc ] || fail "$what: merge exited $rc, expected $single_rc: $(cat "$dir/merge.err")"
    python3 - "$T/single.json" "$dir/merged.json" "$what" << 'PY' || fail "$what: merged report differs"
import json, sys
single, merged, what = (json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3])
a, b = single["kernels"], merged["kernels"]
assert len(a) == len(b), (what, len(a), len(b))
for x, y in zip(a, b):
    y = dict(y)
    assert y.pop("source") in range(4), (what, x["name"])
    assert x == y, (what, x["name"], x.get("plan_index"), y.get("plan_index"))
names = [(k["plan"], k["name"]) for k in b]
assert names.count((sys.argv[1].rsplit("/", 1)[0] + "/dup.json", "twice")) == 2, names
assert merged["provenance"]["exit_code"] == 1
assert merged["provenance"]["kernels_total"] == len(a)
shards = sorted(s["provenance"]["shard"]["index"] for s in merged["sources"])
assert shards == [0, 1, 2, 3], shards
assert all(s["provenance"]["shard"]["count"] == 4 for s in merged["sources"])
PY
}

# ---- srun: two nodes, four tasks ----
timeout 60 srun -N2 -n4 --gres=gpu:2 sh "$T/rank.sh" "$T/out" > "$T/srun.out" 2>&1 ||
    fail "srun: $(tail -n 5 "$T/srun.out")"
merged "$T/out" srun
python3 - "$T/out" << 'PY' || fail "srun: provenance"
import glob, json, sys
reps = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/r-*.json"))]
p = [r["provenance"] for r in reps]
assert [x["rank"] for x in p] == [0, 1, 2, 3], p
assert {x["node"] for x in p} == {"n1", "n2"}, p
assert len({x["job"] for x in p}) == 1 and p[0]["job"], p
assert all(x["shard"]["source"] == "SLURM_PROCID/SLURM_NTASKS" for x in p), p
PY
# a deleted shard: exit 2 naming it
rm -f "$T/out/r-2.json"
"$CW" merge -o "$T/out/broken.json" "$T/out"/r-*.json > /dev/null 2> "$T/merge.err"
rc=$?
[ $rc -eq 2 ] || fail "merge without shard 2 exited $rc, expected 2"
grep -q "shard 2/4 is missing" "$T/merge.err" || fail "merge does not name the missing shard: $(cat "$T/merge.err")"
[ ! -e "$T/out/broken.json" ] || fail "merge wrote a report for an incomplete set"
# a doubled shard: exit 2
"$CW" merge "$T/out/r-0.json" "$T/out/r-0.json" "$T/out/r-1.json" "$T/out/r-3.json" \
    > /dev/null 2> "$T/merge.err"
[ $? -eq 2 ] && grep -q "given twice" "$T/merge.err" || fail "a doubled shard: $(cat "$T/merge.err")"

# ---- sbatch --array: four array tasks; poll squeue (sbatch --wait polls every 10 s) ----
jid=$(sbatch --parsable --array=0-3 --chdir="$ROOT" --output="$T/array/slurm-%a.out" \
    --wrap "sh $T/rank.sh $T/array") || fail "sbatch"
i=0
while [ $i -lt 600 ]; do
    [ -z "$(squeue -h -j "$jid" 2> /dev/null)" ] && break
    sleep 0.1; i=$((i + 1))
done
[ $i -lt 600 ] || fail "array job $jid still queued after 60 s"
merged "$T/array" "sbatch --array"
python3 - "$T/array" "$jid" << 'PY' || fail "sbatch --array: provenance"
import glob, json, sys
reps = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/r-*.json"))]
p = [r["provenance"] for r in reps]
assert all(x["shard"]["source"] == "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT" for x in p), p
assert all(x["job"] == sys.argv[2].split(";")[0] for x in p), (p, sys.argv[2])
PY

# ---- run on both nodes, each rank the whole set on its --device auto: a fleet of two ----
python3 - "$ROOT" "$T/tiny.json" << 'PY' || fail "plan generator"
import json, sys
k = {"shader": sys.argv[1] + "/examples/kernels/saxpy.comp", "workgroups": [8, 1, 1],
     "push": {"n": 2048, "alpha": 2.0},
     "buffers": [{"binding": 0, "elements": 2048}, {"binding": 1, "elements": 2048}]}
json.dump({"kernels": [dict(k, name="a"), dict(k, name="b")]}, open(sys.argv[2], "w"))
PY
mkdir -p "$T/fleet"
timeout 60 srun -N2 -n2 "$CW" run --device auto --samples 3 --warmup 1 --budget 0.05 \
    -o "$T/fleet/f-%r.json" "$T/tiny.json" > "$T/fleet/out" 2>&1
"$CW" merge -o "$T/fleet/merged.json" "$T/fleet"/f-*.json 2> "$T/fleet/merge.err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "fleet merge exited $rc: $(cat "$T/fleet/merge.err" "$T/fleet/out")"
python3 - "$T/fleet/merged.json" << 'PY' || fail "fleet: $(cat "$T/fleet/out")"
import json, sys
m = json.load(open(sys.argv[1]))
src = m["sources"]
assert sorted(s["provenance"]["node"] for s in src) == ["n1", "n2"], src
for s in src:  # one task per node: local rank 0 on each
    assert s["device"]["selected_by"].startswith("SLURM_LOCALID=0: device "), s["device"]
f = m["fleet"]
assert len(f["devices"]) == 2, f["devices"]
assert [k["name"] for k in f["kernels"]] == ["a", "b"], f["kernels"]
assert all(k["devices"] == 2 and k["spread"] >= 1 for k in f["kernels"]), f["kernels"]
PY

stop_all
[ -z "$LEFT" ] || fail "processes left behind:$LEFT"
slurm_done=$(date +%s.%N)

# ---- mpirun: OpenMPI's launcher on this host, no Slurm ----
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout 60 mpirun --oversubscribe -n 4 sh "$T/rank.sh" "$T/mpi" > "$T/mpirun.out" 2>&1 ||
    fail "mpirun: $(tail -n 5 "$T/mpirun.out")"
merged "$T/mpi" mpirun
python3 - "$T/mpi" << 'PY' || fail "mpirun: provenance"
import glob, json, sys
reps = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/r-*.json"))]
p = [r["provenance"] for r in reps]
assert all(x["shard"]["source"] == "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE" for x in p), p
PY
ended=$(date +%s.%N)
python3 -c "import sys; s,u,d,e = map(float, sys.argv[1:]); print('slurm: ok (cluster up in %.2f s, slurm part %.2f s, whole test %.2f s)' % (u - s, d - s, e - s))" \
    "$started" "$up" "$slurm_done" "$ended"
