#!/bin/sh
# Regenerate tests/golden/check/*.json from the current build (make all
# first).  Commit the result together with the change that altered the
# output on purpose; review `git diff tests/golden` before committing.
exec sh "$(dirname "$0")/check_json.sh" update
