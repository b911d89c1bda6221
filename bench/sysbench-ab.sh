#!/usr/bin/env bash
# sysbench A/B of two MariaDB option files on this machine.
#
# Prepares one sysbench data set once, then runs throw-away mariadbd servers
# with config A and config B, each from a fresh copy of the prepared datadir,
# alternating A B A B ... so that drift of the machine (other load, page
# cache, thermal) hits both sides alike. Prints TPS and p95 latency of every
# run, the B/A ratio per pair, and the medians.
#
#   bench/sysbench-ab.sh --a A.cnf --b B.cnf [options]
#   bench/sysbench-ab.sh --article-config OUT.cnf   # "Mysql单节点调优" §2.3 my.cnf, adapted (see below)
#
# Options (defaults in brackets):
#   --a FILE, --b FILE   option files; the word "defaults" means an empty file
#   --tables N [8]  --rows N [250000]  --threads N [8]  --time SECS [60]
#   --warmup SECS [10]  --pairs N [3]  --test NAME [oltp_read_write]
#   --no-prewarm (skip `sysbench prewarm` before each run's warm-up)
#   --data-cache DIR (keep the prepared datadir in DIR and reuse it when a later
#     run asks for the same test, tables and rows)
#   --workdir DIR [a new directory under ${TMPDIR:-/tmp}]  --keep (keep it)
#
# Every run starts cold from its own copy of the prepared datadir (the buffer
# pool dump of the prepare server is deleted, so neither side loads one), then
# `sysbench prewarm` reads every table and index once (the server keeps what its
# buffer pool holds), then the warm-up run, then the measured run. Both sides
# get exactly the same procedure.
#
# The servers listen only on their own Unix socket in the work directory
# (--skip-networking), so several runs never collide on a port; the datadir,
# socket, pid file and error log given on the command line override whatever
# the option files say. sysbench is installed with apt-get when missing.
#
# --article-config writes the "best practice" my.cnf
# of "Mysql单节点调优" (MySQL single-node tuning) §2.3 (read from the shared
# source articles, not copied into this repository) adapted to
# MariaDB on this host: its 32G buffer pool (on a 256G machine) scaled to
# this host's memory in the same proportion, innodb_log_files_in_group and
# innodb_thread_concurrency dropped (removed in MariaDB 10.6; the server
# would refuse to start) and its datadir/socket/pid-file/log-error paths
# dropped.
set -euo pipefail

A="" B="" TABLES=8 ROWS=250000 THREADS=8 TIME=60 WARMUP=10 PAIRS=3 TEST=oltp_read_write
WORKDIR="" KEEP=0 SEED_OUT="" PREWARM=1 CACHE=""
die() { echo "sysbench-ab: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --a) A="$2"; shift 2 ;;
    --b) B="$2"; shift 2 ;;
    --tables) TABLES="$2"; shift 2 ;;
    --rows) ROWS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --time) TIME="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --pairs) PAIRS="$2"; shift 2 ;;
    --test) TEST="$2"; shift 2 ;;
    --workdir) WORKDIR="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --no-prewarm) PREWARM=0; shift ;;
    --data-cache) CACHE="$2"; shift 2 ;;
    --article-config|--seed-config) SEED_OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
for n in "$TABLES" "$ROWS" "$THREADS" "$TIME" "$WARMUP" "$PAIRS"; do
  [[ "$n" =~ ^[0-9]+$ ]] || die "not a whole number: $n"
done

here="$(cd "$(dirname "$0")" && pwd)"

