#!/usr/bin/env python3
"""warsweep's rows of data/research/records.csv for the decks it has walked whole.

    scripts/exhaustive-records.py PUBLISHED.csv [data/research/census.csv] > exhaustive.csv

For each deck and gather of PUBLISHED.csv (scripts/published-records.py's output) that the
census walked deal by deal (data/research/census.csv, `scripts/census.sh`), prints the longest
game of all its deals: the census's `most_rounds` and the hands of its `most_rounds_seed`, read
back from `warsweep play --shuffle lex --seed S --trace` (WARSWEEP, else
target/release/warsweep). No search can beat such a row: it is the deck's maximum.
"""
import csv
import os
import subprocess
import sys

HEADER = ["deck", "gather", "rounds", "winner", "hands", "source", "strategy", "budget", "processor"]
RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def value(card, values):
    """A card of the trace as its value from 1: `10H` on a deck of V <= 13 values is the rank
    10 among the top V ranks; larger decks print bare values."""
    if values > 13:
        return int(card)
    return RANKS[13 - values:].index(card[:-1]) + 1


def hands_of(deck, gather, seed):
    binary = os.environ.get("WARSWEEP", "target/release/warsweep")
    flags = ["play", "--rules", "bataille", "--deck", deck, "--gather", gather,
             "--shuffle", "lex", "--seed", seed, "--trace"]
    trace = subprocess.run([binary] + flags, capture_output=True, text=True, check=True).stdout
    values = int(deck.split("x")[1])
    hands = []
    for line in trace.splitlines():
        if not line.startswith("P"):
            break
        cards = line.split(":", 1)[1].split()
        hands.append(",".join(str(value(c, values)) for c in cards))
    return "|".join(hands), trace.splitlines()[-1].split()


def main():
    published = sys.argv[1]
    census = sys.argv[2] if len(sys.argv) > 2 else "data/research/census.csv"
    walked = {(r["deck"], r["gather"]): r for r in csv.DictReader(open(census))}
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(HEADER)
    for row in csv.DictReader(open(published)):
        whole = walked.get((row["deck"], row["gather"]))
        if whole is None:
            continue
        hands, result = hands_of(row["deck"], row["gather"], whole["most_rounds_seed"])
        assert result[1] == whole["most_rounds"], (row["deck"], result, whole["most_rounds"])
        strategy = (f"every deal: sweep --rules bataille --deck {row['deck']} --gather "
                    f"{row['gather']} --shuffle lex (seed {whole['most_rounds_seed']})")
        out.writerow([row["deck"], row["gather"], whole["most_rounds"], result[0], hands,
                      "warsweep", strategy, f"{int(whole['deals']):,} deals (all)", ""])


main()
