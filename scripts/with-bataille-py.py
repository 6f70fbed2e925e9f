#!/usr/bin/env python3
"""Replays the open-war rows of data/research/cycles.csv (`--rules bataille`, gathers natural
and sorted) with the article's own program: cristal-smac/bataille's `bataille.py`, which is
not part of this repository (clone https://github.com/cristal-smac/bataille and give its
folder). For each row, `jouer_partie(hand1, hand2, G, G, limite_cartes_posees=10**7)` with
G = "naturelle" or "optimisee" must return a cycle of the row's period, and the row's
`aligned` must say whether some state of that cycle has equal hands. Rows of other rules
(cards face down) are counted as skipped: bataille.py plays open wars only.
Usage: scripts/with-bataille-py.py BATAILLE_FOLDER [data/research/cycles.csv] [--deck 4x13]"""
import argparse, csv, os, sys, time

GATHERS = {"natural": "naturelle", "sorted": "optimisee"}


def main():
    args = argparse.ArgumentParser()
    args.add_argument("folder", help="a clone of cristal-smac/bataille (holding bataille.py)")
    args.add_argument("cycles", nargs="?", default="data/research/cycles.csv")
    args.add_argument("--deck", help="only the rows of this deck, e.g. 4x13")
    a = args.parse_args()
    if not os.path.isfile(os.path.join(a.folder, "bataille.py")):
        sys.exit(f"with-bataille-py.py: {a.folder} holds no bataille.py")
    sys.path.insert(0, a.folder)
    import bataille
    try:
        rows = list(csv.DictReader(open(a.cycles)))
    except OSError as e:
        sys.exit(f"with-bataille-py.py: cannot read {a.cycles}: {e.strerror}")
    replayed = skipped = 0
    for row in rows:
        if a.deck and row["deck"] != a.deck:
            continue
        if row.get("rules", "--rules bataille") != "--rules bataille" or row["gather"] not in GATHERS:
            skipped += 1
            continue
        one, two = ([int(v) for v in hand.split(",")] for hand in row["deal"].split("|"))
        mode = GATHERS[row["gather"]]
        start = time.time()
        _, _, cycle = bataille.jouer_partie(one, two, mode, mode, limite_cartes_posees=10**7)
        aligned = any(len(a) == len(b) for a, b in cycle)
        said = f'{row["deck"]} {row["gather"]} {row["deal"]}'
        if len(cycle) != int(row["period"]):
            sys.exit(f"with-bataille-py.py: {said}: bataille.py gives a cycle of {len(cycle)} rounds, the row says {row['period']}")
        if ("yes" if aligned else "no") != row["aligned"]:
            sys.exit(f"with-bataille-py.py: {said}: bataille.py's cycle is {'' if aligned else 'not '}aligned, the row says {row['aligned']}")
        print(f'{row["deck"]} {row["gather"]}: a cycle of {len(cycle)} rounds, aligned {row["aligned"]} ({time.time() - start:.1f} s)')
        replayed += 1
    print(f"with-bataille-py.py: {replayed} rows replayed by bataille.py as the rows say, {skipped} of other rules skipped")


if __name__ == "__main__":
    main()
