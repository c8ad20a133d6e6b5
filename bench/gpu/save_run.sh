#!/bin/sh
# Saves what a device run of bench/gpu/h200.sh brought back (its
# gpu-run.tar.gz) into a docs folder under the names docs/h200/ uses:
#   sh bench/gpu/save_run.sh RUN.tar.gz DEST
# machine.txt, devices.txt / devices.json, calibrate.txt / calibrate-2.txt
# (the logs), h200-calibrated*.json, the reports (corpus-*, validation-*,
# blind-*, blind2-*, blind3-*, blind4-*, probe-*.json), floor.txt, tsbare.txt, floor-run.json, the
# built-in profile's predictions (check-builtin*.csv), accuracy-table.txt
# and session.log.  Exit 1 if the archive holds no session.log.
set -eu
TAR=$1
DEST=$2
T=$(mktemp -d)
tar -C "$T" -xzf "$TAR"
R=$T/r
[ -s "$R/session.log" ] || { echo "save_run: $TAR holds no session.log" >&2; rm -rf "$T"; exit 1; }
mkdir -p "$DEST"
cp "$R/machine.txt" "$R/session.log" "$DEST/"
for f in devices:devices.txt devices-json:devices.json floor:floor.txt; do
    [ -s "$R/${f%%:*}.out" ] && cp "$R/${f%%:*}.out" "$DEST/${f#*:}"
done
for c in calibrate calibrate-2; do
    [ -s "$R/$c.err" ] && cp "$R/$c.err" "$DEST/$c.txt"
done
for f in "$R"/*.json "$R"/check-builtin*.csv "$R/tsbare.txt" "$R/accuracy-table.txt"; do
    [ -s "$f" ] && cp "$f" "$DEST/"
done
# a step that failed: keep what it said
for e in "$R"/*.err; do
    [ -s "$e" ] || continue
    case $(basename "$e") in calibrate.err|calibrate-2.err) continue ;; esac
    cp "$e" "$DEST/"
done
rm -rf "$T"
ls "$DEST"
