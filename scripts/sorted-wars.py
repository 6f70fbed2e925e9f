#!/usr/bin/env python3
"""Which wars the cycles of a `sorted` deck hold: each deal of a CSV's `hands` column (a hunt's
--log, data/research/cycles.csv) played plainly to its cycle, one period of the cycle gone
round, and each war of it named by where its tied value stands against the deciding battle's
two cards (two players, face-down count 0, `sorted`: strongest value first, equal values in
reveal order; scripts/shapes.py's round). It shares no code with warsweep.

- high: the tied value is at least the deciding battle's winning card. The table is gathered in
  the order of two single rounds won by the same player, so the values move as in a cycle
  without a war (scripts/war-free-census.py --ties builds exactly these).
- mid: between the deciding battle's two cards; low: under both. These gather in another order.

Each cycle's line: its period in rounds, rounds won by each player, wars of each kind, the
band of player 1's hand, whether its battles are four wins each (four won by player 1, four
by player 2, over and over, a war's battles all counted to its winner), and after how many
battles its mid and low wars come back at the same battles; the last line counts the cycles
whose wars are all high and those of four wins each.

    scripts/sorted-wars.py LOG.csv [...]
"""
import csv, sys
from collections import Counter, deque
from shapes import one_round

def round_of(a, b, battles=None):
    """One round; the kind of the round ('A', 'B', or a war's), None where a hand runs out.
    Appends (the round's winner, its kind) to `battles` once for each of its battles."""
    played = one_round(a, b, "sorted")
    if played is None:
        return None
    winner, ties, (x, y) = played
    kind = "AB"[winner]
    if ties:
        tied = ties[0]
        kind = "high" if tied >= max(x, y) else "mid" if tied > min(x, y) else "low"
    if battles is not None:
        battles.extend([("AB"[winner], kind)] * (len(ties) + 1))
    return kind

def four_wins_each(battles):
    """Whether the winners of the battles, a war's all counted to its winner, are four of
    player 1's and four of player 2's, over and over."""
    word = "".join(w for w, _ in battles)
    return len(word) % 8 == 0 and any(word == ("AAAABBBB" * (len(word) // 8 + 1))[r:r + len(word)]
                                      for r in range(8))

def cycle_of(a, b, limit=10**7):
    """The first state of the game that recurs, or None where the game ends."""
    seen = set()
    for _ in range(limit):
        state = (tuple(a), tuple(b))
        if state in seen:
            return state
        seen.add(state)
        if round_of(a, b) is None:
            return None
    raise SystemExit(f"no end nor cycle in {limit:,} rounds")

def wars_repeat(battles):
    """The fewest battles, a multiple of 8, after which the mid and low wars come back at the
    same battles (the cycle's whole length at most), and how many start in that stretch."""
    n, odd = len(battles), [kind in ("mid", "low") for _, kind in battles]
    for every in range(8, n + 1, 8):
        if n % every == 0 and all(odd[i] == odd[(i + every) % n] for i in range(n)):
            return every, sum(odd[i] and not odd[i - 1] for i in range(every))
    return n, sum(odd[i] and not odd[i - 1] for i in range(n))

def deals(path):
    """The two hands of each row of the CSV at `path` (its `hands` column, as a hunt's log and
    data/research/cycles.csv write them); one clear sentence and exit where it cannot be read."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        out = []
        for row in rows:
            hands = row["hands"].split("|")
            if len(hands) != 2:
                raise ValueError
            out.append([deque(int(v) for v in h.split(",")) for h in hands])
        return out
    except OSError as e:
        raise SystemExit(f"sorted-wars.py: cannot read {path}: {e.strerror}") from None
    except (KeyError, TypeError, ValueError):
        raise SystemExit(f"sorted-wars.py: {path} is not a CSV whose hands column holds two "
                         f"players' hands (a hunt's --log)") from None

def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    cycles, all_high, four = {}, 0, 0
    for path in sys.argv[1:]:
        for hands in deals(path):
            start = cycle_of(*hands)
            if start is None:
                continue
            a, b = deque(start[0]), deque(start[1])
            kinds, sizes, least, battles = Counter(), [], min(start, start[::-1]), []
            while True:
                kinds[round_of(a, b, battles)] += 1
                sizes.append(len(a))
                state = (tuple(a), tuple(b))
                least = min(least, state, state[::-1])  # a cycle and its mirror once
                if state == start:
                    break
            if least not in cycles:
                cycles[least] = (kinds, min(sizes), max(sizes), four_wins_each(battles),
                                 wars_repeat(battles))
    for kinds, low, high, rhythm, (every, wars) in cycles.values():
        repeat = f"; mid and low wars: {wars} every {every} battles" if wars else ""
        print(f"{sum(kinds.values())} rounds: A {kinds['A']}, B {kinds['B']}, wars high "
              f"{kinds['high']}, mid {kinds['mid']}, low {kinds['low']}; player 1 holds {low} to "
              f"{high}; {'four wins each' if rhythm else 'another rhythm'}{repeat}")
        all_high += kinds["mid"] + kinds["low"] == 0
        four += rhythm
    print(f"{len(cycles)} cycles (a cycle and its mirror once), {all_high} whose wars are all high, "
          f"{four} of four wins each, battle by battle")

if __name__ == "__main__":
    main()
