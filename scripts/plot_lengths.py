#!/usr/bin/env python3
"""The length distributions of two rule sets, from Python: classic War with won cards put
under the hand, and with won piles shuffled in (the rule of most simulators on the web).

    pip install . matplotlib
    python3 scripts/plot_lengths.py lengths.png [GAMES]
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import warsweep  # noqa: E402


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "lengths.png"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
    settings = {
        "classic": dict(rules="classic"),
        "classic, won piles shuffled": dict(rules="classic", won_pile="shuffled"),
    }
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, setting in settings.items():
        swept = warsweep.sweep((0, games), shuffle="splitmix", **setting)
        frame = swept.to_pandas()
        rounds = frame["rounds"].dropna().astype("int64")
        share = 100 * (frame["outcome"] == "infinite").mean()
        mean = swept.summary["rounds"]["mean"]
        ax.hist(rounds, bins=range(0, 3001, 25), histtype="step", density=True,
                label=f"{label}: mean {mean:.0f} rounds, {share:.1f}% never end")
        print(f"{label}: {len(frame)} games, mean {mean:.1f} rounds, {share:.2f}% infinite")
    ax.set_xlabel("rounds of a finished game")
    ax.set_ylabel("share of games")
    ax.set_title(f"Classic War, {games:,} splitmix deals")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
