#!/usr/bin/env bash
# Knob search: the generated strict file against the best durable config a bounded search
# finds on this machine, and against the advice a user would otherwise follow (MySQLTuner's
# "Variables to adjust", the values MySQL's innodb_dedicated_server picks, the
# "Mysql单节点调优" (MySQL single-node tuning) §2.3 file), in the same run.
#
#   bench/tune-search.sh [tune_search.py options]     # see bench/tune_search.py --help
#
# Builds the release binary, installs sysbench and MySQLTuner when missing, writes the
# article's file for this host (bench/sysbench-ab.sh --article-config), then runs the search
# and the table. Throw-away mariadbd servers on their own socket; the shared server is not
# touched. A full run (four workloads, 60 s runs) is capped at about two hours by
# --budget-min; results accumulate in --out (default /var/tmp/mytune-tune/out) and a rerun
# continues from them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."
. "$here/need.sh"
need sysbench sysbench
need mysqltuner mysqltuner
cargo build --release --quiet
out=/var/tmp/mytune-tune/out
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = --out ] && out="${args[$((i + 1))]}"; done
mkdir -p "$out"
bench/sysbench-ab.sh --article-config "$out/article.cnf"
exec python3 "$here/tune_search.py" --mytune "$PWD/target/release/mytune" \
  --article-config "$out/article.cnf" "$@"
