#!/bin/sh
# Layering (docs/architecture.md, "Layers"): core < verifier < collectors <
# app < tui, with app/main.c (the program) on top.  Fails on an #include
# that points upward, on the SPIR-V reader knowing the plan format, on a
# process exit code (CW_EXIT_*) used outside app/, and on
# a fuzz harness that links what it does not test (the SPIR-V harnesses:
# no Vulkan, ncurses, libpfm4, capstone or shaderc).  The Makefile gives
# each layer only the include paths below it, so an upward include does not
# compile either; this names the line.
. "$(dirname "$0")/../lib.sh"
cd "$CW_TEST_ROOT" || fail "no CW_TEST_ROOT"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

rank() {
    case $1 in
        core) echo 0 ;; verifier) echo 1 ;; collectors) echo 2 ;; app) echo 3 ;;
        tui) echo 4 ;; *) echo -1 ;;
    esac
}
# Explicit exceptions, "file -> included header", one a line (none today).
# The program, app/main.c, stands on every layer (it starts the CLI or the
# TUI) and is not checked.
ALLOW=""
PROGRAM="app/main.c"

for d in core verifier collectors app tui; do
    for h in "$d"/*.h "$d"/*.def "$d"/*.inc; do
        [ -f "$h" ] && echo "$(basename "$h") $d"
    done
done > "$T/owners"

bad=0
for d in core verifier collectors app tui; do
    r=$(rank "$d")
    for f in "$d"/*.c "$d"/*.h "$d"/*.cpp; do
        [ -f "$f" ] || continue
        [ "$f" = "$PROGRAM" ] && continue
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
        sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' > "$T/inc"
        while read -r line inc; do
            base=$(basename "$inc")
            owner=$(awk -v h="$base" '$1 == h { print $2; exit }' "$T/owners")
            [ -n "$owner" ] || continue
            orank=$(rank "$owner")
            if [ "$orank" -gt "$r" ]; then
                case "
$ALLOW
" in *"
$f -> $base
"*) continue ;; esac
                echo "$f:$line: includes $owner/$base, a layer above $d"
                bad=$((bad + 1))
            fi
        done < "$T/inc"
    done
done
# the SPIR-V reader knows no plan (issue 14)
if grep -n '#[[:space:]]*include[[:space:]]*"plan.h"' verifier/spirv.c verifier/spirv.h; then
    echo "verifier/spirv.[ch] include plan.h: the reader must not know the plan format"
    bad=$((bad + 1))
fi
[ "$bad" -eq 0 ] || fail "$bad upward include(s)"

# process exit codes are the program's (issue 14): library code returns a
# status (core/error.h) and only app/ maps it (app/exitcode.h); tui/ asks
# app/exitcode for the number
exits=$(grep -n 'CW_EXIT_[A-Z]' core/* verifier/* collectors/* tui/* 2>/dev/null)
[ -z "$exits" ] || { echo "$exits"; fail "process exit codes outside app/ (return a cw_status)"; }

# the fuzz harnesses' link sets (built by make test: make fuzzers)
for h in spirv spirv_mut plan profile report theme elf events cpurun; do
    b="$BUILD/fuzz/fuzz_$h"
    [ -x "$b" ] || fail "$b not built (make fuzzers)"
done
for h in spirv spirv_mut; do
    b="$BUILD/fuzz/fuzz_$h"
    needed=$(readelf -d "$b" | grep NEEDED)
    for lib in vulkan ncurses tinfo pfm capstone shaderc glslang; do
        case $needed in *"$lib"*) fail "fuzz_$h links lib$lib: $needed" ;; esac
    done
    nm "$b" | grep -q ' [TtWw] shaderc_' && fail "fuzz_$h contains shaderc"
    nm "$b" | grep -q ' [Uu] vk' && fail "fuzz_$h calls Vulkan"
done
for h in plan profile report; do
    needed=$(readelf -d "$BUILD/fuzz/fuzz_$h" | grep NEEDED)
    for lib in vulkan ncurses tinfo pfm capstone shaderc; do
        case $needed in *"$lib"*) fail "fuzz_$h links lib$lib" ;; esac
    done
done
# and each replays its seeds and regression inputs without crashing
for h in spirv plan profile report theme elf events cpurun; do
    inputs=$(ls tests/fuzz/seeds/"$h"/* tests/fuzz/regressions/"$h"/* 2>/dev/null)
    [ -n "$inputs" ] || continue
    # shellcheck disable=SC2086
    timeout 300 "$BUILD/fuzz/fuzz_$h" $inputs > "$T/replay.log" 2>&1 ||
        { tail -n 5 "$T/replay.log"; fail "fuzz_$h failed replaying its inputs"; }
done
pass
