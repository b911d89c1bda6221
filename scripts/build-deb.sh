#!/usr/bin/env bash
# Build the Debian package: the release binary, its manual pages and the
# bash, zsh and fish completions (all made from the command-line definition,
# so they match --help), packed by cargo-deb. Prints the .deb's path.
#
#   scripts/build-deb.sh            # needs cargo-deb (cargo install cargo-deb --locked)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || { echo "cargo-deb is required: cargo install cargo-deb --locked" >&2; exit 2; }
cargo build --release --locked --quiet
assets=target/assets
rm -rf "$assets"
mkdir -p "$assets/man" "$assets/completions"
bin=target/release/mytune
"$bin" man --dir "$assets/man" 2>/dev/null
"$bin" completions bash > "$assets/completions/mytune.bash"
"$bin" completions zsh > "$assets/completions/_mytune"
"$bin" completions fish > "$assets/completions/mytune.fish"
# cargo-deb prints the path itself; this script prints it once.
cargo deb --no-build --locked --quiet --output target/debian/ >/dev/null
ls -1 target/debian/mytune_*.deb | tail -1
