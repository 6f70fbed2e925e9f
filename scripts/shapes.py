"""What the censuses of shapes share (scripts/war-free-census.py, scripts/four-wins-census.py):
the test that cards an order joins in a circle can be of one value, the SAT question whether a
deck's values meet an order (python-sat: `pip install python-sat`, imported only there), the
clauses of a `sorted` high war, and the plain round the scripts' games are played with
(scripts/sorted-wars.py too). It shares no code with warsweep."""
from collections import deque

def deck(text):
    """`CxV` as (copies, values), for argparse's `type=`: two players' decks of 2 to 64 cards."""
    import argparse
    try:
        copies, kinds = map(int, text.split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deck is CxV, copies times values: {text!r}") from None
    if copies < 1 or kinds < 1 or not 2 <= copies * kinds <= 64:
        raise argparse.ArgumentTypeError(f"a deck of 2 to 64 cards: {text!r}")
    return copies, kinds

def one_value_circles(edges, n, copies):
    """`edges`: (u, v, strict), card u at least as high as card v, higher where strict. Cards
    strongly connected by them must hold one value: at most `copies`, no strict edge between
    two of them (Tarjan's components, iteratively)."""
    above = [[] for _ in range(n)]
    for u, v, _ in edges:
        above[v].append(u)
    index, low, part, stack, on, count = [-1] * n, [0] * n, [-1] * n, [], [False] * n, [0, 0]
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low[root] = count[0]; count[0] += 1; stack.append(root); on[root] = True
        work = [(root, 0)]
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
    sizes = [0] * count[1]
    for x in range(n):
        sizes[part[x]] += 1
    return max(sizes) <= copies and all(part[u] != part[v] or not s for u, v, s in edges)

def lay_values(n, copies, kinds, constraints):
    """Values 1..kinds on cards 0..n-1, `copies` of each, that meet the clauses
    `constraints(at_least, ge, gt, pool)` returns (`at_least(u, k)`: card u's value is at least
    k; `ge(u, v, d)`, `gt(u, v)`: clauses saying value u >= value v + d, value u > value v);
    None where no such values exist, a SAT solver's proof (CaDiCaL)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Cadical153
    pool = IDPool()
    at_least = lambda u, k: pool.id((u, k))  # k = 2..kinds
    ge = lambda u, v, d: [[-at_least(v, k), at_least(u, k + d)] for k in range(2, kinds + 1 - d)]
    gt = lambda u, v: [[at_least(u, 2)], [-at_least(v, kinds)]] + ge(u, v, 1)
    clauses = []
    for u in range(n):
        clauses += [[-at_least(u, k + 1), at_least(u, k)] for k in range(2, kinds)]
    clauses += constraints(at_least, ge, gt, pool)
    for k in range(2, kinds + 1):
        lits = [at_least(u, k) for u in range(n)]
        clauses += CardEnc.equals(lits=lits, bound=n - copies * (k - 1), vpool=pool,
                                  encoding=EncType.seqcounter).clauses
    with Cadical153(bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        true = {l for l in solver.get_model() if l > 0}
        return [1 + sum(at_least(u, k) in true for k in range(2, kinds + 1)) for u in range(n)]

def strict_or_high_war(u, v, decider, ge, gt, pool):
    """The clauses of a battle that card u wins over card v, followed by one that `decider`
    wins for the same player: u higher than v, or (a `sorted` high war) u and v tied, at least
    as high as `decider`, which then gathers as two single battles would."""
    tie = pool.id(("tie", u, v, decider))
    return ([c + [tie] for c in gt(u, v)] +
            [c + [-tie] for c in ge(u, v, 0) + ge(v, u, 0) + ge(u, decider, 0)])

def one_round(a, b, gather):
    """Plays one round of the hands `a` and `b` (deques, top first) plainly, face-down count 0,
    wars included: the table to the winner, `sorted` (strongest first, equal values in reveal
    order) or `natural` (the winning card, the other deciding card, earlier cards latest first).
    Returns (the winner, 0 or 1; the tied values, in order; the deciding battle's two cards), or
    None where a hand runs out."""
    table, ties = [], []
    while True:
        if not a or not b:
            return None
        x, y = a.popleft(), b.popleft()
        table += [x, y]
        if x != y:
            if gather == "sorted":
                table.sort(reverse=True)  # stable: equal values in reveal order
            else:
                table = ([x, y] if x > y else [y, x]) + table[-3::-1]
            (a if x > y else b).extend(table)
            return (0 if x > y else 1), ties, (x, y)
        ties.append(x)

def on_a_cycle(hands, gather, wars=True):
    """Whether the state comes back, played with `one_round` (without a war, if not `wars`)."""
    a, b = deque(hands[0]), deque(hands[1])
    start = (tuple(a), tuple(b))
    for _ in range(10**7):
        played = one_round(a, b, gather)
        if played is None or (played[1] and not wars):
            return False
        if (tuple(a), tuple(b)) == start:
            return True
    return False
