#!/usr/bin/env python3
"""Which decks have cycles without a war, by the period of who wins each round: an enumeration
that shares no code with warsweep's (src/shapes/, `warsweep shapes`): an independent checker
of its counts (CI compares them).

Two players, no round a war: the winner takes both cards, its own first (`natural` and
`sorted` alike). A period of winners (as many rounds won by each player) and player 1's hand
size then fix where every card goes; the cards that meet over every period must be ordered
(the winner's card higher), that order must have no circle, and the deck's values (C copies
of each of V) must fit it. The last question is put to a SAT solver (python-sat), so "takes no
values" is a proof, not a failed search. Each deck's line: periods of each length tried (as
balanced Lyndon words), shapes whose order has no circle, those that take the values, and for
each of the latter one state, checked by a plain simulation to be on a cycle without a war.

`--ties` asks more of `sorted` (strongest value first, equal values in reveal order): there a
war whose tied value is at least the deciding battle's winning card gathers its four cards in
the order of two single rounds won by the same player (equal values change places, which no
state can tell). So the values move as the shape says, and a round followed by one of the same
winner may be a tie instead, at any pass, without a period of its own. The shape then asks that
every card that meets be at least as high as the card it beats (higher where the next round's
winner differs), a tie at least as high as the next round's winning card; places that the
order joins in a circle must hold one value, at most C cards. The state found is checked by a
plain `sorted` simulation, wars included, to be on a cycle. `--word` tries the given periods
alone (k wins each for large k: `--word AAAAAAAABBBBBBBB`).

    pip install python-sat
    scripts/war-free-census.py [--shortest 2] [--longest 16] [--ties] [--word W ...] 4x11 4x13 ...
"""
import argparse, itertools, sys
from collections import deque
import shapes
from shapes import lay_values, strict_or_high_war

