#!/usr/bin/env python3
"""An independent referee of infinite games, written from docs/rules.md alone and sharing no
code with warsweep: two players, open war or D cards face down, a player short of cards for a
war loses, and the gathers natural, sorted, winner-first and loser-first. It replays every row
of data/research/cycles.csv (or the file given): the deal's game must repeat a state, every
`period` rounds, its least state as written, and `aligned` (some state of the cycle has equal
hands) as said; the row's `rules` name the cards face down (`bataille`: none; `classic`: one;
`--face-down D`). Usage: scripts/referee.py [data/research/cycles.csv]"""
import csv, sys


def gather(table, winner, how):
    """The order the winner puts the table's cards under their hand; `table` lists
    (player, value) in the order the cards reached it, the deciding battle last."""
    if how == "natural":  # winning card, the other deciding card, then the rest latest first
        decider = sorted(table[-2:], key=lambda c: c[0] != winner)
        return decider + table[-3::-1]
    if how == "sorted":  # strongest first, equal values in reveal order (a stable sort)
        return sorted(table, key=lambda c: -c[1])
    mine = [c for c in table if c[0] == winner]
    theirs = [c for c in table if c[0] != winner]
    if how == "winner-first":
        return mine + theirs
    if how == "loser-first":
        return theirs + mine
    raise SystemExit(f"referee.py: no gather {how}")


def round_(hands, how, face_down):
    """Plays one round in place; False where the game ends."""
    table = []
    while True:
        if not hands[0] or not hands[1]:
            return False
        table += [(0, hands[0].pop(0)), (1, hands[1].pop(0))]
        if table[-2][1] != table[-1][1]:
            winner = 0 if table[-2][1] > table[-1][1] else 1
            hands[winner] += [v for _, v in gather(table, winner, how)]
            return True
        if len(hands[0]) < face_down + 1 or len(hands[1]) < face_down + 1:
            return False  # a war one cannot finish: the game ends
        for _ in range(face_down):
            table += [(0, hands[0].pop(0)), (1, hands[1].pop(0))]


def replay(deal, how, face_down):
    """(mu, lambda, least state as written, aligned) of the deal's game; None where it ends."""
    hands = [[int(v) for v in h.split(",")] for h in deal.split("|")]
    seen, states = {}, []
    while True:
        key = (tuple(hands[0]), tuple(hands[1]))
        if key in seen:
            mu = seen[key]
            cycle = states[mu:]
            big = 10 ** 6  # a separator stronger than every value
            least = min(cycle, key=lambda s: list(s[0]) + [big] + list(s[1]) + [big])
            written = "|".join(" ".join(map(str, h)) for h in least)
            return mu, len(states) - mu, written, any(len(a) == len(b) for a, b in cycle)
        seen[key] = len(states)
        states.append(key)
        if not round_(hands, how, face_down):
            return None


def face_down_of(rules):
    """The cards face down in a war under the rules' flags (`--rules P [--face-down D]`)."""
    flags = rules.split()
    if "--face-down" in flags:
        return int(flags[flags.index("--face-down") + 1])
    return {"bataille": 0, "classic": 1}[flags[flags.index("--rules") + 1]]


def main():
    args = sys.argv[1:]
    path = args[0] if args else "data/research/cycles.csv"
    checked = 0
    try:
        rows = list(csv.DictReader(open(path)))
        for row in rows:
            said = replay(row["deal"], row["gather"], face_down_of(row["rules"]))
            expected = (int(row["period"]), row["least_state"], row["aligned"])
            if said is None or (said[1], said[2], "yes" if said[3] else "no") != expected:
                raise SystemExit(f"referee.py: {row['deck']} {row['gather']} {row['deal']}: "
                                 f"{said}, the row says {expected}")
            checked += 1
    except (OSError, KeyError, ValueError, TypeError, AttributeError) as e:
        raise SystemExit(f"referee.py: {path} is no table of cycles ({e!r})")
    if checked == 0:
        raise SystemExit(f"referee.py: {path} holds no cycle")
    print(f"referee: {checked} rows of {path} replayed: each an infinite game of its period, "
          "least state and alignment")


if __name__ == "__main__":
    main()
