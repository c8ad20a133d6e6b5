#!/bin/sh
# The real TUI in tmux: keys from the one key list (htop's F3/F6/F10, the
# help view paging, the source view's next-finding key), the help's
# legend of columns and verdicts, the re-run message that goes away when
# the round is done, and terminals without cursor addressing, reverse
# colours or 16 colours (TERM=dumb, vt100, 8 colours).
. "${CW_TEST_ROOT:-.}/tests/screen/lib.sh"
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
PLAN="$ROOT/tests/screen/plan.json"
FAST="--samples 3 --budget 0.1"

# ---- htop's function keys: F6 sorts, F3 filters, F10 quits ----
start fk 80 24 "$CW" tui --static "$PLAN"
expect fk '^ saxpy ' "static main view"
keys fk F6
expect fk 'sorted by name' "F6 cycles the sort key"
keys fk F3
expect fk 'Filter: _' "F3 opens the filter prompt"
keys fk r e d
expect fk 'Filter: red_' "typing goes to the filter"
if screen fk | grep -q '^ saxpy '; then fail "filter 'red': saxpy still listed"; else ok "filter 'red' hides saxpy"; fi
keys fk Escape
expect fk '^ saxpy ' "Esc clears the filter"
keys fk F10
check_restored fk
[ "$(cat "$WORK/fk.rc" 2>/dev/null)" = 0 ] && ok "F10 quits (exit 0)" || fail "F10 exit status"

# ---- the binding term is shown first on the summary's terms line at 80 columns ----
start bt 80 24 "$CW" tui --static "$PLAN"
expect bt '^ terms ' "summary: terms line"
expect bt '│ static only' "summary: every kernel analysed"
for k in 1 2 3; do
    [ "$k" -gt 1 ] && keys bt Down && sleep 0.3
    sel=$(screen bt | grep -E "^ [a-z_]+ " | sed -n "${k}p")
    bound=$(printf '%s\n' "$sel" | awk '{print $2}')
    first=$(screen bt | grep '^ terms ' | awk '{print $2}')
    [ -n "$bound" ] && [ "$first" = "$bound" ] && ok "kernel $k: the binding term ($bound) comes first" ||
        fail "kernel $k: bound '$bound' but the terms line starts with '$first'"
done
keys bt q
check_restored bt

# ---- a tall terminal: the summary uses the rows the table does not need ----
start tall 160 48 "$CW" tui --static "$PLAN"
expect tall '^ saxpy ' "160x48: main view"
expect tall '── Counts' "160x48: the summary shows the detail sections"
# the table keeps its 8 rows (header, titles, rows 3-10) and the summary
# takes the rest from row 11, down to the last of saxpy's accesses (a
# count of blank rows instead would move with what the model says)
at=$(screen tall | grep -n '^─ saxpy ─' | cut -d: -f1)
[ "$at" = 11 ] && ok "160x48: the summary starts under the table's 8 rows" ||
    fail "160x48: the summary starts on row ${at:-none}, want 11"
screen tall | grep -Eq '^  store storage Y .* line [0-9]+' &&
    ok "160x48: the summary shows the counts down to the last access" ||
    { fail "160x48: the counts are cut"; screen tall; }
keys tall q
check_restored tall

# ---- help: PgDn scrolls it (does not leave), columns and verdicts ----
start hp 80 24 "$CW" tui --static "$PLAN"
expect hp '^ saxpy ' "help: main view"
keys hp '?'
expect hp '── Keys' "help view"
keys hp NPage
expect hp '── Verdict' "PgDn scrolls the help to the verdicts"
expect hp 'Clockwork [0-9.]+ · help' "PgDn stays in help"
keys hp NPage
expect hp 'slower +measured above the band' "help says what 'slower' means"
expect hp '·  +source view: the line costs next to nothing' "help explains the · mark"
keys hp PPage
keys hp PPage
expect hp '── Keys' "PgUp scrolls back"
keys hp x
expect hp '^ KERNEL ' "another key leaves help"
keys hp q
check_restored hp

# ---- source view: n goes to the next line with a finding ----
start src 100 30 "$CW" tui --static "$PLAN"
expect src '^ saxpy_noguard ' "source: main view"
keys src G Enter Enter
expect src 'saxpy_noguard · .*GLSL' "source view of saxpy_noguard"
keys src n
expect src 'line [0-9]+: error out-of-bounds' "n jumps to the out-of-bounds line"
line=$(screen src | grep -Eo 'line [0-9]+: error out-of-bounds' | head -n1 | grep -Eo '[0-9]+')
if screen src | grep -Eq "^[●▲•] +$line "; then ok "the finding's line $line carries its mark"; else fail "no mark on line $line"; fi
keys src q
check_restored src

# ---- a .spv with debug info: the GLSL it carries, with the findings' marks ----
if command -v glslc >/dev/null; then
    glslc -g "$ROOT/examples/kernels/saxpy_noguard.comp" -o "$WORK/noguard.spv"
    cat > "$WORK/spv.json" <<JSON
{"kernels": [{"name": "g", "shader": "noguard.spv", "workgroups": [4], "push": {"n": 1000, "alpha": 2.0},
 "buffers": [{"binding": 0, "elements": 1000}, {"binding": 1, "elements": 1000}]}]}
JSON
    start spv 100 30 "$CW" tui --static "$WORK/spv.json"
    expect spv '^ g ' "spv: main view"
    keys spv 3
    expect spv 'g · noguard.spv · GLSL · [0-9]+ lines' "spv -g: the source view shows the embedded GLSL"
    expect spv '^● +11 .*y\[i\] = alpha \* x\[i\] \+ y\[i\];' "spv -g: the finding's mark on the GLSL line it cites"
    keys spv q
    check_restored spv
