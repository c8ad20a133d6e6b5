#!/bin/sh
# make bench: run every bench/*.bench.sh with the build folder as $1 and
# $BUILD.  Each prints its own table; a failing bench is reported and the
# rest still run.
BUILD=${1:-build}
export BUILD
status=0
for b in bench/*.bench.sh; do
    [ -f "$b" ] || continue
    echo "== $(basename "$b" .bench.sh)"
    if ! sh "$b" "$BUILD"; then
        echo "bench $(basename "$b") failed"
        status=1
    fi
    echo
done
exit $status
