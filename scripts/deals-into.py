#!/usr/bin/env python3
"""Deals of equal hands whose game reaches a given state: a plain backward walk (two players,
face-down count 0, `natural` or `sorted`; scripts/shapes.py's round) that shares no code with
warsweep's backward search.

A state one round before another is found by taking the last cards of a hand (2 for a single
battle, 4 for a war of one tie), putting them back on top of both hands in every order, and
keeping the orders that play forward to the state. Every state of the cycle the given state is
on is a start; the walk goes best first, the state whose player 1 is closest to half the
cards first, and stops at `--deals` deals or `--states` states expanded. Each deal is printed
as `play`'s input on one line (`1,2,...|3,4,...`), to be judged by `warsweep play`.

    scripts/deals-into.py [--gather natural] [--deals 5] [--states 100000] '4,11,1|4,5,...'
"""
import argparse, heapq, itertools, sys
from collections import deque
from shapes import one_round

def forward(state, gather):
    """The state one round later, None where a hand runs out."""
    a, b = deque(state[0]), deque(state[1])
    return None if one_round(a, b, gather) is None else (tuple(a), tuple(b))

def before(state, gather):
    """The states one round before `state` (a single battle or a war of one tie)."""
    found = set()
    for w in (0, 1):
        won, lost = state[w], state[1 - w]
        for m in (1, 2):
            if len(won) < 2 * m:
                continue
            kept, table = won[:-2 * m], won[-2 * m:]
            for order in set(itertools.permutations(table)):
                mine, theirs = order[:m], order[m:]
                pred = (mine + kept, theirs + lost)
                pred = pred if w == 0 else pred[::-1]
                if forward(pred, gather) == state:
                    found.add(pred)
    return sorted(found)

def on_its_cycle(state, gather, longest=10**7):
    """Every state of the cycle `state` is on; SystemExit where it is not on one."""
    states, s = [state], forward(state, gather)
    while s != state:
        if s is None or len(states) == longest:
            sys.exit(f"deals-into.py: the state is not on a cycle under {gather}")
        states.append(s)
        s = forward(s, gather)
    return states

def state(text):
    """`play`'s hands on one line, `1,2,...|3,4,...`, for argparse's `type=`."""
    try:
        hands = tuple(tuple(int(v) for v in hand.split(",")) for hand in text.split("|"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a state is two hands, 1,2,..|3,4,..: {text!r}") from None
    if len(hands) != 2 or not all(hands):
        raise argparse.ArgumentTypeError(f"a state is two hands, 1,2,..|3,4,..: {text!r}")
    return hands

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--gather", choices=["natural", "sorted"], default="natural")
    args.add_argument("--deals", type=int, default=5)
    args.add_argument("--states", type=int, default=100_000)
    args.add_argument("state", type=state)
    a = args.parse_args()
    cycle = on_its_cycle(a.state, a.gather)
    half = sum(map(len, a.state)) // 2
    seen, deals, expanded = set(cycle), [], 0
    waiting = [(abs(len(s[0]) - half), i, s) for i, s in enumerate(cycle)]
    heapq.heapify(waiting)
    counter = itertools.count(len(cycle))
    while waiting and expanded < a.states and len(deals) < a.deals:
        _, _, s = heapq.heappop(waiting)
        expanded += 1
        for pred in before(s, a.gather):
            if pred in seen:
                continue
            seen.add(pred)
            if len(pred[0]) == len(pred[1]) == half:
                deals.append(pred)
            heapq.heappush(waiting, (abs(len(pred[0]) - half), next(counter), pred))
    print(f"cycle of {len(cycle)} rounds, player 1 holding {min(len(s[0]) for s in cycle)} to "
          f"{max(len(s[0]) for s in cycle)} cards; {expanded:,} states expanded, "
          f"{len(deals[:a.deals])} deals of {half} cards a hand")
    for d in deals[:a.deals]:
        print("|".join(",".join(map(str, h)) for h in d))

if __name__ == "__main__":
    main()
