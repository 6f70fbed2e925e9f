#!/usr/bin/env python3
"""Cycles of four wins each under `sorted`, with wars: a census by SAT (python-sat) that shares
no code with warsweep.

Every cycle random sampling finds on 4x7 and 4x11 `sorted` plays four wins each, battle by
battle: player 1 wins four battles, player 2 four, forever, a war's battles all counted to its
winner (scripts/sorted-wars.py names its wars; docs/research.md, "Wars that keep a shape"). A
war of two battles (face-down count 0) with tied value x and deciding cards y over z is
gathered `sorted` as
- high, x >= y: x, x, y, z, as two single battles; it may fall on any two battles of one winner
  at any pass (scripts/war-free-census.py --ties);
- mid, z <= x < y: y, x, x, z;
- low, x < z: y, z, x, x.
Under `natural` every war is gathered y, z, x, x (the winning card, the deciding battle's other
card, then the earlier cards latest first), whatever the values, and no war gathers as single
battles do: `--gather natural` places such wars alone and lets no other battle tie.
Mid and low wars move the cards otherwise than single battles do, so they are placed here at
fixed battles of a super-period of m times eight battles: the super-period, player 1's hand
size and those wars fix where every card goes, and the cards that meet over every super-period
must then take values that make each war the kind it was placed as, every other battle a win
of its winner or a high war, four copies of each value (the SAT question). A state found is
checked by a plain `sorted` simulation to be on a cycle.

`--words L` places the wars in another rhythm instead: every period of up to L battles with as
many won by each player that player 1 begins with a war (any other placing is a turn of one of
these, or its mirror), the second war of two anywhere after it. That is how the 52-card cycles
were found (docs/research.md, "Infinite games of 52 cards").

Each line: the deck, the super-periods (m) or periods tried, the placings of the wars (one war,
mid or low, in the first eight battles; or two, the second anywhere after it), the shapes whose
circles can be of one value, those that take the values, and one state of each of the latter.

    pip install python-sat
    scripts/four-wins-census.py [--periods 1-24 | --words L] [--wars 1] [--sample N --seed S] [--gather natural] 4x7 4x13 ...
"""
import argparse, itertools, random, sys
from collections import deque
import shapes
from shapes import lay_values, on_a_cycle, one_value_circles, strict_or_high_war

# The battles of the first eight that a war may tie on: the next battle has the same winner.
TIES = [0, 1, 2, 4, 5, 6]

def tied_classes_fit(rounds, moved, n, copies):
    """Whether the cards the placed wars tie, over every super-period, join into classes of at
    most `copies` (one value each): a quick way out, before every meeting is listed."""
    parent = list(range(n))
    size = [1] * n
    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for r in rounds:
        if r[0] == "p":
            continue
        a, b, seen = r[1], r[2], set()
        while (a, b) not in seen:
            seen.add((a, b))
            x, y = root(a), root(b)
            if x != y:
                parent[x] = y
                size[y] += size[x]
                if size[y] > copies:
                    return False
            a, b = moved[a], moved[b]
    return True

