#!/usr/bin/env bash
# The whole differential corpus: every case of tests/it/differential_mariadb.rs
# judged by the installed mariadbd and by lint, with the confusion matrix,
# every disagreement and the run's time. `cargo test` runs a seeded sample
# of the same corpus; this runs all of it (11,920 cases; about 45 minutes
# on a 2-core machine, mostly real server starts).
#
#   scripts/differential.sh              # full corpus
#   MYTUNE_DIFF_SEED=7 MYTUNE_DIFF_SAMPLE=1000 scripts/differential.sh --sample
#   MYTUNE_DIFF_IDS=ids.txt scripts/differential.sh --sample   # only these cases
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--sample" ]; then
  export MYTUNE_DIFF_FULL=1
fi
export MYTUNE_REQUIRE_LIVE=1
cargo test --release --test it differential_mariadb:: -- --nocapture 2>&1 | tee "${TMPDIR:-/tmp}/mytune-differential.log"
