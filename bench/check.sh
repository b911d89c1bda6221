#!/usr/bin/env bash
# Benchmark of `mytune check` (no --interval) against a throw-away local
# MariaDB: wall time (median of $RUNS runs: connect, collect, evaluate the
# rules, render the text report) and statements sent; MySQLTuner's wall time
# on the same server for comparison. Budget: <= 20 statements, < 150 ms.
# With TABLES > 0 it measures again on a server holding that many tables.
#
# "statements" is mytune's own count (server.queries in the JSON report);
# "Questions delta" is the server's counter, which also counts the
# connection's COM_QUIT, so it reads one more.
#
# The server is started the way tests/it/support/mariadb.rs starts one
# (bench/lib.sh): a private datadir, socket and port, removed at exit. The
# shared server on 3306 is not touched (MySQLTuner is pointed at it over TCP and the script
# checks it tested the throw-away server).
#
#   bench/check.sh              # RUNS=10 TABLES=0
#   RUNS=20 TABLES=2000 bench/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

TABLES=${TABLES:-0}
BENCH_NAME=check
# shellcheck source=bench/lib.sh
. bench/lib.sh

timed_run() { "$BIN" check --no-defaults -S "$SOCK" -u root --color never >"$WORK/report.txt" 2>/dev/null || true; }
snapshot_run() { "$BIN" check --no-defaults -S "$SOCK" -u root --format json >"$1" 2>/dev/null || true; }
keep_outputs() { cp "$WORK/report.txt" "$OUT/mytune-check-${1// /-}.txt"; }

table_header
measure "near-empty"
[ "$TABLES" -gt 0 ] || { echo; echo "(median of $RUNS runs, release build, socket connection; mysqltuner timed once over TCP; outputs in $OUT)"; exit 0; }
create_tables "$TABLES"
measure "$TABLES tables"
echo
echo "(median of $RUNS runs, release build, socket connection, datadir in $BASE; mysqltuner timed once; outputs in $OUT)"