def periods(length):
    """Balanced binary Lyndon words of `length` letters ('A': player 1 wins the round)."""
    for bits in itertools.combinations(range(length), length // 2):
        s = "".join("A" if i in bits else "B" for i in range(length))
        if all(s < s[r:] + s[:r] for r in range(1, length)):
            yield s

def one_period(period, len0, n):
    """The rounds of one period from places 0..n-1, player 1 holding `len0`: each round's
    (winner's place, loser's place, winner), and where each place's card came from after the
    period; None where a hand runs out or comes back another size."""
    hands, rounds = [deque(range(len0)), deque(range(len0, n))], []
    for w in period:
        w = 0 if w == "A" else 1
        if not hands[0] or not hands[1]:
            return None
        cards = [hands[0].popleft(), hands[1].popleft()]
        rounds.append((cards[w], cards[1 - w], w))
        hands[w].extend([cards[w], cards[1 - w]])
        if not hands[1 - w]:
            return None
    if len(hands[0]) != len0:
        return None
    return rounds, list(hands[0]) + list(hands[1])

def order(period, len0, n):
    """The pairs (higher, lower) of card places that meet over every period, or None."""
    played = one_period(period, len0, n)
    if played is None:
        return None
    rounds, moved = played
    pairs = set()
    for u, v, _ in rounds:
        while (u, v) not in pairs:
            pairs.add((u, v))
            u, v = moved[u], moved[v]
    return pairs

def has_no_circle(pairs, n):
    above = [[] for _ in range(n)]
    waiting = [0] * n
    for u, v in pairs:
        above[v].append(u)
        waiting[u] += 1
    ready, done = [u for u in range(n) if waiting[u] == 0], 0
    while ready:
        v = ready.pop()
        done += 1
        for u in above[v]:
            waiting[u] -= 1
            if waiting[u] == 0:
                ready.append(u)
    return done == n

def values(pairs, n, copies, kinds):
    """Values 1..kinds, `copies` of each, every pair's first higher; None where none exist."""
    return lay_values(n, copies, kinds, lambda at_least, ge, gt, pool:
                      [c for u, v in pairs for c in gt(u, v)])

def meetings(period, len0, n):
    """For `--ties`: (winner, loser, next winner, next loser) of every round over every period,
    in the places of the first period; the next pair is (-1, -1) where the next round's winner
    differs (such a round cannot tie). None where a hand runs out or comes back another size."""
    played = one_period(period, len0, n)
    if played is None:
        return None
    rounds, moved = played
    out = set()
    for i, (u, v, w) in enumerate(rounds):
        u2, v2, w2 = rounds[(i + 1) % len(rounds)]
        if i + 1 == len(rounds):  # the next period's first round, in this period's places
            u2, v2 = moved[u2], moved[v2]
        t = (u, v, u2, v2) if w2 == w else (u, v, -1, -1)
        while t not in out:
            out.add(t)
            t = tuple(moved[x] if x >= 0 else -1 for x in t)
    return out

def one_value_circles(meets, n, copies):
    """Every meeting says winner >= loser, strictly where the next round's winner differs:
    places strongly connected by it must hold one value (shapes.one_value_circles)."""
    return shapes.one_value_circles([(u, v, u2 < 0) for u, v, u2, _ in meets], n, copies)

def values_with_ties(meets, n, copies, kinds):
    """As `values`, each meeting with a next round of the same winner strict or a tie."""
    def constraints(at_least, ge, gt, pool):
        clauses = []
        for u, v, u2, _ in meets:
            if u2 < 0:
                clauses += gt(u, v)
                continue
            clauses += strict_or_high_war(u, v, u2, ge, gt, pool)
        return clauses
    return lay_values(n, copies, kinds, constraints)

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--shortest", type=int, default=2)
    args.add_argument("--longest", type=int, default=16)
    args.add_argument("--ties", action="store_true")
    args.add_argument("--word", action="append", default=[])
    args.add_argument("decks", nargs="+", type=shapes.deck)
    a = args.parse_args()
    for word in a.word:
        if set(word) - set("AB") or word.count("A") != word.count("B"):
            args.error(f"a period is a word of as many A as B: {word}")
    for copies, kinds in a.decks:
        deck = f"{copies}x{kinds}"
        n = copies * kinds
        tried, no_circle, fit = {}, [], []
        lengths = sorted({len(w) for w in a.word}) or range(a.shortest, a.longest + 1, 2)
        for length in lengths:
            words = [w for w in a.word if len(w) == length] or list(periods(length))
            tried[length] = len(words)
            for period in words:
                for len0 in range(1, n):
                    if a.ties:
                        meets = meetings(period, len0, n)
                        if meets is None or not one_value_circles(meets, n, copies):
                            continue
                        no_circle.append((period, len0))
                        laid = values_with_ties(meets, n, copies, kinds)
                        on_a_cycle = lambda hands: shapes.on_a_cycle(hands, "sorted")
                    else:
                        pairs = order(period, len0, n)
                        if pairs is None or not has_no_circle(pairs, n):
                            continue
                        no_circle.append((period, len0))
                        laid = values(pairs, n, copies, kinds)
                        on_a_cycle = lambda hands: shapes.on_a_cycle(hands, "sorted", wars=False)
                    if laid:
                        hands = (laid[:len0], laid[len0:])
                        assert on_a_cycle(hands), (period, len0, laid)
                        fit.append((period, len0, hands))
        what = ", ".join(a.word) if a.word else f"periods of {a.shortest}..{a.longest} rounds"
        print(f"{deck}{' sorted, with ties' if a.ties else ''}: {what}: {sum(tried.values()):,} "
              f"({', '.join(f'{l}: {c:,}' for l, c in tried.items())}), "
              f"sizes of player 1's hand 1..{n - 1}; shapes with no circle"
              f"{' but of one value' if a.ties else ''} {len(no_circle)}"
              f"{' ' + str(no_circle) if no_circle else ''}; taking the values {len(fit)}")
        for period, len0, hands in fit:
            print(f"  {period} {len0}: {','.join(map(str, hands[0]))}|{','.join(map(str, hands[1]))}")
        sys.stdout.flush()

if __name__ == "__main__":
    main()
