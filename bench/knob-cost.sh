#!/usr/bin/env bash
# Knob cost: the CPU instructions a dynamic server setting adds to each sysbench
# oltp_read_write transaction, counted with valgrind's callgrind on one throw-away mariadbd
# (see bench/knob_cost.py). Counts, not seconds: a cost of 1 % shows in a few pairs, where
# restarted throughput pairs on these machines spread 2-17 %.
#
#   bench/knob-cost.sh --change slow_query_log=ON --change long_query_time=1 [--pairs 6]
#
# The shared server is not touched; the throw-away server runs on its own socket without
# networking and its directory is removed afterwards.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/need.sh"
need sysbench sysbench
need valgrind valgrind
exec python3 "$here/knob_cost.py" "$@"
