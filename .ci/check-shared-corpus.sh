#!/usr/bin/env bash
# Two overnight runs at once, as two machines would run them, on one shared
# libFuzzer corpus: each fuzzes checkers for a few seconds from its own local
# corpus and the shared one, then merges its own into the shared one. Checks
# that both runs finish cleanly, that the shared corpus received inputs, and
# that it then covers both machines' corpora (merging either again adds
# nothing). Rows would go to a scratch copy of the corpus, never to corpus/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/lockstep-shared.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/shared" "$scratch/a" "$scratch/b" "$scratch/rows"
cp corpus/*.csv "$scratch/rows/"
lockstep="${LOCKSTEP:-$root/target/debug/lockstep}"
[ -x "$lockstep" ] || cargo build --quiet

run() {
  LOCKSTEP="$lockstep" scripts/fuzz-overnight --seconds 6 --corpus "$scratch/rows" \
    --shared-corpus "$scratch/shared" --local-corpus "$scratch/$1" checkers \
    > "$scratch/$1.log" 2>&1
}
run a & first=$!
run b & second=$!
status=0
wait "$first" || status=$?
wait "$second" || status=$((status > 0 ? status : $?))
if [ "$status" -ne 0 ]; then
  echo "check-shared-corpus: an overnight run failed (exit $status)" >&2
  tail -20 "$scratch/a.log" "$scratch/b.log" >&2
  exit 1
fi
shared_count=$(find "$scratch/shared/checkers" -type f | wc -l)
if [ "$shared_count" -eq 0 ]; then
  echo "check-shared-corpus: nothing reached the shared corpus" >&2
  exit 1
fi
grep -h '^MERGE-OUTER' "$scratch/a.log" "$scratch/b.log" || true
binary=fuzz/target/x86_64-unknown-linux-gnu/release/checkers
for side in a b; do
  again=$("$binary" -merge=1 "$scratch/shared/checkers" "$scratch/$side/checkers" 2>&1 |
    sed -n 's/^MERGE-OUTER: \([0-9]*\) new files.*/\1/p')
  if [ "$again" != 0 ]; then
    echo "check-shared-corpus: merging $side's corpus again added '${again}' files" >&2
    exit 1
  fi
done
echo "check-shared-corpus: two runs, $shared_count inputs in the shared corpus, each run's covered"
