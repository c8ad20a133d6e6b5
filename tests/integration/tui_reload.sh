#!/bin/sh
# Live editing: while the TUI runs, an edited shader is re-analysed and
# re-measured by itself, an edited plan is reloaded, a broken plan is
# reported on the status line with file:line and the old one kept; p
# pauses and r re-runs.
. "${CW_TEST_ROOT:-.}/tests/screen/lib.sh"
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
D="$WORK/proj"
mkdir -p "$D"
cp "$ROOT/examples/kernels/saxpy.comp" "$D/saxpy.comp"
write_plan() {
    cat > "$D/plan.json.tmp" <<JSON
{"kernels": [{"name": "$1", "shader": "saxpy.comp", "workgroups": [16, 1, 1],
  "push": {"n": 4096, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 4096}, {"binding": 1, "elements": 4096}]}]}
JSON
    mv "$D/plan.json.tmp" "$D/plan.json"
}
write_plan saxpy
start live 100 30 "$CW" tui --samples 5 --budget 0.2 "$D/plan.json"
expect live 'done · 1 measured' "first pass measured" 900
keys live p
expect live 'paused' "p pauses"
# r while paused: the re-run waits, so its message can be seen; resuming
# runs it (the message goes when the round is done)
keys live r
expect live 're-running every kernel' "r re-runs"
keys live p
expect live 'done · 1 measured' "re-run finished" 900
keys live l
expect live 'loop · round [2-9][0-9]* · sampling' "l loops: another round starts by itself" 900
# the header keeps its "loop · round N" prefix between rounds (no flicker
# between "done" and "sampling")
other=0
for i in $(seq 1 20); do
    screen live | head -n 1 | grep -q '│ loop · round [0-9]' || other=$((other + 1))
    sleep 0.1
done
[ "$other" -eq 0 ] && ok "loop: the header says loop · round N all along" ||
    fail "loop: the header left 'loop · round N' $other times in 20"
keys live l
expect live 'loop off' "l again stops looping"
expect live 'done · 1 measured' "the last round finishes" 900
keys live 3
expect live 'GLSL · [0-9]+ lines' "source view"
sleep 1
printf '// edited-by-test\n' >> "$D/saxpy.comp"
expect live 'edited-by-test' "edited shader re-analysed: new line in the source view"
expect live 'done · 1 measured' "edited shader re-measured" 900
keys live 1
# an edit that adds work: the prediction and the measurement move, and the
# summary says by how much
sleep 1
sed 's|y\[i\] = alpha \* x\[i\] + y\[i\];|y[i] = alpha * x[i] + y[i]; for (int r = 0; r < 64; r++) y[i] = y[i] * 0.999 + alpha;|' \
    "$D/saxpy.comp" > "$D/saxpy.tmp" && mv "$D/saxpy.tmp" "$D/saxpy.comp"
grep -q 'for (int r' "$D/saxpy.comp" || fail "test setup: the shader edit did not apply"
expect live 'predicted \+[0-9]+% \(was ' "more work: the prediction rises, the change shown"
expect live 'measured \+[0-9]+% \(was ' "more work: the measurement rises, the change shown" 900
sleep 1
write_plan saxpy_renamed
expect live '^ saxpy_renamed ' "edited plan reloaded"
sleep 1
printf '{"kernels": [\n  {"name": 5}\n' > "$D/plan.json"
expect live 'plan not reloaded: .*plan.json:[0-9]+' "broken plan reported with file:line"
screen live | grep -q '^ saxpy_renamed ' && ok "old kernels kept" || fail "old kernels lost"
keys live q
check_restored live
echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
