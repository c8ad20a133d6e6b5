#!/bin/sh
# The probe plans of bench/gpu/probes: every generator (gen_*.py, H200 and
# --cpu sizes) writes exactly the committed plans and generated kernels;
# every lavapipe copy (*-cpu.json) checks without an error finding (exit
# 0); read_probes.py turns medians into the readings its generators'
# docstrings describe (numbers checked against hand-computed ones).
set -u
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$CW_TEST_ROOT" || fail "no CW_TEST_ROOT"
P=bench/gpu/probes
cp -r "$P" "$dir/probes"
rm -rf "$dir/probes/__pycache__"
(
    cd "$dir/probes" || exit 1
    for g in gen_*.py; do
        python3 -B "$g" > /dev/null && python3 -B "$g" --cpu > /dev/null || exit 1
    done
) || fail "a generator failed"
diff -r -x __pycache__ "$P" "$dir/probes" || fail "committed probe plans differ from what gen_*.py writes"
for p in "$P"/*-cpu.json; do
    "$CW" check "$p" > "$dir/check.out" 2>&1; rc=$?
    [ $rc -eq 0 ] || { cat "$dir/check.out"; fail "check $p exit $rc"; }
done
# readings, with a clock of 2 GHz and 100 units (the profile's shape is all
# read_probes.py reads of it); medians chosen so the values are round
echo '{"shape": {"clock_ghz": 2.0, "units": 100}}' > "$dir/shape.json"
cat > "$dir/report.json" <<J
{"kernels": [
 {"name": "sc_bar_r1", "plan": "$P/scanchain.json", "plan_index": 0, "measurement": {"median_us": 192.0}},
 {"name": "sc_bar_r8", "plan": "$P/scanchain.json", "plan_index": 3, "measurement": {"median_us": 768.0}},
 {"name": "shc_st_k4", "plan": "$P/sharedconf.json", "plan_index": 2, "measurement": {"median_us": 346.03}},
 {"name": "rp_v4_r32", "plan": "$P/rowpages.json", "plan_index": 4, "measurement": {"median_us": 207.6}},
 {"name": "rp_v4_coal_r32", "plan": "$P/rowpages.json", "plan_index": 10, "measurement": {"median_us": 103.8}},
 {"name": "ll_chase_w0", "plan": "$P/loadlat.json", "plan_index": 0, "measurement": {"median_us": 171.0}},
 {"name": "ll_stream_w20", "plan": "$P/loadlat.json", "plan_index": 9, "measurement": {"median_us": 200.0}},
 {"name": "la_load", "plan": "$P/loopatomic.json", "plan_index": 0, "measurement": {"median_us": 200.0}},
 {"name": "la_atom_val", "plan": "$P/loopatomic.json", "plan_index": 2, "measurement": {"median_us": 500.0}},
 {"name": "im_muladd", "plan": "$P/issuemix.json", "plan_index": 1, "measurement": {"median_us": 346.03}}
]}
J
python3 -B "$P/read_probes.py" --profile "$dir/shape.json" "$dir/report.json" > "$dir/read.out" ||
    fail "read_probes.py exit $?"
cat "$dir/read.out"
# each expected reading: a pattern of the output and what it stands for
while IFS='|' read -r pattern what; do
    grep -q -- "$pattern" "$dir/read.out" || fail "$what"
done <<X
sc_bar_r1  *192.0  x 1.00  *100.0 ns|scanchain R = 1: 96 reps x 20 levels, 192 us -> 100 ns a level
sc_bar_r8  *768.0  x 4.00  *400.0 ns|scanchain R = 8: 768 / 192 = 4
K=4   st    346.0 us  1.00 cyc|sharedconf K = 4: 4224 x 8 warps x 32 x 16 trips x 4 = 69206016 passes, 346.03 us x 2 GHz x 100 / passes
rp_v4_r32  *207.6 us  *2000 GB/s  *51.2 cyc  x2.00|rowpages: 270336 x 1536 B = 415.2 MB, 811008 requests of 512 B, 207.6 us x 2 GHz x 100 / requests, twice the coalesced
W=0  (  0%)  chase  *171.0 us  *334.0 ns|loadlat chase: 171 us / 512 steps
W=20 (100%)  chase -  . streams  *200.0 us  *390.6 ns  *3460 GB/s|loadlat streams: 132 groups x 20 x 512 B x 512 trips / 200 us (the plan's groups, not the units)
la_atom_val  *500.0 us  x 2.50|loopatomic: 500 / 200 us
im_muladd  *346.0 us   2.00 cyc|issuemix: 4224 x 8 warps x 32 reps x 32 steps = 34603008 warp-steps, 346.03 us x 2 GHz x 100 / steps
X
echo "probe plans: ok"
