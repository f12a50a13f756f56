#!/usr/bin/env python3
"""The per-puzzle coverage table of scripts/coverage.

Usage: coverage-table.py DRIVER=DIR [DRIVER=DIR ...]
       coverage-table.py --merge DIR TARGET [TARGET ...]
Each DIR holds a driver's `summary.json` (llvm-cov export -summary-only) and
`lcov.info`. Prints a Markdown table: per puzzle and side (core, reference),
the line and region coverage under each driver; then, per core solving file
(the fast solvers and the duel's searches), the same, and the lines that no
driver reached, by number (the HTML reports show them in place).

--merge makes DIR/summary.json and DIR/lcov.info of cargo-fuzz's targets
(DIR/TARGET.json, DIR/TARGET.lcov): a puzzle's files are counted from its
own target's run, every other file from the target that covered it most.

A puzzle's core is crates/core/src/<module>.rs or crates/core/src/<module>/ (everything in
it); its reference is crates/reference/src/<module>.rs or crates/reference/src/<module>/.
"""
import json
import os
import re
import sys
from collections import defaultdict

# Every puzzle, by module: one corpus file each (the list of puzzles is
# for_each_puzzle! in crates/harness/src/puzzles/mod.rs; the layout test holds
# every puzzle to its corpus file), so the table needs no list of its own.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUZZLES = sorted(
    name[: -len(".csv")]
    for name in os.listdir(os.path.join(ROOT, "corpus"))
    if name.endswith(".csv")
)
SOLVING = re.compile(
    r"(crates/core/src/(robots/fast|new_game2/fast|footholds/fast|checkers/fast|duel/fast|duel/search|duel/race|duel/evaluate|duel/mixed|matrix_game/oracle|matrix_game/simplex)[^/]*(/[^/]*)?\.rs)$"
)


def side_of(filename):
    """(puzzle, side) of a source file, or None."""
    for side in ("core", "reference"):
        m = re.search(rf"/{side}/src/([a-z_0-9]+)(\.rs|/)", filename)
        if m and m.group(1) in PUZZLES:
            return m.group(1), side
    return None


def load_summary(path):
    with open(path) as f:
        data = json.load(f)["data"][0]["files"]
    return {f["filename"]: f["summary"] for f in data}


def load_lcov(path):
    """Per file, line number -> hit count."""
    lines = defaultdict(dict)
    current = None
    with open(path) as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("SF:"):
                current = raw[3:]
            elif raw.startswith("DA:") and current:
                number, count = raw[3:].split(",")[:2]
                lines[current][int(number)] = max(lines[current].get(int(number), 0), int(count))
    return lines


def pct(covered, count):
    return "-" if count == 0 else f"{100.0 * covered / count:.1f}%"


def merge(out, targets):
    summaries = {t: load_summary(os.path.join(out, f"{t}.json")) for t in targets}
    lcovs = {t: load_lcov(os.path.join(out, f"{t}.lcov")) for t in targets}
    files = {}
    lines = {}
    for filename in set().union(*summaries.values()):
        key = side_of(filename)
        own = key[0] if key and key[0] in summaries else None
        if own and filename in summaries[own]:
            chosen = own
        else:
            chosen = max(
                (t for t in targets if filename in summaries[t]),
                key=lambda t: summaries[t][filename]["lines"]["covered"],
            )
        files[filename] = summaries[chosen][filename]
        lines[filename] = lcovs[chosen].get(filename, {})
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"data": [{"files": [{"filename": k, "summary": v} for k, v in files.items()]}]}, f)
    with open(os.path.join(out, "lcov.info"), "w") as f:
        for filename, hits in lines.items():
            f.write(f"SF:{filename}\n")
            for number in sorted(hits):
                f.write(f"DA:{number},{hits[number]}\n")
            f.write("end_of_record\n")


def main():
    if sys.argv[1:2] == ["--merge"]:
        merge(sys.argv[2], sys.argv[3:])
        return
    drivers = []
    for arg in sys.argv[1:]:
        name, _, path = arg.partition("=")
        drivers.append(
            (name, load_summary(os.path.join(path, "summary.json")), load_lcov(os.path.join(path, "lcov.info")))
        )
    table = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    solving = defaultdict(dict)
    missed = defaultdict(lambda: None)
    for name, files, lcov in drivers:
        for filename, summary in files.items():
            lines, regions = summary["lines"], summary["regions"]
            key = side_of(filename)
            if key:
                t = table[key][name]
                t[0] += lines["covered"]
                t[1] += lines["count"]
                t[2] += regions["covered"]
                t[3] += regions["count"]
            m = SOLVING.search(filename)
            if m:
                short = m.group(1)
                solving[short][name] = (lines["covered"], lines["count"], regions["covered"], regions["count"])
                zero = {n for n, c in lcov.get(filename, {}).items() if c == 0}
                missed[short] = zero if missed[short] is None else missed[short] & zero
    names = [name for name, _, _ in drivers]
    print("| puzzle | side | " + " | ".join(f"{n}: lines | {n}: regions" for n in names) + " |")
    print("|---|---|" + "---|---|" * len(names))
    for puzzle in PUZZLES:
        for side in ("core", "reference"):
            if (puzzle, side) not in table:
                continue
            cells = []
            for n in names:
                lc, l, rc, r = table[(puzzle, side)].get(n, [0, 0, 0, 0])
                cells += [pct(lc, l), pct(rc, r)]
            print(f"| {puzzle} | {side} | " + " | ".join(cells) + " |")
    print()
    print("| core solving file | " + " | ".join(f"{n}: lines | {n}: regions" for n in names) + " | lines no driver reached |")
    print("|---|" + "---|---|" * len(names) + "---|")
    for filename in sorted(solving):
        cells = []
        for n in names:
            lc, l, rc, r = solving[filename].get(n, (0, 0, 0, 0))
            cells += [pct(lc, l), pct(rc, r)]
        lines = sorted(missed[filename] or [])
        shown = ", ".join(map(str, lines)) if lines else "none"
        print(f"| {filename} | " + " | ".join(cells) + f" | {shown} |")


if __name__ == "__main__":
    main()
