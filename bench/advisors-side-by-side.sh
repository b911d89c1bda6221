#!/usr/bin/env bash
# mytune check beside MySQLTuner on the same four throw-away MariaDB servers:
# MariaDB's defaults, the single-node tuning article's §2.3 file with its pool
# scaled to a 4G host, a deliberately bad config, and a loaded server (a 1G
# buffer pool and the slow log on) after a sysbench oltp_read_write run. Every server gets a private datadir, socket
# and port on 127.0.0.1 (the shared server is not touched); both tools are
# told the host has 4G and 2 CPUs (mytune --memory/--cpus, MySQLTuner
# --forcemem) so their budgets agree.
# Usage: bench/advisors-side-by-side.sh [OUTDIR]   (default: target/advisors)
# Needs: mariadb-install-db, mariadbd, mysqltuner, sysbench; a release build.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
OUT=${1:-$ROOT/target/advisors}
MYTUNE=${MYTUNE:-$ROOT/target/release/mytune}
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)
BASE=$( [ -w /dev/shm ] && echo /dev/shm || echo /tmp )
USER_ARG=()
[ "$(id -u)" = 0 ] && USER_ARG=(--user=root)
mkdir -p "$OUT"
PORT=3391

start() { # start NAME CNF -> sets W
  W=$(mktemp -d "$BASE/mytune-adv-XXXXXX")
  mariadb-install-db --no-defaults --auth-root-authentication-method=normal \
    --datadir="$W/data" "${USER_ARG[@]}" >"$W/install.log" 2>&1
  cp "$2" "$W/my.cnf"
  printf '[mariadbd]\nport = %d\nbind_address = 127.0.0.1\nsocket = %s/sock\npid_file = %s/pid\nlog_error = %s/error.log\ntmpdir = %s\ndatadir = %s/data\n' \
    "$PORT" "$W" "$W" "$W" "$W" "$W" >>"$W/my.cnf"
  "$MARIADBD" --defaults-file="$W/my.cnf" "${USER_ARG[@]}" </dev/null >/dev/null 2>&1 &
  for _ in $(seq 100); do [ -S "$W/sock" ] && [ -s "$W/pid" ] && break; sleep 0.2; done
  [ -S "$W/sock" ] || { echo "$1: the server did not start"; cat "$W/error.log"; exit 1; }
}

stop() {
  kill "$(cat "$W/pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$W"
}

advise() { # advise NAME
  COLUMNS=120 "$MYTUNE" check --host 127.0.0.1 --port "$PORT" --user root \
    --memory 4G --cpus 2 --color never >"$OUT/$1.mytune.txt" 2>&1 || true
  "$MYTUNE" check --host 127.0.0.1 --port "$PORT" --user root \
    --memory 4G --cpus 2 --format json >"$OUT/$1.mytune.json" 2>/dev/null || true
  mysqltuner --host 127.0.0.1 --port "$PORT" --user root --pass '' --forcemem 4096 \
    --nocolor --skippassword >"$OUT/$1.mysqltuner.txt" 2>&1 || true
  echo "$1: $(grep -c '' "$OUT/$1.mytune.txt") lines of mytune, $(grep -c '^\[!!\]' "$OUT/$1.mysqltuner.txt") MySQLTuner [!!] items"
}

for state in defaults best-practice-scaled bad; do
  start "$state" "$HERE/advisors/$state.cnf"
  advise "$state"
  stop
done

# A loaded server: a 1G pool and the slow log on, after a sysbench run.
start loaded "$HERE/advisors/loaded.cnf"
SB=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$PORT" --mysql-user=root
    --mysql-db=sbtest --tables=4 --table-size=100000)
mariadb --socket="$W/sock" -uroot -e 'CREATE DATABASE sbtest'
sysbench oltp_read_write "${SB[@]}" prepare >/dev/null
sysbench oltp_read_write "${SB[@]}" --threads=8 --time=60 run >"$OUT/loaded.sysbench.txt"
advise loaded
stop