seed_config() {
  local seed="" s
  for s in "$here/../../shared/seeds" /work/shared/seeds; do
    seed="$(ls "$s"/000_*.txt 2>/dev/null | head -1 || true)"
    [ -n "$seed" ] && break
  done
  [ -n "$seed" ] || die "the article Mysql单节点调优 (000_*.txt) not found (../shared/seeds next to the repository)"
  local mem_kb bp
  mem_kb="$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
  # 32G on the article's 256G machine, the same share of this one, whole 128M chunks.
  bp="$(( mem_kb * 1024 / 8 / (128 << 20) * 128 ))"
  [ "$bp" -ge 128 ] || bp=128
  {
    echo "# \"Mysql单节点调优\" (MySQL single-node tuning) §2.3 \"best practice\" my.cnf, adapted by bench/sysbench-ab.sh for MariaDB"
    echo "# on this host: buffer pool 32G/256G of memory = ${bp}M; innodb_log_files_in_group and"
    echo "# innodb_thread_concurrency (removed in MariaDB 10.6: the server refuses them),"
    echo "# datadir, socket, pid-file and log-error dropped."
    sed -n '/^2\.3 /,$p' "$seed" | sed -n '/^\[mysqld\]/,$p' | tr -d '\r' | sed 's/[[:space:]]*$//' |
      grep -Ev '^(datadir|socket|log-error|pid-file|innodb_log_files_in_group|innodb_thread_concurrency)[[:space:]]*=' |
      sed -E "s/^innodb_buffer_pool_size[[:space:]]*=.*/innodb_buffer_pool_size = ${bp}M/"
    echo
  } > "$SEED_OUT"
  echo "sysbench-ab: wrote $SEED_OUT (innodb_buffer_pool_size = ${bp}M)" >&2
}
if [ -n "$SEED_OUT" ]; then seed_config; exit 0; fi

[ -n "$A" ] && [ -n "$B" ] || die "give both --a and --b (see --help)"

find_prog() {
  local p
  for p in "$@"; do
    if command -v "$p" >/dev/null 2>&1; then command -v "$p"; return 0; fi
    if [ -x "$p" ]; then echo "$p"; return 0; fi
  done
  return 1
}
MARIADBD="$(find_prog mariadbd /usr/sbin/mariadbd /usr/libexec/mariadbd)" || die "mariadbd not found (apt-get install mariadb-server)"
INSTALL_DB="$(find_prog mariadb-install-db)" || die "mariadb-install-db not found"
ADMIN="$(find_prog mariadb-admin mysqladmin)" || die "mariadb-admin not found"
CLIENT="$(find_prog mariadb mysql)" || die "mariadb client not found"
if ! command -v sysbench >/dev/null 2>&1; then
  echo "sysbench-ab: installing sysbench with apt-get" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y sysbench >&2 || { $SUDO apt-get update >&2 && $SUDO apt-get install -y sysbench >&2; } ||
    die "cannot install sysbench"
fi
USER_ARG=(); [ "$(id -u)" -eq 0 ] && USER_ARG=(--user=root)

if [ -z "$WORKDIR" ]; then WORKDIR="$(mktemp -d "${TMPDIR:-/tmp}/sysbench-ab.XXXXXX")"; fi
mkdir -p "$WORKDIR"
WORKDIR="$(cd "$WORKDIR" && pwd)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$KEEP" -eq 0 ]; then rm -rf "$WORKDIR"; else echo "sysbench-ab: kept $WORKDIR" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cnf_copy() { # FILE NAME -> path of a private copy
  local out="$WORKDIR/$2.cnf"
  if [ "$1" = defaults ]; then printf '[mariadbd]\n' > "$out"; else
    [ -r "$1" ] || die "cannot read $1"
    cp "$1" "$out"
  fi
  echo "$out"
}
A_CNF="$(cnf_copy "$A" A)"
B_CNF="$(cnf_copy "$B" B)"

SOCK="$WORKDIR/mysqld.sock"
start_server() { # DATADIR CNF LOG
  "$MARIADBD" --defaults-file="$2" --datadir="$1" --socket="$SOCK" --skip-networking \
    --pid-file="$WORKDIR/mysqld.pid" --log-error="$3" "${USER_ARG[@]}" </dev/null >/dev/null 2>&1 &
  SERVER_PID=$!
  local i
  for i in $(seq 1 600); do
    if "$ADMIN" --no-defaults -uroot --socket="$SOCK" ping >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      tail -5 "$3" >&2; die "mariadbd with $2 exited during start-up"
    fi
    sleep 0.2
  done
  die "mariadbd with $2 did not start within 120 s"
}
stop_server() {
  "$ADMIN" --no-defaults -uroot --socket="$SOCK" shutdown >/dev/null 2>&1 || kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}
SB_COMMON=(--db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --mysql-db=sbtest
  --tables="$TABLES" --table-size="$ROWS")

# The prepared data set: in the work directory, or reused from --data-cache.
BASE="$WORKDIR/base"
[ -n "$CACHE" ] && BASE="$CACHE/$TEST-$TABLES-$ROWS"
if [ -f "$BASE/.sysbench-ab-prepared" ]; then
  echo "sysbench-ab: reusing the prepared data set in $BASE" >&2
