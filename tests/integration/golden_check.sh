#!/bin/sh
# The JSON `clockwork check` writes for examples/ and every corpus case is
# what tests/golden/check/ holds (timings and host-specific fields aside).
# A difference is either a bug or an intended change: then regenerate with
# `sh tests/golden/update.sh` in the same commit (tests/corpus/README.md).
. "$(dirname "$0")/../lib.sh"
sh "$CW_TEST_ROOT/tests/golden/check_json.sh" compare || fail "check JSON differs from tests/golden/check"
pass