def meetings(word, wars, len0, n, copies, ties=True):
    """The meetings over every super-period `word` (who wins each battle), in the places of the
    first: ('p', winner, loser, next winner or -1 where the next battle may not be its decider)
    for single battles and ('m', 'l' or 'n', tied card, tied card, deciding winner, deciding
    loser) for placed wars. None where a hand runs out or comes back another size."""
    hands, rounds, i = [deque(range(len0)), deque(range(len0, n))], [], 0
    while i < len(word):
        w = 0 if word[i] == "A" else 1
        if len(hands[0]) < 2 or len(hands[1]) < 2:
            return None
        if i in wars:
            tied = [hands[0].popleft(), hands[1].popleft()]
            decider = [hands[0].popleft(), hands[1].popleft()]
            high, low = decider[w], decider[1 - w]
            rounds.append((wars[i], tied[0], tied[1], high, low, i))
            # sorted: mid y, x, x, z; low y, z, x, x; natural: y, z, then the tie latest first
            gathered = {"m": [high, *tied, low], "l": [high, low, *tied], "n": [high, low, *tied[::-1]]}
            hands[w].extend(gathered[wars[i]])
            i += 2
        else:
            cards = [hands[0].popleft(), hands[1].popleft()]
            rounds.append(("p", cards[w], cards[1 - w], w, i))
            hands[w].extend([cards[w], cards[1 - w]])
            i += 1
    if len(hands[0]) != len0:
        return None
    moved = list(hands[0]) + list(hands[1])
    if not tied_classes_fit(rounds, moved, n, copies):
        return None
    first = []
    for j, r in enumerate(rounds):
        if r[0] != "p":
            first.append(r[:5])
            continue
        after = rounds[(j + 1) % len(rounds)]
        decider = -1
        if ties and after[0] == "p" and after[3] == r[3] and (r[4] + 1) % len(word) == after[4]:
            # the next super-period's first battle, in this one's places
            decider = after[1] if j + 1 < len(rounds) else moved[after[1]]
        first.append(("p", r[1], r[2], decider))
    out = set()
    for t in first:
        while t not in out:
            out.add(t)
            t = (t[0],) + tuple(moved[x] if x >= 0 else -1 for x in t[1:])
    return out

def order(meets):
    """(card at least as high, card, strictly) for every meeting."""
    for t in meets:
        if t[0] == "p":
            yield t[1], t[2], t[3] < 0
            continue
        _, a, b, high, low = t
        yield from [(a, b, False), (b, a, False), (high, low, True)]
        yield from {"m": [(high, a, True), (a, low, False)], "l": [(low, a, True)], "n": []}[t[0]]

def values(meets, n, copies, kinds):
    """Values 1..kinds, `copies` of each, meeting every constraint; None where none exist."""
    def constraints(at_least, ge, gt, pool):
        clauses = []
        for t in sorted(meets):  # one order of clauses, one answer, whatever the hash seed
            if t[0] == "p" and t[3] < 0:
                clauses += gt(t[1], t[2])
            elif t[0] == "p":
                clauses += strict_or_high_war(t[1], t[2], t[3], ge, gt, pool)
            else:
                _, a, b, high, low = t
                clauses += ge(a, b, 0) + ge(b, a, 0) + gt(high, low)
                clauses += {"m": gt(high, a) + ge(a, low, 0), "l": gt(low, a), "n": []}[t[0]]
        return clauses
    return lay_values(n, copies, kinds, constraints)