else
  rm -rf "$BASE"; mkdir -p "$(dirname "$BASE")"
  echo "sysbench-ab: preparing $TABLES tables x $ROWS rows in $BASE" >&2
  "$INSTALL_DB" --no-defaults --auth-root-authentication-method=normal --datadir="$BASE" \
    "${USER_ARG[@]}" >"$WORKDIR/install.log" 2>&1 || { tail -5 "$WORKDIR/install.log" >&2; die "mariadb-install-db failed"; }
  # The loading server only has to be quick: a quarter of memory (512M..8G), no fsync per commit.
  mem_mb="$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)"
  prep_bp="$(( mem_mb / 4 ))"; [ "$prep_bp" -ge 512 ] || prep_bp=512; [ "$prep_bp" -le 8192 ] || prep_bp=8192
  printf '[mariadbd]\ninnodb_buffer_pool_size = %sM\ninnodb_log_file_size = 1G\ninnodb_flush_log_at_trx_commit = 0\n' \
    "$prep_bp" > "$WORKDIR/prepare.cnf"
  start_server "$BASE" "$WORKDIR/prepare.cnf" "$WORKDIR/prepare.err"
  "$CLIENT" --no-defaults -uroot --socket="$SOCK" -e "CREATE DATABASE sbtest"
  sysbench "$TEST" "${SB_COMMON[@]}" --threads="$THREADS" prepare >"$WORKDIR/prepare.log" 2>&1 ||
    { tail -5 "$WORKDIR/prepare.log" >&2; die "sysbench prepare failed"; }
  stop_server
  # Every run starts cold: no buffer pool dump of the loading server to preload.
  rm -f "$BASE/ib_buffer_pool"
  touch "$BASE/.sysbench-ab-prepared"
fi
echo "sysbench-ab: data set $(du -sh "$BASE" | cut -f1)" >&2

run_one() { # CNF LABEL -> "tps p95"
  local run="$WORKDIR/run"
  rm -rf "$run"; cp -a "$BASE" "$run"
  start_server "$run" "$1" "$WORKDIR/$2.err"
  if [ "$PREWARM" -eq 1 ]; then
    sysbench "$TEST" "${SB_COMMON[@]}" --threads="$THREADS" prewarm >/dev/null 2>&1 ||
      die "sysbench prewarm failed with $1"
  fi
  if [ "$WARMUP" -gt 0 ]; then
    sysbench "$TEST" "${SB_COMMON[@]}" --threads="$THREADS" --time="$WARMUP" run >/dev/null 2>&1 || true
  fi
  local out="$WORKDIR/$2.log"
  sysbench "$TEST" "${SB_COMMON[@]}" --threads="$THREADS" --time="$TIME" --percentile=95 run >"$out" 2>&1 ||
    { tail -5 "$out" >&2; die "sysbench run failed with $1"; }
  stop_server
  rm -rf "$run"
  awk '/transactions:/ { gsub(/[()]/, "", $3); tps = $3 }
       /95th percentile:/ { p95 = $3 }
       END { if (tps == "" || p95 == "") exit 1; print tps, p95 }' "$out" ||
    die "cannot read TPS/p95 from $out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "sysbench-ab: $TEST, $THREADS threads, ${TIME}s runs (+${WARMUP}s warm-up), $PAIRS pairs" >&2
echo "sysbench-ab: A = $A, B = $B" >&2
printf '%-5s %12s %10s %12s %10s %8s\n' pair "A tps" "A p95 ms" "B tps" "B p95 ms" "B/A"
: > "$WORKDIR/results"
for i in $(seq 1 "$PAIRS"); do
  read -r a_tps a_p95 < <(run_one "$A_CNF" "A$i")
  read -r b_tps b_p95 < <(run_one "$B_CNF" "B$i")
  ratio="$(awk -v a="$a_tps" -v b="$b_tps" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')"
  printf '%-5s %12s %10s %12s %10s %8s\n' "$i" "$a_tps" "$a_p95" "$b_tps" "$b_p95" "$ratio"
  echo "$a_tps $a_p95 $b_tps $b_p95 $ratio" >> "$WORKDIR/results"
done
col() { awk -v c="$1" '{ print $c }' "$WORKDIR/results" | median; }
printf '%-5s %12s %10s %12s %10s %8s\n' median "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" "$(col 5)"
