#!/usr/bin/env python3
"""Which decks have cycles without a war, by the period of who wins each round: an enumeration
that shares no code with warsweep's (src/hunt/strategy/war_free.rs), exact where warsweep's
laying of values is a heuristic.

Two players, no round a war: the winner takes both cards, its own first (`natural` and
`sorted` alike). A period of winners (as many rounds won by each player) and player 1's hand
size then fix where every card goes; the cards that meet over every period must be ordered
(the winner's card higher), that order must have no circle, and the deck's values (C copies
of each of V) must fit it. The last question is put to a SAT solver (python-sat), so "takes no
values" is a proof, not a failed search. Each deck's line: periods of each length tried (as
balanced Lyndon words), shapes whose order has no circle, those that take the values, and for
each of the latter one state, checked by a plain simulation to be on a cycle without a war.

    pip install python-sat
    scripts/war-free-census.py [--longest 16] 4x11 4x13 ...
"""
import argparse, itertools, sys
from collections import deque
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Cadical153

def periods(length):
    """Balanced binary Lyndon words of `length` letters ('A': player 1 wins the round)."""
    for bits in itertools.combinations(range(length), length // 2):
        s = "".join("A" if i in bits else "B" for i in range(length))
        if all(s < s[r:] + s[:r] for r in range(1, length)):
            yield s

def order(period, len0, n):
    """The pairs (higher, lower) of card places that meet over every period, or None."""
    hands, meets = [deque(range(len0)), deque(range(len0, n))], []
    for w in period:
        w = 0 if w == "A" else 1
        if not hands[0] or not hands[1]:
            return None
        cards = [hands[0].popleft(), hands[1].popleft()]
        meets.append((cards[w], cards[1 - w]))
        hands[w].extend([cards[w], cards[1 - w]])
        if not hands[1 - w]:
            return None
    if len(hands[0]) != len0:
        return None
    moved = list(hands[0]) + list(hands[1])
    pairs = set()
    for u, v in meets:
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
    pool = IDPool()
    at_least = lambda u, k: pool.id((u, k))  # value of u >= k, k = 2..kinds
    clauses = []
    for u in range(n):
        clauses += [[-at_least(u, k + 1), at_least(u, k)] for k in range(2, kinds)]
    for u, v in pairs:
        clauses += [[at_least(u, 2)], [-at_least(v, kinds)]]
        clauses += [[-at_least(v, k), at_least(u, k + 1)] for k in range(2, kinds)]
    for k in range(2, kinds + 1):
        lits = [at_least(u, k) for u in range(n)]
        clauses += CardEnc.equals(lits=lits, bound=n - copies * (k - 1), vpool=pool,
                                  encoding=EncType.seqcounter).clauses
    with Cadical153(bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        true = {l for l in solver.get_model() if l > 0}
        return [1 + sum(at_least(u, k) in true for k in range(2, kinds + 1)) for u in range(n)]

def on_a_cycle_without_a_war(hands):
    """Plays the state plainly: whether it comes back with no round a war."""
    a, b = deque(hands[0]), deque(hands[1])
    start = (tuple(a), tuple(b))
    for _ in range(10**7):
        if not a or not b or a[0] == b[0]:
            return False
        x, y = a.popleft(), b.popleft()
        (a if x > y else b).extend([max(x, y), min(x, y)])
        if (tuple(a), tuple(b)) == start:
            return True
    return False

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--longest", type=int, default=16)
    args.add_argument("decks", nargs="+")
    a = args.parse_args()
    for deck in a.decks:
        copies, kinds = map(int, deck.split("x"))
        n = copies * kinds
        tried, no_circle, fit = {}, [], []
        for length in range(2, a.longest + 1, 2):
            words = list(periods(length))
            tried[length] = len(words)
            for period in words:
                for len0 in range(1, n):
                    pairs = order(period, len0, n)
                    if pairs is None or not has_no_circle(pairs, n):
                        continue
                    no_circle.append((period, len0))
                    laid = values(pairs, n, copies, kinds)
                    if laid:
                        hands = (laid[:len0], laid[len0:])
                        assert on_a_cycle_without_a_war(hands), (period, len0, laid)
                        fit.append((period, len0, hands))
        print(f"{deck}: periods of 2..{a.longest} rounds {sum(tried.values()):,} "
              f"({', '.join(f'{l}: {c:,}' for l, c in tried.items())}), "
              f"sizes of player 1's hand 1..{n - 1}; shapes with no circle {len(no_circle)}"
              f"{' ' + str(no_circle) if no_circle else ''}; taking the values {len(fit)}")
        for period, len0, hands in fit:
            print(f"  {period} {len0}: {','.join(map(str, hands[0]))}|{','.join(map(str, hands[1]))}")
        sys.stdout.flush()

if __name__ == "__main__":
    main()
