#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ with `cargo fuzz build -O` and copies
# the binaries to $OUT, the ClusterFuzzLite / OSS-Fuzz build contract.
#
# $SANITIZER comes from ClusterFuzzLite (address, or coverage for coverage
# builds, which the base image's cargo wrapper handles). Those need nightly
# (-Zsanitizer=address), which the base image's toolchain is: the one place
# lockstep keeps nightly. SANITIZER=none is ours: the same build without a
# sanitizer, on stable, for the check that runs this script outside Docker
# (.clusterfuzzlite/check-build.sh).
set -euo pipefail
cd "$SRC/lockstep"

flags=(-O)
if [ "${SANITIZER:-address}" = none ]; then
  flags+=(--sanitizer none)
fi
cargo fuzz build "${flags[@]}"

# The targets are the [[bin]] names of fuzz/Cargo.toml, but `planted`: a
# planted bug for the selftest, which crashes by design.
targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^lockstep-fuzz$' | grep -v '^planted$')
release=fuzz/target/x86_64-unknown-linux-gnu/release
for target in $targets; do
  cp "$release/$target" "$OUT/"
done
