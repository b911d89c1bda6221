#!/usr/bin/env bash
# The whole corpus of tests/it/fix_differential.rs: every generated option file
# fixed by `mytune lint --fix` for MariaDB 10.11 and read by the installed
# mariadbd before and after (the variables of `--verbose --help`, and a real
# start for lines a storage engine reads). `cargo test` runs a seeded sample
# of the same corpus; this runs all of it.
#
#   scripts/fix-differential.sh                       # full corpus
#   MYTUNE_FIXDIFF_SEED=7 MYTUNE_FIXDIFF_SAMPLE=500 scripts/fix-differential.sh --sample
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--sample" ]; then
  export MYTUNE_FIXDIFF_FULL=1
fi
export MYTUNE_REQUIRE_LIVE=1
cargo test --test it fix_differential:: -- --nocapture 2>&1 | tee "${TMPDIR:-/tmp}/mytune-fix-differential.log"
