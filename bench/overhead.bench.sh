#!/bin/sh
# Measurement overhead: host time per sample of clockwork's runner
# (timestamps + pipeline statistics + counters + the stop rule) against a
# bare submit-and-wait loop of the same dispatch, on the default device.
. "$(dirname "$0")/lib.sh"
bench_build overhead bench/overhead.c
"$BUILD/bench/overhead"