def periods(text):
    """`FIRST-LAST` super-periods, 1 <= FIRST <= LAST, for argparse's `type=`."""
    try:
        first, last = map(int, text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"super-periods are FIRST-LAST: {text!r}") from None
    if not 1 <= first <= last:
        raise argparse.ArgumentTypeError(f"super-periods from 1 up: {text!r}")
    return first, last

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--periods", default="1-24", type=periods, help="super-periods m, eight battles each")
    args.add_argument("--wars", type=int, default=1, help="wars a super-period: 1 or 2, or any with --sample")
    args.add_argument("--sample", type=int, default=0, help="random placings instead of every one")
    args.add_argument("--seed", type=int, default=0)
    args.add_argument("--gather", choices=["sorted", "natural"], default="sorted")
    args.add_argument("--words", type=int, default=0, help="every word of up to L battles instead of four wins each")
    args.add_argument("decks", nargs="+", type=shapes.deck)
    a = args.parse_args()
    first, last = a.periods
    if a.wars < 1 or (a.wars > 2 and not a.sample):
        args.error("every placing of 1 or 2 wars, or --sample N placings of any number")
    if a.words and (a.sample or a.words < 4 or a.words % 2):
        args.error(f"--words takes an even number of battles from 4, and no --sample: {a.words}")
    kinds_of_war = "ml" if a.gather == "sorted" else "n"
    rng = random.Random(a.seed)

    def every_placing(m):
        """Every placing of m's super-period, the first war in the first eight battles."""
        one = [{i: k} for i in TIES for k in kinds_of_war]
        if a.wars == 1:
            return one
        return [{i: k, j: k2} for i in TIES for k in kinds_of_war for j in range(i + 2, 8 * m - 1)
                if j % 8 in TIES for k2 in kinds_of_war]

    def sampled():
        """`--sample` placings: m at random, the first war in the first eight battles, the
        others anywhere free, each war's kind at random; those that do not fit are drawn again."""
        drawn = []
        while len(drawn) < a.sample:
            m = rng.randint(first, last)
            wars = {rng.choice(TIES): rng.choice(kinds_of_war)}
            spots = [j for j in range(2, 8 * m - 1) if j % 8 in TIES]
            for j in rng.sample(spots, min(len(spots), 4 * a.wars)):
                if len(wars) == a.wars:
                    break
                if all(abs(j - i) >= 2 for i in wars):
                    wars[j] = rng.choice(kinds_of_war)
            if len(wars) == a.wars:
                drawn.append((m, wars))
        return drawn

    def any_word():
        """`--words`: every word of as many battles won by each player, up to L battles, that
        player 1 begins with a war (any other placing is a turn of one of these, or its mirror
        with the players swapped); with two wars, the second anywhere after it."""
        for length in range(4, a.words + 1, 2):
            for bits in itertools.combinations(range(2, length), length // 2 - 2):
                word = "AA" + "".join("A" if i in bits else "B" for i in range(2, length))
                for k in kinds_of_war:
                    if a.wars == 1:
                        yield word, {0: k}
                        continue
                    for j in range(2, length - 1):
                        if word[j] == word[j + 1]:
                            yield from ((word, {0: k, j: k2}) for k2 in kinds_of_war)

    if a.words:
        placings = list(any_word())
    else:
        placings = [("AAAABBBB" * m, wars) for m, wars in sampled()] if a.sample else [
            ("AAAABBBB" * m, wars) for m in range(first, last + 1) for wars in every_placing(m)]
    for copies, kinds in a.decks:
        deck = f"{copies}x{kinds}"
        n = copies * kinds
        passed = fit = 0
        found = []
        for word, wars in placings:
            for len0 in range(1, n):
                meets = meetings(word, wars, len0, n, copies, a.gather == "sorted")
                if meets is None or not one_value_circles(list(order(meets)), n, copies):
                    continue
                passed += 1
                laid = values(meets, n, copies, kinds)
                if laid:
                    hands = (laid[:len0], laid[len0:])
                    assert on_a_cycle(hands, a.gather), (word, wars, len0, laid)
                    fit += 1
                    found.append((word, wars, len0, hands))
        what = "(mid or low)" if a.gather == "sorted" else "(no other tie)"
        how = f"random (seed {a.seed})" if a.sample else "every one"
        rhythm = (f"every word of 4..{a.words} battles" if a.words else
                  f"four wins each: super-periods of {first}..{last} times 8 battles")
        print(f"{deck} {a.gather}, {rhythm}, "
              f"{a.wars} placed war{'s' * (a.wars > 1)} {what} each: {len(placings):,} placings, {how}, "
              f"sizes of player 1's hand 1..{n - 1}; shapes whose circles can be of one value "
              f"{passed}; taking the values {fit}")
        for word, wars, len0, hands in found:
            placed = " ".join(f"{k}@{i}" for i, k in sorted(wars.items()))
            what = word if a.words else f"m {len(word) // 8}"
            print(f"  {what} {placed} {len0}: {','.join(map(str, hands[0]))}|{','.join(map(str, hands[1]))}")
        sys.stdout.flush()

if __name__ == "__main__":
    main()
