#!/usr/bin/env bash
# Scale of `mytune check --inventory` (issue 53): N servers a round trip
# away (throw-away mariadbd servers behind a delay proxy), at several
# --jobs; wall time, servers per second, peak memory, and the extrapolation
# to 1,000 servers. Never beside a build: the machines here have two cores.
#
#   bench/fleet-scale.sh                                  # RTT_MS=50 SIZES=50,100,200,400 JOBS=32,128
#   RTT_MS=50 SIZES=100,200 JOBS=16,64,256 bench/fleet-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/need.sh
. bench/need.sh
need mariadbd mariadb-server
need mariadb-install-db mariadb-server

echo "building release binary..." >&2
cargo build --release --quiet
out=bench/results/fleet-scale-$(date -u +%F)-rtt${RTT_MS:-50}ms.jsonl
python3 bench/fleet_scale.py --bin target/release/mytune --rtt-ms "${RTT_MS:-50}" \
  --servers "${SERVERS:-4}" --sizes "${SIZES:-50,100,200,400}" --jobs "${JOBS:-32,128}" --out "$out"
echo "(runs in $out)"
