#!/usr/bin/env bash
# Knob wall: what a dynamic server setting costs in seconds and in system calls, the two things
# bench/knob-cost.sh's instruction count cannot see. One throw-away mariadbd (no valgrind), one
# sysbench table and one oltp_read_write thread unless --tables and --threads say more; the
# setting switched with SET GLOBAL between blocks, the arm order alternating from pair to pair.
#   - timed: --pairs pairs of --seconds-second blocks; the ratio changed / base of each pair's
#     TPS, with the geometric mean and its 95 % t-interval. --flush 0 (the default) takes the
#     disk's sync out of the blocks, so that what is left is the CPU, user and kernel.
#   - system calls: --strace-pairs pairs of --events transactions with strace -c -f attached to
#     the server; calls per transaction of each arm.
#   --ps-mode both runs each pair with server-side prepared statements (sysbench's default, auto)
#   and with the text protocol (disable), one after the other, and reports each protocol apart.
#
#   bench/knob-wall.sh --change slow_query_log=ON --change long_query_time=1 [--pairs 10]
#
# The shared server is not touched: the throw-away server has its own socket, no networking, and
# its directory under /var/tmp is removed afterwards.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/need.sh"

changes=() pairs=10 seconds=15 strace_pairs=3 events=1000 rows=10000 tables=1 threads=1 flush=0 ps_mode=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --change) changes+=("$2"); shift 2 ;;
    --pairs) pairs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --strace-pairs) strace_pairs="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --table-size) rows="$2"; shift 2 ;;
    --tables) tables="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --flush) flush="$2"; shift 2 ;;
    --ps-mode) ps_mode="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "knob-wall: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#changes[@]} -gt 0 ] || { echo "knob-wall: --change VAR=VALUE is required" >&2; exit 2; }
for n in "$pairs" "$seconds" "$strace_pairs" "$events" "$rows" "$tables" "$threads" "$flush"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "knob-wall: $n is not a whole number" >&2; exit 2; }
done
[ "$pairs" -ge 2 ] && [ "$seconds" -ge 1 ] && [ "$events" -ge 10 ] && [ "$tables" -ge 1 ] && [ "$threads" -ge 1 ] ||
  { echo "knob-wall: --pairs must be at least 2, --seconds, --tables and --threads 1, --events 10" >&2; exit 2; }
[[ "$ps_mode" =~ ^(auto|disable|both)$ ]] || { echo "knob-wall: --ps-mode is auto, disable or both" >&2; exit 2; }
modes="$ps_mode"; [ "$ps_mode" = both ] && modes="auto disable"
set_changed="" names=()
for c in "${changes[@]}"; do
  [[ "$c" =~ ^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z0-9_.]+)$ ]] ||
    { echo "knob-wall: --change wants VARIABLE=VALUE (a number or a word), got $c" >&2; exit 2; }
  names+=("${BASH_REMATCH[1]}")
  set_changed+="SET GLOBAL ${BASH_REMATCH[1]} = ${BASH_REMATCH[2]};"
done
need sysbench sysbench
need strace strace

work="$(mktemp -d /var/tmp/mytune-knob-wall-XXXXXX)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
user=(); [ "$(id -u)" -eq 0 ] && user=(--user=root)
mariadb-install-db --no-defaults --auth-root-authentication-method=normal --datadir="$work/data" \
  "${user[@]}" >"$work/install.log" 2>&1 || { tail -5 "$work/install.log" >&2; exit 1; }
mariadbd --no-defaults --datadir="$work/data" --socket="$work/s.sock" --skip-networking \
  --innodb-buffer-pool-size=256M --innodb-flush-log-at-trx-commit="$flush" \
  --log-error="$work/err.log" --pid-file="$work/pid" "${user[@]}" 2>"$work/stderr.log" &
pid=$!
for _ in $(seq 300); do
  mariadb-admin --no-defaults -uroot --socket="$work/s.sock" ping >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { tail -5 "$work/err.log" >&2; exit 1; }
  sleep 0.2
done
sql() { mariadb --no-defaults -uroot --socket="$work/s.sock" -N -B -e "$1"; }
sb() { sysbench oltp_read_write --db-driver=mysql --mysql-socket="$work/s.sock" --mysql-user=root \
  --mysql-db=sbtest --tables="$tables" --table-size="$rows" "$@"; }
set_base=""
for n in "${names[@]}"; do set_base+="SET GLOBAL $n = $(sql "SELECT @@GLOBAL.$n");"; done
sql "CREATE DATABASE sbtest"
sb --threads="$tables" prepare >/dev/null
sb --threads="$threads" --time=5 run >/dev/null
echo "knob-wall: ${changes[*]} against the server's values; $(sql 'SELECT VERSION()'); $threads thread(s)," \
  "$tables x $rows rows, --db-ps-mode=$ps_mode, innodb_flush_log_at_trx_commit = $flush"
arm_sql() { if [ "$1" = changed ]; then echo "$set_changed"; else echo "$set_base"; fi; }
order() { if [ $(($1 % 2)) = 1 ]; then echo "base changed"; else echo "changed base"; fi; }
results="$work/timed"
for k in $(seq "$pairs"); do
  for mode in $modes; do
    for arm in $(order "$k"); do
      sql "$(arm_sql "$arm")"
      tps="$(sb --threads="$threads" --time="$seconds" --rand-seed="$k" --db-ps-mode="$mode" run |
        awk '/transactions:/ {gsub(/\(/, "", $3); print $3}')"
      [ -n "$tps" ] || { echo "knob-wall: sysbench printed no transactions in pair $k" >&2; exit 1; }
      echo "$k $arm $tps $mode" | tee -a "$results"
    done
  done
done
python3 - "$results" "$here" "$ps_mode" <<'EOF'
import sys
sys.path.insert(0, sys.argv[2])
from tune_search import geo_mean, geo_t_interval, median  # the knob search's statistics
names = {"auto": "prepared statements", "disable": "text protocol"}
pairs = {}
for line in open(sys.argv[1]):
    k, arm, tps, mode = line.split()
    pairs.setdefault(mode, {}).setdefault(k, {})[arm] = float(tps)
for mode, by_pair in pairs.items():
    rs = [p["changed"] / p["base"] for p in by_pair.values() if len(p) == 2]
    lo, hi = geo_t_interval(rs)
    label = f"timed ({names[mode]})" if sys.argv[3] == "both" else "timed"
    print(f"{label}: changed / base over {len(rs)} pairs: geometric mean {geo_mean(rs):.3f} "
          f"(95 % t-interval {lo:.3f}-{hi:.3f}), median {median(rs):.3f}, {sum(r > 1 for r in rs)} above 1")
EOF
for k in $(seq "$strace_pairs"); do
  for mode in $modes; do
    for arm in $(order "$k"); do
      sql "$(arm_sql "$arm")"
      strace -c -f -p "$pid" -o "$work/strace.$arm.$k" 2>/dev/null &
      st=$!
      sleep 1
      sb --threads="$threads" --time=0 --events="$events" --rand-seed="$k" --db-ps-mode="$mode" run >/dev/null
      kill -INT "$st"; wait "$st" || true
      calls="$(awk '$NF == "total" {print $4}' "$work/strace.$arm.$k")"
      [ -n "$calls" ] || { echo "knob-wall: strace wrote no totals" >&2; exit 1; }
      echo "system calls: pair $k $arm $(awk -v c="$calls" -v n="$events" 'BEGIN {printf "%.1f", c / n}')" \
        "per transaction$([ "$ps_mode" = both ] && echo " ($mode)")"
    done
  done
done
