#!/bin/sh
# The CLI-facing documents against the code they describe:
#   - every option of the CLI's option table (app/main.c long_opts, plus -o,
#     -q, -h) is in the man page, and every option the man page names is in
#     the table;
#   - every key of the TUI's key list (tui/keys.def, its help column) is in
#     the man page's KEYS section;
#   - every docs/ file the Makefile names exists.
# (The plan reference against the loader: plan_schema.sh.)
set -u
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ROOT=${CW_TEST_ROOT:-$(pwd)}
cd "$ROOT" || exit 1
FAILS=0
MAN=docs/clockwork.1
MAIN=$(ls app/main.c core/main.c 2>/dev/null | head -n 1)
[ -n "$MAIN" ] || { echo "FAIL: no main.c"; exit 1; }

# ---- options ----
table=$(sed -n '/long_opts\[\] = {/,/{0, 0, 0, 0}/p' "$MAIN" | grep -o '{"[a-z0-9-]*"' | tr -d '{"' | sort -u)
[ "$(printf '%s\n' "$table" | wc -l)" -gt 15 ] || fail "could not read the option table of $MAIN"
# the man page writes - as \-
man_opts=$(sed 's/\\-/-/g' "$MAN" | grep -o -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u)
for o in $table; do
    printf '%s\n' "$man_opts" | grep -qx -- "$o" || fail "option --$o is not in $MAN"
done
for o in $man_opts; do
    printf '%s\n' "$table" | grep -qx -- "$o" || fail "$MAN names --$o, which the CLI does not have"
done
for s in o q h; do
    sed 's/\\-/-/g' "$MAN" | grep -q -- "-$s\\b\|B -$s\|BI -$s" || fail "option -$s is not in $MAN"
done

# ---- keys ----
keys_section=$(sed -n '/^\.SH KEYS/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g; s/\\f[BIR]//g')
[ -n "$keys_section" ] || fail "$MAN has no KEYS section"
python3 - tui/keys.def <<'PY' > "${TMPDIR:-/tmp}/cw-keys.$$" || fail "cannot read tui/keys.def"
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
for m in re.finditer(r'TUI_KEY\(\s*\w+\s*,[^,]*,\s*"[^"]*"\s*,\s*"[^"]*"\s*,\s*"([^"]*)"', text):
    for tok in m.group(1).split():
        names = {"↑": "Up", "↓": "Down", "←": "Left", "→": "Right", "…": None}
        tok = names.get(tok, tok)
        if tok:
            print(tok)
PY
n=0
while read -r k; do
    n=$((n + 1))
    printf '%s\n' "$keys_section" | grep -v '^\.SH' | grep -q -- "^\.B.*\(^\| \)$(printf '%s' "$k" | sed 's/[][\.*^$?/]/\\&/g')\( \|$\)" ||
        fail "key '$k' (tui/keys.def) is not in the KEYS section of $MAN"
done < "${TMPDIR:-/tmp}/cw-keys.$$"
rm -f "${TMPDIR:-/tmp}/cw-keys.$$"
[ "$n" -gt 20 ] || fail "only $n keys read from tui/keys.def"

# ---- docs the Makefile names ----
for f in $(grep -o 'docs/[A-Za-z0-9_./-]*[A-Za-z0-9]' Makefile | sort -u); do
    [ -e "$f" ] || fail "the Makefile names $f, which does not exist"
done

[ "$FAILS" -eq 0 ] && echo "docs: ok"
[ "$FAILS" -eq 0 ]
