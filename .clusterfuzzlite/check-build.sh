#!/usr/bin/env bash
# Runs build.sh as ClusterFuzzLite would, without Docker or the network: $SRC,
# $OUT and $WORK are scratch directories ($SRC/lockstep is this checkout), the
# toolchain is the local stable (RUSTUP_TOOLCHAIN names another), and
# SANITIZER=none (AddressSanitizer is ClusterFuzzLite's business, in its image). Then every target named in fuzz/Cargo.toml (but
# `planted`, which build.sh leaves out) must
# be in $OUT and must run one input. Exit 0 when all do. (build.sh's -O build
# drops the debug assertions that the overnight build keeps, so it compiles
# anew rather than reusing that build: about 35 s here.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/lockstep-cflite.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
export SRC="$scratch/src" OUT="$scratch/out" WORK="$scratch/work"
mkdir -p "$SRC" "$OUT" "$WORK"
ln -s "$root" "$SRC/lockstep"

start=$(date +%s.%N)
(cd "$SRC/lockstep" && RUSTUP_TOOLCHAIN="${RUSTUP_TOOLCHAIN:-stable}" SANITIZER=none \
  bash "$root/.clusterfuzzlite/build.sh")
end=$(date +%s.%N)

targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' "$root/fuzz/Cargo.toml" | grep -v '^lockstep-fuzz$' | grep -v '^planted$')
printf 'lockstep: some bytes for every target to build a case from\n' > "$WORK/input"
count=0
for target in $targets; do
  if [ ! -x "$OUT/$target" ]; then
    echo "check-build: $target is not in \$OUT" >&2
    exit 1
  fi
  # A file argument makes libFuzzer run that one input and exit.
  if ! "$OUT/$target" "$WORK/input" > "$WORK/$target.log" 2>&1; then
    echo "check-build: $target failed on one input:" >&2
    tail -20 "$WORK/$target.log" >&2
    exit 1
  fi
  count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
  echo "check-build: no targets found in fuzz/Cargo.toml" >&2
  exit 1
fi
awk -v s="$start" -v e="$end" -v n="$count" \
  'BEGIN { printf "check-build: build.sh took %.1f s; %d targets in $OUT, each ran one input\n", e - s, n }'
