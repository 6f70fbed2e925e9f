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

def meetings(period, len0, n):
    """For `--ties`: (winner, loser, next winner, next loser) of every round over every period,
    in the places of the first period; the next pair is (-1, -1) where the next round's winner
    differs (such a round cannot tie). None where a hand runs out or comes back another size."""
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
    moved = list(hands[0]) + list(hands[1])
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
    """Every meeting says winner >= loser: places strongly connected by it must hold one value,
    so at most `copies` of them, none of whose meetings must be strict."""
    above = [[] for _ in range(n)]
    for u, v, _, _ in meets:
        above[v].append(u)
    index, low, part, stack, on, count = [-1] * n, [0] * n, [-1] * n, [], [False] * n, [0, 0]
    def visit(x):  # Tarjan's strongly connected components, iteratively
        work = [(x, 0)]
        index[x] = low[x] = count[0]; count[0] += 1; stack.append(x); on[x] = True
        while work:
            x, i = work.pop()
            if i < len(above[x]):
                work.append((x, i + 1))
                y = above[x][i]
                if index[y] < 0:
                    index[y] = low[y] = count[0]; count[0] += 1; stack.append(y); on[y] = True
                    work.append((y, 0))
                elif on[y]:
                    low[x] = min(low[x], index[y])
                continue
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[x])
            if low[x] == index[x]:
                while True:
                    y = stack.pop(); on[y] = False; part[y] = count[1]
                    if y == x:
                        break
                count[1] += 1
    for x in range(n):
        if index[x] < 0:
            visit(x)
    sizes = [0] * count[1]
    for x in range(n):
        sizes[part[x]] += 1
    return max(sizes) <= copies and all(part[u] != part[v] or u2 >= 0 for u, v, u2, _ in meets)

def values_with_ties(meets, n, copies, kinds):
    """As `values`, each meeting with a next round of the same winner strict or a tie."""
    pool = IDPool()
    at_least = lambda u, k: pool.id((u, k))
    higher = lambda u, v, k0: [[-at_least(v, k), at_least(u, k + k0)] for k in range(2, kinds + 1 - k0)]
    clauses = []
    for u in range(n):
        clauses += [[-at_least(u, k + 1), at_least(u, k)] for k in range(2, kinds)]
    for u, v, u2, _ in meets:
        strict = [[at_least(u, 2)], [-at_least(v, kinds)]] + higher(u, v, 1)
        if u2 < 0:
            clauses += strict
            continue
        tie = pool.id(("tie", u, v, u2))
        clauses += [c + [tie] for c in strict]
        clauses += [c + [-tie] for c in higher(u, v, 0) + higher(v, u, 0) + higher(u, u2, 0)]
    for k in range(2, kinds + 1):
        lits = [at_least(u, k) for u in range(n)]
        clauses += CardEnc.equals(lits=lits, bound=n - copies * (k - 1), vpool=pool,
                                  encoding=EncType.seqcounter).clauses
    with Cadical153(bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        true = {l for l in solver.get_model() if l > 0}
        return [1 + sum(at_least(u, k) in true for k in range(2, kinds + 1)) for u in range(n)]

def on_a_sorted_cycle(hands):
    """Plays the state plainly under `sorted`, wars included: whether it comes back."""
    a, b = deque(hands[0]), deque(hands[1])
    start = (tuple(a), tuple(b))
    for _ in range(10**7):
        pile = []
        while True:
            if not a or not b:
                return False
            x, y = a.popleft(), b.popleft()
            pile += [x, y]
            if x != y:
                (a if x > y else b).extend(sorted(pile, reverse=True))
                break
        if (tuple(a), tuple(b)) == start:
            return True
    return False

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
    args.add_argument("--shortest", type=int, default=2)
    args.add_argument("--longest", type=int, default=16)
    args.add_argument("--ties", action="store_true")
    args.add_argument("--word", action="append", default=[])
    args.add_argument("decks", nargs="+")
    a = args.parse_args()
    for word in a.word:
        if set(word) - set("AB") or word.count("A") != word.count("B"):
            args.error(f"a period is a word of as many A as B: {word}")
    for deck in a.decks:
        copies, kinds = map(int, deck.split("x"))
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
                        on_a_cycle = on_a_sorted_cycle
                    else:
                        pairs = order(period, len0, n)
                        if pairs is None or not has_no_circle(pairs, n):
                            continue
                        no_circle.append((period, len0))
                        laid = values(pairs, n, copies, kinds)
                        on_a_cycle = on_a_cycle_without_a_war
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
