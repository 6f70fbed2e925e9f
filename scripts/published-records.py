#!/usr/bin/env python3
"""The published longest games of open War, as rows of data/research/records.csv.

    scripts/published-records.py CRISTAL_CHECKOUT BATAILLE_CPP_CHECKOUT > published.csv

Reads the record tables of cristal-smac/bataille (records_C4_naturelle.py,
records_C4_optimisee.py, records_C1_naturelle.py: the code and records behind Pour la Science
567, January 2025) and of legrosbuffle/bataille_cpp (results/c4vV*.txt, results/c1vV*.txt: the
last "longest game" of each file), replays every deal with `warsweep play --rules bataille`
(WARSWEEP, else target/release/warsweep), and prints, for each deck and gather, the longest one
as warsweep counts it (rounds; the sources count tricks, one more where the last trick ends in a
tie the loser cannot play), with where it was published. Checkouts come from
`git clone https://github.com/cristal-smac/bataille` and `.../legrosbuffle/bataille_cpp`.
"""
import csv
import os
import re
import subprocess
import sys
from pathlib import Path

HEADER = ["deck", "gather", "rounds", "winner", "hands", "source", "strategy", "budget", "processor"]


def play(deck, gather, hands):
    """warsweep's result line for the hands (lists of values from 1)."""
    binary = os.environ.get("WARSWEEP", "target/release/warsweep")
    flags = ["play", "--rules", "bataille", "--deck", deck]
    if gather == "sorted":
        flags += ["--gather", "sorted"]
    text = "".join(",".join(map(str, h)) + "\n" for h in hands)
    out = subprocess.run([binary, *flags], input=text, capture_output=True, text=True)
    if out.returncode != 0:  # a deck no game is played with (1x1): no record
        print(f"{deck} {gather}: {out.stderr.strip()}", file=sys.stderr)
        return []
    return out.stdout.split()


def hands_in(text):
    """Every pair of hands written `cartes_joueur1 = [...]` then `cartes_joueur2 = [...]`."""
    found = re.findall(r"cartes_joueur1\s*=\s*\[([\d,\s]*)\]\s*\n#?\s*cartes_joueur2\s*=\s*\[([\d,\s]*)\]", text)
    return [[[int(v) for v in h.split(",") if v.strip()] for h in pair] for pair in found]


def cristal(root):
    """(deck, gather, hands, source) of the longest game of each section of the three tables."""
    tables = [("records_C4_naturelle.py", 4, "natural"), ("records_C4_optimisee.py", 4, "sorted"),
              ("records_C1_naturelle.py", 1, "natural")]
    for name, copies, gather in tables:
        text = (Path(root) / name).read_text(encoding="utf-8")
        for section in re.split(r"\n#\s*-{10,}\s*\n", text):
            values = re.search(r"#\s*V\s*=\s*(\d+)", section)
            winner = re.search(r"Gagnant", section)
            if not values or not winner:
                continue
            deals = hands_in(section[winner.start():])
            if not deals:
                continue
            who = re.search(r"d[ée]couvert par ([^\n]+?) le (\d\d/\d\d/\d{4})", section)
            credit = f" ({who.group(1).strip()}, {who.group(2)})" if who else ""
            source = f"cristal-smac/bataille {name}{credit}"
            yield f"{copies}x{values.group(1)}", gather, deals[0], source


def bataille_cpp(root):
    """(deck, gather, hands, source) of the last longest game of each results file."""
    for path in sorted((Path(root) / "results").glob("c*v*.txt")):
        m = re.match(r"c(\d+)v(\d+)(_opt)?", path.name)
        text = path.read_text(encoding="utf-8")
        last = text.rfind("longest game")
        deals = hands_in(text[last:]) if last >= 0 else []
        if not deals:
            continue
        gather = "sorted" if m.group(3) else "natural"
        yield f"{m.group(1)}x{m.group(2)}", gather, deals[0], f"legrosbuffle/bataille_cpp results/{path.name}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    best = {}
    for deck, gather, hands, source in [*cristal(sys.argv[1]), *bataille_cpp(sys.argv[2])]:
        result = play(deck, gather, hands)
        if len(result) != 2 or not result[1].isdigit() or result[0] not in ("1", "2"):
            continue  # a draw or a cycle is no longest game
        rounds, winner = int(result[1]), int(result[0])
        key = (deck, gather)
        if key not in best or rounds > best[key][0]:
            best[key] = (rounds, winner, hands, source)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(HEADER)
    order = lambda k: (k[0].split("x")[0], int(k[0].split("x")[1]), k[1])
    for (deck, gather) in sorted(best, key=order):
        rounds, winner, hands, source = best[(deck, gather)]
        joined = "|".join(",".join(map(str, h)) for h in hands)
        out.writerow([deck, gather, rounds, winner, joined, source, "published", "", ""])


if __name__ == "__main__":
    main()
