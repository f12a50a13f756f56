#!/usr/bin/env python3
"""The per-file table of a cargo-mutants run (its mutants.out/outcomes.json).

Usage: mutation-table.py OUTCOMES_JSON [OUTCOMES_JSON ...]
Several files (the shards of one run, from several machines) are merged into
one table. Prints a Markdown table: per file, mutants caught, missed, timed out and
unviable (they do not build), and the score caught / (caught + missed +
timeout); then every missed and timed-out mutant by name.
"""
import json
import sys
from collections import defaultdict

KINDS = ["CaughtMutant", "MissedMutant", "Timeout", "Unviable"]


def main():
    outcomes = []
    for path in sys.argv[1:]:
        with open(path) as f:
            outcomes.extend(json.load(f)["outcomes"])
    counts = defaultdict(lambda: defaultdict(int))
    missed = []
    for outcome in outcomes:
        scenario = outcome["scenario"]
        if not isinstance(scenario, dict) or "Mutant" not in scenario:
            continue  # the baseline
        mutant = scenario["Mutant"]
        summary = outcome["summary"]
        counts[mutant["file"]][summary] += 1
        if summary in ("MissedMutant", "Timeout"):
            missed.append((summary, mutant["name"]))
    print("| file | caught | missed | timeout | unviable | score |")
    print("|---|---|---|---|---|---|")
    total = defaultdict(int)
    for file in sorted(counts):
        row = counts[file]
        for kind in KINDS:
            total[kind] += row[kind]
        print(line(file, row))
    print(line("**all**", total))
    if missed:
        print()
        for summary, name in missed:
            print(f"- {'missed' if summary == 'MissedMutant' else 'timeout'}: {name}")


def line(name, row):
    caught, missed, timeout, unviable = (row[k] for k in KINDS)
    tested = caught + missed + timeout
    score = f"{100 * caught / tested:.1f}%" if tested else "-"
    return f"| {name} | {caught} | {missed} | {timeout} | {unviable} | {score} |"


if __name__ == "__main__":
    main()
