#!/usr/bin/env bash
# The outside corpus (issue 52): lint's "will not start" against the real
# mariadbd on option files nobody on this project wrote. MariaDB's own test
# suite as Debian ships it for the installed server (mariadb-test-data: every
# *.opt option list and *.cnf), plus the files of public repositories listed
# in bench/outside-corpus-sources.tsv (Docker image, Kubernetes operator,
# Helm charts, an Ansible role, the server's "my.cnf for N GB" examples),
# extracted at their recorded commits into a temporary directory. Prints the
# figures by source and every disagreement; results are in bench/README.md.
#
#   scripts/outside-corpus.sh               # the whole corpus (~20 minutes)
#   MYTUNE_GIT_DIRS=DIR scripts/outside-corpus.sh   # repositories already cloned
#
# `cargo test` judges a seeded sample of the test suite's files
# (tests/it/outside_corpus.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d /usr/share/mysql/mysql-test/main ] && [ -z "${MYTUNE_MTR_DIR:-}" ]; then
  echo "no MariaDB test suite: apt-get install mariadb-test-data (the server's own release)" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mytune-outside.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 scripts/outside-corpus.py "$work/files"
export MYTUNE_OUTSIDE_DIR="$work/files" MYTUNE_OUTSIDE_FULL=1 MYTUNE_REQUIRE_LIVE=1
flock /tmp/mytune-build.lock cargo test --release --test it outside_corpus::lint_agrees -- --nocapture 2>&1 |
  tee "${TMPDIR:-/tmp}/mytune-outside-corpus.log"
