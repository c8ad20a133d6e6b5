#!/bin/sh
# make install PREFIX=... puts the binary, the ABI header, the man page and
# the themes in place, and the installed binary runs.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
make --no-print-directory install PREFIX="$T/usr" BUILD="$BUILD" > "$T/log" 2>&1 || fail "make install: $(tail -5 "$T/log")"
for f in bin/clockwork include/clockwork.h share/man/man1/clockwork.1 \
         share/clockwork/themes/default.theme share/clockwork/themes/monochrome.theme; do
    [ -f "$T/usr/$f" ] || fail "not installed: $f"
done
expect_out "clockwork " "$T/usr/bin/clockwork" --version
man -l "$T/usr/share/man/man1/clockwork.1" > /dev/null 2>&1 || command -v man > /dev/null || true
pass
