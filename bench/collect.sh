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
# The server is started the way tests/it/support/mariadb.rs starts one
# (bench/lib.sh): a private datadir, socket and port, removed at exit. The
# shared server on 3306 is not touched.
#
#   bench/collect.sh            # RUNS=10 TABLES=20000
#   RUNS=3 TABLES=2000 bench/collect.sh
set -euo pipefail
cd "$(dirname "$0")/.."

TABLES=${TABLES:-20000}
BENCH_NAME=collect
# shellcheck source=bench/lib.sh
. bench/lib.sh

timed_run() { "$BIN" collect --no-defaults -S "$SOCK" -u root --out "$WORK/run.json" 2>/dev/null; }
snapshot_run() { "$BIN" collect --no-defaults -S "$SOCK" -u root --out "$1" 2>/dev/null; }

table_header
measure "near-empty"
create_tables "$TABLES"
measure "$TABLES tables"
echo
echo "(median of $RUNS runs, release build, socket connection, datadir in $BASE; mysqltuner timed once; outputs in $OUT)"
