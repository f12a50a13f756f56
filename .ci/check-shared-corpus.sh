#!/usr/bin/env bash
# Overnight runs on one shared libFuzzer corpus, as several machines would run
# them. Run a fuzzes checkers alone and merges its corpus into the empty shared
# one; runs b and c then fuzz at once, each from its own corpus and the shared
# one, and merge theirs. Checks that every run finishes cleanly, that b and c
# started from the inputs a shared, and that the shared corpus then covers
# every run's own (merging any again adds nothing). Crashes and rows go to
# scratch directories, never to fuzz/artifacts or corpus/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/lockstep-shared.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/shared" "$scratch/rows" "$scratch/artifacts"
cp corpus/*.csv "$scratch/rows/"
lockstep="${LOCKSTEP:-$root/target/debug/lockstep}"
[ -x "$lockstep" ] || cargo build --quiet

run() {
  mkdir -p "$scratch/$1"
  LOCKSTEP="$lockstep" scripts/fuzz-overnight --seconds 5 --corpus "$scratch/rows" \
    --artifacts "$scratch/artifacts" --shared-corpus "$scratch/shared" \
    --local-corpus "$scratch/$1" --night "$scratch/$1-night" checkers > "$scratch/$1.log" 2>&1
}
failed() {
  echo "check-shared-corpus: $*" >&2
  for log in "$scratch"/*.log; do tail -15 "$log" >&2; done
  exit 1
}

run a || failed "run a failed"
# The night's record: the libFuzzer log the report plots, the JSON, the page.
for file in checkers.log night.json report.html; do
  [ -s "$scratch/a-night/$file" ] || failed "run a left no $file in its night directory"
done
seeded=$(find "$scratch/shared/checkers" -type f | wc -l)
[ "$seeded" -gt 0 ] || failed "run a put nothing into the shared corpus"
run b & second=$!
run c & third=$!
wait "$second" || failed "run b failed"
wait "$third" || failed "run c failed"
# libFuzzer's fork mode counts the inputs it starts from (after dropping
# duplicates). b's and c's own corpora start empty, as a's did (0 seed inputs),
# so anything they start from came from the shared corpus.
starts=()
for side in b c; do
  start=$(sed -n 's/^INFO: -fork=[0-9]*: \([0-9]*\) seed inputs.*/\1/p' "$scratch/$side.log" | head -1)
  [ -n "$start" ] && [ "$start" -gt 0 ] ||
    failed "run $side started from '${start}' inputs, none of the $seeded in the shared corpus"
  starts+=("$start")
done
binary=fuzz/target/x86_64-unknown-linux-gnu/release/checkers
for side in a b c; do
  again=$("$binary" -merge=1 "$scratch/shared/checkers" "$scratch/$side/checkers" 2>&1 |
    sed -n 's/^MERGE-OUTER: \([0-9]*\) new files.*/\1/p')
  [ "$again" = 0 ] || failed "merging $side's corpus again added '${again}' files"
done
total=$(find "$scratch/shared/checkers" -type f | wc -l)
echo "check-shared-corpus: a shared $seeded inputs; b and c started from ${starts[0]} and" \
  "${starts[1]} of them; $total in the shared corpus at the end, covering every run's own"
