"""A warp of 32 GPU threads in step, on real game lengths: how much of a lex walk's time the
kernel's loop shape wastes, and what deal points every P rounds give back.

Usage (from the repository root, warsweep built):
  target/release/warsweep sweep --rules bataille --deck 4x5 --shuffle lex \
      --seeds 150000000000..150002097152 --every-deal -q --csv /tmp/w45.csv
  python3 data/runs/2026-11-27-vm-28/warp_model.py /tmp/w45.csv 150000000000

Thread t of a launch walks PER consecutive deals; a warp is 32 consecutive threads. A deal
counts 0, 1 or 2 times (its mirror, hands exchanged, counts with the lesser: the whole walk's
weighing). Costs are in rounds: S a deal stepped to (next arrangement, hands, weighing), C a
game counted. A warp pays, at each step, the most any of its threads pays.
"""
import sys
from math import factorial

import numpy as np

V, COPIES = 5, 4  # 4x5
N = V * COPIES
WARP = 32


def weights(first, count):
    """Each deal's weight from the lex walk's `first`: 2 when it counts its mirror, 0 when its
    mirror counts it, 1 when it is its own mirror."""
    left, out, rem, k = [COPIES] * V, [], N, first
    total = factorial(N) // factorial(COPIES) ** V
    for _ in range(N):
        for v in range(V):
            if left[v] == 0:
                continue
            w = total * left[v] // rem
            if k < w:
                out.append(v)
                left[v] -= 1
                rem -= 1
                total = w
                break
            k -= w
    a, half, weight = out, N // 2, np.empty(count, dtype=np.int64)
    for s in range(count):
        x, y = a[:half], a[half:]
        weight[s] = 1 if x == y else (2 if x < y else 0)
        i = N - 2
        while i >= 0 and a[i] >= a[i + 1]:
            i -= 1
        if i >= 0:
            j = N - 1
            while a[j] <= a[i]:
                j -= 1
            a[i], a[j] = a[j], a[i]
        a[i + 1:] = a[i + 1:][::-1]
    return weight


def game_at_a_time(R, W, S, C):
    """Deal k of every thread, then its game, in step: the loop before deal points."""
    total = 0
    for w in range(R.shape[0]):
        played = np.where(W[w] > 0, R[w] + C, 0)
        total += (S + played.max(axis=0)).sum()
    return total


def deal_points(R, W, P, S, C):
    """Every thread plays P rounds; then the threads whose game ended count it and step to
    their next deal that counts."""
    total = 0
    for w in range(R.shape[0]):
        per = R.shape[2]
        pos = np.zeros(WARP, dtype=int)
        left = np.zeros(WARP, dtype=int)
        cost = 0
        while True:
            paid = np.zeros(WARP)
            for t in np.flatnonzero(left == 0):
                s = 0
                while pos[t] < per and W[w, t, pos[t]] == 0:
                    pos[t] += 1
                    s += 1
                if pos[t] < per:
                    left[t] = R[w, t, pos[t]]
                    pos[t] += 1
                    s += 1
                paid[t] = s * S + C
            cost += paid.max()
            if (left == 0).all():
                break
            cost += min(P, left.max())
            left = np.maximum(left - P, 0)
        total += cost
    return total


def main():
    path, first = sys.argv[1], int(sys.argv[2])
    rounds = np.loadtxt(path, delimiter=",", skiprows=1, usecols=3, dtype=np.int64)
    weight = weights(first, len(rounds))
    print("deals weighing 0, 1, 2:", [int((weight == k).sum()) for k in (0, 1, 2)])
    for per, warps in ((256, 128), (1024, 32)):
        n = warps * per * WARP
        R = rounds[:n].reshape(-1, WARP, per)
        W = weight[:n].reshape(-1, WARP, per)
        for S, C in ((1.0, 0.6), (2.0, 1.0)):
            base = game_at_a_time(R, W, S, C)
            gains = " ".join(
                f"P={P}: {base / deal_points(R, W, P, S, C):.2f}x" for P in (4, 8, 16, 32)
            )
            print(f"{per} deals a thread, S={S} C={C}: against a game at a time, {gains}")


if __name__ == "__main__":
    main()
