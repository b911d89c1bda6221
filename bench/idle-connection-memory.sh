#!/usr/bin/env bash
# The resident memory an idle, logged-in connection costs a MariaDB server,
# with one thread per connection and with the thread pool: the figure the
# memory model of a thread-pool server needs for connections that wait.
# Starts a throw-away mariadbd per mode (private datadir and socket, no
# network; the shared server is not touched), logs in N connections as root
# (empty password) over the socket with a minimal client
# (bench/idle-connections.py), and compares the server's VmRSS before and
# after. Usage: bench/idle-connection-memory.sh [N]   (default 2000)
set -euo pipefail
N=${1:-2000}
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=$( [ -w /dev/shm ] && echo /dev/shm || echo /tmp )
ulimit -n $((N + 1000))
USER_ARG=()
[ "$(id -u)" = 0 ] && USER_ARG=(--user=root)
for mode in one-thread-per-connection pool-of-threads; do
  W=$(mktemp -d "$BASE/mytune-idle-XXXXXX")
  mariadb-install-db --no-defaults --auth-root-authentication-method=normal \
    --datadir="$W/data" "${USER_ARG[@]}" >"$W/install.log" 2>&1
  printf '[mariadbd]\nthread_handling = %s\nmax_connections = %d\ninnodb_buffer_pool_size = 128M\n' \
    "$mode" $((N + 100)) >"$W/my.cnf"
  "$MARIADBD" --defaults-file="$W/my.cnf" --datadir="$W/data" --socket="$W/sock" --skip-networking \
    --pid-file="$W/pid" --log-error="$W/error.log" --tmpdir="$W" "${USER_ARG[@]}" \
    </dev/null >/dev/null 2>&1 &
  for _ in $(seq 50); do [ -S "$W/sock" ] && [ -s "$W/pid" ] && break; sleep 0.2; done
  printf '%s: ' "$mode"
  python3 "$HERE/idle-connections.py" "$W/sock" "$(cat "$W/pid")" "$N"
  kill "$(cat "$W/pid")"; wait 2>/dev/null || true
  rm -rf "$W"
done
