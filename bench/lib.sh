# Shared by bench/collect.sh and bench/check.sh (sourced, not run): builds
# the release binary, installs MySQLTuner when missing, starts a throw-away
# MariaDB (private datadir, socket and port, removed at exit; the shared
# server on 3306 is not touched) and measures one row of their table.
# The caller sets BENCH_NAME and runs from the repository root.
RUNS=${RUNS:-10}
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
OUT=${BENCH_OUT:-/tmp/mytune-bench-$BENCH_NAME-out}
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
# the server's Questions delta), mysqltuner ms. The script defines
# `timed_run` (the command being timed) and `snapshot_run FILE` (a run that
# writes JSON holding "queries" and the skipped items to FILE); `keep_outputs
# LABEL` may copy more outputs to $OUT.
measure() {
  local label=$1
  timed_run  # warm-up
  local times=()
  for _ in $(seq 1 "$RUNS"); do
    local t0; t0=$(now_ms)
    timed_run
    times+=($(( $(now_ms) - t0 )))
  done
  local med; med=$(printf '%s\n' "${times[@]}" | median)
  snapshot_run "$WORK/snap.json"
  local own; own=$(grep -o '"queries": [0-9]*' "$WORK/snap.json" | grep -o '[0-9]*$')
  # Questions delta around one run, minus what two bare reads of the
  # counter add by themselves (the mariadb client's own statements).
  local q0 q1 b0 b1
  b0=$(questions); b1=$(questions)
  q0=$(questions)
  timed_run
  q1=$(questions)
  local delta=$(( (q1 - q0) - (b1 - b0) ))
  local skipped; skipped=$(grep -c '"what"' "$WORK/snap.json" || true)
  if declare -F keep_outputs >/dev/null; then keep_outputs "$label"; fi
  local t0; t0=$(now_ms)
  # TCP on purpose: MySQLTuner 1.9.9 given --socket still ran its queries
  # against the default socket (the machine's shared server). No --pass: an
  # empty one makes it pass a bare -p to the client.
  local report="$OUT/mysqltuner-${label// /-}.txt"
  mysqltuner --host 127.0.0.1 --port "$PORT" --user root --nocolor --noask >"$report" 2>&1 || true
  grep -q "Performing tests on 127.0.0.1:$PORT" "$report" \
    || { echo "mysqltuner did not test the throw-away server, see $report" >&2; exit 2; }
  cp "$WORK/snap.json" "$OUT/mytune-$BENCH_NAME-${label// /-}.json"
  local tuner=$(( $(now_ms) - t0 ))
  printf '| %-22s | %9s ms | %10s | %15s | %7s | %12s ms |\n' "$label" "$med" "$own" "$delta" "$skipped" "$tuner"
}

table_header() {
  echo
  printf '| %-22s | %12s | %10s | %15s | %7s | %15s |\n' server "mytune (med)" statements "Questions delta" skipped "mysqltuner"
  printf '|%s|%s|%s|%s|%s|%s|\n' "------------------------" "--------------" "------------" "-----------------" "---------" "-----------------"
}

# create_tables N: N empty InnoDB tables, 200 per database.
create_tables() {
  echo "creating $1 tables..." >&2
  local t0; t0=$(now_ms)
  local per_db=200
  local dbs=$(( ($1 + per_db - 1) / per_db ))
  awk -v dbs="$dbs" -v per="$per_db" -v total="$1" 'BEGIN {
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
}
