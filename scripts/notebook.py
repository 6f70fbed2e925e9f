#!/usr/bin/env python3
"""What a notebook does with warsweep, as a script CI runs: P(player 1 wins) with its standard
error, and the distributions of rounds of three presets on one chart.

    python3 scripts/notebook.py lengths.png [GAMES]

Each figure is computed twice, from the summary and from the rows, and the two must agree.
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import warsweep  # noqa: E402


def main():
    out = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for preset in ("shortened", "classic", "bataille"):
        swept = warsweep.sweep((0, games), rules=preset)
        summary, rows = swept.summary, swept.to_numpy()
        wins = summary["wins"][1]
        assert wins == int((rows["winner"] == 1).sum())
        # A share of independent games: its standard error is sqrt(p (1 - p) / n).
        p = wins / games
        error = math.sqrt(p * (1 - p) / games)
        rounds = rows["rounds"][~np.isnan(rows["rounds"])]
        assert len(rounds) == games - summary["infinite"]
        assert abs(rounds.mean() - summary["rounds"]["mean"]) < 1e-6 * summary["rounds"]["mean"]
        infinite = summary["infinite"] / games
        print(f"{preset}: P(player 1 wins) = {p:.4f} +/- {error:.4f}, "
              f"mean {rounds.mean():.1f} rounds, {100 * infinite:.2f}% infinite")
        ax.hist(rounds, bins=np.arange(0, 3001, 25), histtype="step", density=True,
                label=f"{preset}: P(player 1 wins) {p:.3f} +/- {error:.3f}")
    ax.set_xlabel("rounds of a finished game")
    ax.set_ylabel("share of games")
    ax.set_title(f"Three presets, {games:,} lcg deals each")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
