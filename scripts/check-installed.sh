#!/usr/bin/env bash
# Check the installed Debian package: the files at their standard paths, a
# binary that links no system TLS or compression library, and the installed
# binary doing its three jobs (a live check when a server answers at
# 127.0.0.1:3306 as root).
set -euo pipefail
fail() { echo "check-installed: $*" >&2; exit 1; }
bin=/usr/bin/mytune
[ -x "$bin" ] || fail "$bin is missing"
for f in /usr/share/man/man1/mytune.1* /usr/share/bash-completion/completions/mytune \
         /usr/share/zsh/vendor-completions/_mytune /usr/share/fish/vendor_completions.d/mytune.fish; do
  [ -e "$f" ] || fail "$f is missing"
done
ls /usr/share/man/man1/mytune-check.1* >/dev/null 2>&1 || fail "the check command's manual page is missing"
if ldd "$bin" | grep -E 'libssl|libcrypto|libz\.' ; then
  fail "the binary links a system TLS or compression library"
fi
"$bin" --version
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MYTUNE_DETECT_SERVER=0 "$bin" gen-cnf --target mariadb-10.11 --memory 4G --cpus 2 > "$tmp/my.cnf"
set +e
MYTUNE_DETECT_SERVER=0 "$bin" lint --target mariadb-10.11 "$tmp/my.cnf" > /dev/null
rc=$?
set -e
[ "$rc" -le 1 ] || fail "lint of a generated file exited $rc"
if command -v mariadb >/dev/null && mariadb -uroot -h127.0.0.1 -P3306 -e 'SELECT 1' >/dev/null 2>&1; then
  set +e
  "$bin" check --no-defaults -h 127.0.0.1 -P 3306 -u root --format json > "$tmp/check.json"
  rc=$?
  set -e
  [ "$rc" -le 1 ] || fail "check against 127.0.0.1:3306 exited $rc"
  grep -q '"findings"' "$tmp/check.json" || fail "check printed no report"
fi
size=$(stat -c %s "$bin")
echo "check-installed: ok ($bin, $((size / 1024)) KiB)"