else
    fail "glslc missing (make deps)"
fi

# ---- roofline: GPU and CPU kernels, one roof each, labels whole, the legend
# pages, twins side by side, integer kernels against the INT32 roof ----
EXC="$(dirname "$CW")/examples/cpu"
sed "s|\.\./\.\./build/examples/cpu|$EXC|" "$ROOT/examples/cpu/plan.json" > "$WORK/cpu.json"
start rf 120 40 "$CW" tui --static "$ROOT/examples/plan.json" "$WORK/cpu.json"
expect rf '^ sgemm_blas ' "roofline: both plans loaded"
keys rf 4
expect rf 'Roofline · FLOP/s' "roofline view"
expect rf 'GPU FP32 [0-9.]+ GFLOP/s' "roofline: the GPU's roof, label whole"
expect rf 'CPU FP32 [0-9.]+ GFLOP/s' "roofline: the CPU's roof for the native kernels, label whole"
expect rf 'INT32 [0-9.]+ GOP/s' "roofline: the INT32 roof for the integer-only kernel"
expect rf ' [a-z][A-Z]c +sgemm_naive +[0-9.]+ +[0-9.]+G' "roofline: a native kernel tagged as on the CPU's roof"
expect rf ' [a-z][A-Z]i +transpose +[0-9.]+ +[0-9.]+[kMG]' "roofline: the integer-only kernel tagged and listed with its rate"
keys rf q
check_restored rf
# the legend pages: 7 kernels in 6 rows at 80x24
start lg 80 24 "$CW" tui --static "$ROOT/examples/plan.json"
expect lg '^ saxpy_noguard ' "legend: loaded"
keys lg 4
expect lg '▼ [0-9]+ more' "roofline: the legend says there are more below"
keys lg G
expect lg '▲ [0-9]+ more' "roofline: at the end, the legend says there are more above"
expect lg '^ [a-z][A-Z] +saxpy_nogua' "roofline: the last kernel in the legend window"
keys lg q
check_restored lg
# two kernels with the same intensity and rate: both letters on the plot
python3 - "$ROOT/tests/screen/plan.json" "$WORK/twins.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
k = p["kernels"][0]
for key in ("shader",):
    k[key] = sys.argv[1].rsplit("/", 1)[0] + "/" + k[key]
twin = dict(k, name="saxpy_twin")
json.dump({"kernels": [k, twin]}, open(sys.argv[2], "w"))
PY
start tw 80 24 "$CW" tui --static "$WORK/twins.json"
expect tw '^ saxpy_twin ' "twins: loaded"
keys tw 4
expect tw 'Roofline · FLOP/s' "twins: roofline"
expect tw '^ bB +saxpy_twin +[0-9.]+ +[0-9.]+[kMG]' "twins: analysed"
plotted=$(screen tw | sed -n '3,16p' | cut -c9- | grep -o '[ab]' | sort -u | tr -d '\n')
[ "$plotted" = ab ] && ok "twins: both letters on the plot" || fail "twins: plotted '$plotted', want a and b"
keys tw q
check_restored tw

# ---- the re-run message goes away when the round is done ----
start rr 80 24 "$CW" tui --samples 3 --budget 0.2 "$ROOT/examples/plan.json"
expect rr 'done · [0-9]+ measured' "rerun: first round done" 900
keys rr r
expect rr 're-running every kernel' "r says it re-runs"
expect rr '│ sampling ' "rerun: the second round runs" 900
expect rr 'done · [0-9]+ measured' "rerun: second round done" 900
sleep 0.5
if screen rr | grep -q 're-running every kernel'; then fail "the re-run message stays after the round"; else ok "the re-run message is gone after the round"; fi
keys rr q
check_restored rr

# ---- TERM=dumb: refused with a pointer to run and --snapshot ----
CW_TERM=dumb start dumb 80 24 "$CW" tui --static "$PLAN"
expect dumb "cannot place the cursor" "TERM=dumb is refused"
expect dumb "clockwork run PLAN.*--snapshot|--snapshot" "the message points at run and --snapshot"
expect dumb "EXITED-dumb" "TERM=dumb: the program returns"
[ "$(cat "$WORK/dumb.rc" 2>/dev/null)" = 2 ] && ok "TERM=dumb exits 2" || fail "TERM=dumb exit status $(cat "$WORK/dumb.rc" 2>/dev/null)"

# ---- vt100 (no colours): the selected row is drawn in reverse video ----
CW_TERM=vt100 start vt 80 24 "$CW" tui --static "$PLAN"
expect vt '^ saxpy ' "vt100: main view"
if screen_esc vt | grep ' saxpy ' | grep -q "$(printf '\033')\\[[0-9;]*7[;m]"; then
    ok "vt100: the selected row is in reverse video"
else
    fail "vt100: the selected row has no reverse video"
    screen_esc vt | grep ' saxpy ' | cat -v
fi
keys vt q
check_restored vt

# ---- 8 colours: dim text is dim in the terminal's colour, not bold black ----
CW_TERM=screen start c8 80 24 "$CW" tui --static "$PLAN"
expect c8 '^ saxpy ' "8 colours: main view"
st=$(screen_esc c8 | grep 'kernels · sort')
if printf '%s' "$st" | grep -Eq "$(printf '\033')\\[([0-9;]*;)?30[;m]"; then
    fail "8 colours: dim text drawn in black"
    printf '%s\n' "$st" | cat -v
elif printf '%s' "$st" | grep -Eq "$(printf '\033')\\[([0-9;]*;)?2[;m]"; then
    ok "8 colours: dim text uses the dim attribute"
else
    fail "8 colours: dim text neither dim nor black?"
    printf '%s\n' "$st" | cat -v
fi
keys c8 q
check_restored c8

echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
