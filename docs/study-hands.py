#!/usr/bin/env python3
"""Does player 1's hand predict the winner? A worked study with the warsweep module alone.

    python3 docs/study-hands.py [GAMES]

For two presets, sweeps GAMES seeds (100,000 by default) with each row's deal
(``rows_with=["hands"]``) and prints, for each preset, how often player 1 wins by the number of
aces (the top value) in player 1's hand, and by how much stronger (the sum of its card values
against player 2's) the hand is, with standard errors; then how often "the stronger hand wins"
and "the hand with more aces wins" guess the winner. Shares are of all games, so draws and infinite games count against both
players.
"""
import math
import sys

import numpy as np

import warsweep


def share(wins, games):
    """``p +/- standard error`` of a share of independent games, or a dash for none."""
    if games == 0:
        return f"{'-':>16}"
    p = wins / games
    return f"{p:7.3f} +/- {math.sqrt(p * (1 - p) / games):.3f}"


def study(preset, games):
    swept = warsweep.sweep((0, games), rules=preset, rows_with=["hands"])
    rows = swept.to_numpy()
    hands = rows["hands"].astype(np.int64)  # (games, 2 players, 26 cards), values 1..13
    won = rows["winner"] == 1
    top = hands.max()
    aces = (hands[:, 0, :] == top).sum(axis=1)
    edge = hands[:, 0, :].sum(axis=1) - hands[:, 1, :].sum(axis=1)
    print(f"\n{preset} ({games:,} deals; player 1 wins {share(won.sum(), games).strip()})")
    print(f"  {'aces in P1 hand':<22}{'games':>9}  P(player 1 wins)")
    for n in range(5):
        at = aces == n
        print(f"  {n:<22}{at.sum():>9,}  {share(won[at].sum(), at.sum())}")
    print(f"  {'P1 values - P2 values':<22}{'games':>9}  P(player 1 wins)")
    bins = [("below -20", -np.inf, -20), ("-20 to -6", -20, -5), ("-5 to 5", -5, 6),
            ("6 to 20", 6, 21), ("21 or more", 21, np.inf)]
    for label, low, high in bins:
        at = (edge >= low) & (edge < high)
        print(f"  {label:<22}{at.sum():>9,}  {share(won[at].sum(), at.sum())}")
    decided = rows["winner"] >= 1
    for guess, by in (("the stronger hand", edge), ("the hand with more aces", 2 * aces - 4)):
        unequal = decided & (by != 0)
        right = (np.where(by > 0, 1, 2)[unequal] == rows["winner"][unequal]).mean()
        print(f"  {guess} wins {100 * right:.1f}% of the won games where the hands differ so")


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    for preset in ("classic", "bataille"):
        study(preset, games)


if __name__ == "__main__":
    main()
