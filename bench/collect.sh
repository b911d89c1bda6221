#!/usr/bin/env bash
# Benchmark of `mytune collect` (no --interval) against a throw-away local
# MariaDB: wall time (median of $RUNS runs) and statements sent, on a
# near-empty server and on one holding $TABLES tables; MySQLTuner timed on the
# same server for comparison. Budget: <= 20 statements, < 150 ms (empty),
# < 1 s (20,000 tables).
#
# "statements" is mytune's own count (stored in the snapshot as
# server.queries); "Questions delta" is the server's counter, which also counts
# the connection's COM_QUIT, so it reads one more.
#
# The server is started the way tests/support/mariadb.rs starts one: a
# private datadir, socket and port, removed at exit. The shared server on
# 3306 is not touched.
#
#   bench/collect.sh            # RUNS=10 TABLES=20000
#   RUNS=3 TABLES=2000 bench/collect.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-10}
TABLES=${TABLES:-20000}
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)

echo "building release binary..." >&2
cargo build --release --quiet
BIN=$PWD/target/release/mytune

if ! command -v mysqltuner >/dev/null; then
  echo "installing mysqltuner..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mysqltuner >/dev/null
fi

# The datadir goes to tmpfs when there is one: creating 20,000 InnoDB tables
# on a VM disk that honours fsync takes ~15 minutes, on tmpfs ~20 s. Reads
# then come from memory, as they do on a warm server.
BASE=${BENCH_DIR:-$( [ -w /dev/shm ] && echo /dev/shm || echo /tmp )}
WORK=$(mktemp -d "$BASE/mytune-bench-XXXXXX")
SOCK=$WORK/sock
PID=
# Outputs kept after the run (snapshots, MySQLTuner reports).
OUT=${BENCH_OUT:-/tmp/mytune-bench-out}
mkdir -p "$OUT"
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# A free port: ask the kernel via a bound socket.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

USER_ARG=()
[ "$(id -u)" = 0 ] && USER_ARG=(--user=root)

echo "installing a throw-away datadir in $WORK..." >&2
mariadb-install-db --no-defaults --auth-root-authentication-method=normal \
  --datadir="$WORK/data" --innodb-log-file-size=8M --innodb-buffer-pool-size=32M \
  "${USER_ARG[@]}" >"$WORK/install.log" 2>&1

cat >"$WORK/my.cnf" <<CNF
[mariadbd]
innodb_buffer_pool_size = 128M
innodb_log_file_size = 64M
innodb_flush_log_at_trx_commit = 0
skip_name_resolve = ON
CNF

"$MARIADBD" --defaults-file="$WORK/my.cnf" --datadir="$WORK/data" --socket="$SOCK" \
  --port="$PORT" --bind-address=127.0.0.1 --pid-file="$WORK/pid" \
  --log-error="$WORK/error.log" "${USER_ARG[@]}" </dev/null >/dev/null 2>&1 &
PID=$!

client() { mariadb --no-defaults -uroot --socket="$SOCK" -N -B "$@"; }
for _ in $(seq 1 300); do
  client -e 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.05
done
client -e 'SELECT 1' >/dev/null || { echo "server did not start:"; tail "$WORK/error.log"; exit 2; }

questions() { client -e "SHOW GLOBAL STATUS LIKE 'Questions'" | cut -f2; }

now_ms() { date +%s%N | awk '{ printf "%d", $1 / 1000000 }'; }

# median of the numbers on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# One row of the table: label, mytune median ms, statements (own counter and
# the server's Questions delta), mysqltuner ms.
measure() {
  local label=$1
  "$BIN" collect --no-defaults -S "$SOCK" -u root --out "$WORK/warm.json" 2>/dev/null  # warm-up
  local times=()
  for _ in $(seq 1 "$RUNS"); do
    local t0; t0=$(now_ms)
    "$BIN" collect --no-defaults -S "$SOCK" -u root --out "$WORK/snap.json" 2>/dev/null
    times+=($(( $(now_ms) - t0 )))
  done
  local med; med=$(printf '%s\n' "${times[@]}" | median)
  local own; own=$(grep -o '"queries": [0-9]*' "$WORK/snap.json" | grep -o '[0-9]*$')
  # Questions delta around one collection, minus what two bare reads of the
  # counter add by themselves (the mariadb client's own statements).
  local q0 q1 b0 b1
  b0=$(questions); b1=$(questions)
  q0=$(questions)
  "$BIN" collect --no-defaults -S "$SOCK" -u root --out "$WORK/snap.json" 2>/dev/null
  q1=$(questions)
  local delta=$(( (q1 - q0) - (b1 - b0) ))
  local skipped; skipped=$(grep -c '"what"' "$WORK/snap.json" || true)
  local t0; t0=$(now_ms)
  # TCP on purpose: MySQLTuner 1.9.9 given --socket still ran its queries
  # against the default socket (the machine's shared server). No --pass: an
  # empty one makes it pass a bare -p to the client.
  local report="$OUT/mysqltuner-${label// /-}.txt"
  mysqltuner --host 127.0.0.1 --port "$PORT" --user root --nocolor --noask >"$report" 2>&1 || true
  grep -q "Performing tests on 127.0.0.1:$PORT" "$report" \
    || { echo "mysqltuner did not test the throw-away server, see $report" >&2; exit 2; }
  cp "$WORK/snap.json" "$OUT/mytune-${label// /-}.json"
  local tuner=$(( $(now_ms) - t0 ))
  printf '| %-22s | %9s ms | %10s | %15s | %7s | %12s ms |\n' "$label" "$med" "$own" "$delta" "$skipped" "$tuner"
}

echo
printf '| %-22s | %12s | %10s | %15s | %7s | %15s |\n' server "mytune (med)" statements "Questions delta" skipped "mysqltuner"
printf '|%s|%s|%s|%s|%s|%s|\n' "------------------------" "--------------" "------------" "-----------------" "---------" "-----------------"
measure "near-empty"

echo "creating $TABLES tables..." >&2
t0=$(now_ms)
per_db=200
dbs=$(( (TABLES + per_db - 1) / per_db ))
awk -v dbs="$dbs" -v per="$per_db" -v total="$TABLES" 'BEGIN {
  n = 0
  for (d = 1; d <= dbs; d++) {
    printf "CREATE DATABASE bench%d;\n", d
    for (t = 1; t <= per && n < total; t++) {
      printf "CREATE TABLE bench%d.t%d (id INT PRIMARY KEY, v VARCHAR(32)) ENGINE=InnoDB;\n", d, t
      n++
    }
  }
}' | client
echo "created in $(( $(now_ms) - t0 )) ms" >&2
measure "$TABLES tables"
echo
echo "(median of $RUNS runs, release build, socket connection, datadir in $BASE; mysqltuner timed once; outputs in $OUT)"
