"""warsweep: the card game War, played exactly and very fast, from Python.

``play`` plays one game; ``sweep`` plays every seed of a range on all cores and returns its
summary (the dictionary ``warsweep sweep --summary`` writes, with players numbered from 1) and
its rows (the CSV's columns, as NumPy arrays or a pandas DataFrame). Rules, knobs and their
names are the command line's (``warsweep --help``); a bad setting raises ``ValueError`` naming
the argument at fault (``face_down: a war puts 0 to 8 cards face down, not 9``).

Both take the preset as ``rules=``, with no default: the presets differ in rules that change
every figure (the command line's ``play`` defaults to the CodinGame puzzle, its ``sweep`` to
``shortened``), so a notebook names the rules it measures.

>>> import warsweep
>>> str(warsweep.play(seed=0, rules="codingame"))
'2 22'
>>> warsweep.play([[1, 3, 2, 2, 1, 2, 1, 4], [4, 4, 3, 4, 1, 2, 3, 3]],
...               rules="bataille", deck="4x4").rounds
144
"""
from __future__ import annotations

import json as _json
import numbers as _numbers
import os as _os
from collections.abc import Iterable as _Iterable
from typing import Any as _Any, Callable as _Callable, Dict as _Dict, Optional as _Optional
from typing import List as _List, Sequence as _Sequence, Tuple as _Tuple, Union as _Union

from . import _warsweep
from ._args import _Deal, _Gather, _Preset, _Ranking, _Shuffle, _ShortWar, _WonPile
from ._args import _Term, _whole
from ._hunt import Hunted, hunt
from ._shapes import Census, shapes
from ._warsweep import Game

__all__ = [
    "Census", "DEALS", "GATHERS", "Game", "Hunted", "OUTCOMES", "PRESETS", "RANKINGS",
    "SHORT_WARS", "Plot", "SHUFFLES", "Sweep", "WON_PILES", "deal", "hunt", "merge", "play",
    "plot", "shapes", "sweep",
]

_NAMES = dict(_warsweep._names())
#: Every valid value of each knob, in the library's order (``rules``, ``short_war``, ...).
PRESETS = tuple(_NAMES["rules"])
SHORT_WARS = tuple(_NAMES["short_war"])
GATHERS = tuple(_NAMES["gather"])
DEALS = tuple(_NAMES["deal"])
RANKINGS = tuple(_NAMES["ranking"])
WON_PILES = tuple(_NAMES["won_pile"])
SHUFFLES = tuple(_NAMES["shuffle"])

#: The outcomes, in the order of the rows' codes (``to_numpy()["outcome"]``).
OUTCOMES = ("win", "draw", "infinite", "capped")

#: The rows' metric columns: the lengths of finished (and capped) games, the cycle of infinite
#: ones; each column's field in the native rows.
_LENGTHS = ("rounds", "battles", "wars")
_CYCLE = ("cycle_start", "cycle_length")
_FIELDS = dict(zip(_LENGTHS + _CYCLE, ("a", "b", "wars", "a", "b")))
#: What ``sweep(rows_with=...)`` can add to the rows.
_ROW_FEATURES = ("hands",)


#: The package's version.
__version__: str = _warsweep.__version__


def __dir__():
    return sorted(__all__ + ["__version__"])


def _hands(hands: _Any) -> _Any:
    """``hands`` as lists of cards, or a ``TypeError`` saying what was given instead."""
    what = "hands: a list of hands, each a list of values (whole numbers from 1) or cards (strings such as \"10H\")"
    if isinstance(hands, (str, bytes)):
        raise TypeError(f"{what}, not a string: split it into cards first")
    if not isinstance(hands, _Iterable):
        raise TypeError(f"{what}, not {hands!r}")
    out = []
    for hand in hands:
        if isinstance(hand, (str, bytes)) or not isinstance(hand, _Iterable):
            raise TypeError(f"{what}; a hand is a list, not {hand!r}")
        cards = list(hand)
        for card in cards:
            if isinstance(card, bool) or not isinstance(card, (_numbers.Integral, str)):
                raise TypeError(f"hands: {card!r} is neither a value (a whole number from 1) nor a card (a string such as \"10H\")")
            if isinstance(card, _numbers.Integral) and not -(2**63) <= card < 2**63:
                raise ValueError(f"hands: {card} is not a value: values are whole numbers from 1")
        out.append(cards)
    return out


def play(
    hands: _Optional[_Sequence[_Sequence[_Union[int, str]]]] = None,
    *,
    seed: _Optional[int] = None,
    rules: _Preset,
    deck: _Optional[str] = None,
    players: _Optional[int] = None,
    face_down: _Optional[int] = None,
    short_war: _Optional[_ShortWar] = None,
    gather: _Optional[_Gather] = None,
    deal: _Optional[_Deal] = None,
    ranking: _Optional[_Ranking] = None,
    shuffle: _Optional[_Shuffle] = None,
    max_rounds: _Optional[int] = None,
    won_pile: _Optional[_WonPile] = None,
    trace: bool = False,
) -> Game:
    """Plays one game, as ``warsweep play`` does.

    Parameters
    ----------
    hands : list of lists, optional
        The hands, from player 1, top card first, each a list of values 1..V or of cards
        such as ``"10H"``. Give either ``hands`` or ``seed``.
    seed : int, optional
        Play the deal of this seed under ``shuffle`` (``"lcg"`` by default).
    rules : str
        The preset (``warsweep.PRESETS``); ``deck``, ``players``, ``face_down``, ``short_war``,
        ``gather``, ``deal``, ``ranking`` and ``won_pile`` each change one part of it, as the
        command line's flags of the same names do.
    max_rounds : int, optional
        Rounds after which a game that cannot be checked for cycles (``gather="random"``,
        ``won_pile="shuffled"``) stops, ``"capped"``; 1,000,000 by default.
    trace : bool
        Keep the game from its deal, battle by battle, in ``game.trace`` (what ``warsweep
        play --trace`` prints, as a list of dicts: first the deal, ``battle`` 0 with each
        player's hand in ``dealt``, then each battle's cards revealed, face down and taken).

    Returns
    -------
    Game
        ``outcome`` (``"win"``, ``"draw"``, ``"infinite"``, ``"capped"``), ``winner`` (from 1),
        ``rounds``, ``battles``, ``wars``, ``cycle_start``, ``cycle_length``, the starting
        ``hands`` (values) and ``cards`` (names); ``str(game)`` is the line ``warsweep play``
        prints.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named (``face_down: a war puts 0 to 8 cards face down, not 9``).
    """
    return _warsweep.play(
        None if hands is None else _hands(hands),
        seed=_whole("seed", seed), rules=rules, deck=deck, players=_whole("players", players),
        face_down=_whole("face_down", face_down), short_war=short_war, gather=gather,
        deal=deal, ranking=ranking, shuffle=shuffle,
        max_rounds=_whole("max_rounds", max_rounds), won_pile=won_pile, trace=bool(trace),
    )


def deal(
    seed: int,
    *,
    rules: _Preset,
    deck: _Optional[str] = None,
    players: _Optional[int] = None,
    face_down: _Optional[int] = None,
    short_war: _Optional[_ShortWar] = None,
    gather: _Optional[_Gather] = None,
    deal: _Optional[_Deal] = None,
    ranking: _Optional[_Ranking] = None,
    shuffle: _Optional[_Shuffle] = None,
    won_pile: _Optional[_WonPile] = None,
) -> _Dict[str, _List[_List[_Any]]]:
    """The hands a seed deals, as ``play(seed=...)`` and ``sweep`` deal them.

    Parameters
    ----------
    seed : int
        The seed, 0 to 2^64 - 1 (under ``shuffle="lex"``, below the deck's number of deals).
    rules : str
        The preset (``warsweep.PRESETS``); the other settings change one part of it, as the
        command line's flags of the same names do. ``max_rounds`` plays no part in a deal.
    shuffle : str, optional
        ``"lcg"`` (the default), ``"splitmix"`` or ``"lex"``.

    Returns
    -------
    dict
        ``hands``: a list per player, from player 1, of card values from 1 to the deck's
        number of values (as ``play`` reads bare values), top card first; ``cards``: the same
        cards by name, as ``warsweep play --trace`` prints them. ``play(seed=s).hands`` is
        ``deal(s)["hands"]``.

    Raises
    ------
    ValueError
        A setting or a seed the rules cannot deal, naming the argument.
    """
    return _warsweep.deal(
        _whole("seed", seed), rules=rules, deck=deck, players=_whole("players", players),
        face_down=_whole("face_down", face_down), short_war=short_war, gather=gather,
        deal=deal, ranking=ranking, shuffle=shuffle, won_pile=won_pile,
    )


class Sweep:
    """A finished sweep: ``summary`` (a dict), ``to_numpy()`` and ``to_pandas()`` (one row a
    seed, in seed order, the columns of ``warsweep sweep --csv``). Rows are held in 32 bytes
    a game until asked for."""

    def __init__(self, native: _Any, csv: _Optional[str] = None, chosen: _Any = None) -> None:
        self._native = native
        self._games = _json.loads(native.summary_json)["games"]
        self._csv = csv
        # The chosen seeds played, in order (a stopped sweep played the first ones).
        self._chosen = None if chosen is None else chosen[: self._games]

    @property
    def summary(self) -> _Dict[str, _Any]:
        """The JSON summary ``warsweep sweep --summary`` writes for the same setting, with the
        players numbered from 1 as everywhere in Python: ``summary["wins"][1]`` is player 1's
        wins (the JSON's ``wins`` is a list from player 1). A fresh dict at each call, so that
        changing one changes nothing else.

        Each length (``summary["rounds"]``, ``"battles"``, ``"wars"``) counts the games that
        ended (won or drawn), and ``"capped_rounds"``, ``"capped_battles"``, ``"capped_wars"``
        the games stopped by ``max_rounds``, whose rows keep their lengths too (as the CSV's):
        the rows' ``rounds`` of finished games have the figures of ``summary["rounds"]``, those
        of capped games the figures of ``summary["capped_rounds"]``. Each has ``count``,
        ``total`` and ``squares`` exactly, ``mean`` their exact quotient, ``stdev`` the
        population standard deviation (divided by ``count``, not ``count - 1``), ``min`` and
        ``max``, and percentiles from the histogram (exact below 2,048; those listed in
        ``approximate`` within 0.1%)."""
        return _from_json(self._native.summary_json)

    @property
    def csv(self) -> _Optional[str]:
        """The file the rows were streamed to (``rows="games.csv"``), else ``None``."""
        return self._csv

    def __len__(self) -> int:
        return self._games

    def to_numpy(self) -> _Dict[str, _Any]:
        """The rows as a dict of new, writable NumPy arrays, one element a seed: ``seed``
        (uint64), ``outcome`` (uint8, an index into ``warsweep.OUTCOMES``), and ``winner``
        (from 1), ``rounds``, ``battles``, ``wars``, ``cycle_start``, ``cycle_length`` as
        float64, NaN where the CSV's field is empty (no winner; the lengths of an infinite game,
        the cycle of any other; a capped game keeps its lengths, as in the CSV). NaN cannot pass for a length: ``np.histogram`` refuses it,
        ``np.percentile`` gives NaN and ``np.nanpercentile`` the figure, ``plt.hist`` leaves
        it out, sorting puts it last. Counts are exact below 2^53.

        A sweep run with ``rows_with=["hands"]`` adds ``hands``: the deal of each row, a uint8
        array of shape (games, players, longest hand), card values from 1 (as
        ``warsweep.deal`` gives them), top card first, 0 past the end of a shorter hand."""
        import numpy as np

        raw = self._raw()
        n = len(raw)
        outcome = raw["outcome"].copy()
        infinite = outcome == OUTCOMES.index("infinite")
        arrays: _Dict[str, _Any] = {
            "seed": self._seeds(np.uint64),
            "outcome": outcome,
            "winner": np.where(raw["winner"] == 0, np.nan, raw["winner"]),
        }
        for name, field in _FIELDS.items():
            missing = ~infinite if name in _CYCLE else infinite
            arrays[name] = np.where(missing, np.nan, raw[field])
        hands = self._hands()
        if hands is not None:
            arrays["hands"] = hands
        return arrays

    def _hands(self) -> _Any:
        """The rows' hands as a new (games, players, longest hand) uint8 array, or ``None``
        when the sweep did not deal them."""
        import numpy as np

        sizes = self._native.hand_sizes
        if sizes is None:
            return None
        flat = np.frombuffer(self._native.hand_bytes(), dtype=np.uint8)
        return flat.reshape(len(self._native), len(sizes), max(sizes, default=0)).copy()

    def to_pandas(self) -> _Any:
        """The rows as a new pandas DataFrame with the CSV's columns: ``seed`` as ``UInt64``
        (whatever the seeds, so frames of any sweeps concatenate exactly), the counts as signed
        nullable integers (``Int64``, ``<NA>`` where the CSV's field is empty), ``outcome`` a
        category of ``warsweep.OUTCOMES``. Each call builds a frame of its own, which the
        caller may change; its peak memory is under twice the frame's. A sweep run with
        ``rows_with=["hands"]`` adds a column a player, ``hand1``, ``hand2``, ...: each row's
        hand as a uint8 array of card values from 1, top card first. Needs pandas:
        ``pip install 'warsweep[pandas]'``."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError(
                "to_pandas needs pandas: pip install 'warsweep[pandas]' (or pandas)"
            ) from e
        import numpy as np

        raw = self._raw()
        n = len(raw)
        code = raw["outcome"]
        infinite = code == OUTCOMES.index("infinite")
        columns: _Dict[str, _Any] = {}
        columns["seed"] = pd.arrays.IntegerArray(self._seeds(np.uint64), np.zeros(n, dtype=bool))
        columns["outcome"] = pd.Categorical.from_codes(code.astype(np.int8), list(OUTCOMES))
        winner = raw["winner"]
        columns["winner"] = pd.arrays.IntegerArray(winner.astype(np.int64), winner == 0)
        for name, field in _FIELDS.items():
            missing = ~infinite if name in _CYCLE else infinite.copy()
            # Counts are below 2^63: read as signed, they are the same numbers.
            values = raw[field].astype(np.int64)
            values[missing] = 0
            columns[name] = pd.arrays.IntegerArray(values, missing)
        hands = self._hands()
        if hands is not None:
            for p, size in enumerate(self._native.hand_sizes):
                columns[f"hand{p + 1}"] = pd.Series(list(hands[:, p, :size]), dtype=object)
        return pd.DataFrame(columns, copy=False)

    def _seeds(self, dtype: _Any) -> _Any:
        """The seed of each row, as a new array."""
        import numpy as np

        if self._chosen is not None:
            return self._chosen.astype(dtype)
        first = self._native.first_seed
        return np.arange(first, first + len(self._native), dtype=dtype)

    def _raw(self) -> _Any:
        """The native rows, 32 bytes each, as a structured array over their bytes."""
        import numpy as np

        if self._csv is not None:
            raise ValueError(
                f"this sweep streamed its rows to {self._csv}: read them from there "
                f"(pandas.read_csv({self._csv!r}, chunksize=1_000_000) reads them in parts)"
            )
        if not self._native.has_rows:
            raise ValueError("this sweep kept no rows: run it with rows=True")
        return np.frombuffer(
            self._native.row_bytes(),
            dtype=np.dtype(
                [("a", "<u8"), ("b", "<u8"), ("wars", "<u8"), ("outcome", "u1"),
                 ("winner", "u1"), ("pad", "V6")]
            ),
        )

    def __repr__(self) -> str:
        """The preset, every knob that differs from it, the seeds and the games."""
        s = self.summary
        knobs = [
            f"{name}={s[name]}" for name, default in _warsweep._preset(s["rules"])
            if str(s[name]) != default
        ]
        seeds = f"seeds={s['seeds']['start']}..{s['seeds']['end']}"
        if "chosen" in s:
            seeds = f"chosen={s['chosen']} {seeds}"
        return f"<warsweep.Sweep {' '.join([s['rules'], *knobs, seeds])} games={s['games']}>"

    def histogram(self, metric: str = "rounds") -> _Tuple[_Any, _Any]:
        """The histogram of a metric, from the summary: with or without rows, merged or not.

        Parameters
        ----------
        metric : str
            ``"rounds"``, ``"battles"`` or ``"wars"`` (of the games that ended),
            ``"cycle_start"`` or ``"cycle_length"`` (of the infinite ones), ``"capped_rounds"``,
            ``"capped_battles"`` or ``"capped_wars"`` (of the games stopped by ``max_rounds``).

        Returns
        -------
        (values, games) : two uint64 NumPy arrays
            One element a recorded bucket, in order: ``values`` the largest value the bucket
            holds (exact below 2,048; within 0.1% above), ``games`` how many games it holds,
            which add up to ``summary[metric]["count"]``; what ``warsweep sweep --hist``
            writes.
        """
        import numpy as np

        values, games = _warsweep._histogram(self._native.summary_json, metric)
        return np.array(values, dtype=np.uint64), np.array(games, dtype=np.uint64)

    def plot(self, metric: str = "rounds", *, title: _Optional[str] = None,
             log: bool = False) -> "Plot":
        """This sweep's chart of ``metric``, as ``warsweep plot`` draws it from its summary
        (``warsweep.plot`` draws several on one chart)."""
        return plot([self], metric=metric, title=title, log=log)

    def _repr_html_(self) -> str:
        """A notebook's view: the setting, then the games and the mean of each length."""
        import html

        s = self.summary
        cells = [("games", f"{s['games']:,}")]
        for metric in ("rounds", "battles", "wars"):
            stats = s.get(metric) or {}
            if stats.get("games"):
                cells.append((f"{metric} (mean)", f"{stats['mean']:.3f}"))
        cells += [(f"player {p} wins", f"{n:,}") for p, n in s["wins"].items()]
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                       for k, v in cells)
        return f"<p><code>{html.escape(repr(self))}</code></p><table>{rows}</table>"

    def __eq__(self, other: object) -> bool:
        """Equal sweeps hold the same summary (timings included, so a sweep equals its pickled
        copy and not a second run), the same rows and the same file."""
        if not isinstance(other, Sweep):
            return NotImplemented
        a, b = self._native, other._native
        same_rows = a.has_rows == b.has_rows and (not a.has_rows or a.row_bytes() == b.row_bytes())
        same_rows = same_rows and (a.hand_sizes, a.hand_bytes()) == (b.hand_sizes, b.hand_bytes())
        chosen = (self._chosen is None) == (other._chosen is None) and (
            self._chosen is None or list(self._chosen) == list(other._chosen))
        return (a.summary_json == b.summary_json and a.first_seed == b.first_seed
                and same_rows and self._csv == other._csv and chosen)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> _Any:
        native = self._native
        rows = native.row_bytes() if native.has_rows else None
        hands = None if native.hand_sizes is None else (native.hand_sizes, native.hand_bytes())
        return (_sweep_from, (native.summary_json, native.first_seed, rows, native.stopped,
                              self._csv, self._chosen, hands))

    @property
    def stopped(self) -> bool:
        """Whether Ctrl-C stopped the sweep: it then holds the seeds played, from the first."""
        return self._native.stopped


def _sweep_from(summary_json: str, first_seed: int, rows: _Optional[bytes], stopped: bool,
                csv: _Optional[str] = None, chosen: _Any = None, hands: _Any = None) -> Sweep:
    """A pickled ``Sweep`` rebuilt."""
    native = _warsweep._swept(summary_json, first_seed, rows, stopped, hands)
    return Sweep(native, csv, chosen)


def _from_json(text: str) -> _Dict[str, _Any]:
    """A JSON summary as Python gives it: ``wins`` keyed by player from 1."""
    summary = _json.loads(text)
    summary["wins"] = {p + 1: n for p, n in enumerate(summary["wins"])}
    return summary


def _to_json(summary: _Dict[str, _Any]) -> str:
    """A summary as Python gives it, back to the JSON the library reads."""
    wins = summary.get("wins")
    if isinstance(wins, dict):
        summary = dict(summary)
        summary["wins"] = [wins[p] for p in sorted(wins)]
    return _json.dumps(summary)


def merge(*parts: _Union[Sweep, _Dict[str, _Any]]) -> Sweep:
    """Merges the summaries of shards of one sweep (``Sweep`` objects or their ``summary``
    dicts): one setting, seed ranges that join up.

    Returns
    -------
    Sweep
        A sweep with no rows whose ``summary`` is the one a sweep over the whole range writes,
        as ``warsweep merge`` gives it.

    Raises
    ------
    ValueError
        Shards that do not fit together, saying why."""
    texts = [p._native.summary_json if isinstance(p, Sweep) else _to_json(p) for p in parts]
    merged = _warsweep.merge(texts)
    first = _json.loads(merged)["seeds"]["start"]
    return Sweep(_warsweep._swept(merged, first, None, False))


class Plot:
    """A chart as ``warsweep plot`` draws it: ``svg`` (the text of the SVG file), shown inline
    in notebooks; ``save(path)`` writes it."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: _Union[str, "_os.PathLike[str]"]) -> None:
        """Writes the SVG to ``path``."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.svg)


def plot(sweeps: _Sequence[Sweep], *, metric: str = "rounds", title: _Optional[str] = None,
         log: bool = False) -> Plot:
    """Draws ``metric`` of several sweeps on one chart, as ``warsweep plot`` draws their
    summaries: the same SVG, byte for byte, with no plotting library needed.

    Parameters
    ----------
    sweeps : list of Sweep
        The sweeps (with or without rows, merged or not); each line is labelled by what differs
        between them (the seed range included).
    metric : str
        ``"rounds"``, ``"battles"``, ``"wars"``, ``"cycle_start"``, ``"cycle_length"``,
        ``"capped_rounds"``, ``"capped_battles"`` or ``"capped_wars"``.
    title : str, optional
        The chart's title; by default, the metric and what the sweeps share.
    log : bool
        A logarithmic count axis, for long tails.

    Returns
    -------
    Plot
        ``svg`` (text), shown inline in notebooks; ``save(path)`` writes it.

    Raises
    ------
    ValueError
        No sweep holds a game of the metric, or an unknown metric, named.
    """
    if not sweeps or not all(isinstance(s, Sweep) for s in sweeps):
        raise TypeError(f"sweeps: a list of warsweep.Sweep, not {sweeps!r}")
    texts = [s._native.summary_json for s in sweeps]
    return Plot(_warsweep._plot(texts, metric, title, bool(log)))


def _available_memory() -> _Optional[int]:
    """Bytes this process may still take, as far as the system says: the least of the memory
    available (``/proc/meminfo``), what the cgroup's limit leaves and what the address-space
    limit (``ulimit -v``) leaves; ``None`` where none can be read."""
    found = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        with open("/sys/fs/cgroup/memory.current") as f:
            used = int(f.read().strip())
        if limit != "max":
            found.append(max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm") as f:
                size = int(f.read().split()[0]) * resource.getpagesize()
            found.append(max(0, soft - size))
    except (ImportError, OSError, ValueError):
        pass
    return min(found) if found else None


class _Bar:
    """A progress bar: tqdm's (``tqdm.auto``, so a notebook gets its widget) when tqdm is
    installed, else a line on stderr rewritten at most twice a second."""

    def __init__(self) -> None:
        self._tqdm: _Any = None
        self._shown = 0.0
        self._total = 0
        try:
            from tqdm.auto import tqdm
        except ImportError:
            tqdm = None
        self._make = tqdm

    def __call__(self, done: int, total: int) -> None:
        if self._make is not None:
            if self._tqdm is None:
                self._tqdm = self._make(total=total, unit=" games", unit_scale=True)
            self._tqdm.update(done - self._tqdm.n)
            return
        import sys
        import time

        now = time.monotonic()
        self._total = total
        if done == total or now - self._shown >= 0.5:
            self._shown = now
            sys.stderr.write(f"\r{done:,} / {total:,} games ({100 * done / max(total, 1):.0f}%)")
            sys.stderr.flush()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self._make is None and self._total:
            import sys

            sys.stderr.write("\n")
            sys.stderr.flush()


def _chosen(seeds: _Any) -> _Any:
    """``seeds`` as a uint64 NumPy array when they are chosen seeds (a ``range`` with a step
    other than 1, a list or a 1-D array), else ``None`` (a ``(start, end)`` pair, a ``range``
    of step 1, ``None``); a ``TypeError`` or ``ValueError`` naming them otherwise."""
    if seeds is None or isinstance(seeds, tuple) or (isinstance(seeds, range) and seeds.step == 1):
        return None
    # Not before: importing NumPy starts OpenBLAS's threads, which spin beside a sweep's workers.
    import numpy as np

    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, (range, _Iterable)):
        raise TypeError(
            f"seeds: (start, end), a range or a 1-D array of seeds, not {seeds!r}"
        )
    if isinstance(seeds, range):
        if not len(seeds):
            return np.zeros(0, np.uint64)
        low, high = min(seeds[0], seeds[-1]), max(seeds[0], seeds[-1])
        if low < 0:
            raise ValueError(f"seeds: 0 or more, not {low}")
        if high >= 2**64:
            raise ValueError(f"seeds: below 2^64, not {high}")
        return np.array(seeds, dtype=np.uint64) if seeds.step < 0 else np.arange(
            seeds.start, seeds.stop, seeds.step, dtype=np.uint64)
    array = np.asarray(seeds if hasattr(seeds, "__array__") else list(seeds))
    if array.ndim != 1:
        raise ValueError(f"seeds: a 1-D array of seeds, not one of shape {array.shape}")
    if array.dtype == object or array.dtype.kind not in "iu":
        if not all(isinstance(s, _numbers.Integral) and not isinstance(s, bool) for s in array.tolist()):
            raise TypeError("seeds: whole numbers, not " + str(array.dtype))
        values = array.tolist()
        if any(s < 0 for s in values):
            raise ValueError("seeds: 0 or more")
        if any(s >= 2**64 for s in values):
            raise ValueError("seeds: below 2^64")
        return np.array(values, dtype=np.uint64)
    if array.dtype.kind == "i" and len(array) and array.min() < 0:
        raise ValueError(f"seeds: 0 or more, not {array.min()}")
    return array.astype(np.uint64)


def sweep(
    seeds: _Union[None, _Tuple[int, int], range, _Sequence[int], _Any] = None,
    *,
    rules: _Preset,
    threads: _Optional[int] = None,
    deck: _Optional[str] = None,
    players: _Optional[int] = None,
    face_down: _Optional[int] = None,
    short_war: _Optional[_ShortWar] = None,
    gather: _Optional[_Gather] = None,
    deal: _Optional[_Deal] = None,
    ranking: _Optional[_Ranking] = None,
    shuffle: _Optional[_Shuffle] = None,
    max_rounds: _Optional[int] = None,
    won_pile: _Optional[_WonPile] = None,
    rows: _Union[bool, str, "_os.PathLike[str]"] = True,
    cycles: bool = False,
    progress: _Union[bool, _Callable[[int, int], _Any]] = False,
    gpu: bool = False,
    resume: bool = False,
    rows_with: _Sequence[str] = (),
) -> Sweep:
    """Plays every seed of a range (or chosen seeds) on all cores, as ``warsweep sweep``
    does. The interpreter is released while it plays.

    Parameters
    ----------
    seeds : (start, end), range, list or 1-D array, optional
        ``(start, end)`` (end excluded) or a ``range`` of step 1: a range, by default
        0..100000, or every deal with ``shuffle="lex"``. Chosen seeds (a ``range`` with a step,
        a list or a 1-D array: a sample, the seeds a first sweep found looping) are played in
        their order; the rows follow it, and the summary counts them (``summary["chosen"]``)
        within the range from the least to the greatest. Such a summary merges with no other.
    rules : str
        The preset (``warsweep.PRESETS``); ``deck``, ``players``, ``face_down``, ``short_war``,
        ``gather``, ``deal``, ``ranking`` and ``won_pile`` each change one part of it.
    threads : int, optional
        Worker threads, 1 to 1024 (all cores by default); the results are the same for any.
    shuffle : str, optional
        ``"lcg"`` (the default), ``"splitmix"`` or ``"lex"``.
    max_rounds : int, optional
        Rounds after which a game that cannot be checked for cycles stops, ``"capped"``.
    rows : bool or path
        ``True`` keeps a row a game in memory (32 bytes each) for ``to_numpy()`` and
        ``to_pandas()``; the sweep estimates that memory before the first game and raises
        ``MemoryError`` with the figure when it exceeds what the system has available.
        ``False`` keeps the summary only (0.97x to 1.08x the command line's time). A path
        (``"games.csv"``) streams them to that file, in any number, as ``warsweep sweep --csv``
        writes it: an existing file is replaced only once the sweep ends.
    cycles : bool
        Find every distinct cycle and its basin: ``summary["cycles"]``, as ``sweep --cycles``
        writes them.
    progress : bool or callable
        ``True`` shows a progress bar (tqdm's when installed, in notebooks too; else a line on
        stderr); a callable is called with the games played and the total instead.
    gpu : bool
        Play on an NVIDIA GPU, to the same summary, with ``rows=False``: ``lex`` walks, lcg and
        splitmix seeds below 2^53, of two-player games whose hands fit a 64-bit word (4x4,
        4x5, 5x4, 3x7) under a gather other than ``random``. The module needs the feature
        (``MATURIN_PEP517_ARGS="--features gpu" pip install .``).
    resume : bool
        With ``rows="games.csv"``: continue a sweep of the same arguments that was stopped
        (Ctrl-C, SIGTERM) or killed, from the checkpoint kept beside the file
        (``games.csv.resume``, saved every 2 seconds), to the file and summary one
        uninterrupted sweep writes, byte for byte, as ``warsweep sweep --resume`` does.
    rows_with : list of str
        Features of each game's deal to add to the rows (``rows=True``): ``["hands"]`` deals
        every seed again once the games are played (on all threads) and adds each row's hands
        (``to_numpy()["hands"]``, ``to_pandas()``'s ``hand1``, ``hand2``, ...), as
        ``warsweep.deal`` gives them. A sweep without them costs what it did.

    Returns
    -------
    Sweep
        ``summary`` (a dict), ``to_numpy()``, ``to_pandas()``, ``histogram`` data in
        ``summary["histograms"]``.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named (``threads: a sweep runs on 1 to 1024 threads, not 0``); with
        ``gpu=True``, every reason the GPU cannot play the sweep at once (``gpu: ...``).
    KeyboardInterrupt
        Ctrl-C, or SIGTERM (a job scheduler's stop) in the main thread: its ``sweep`` holds the
        seeds played (a ``Sweep`` whose ``stopped`` is true), as the command line keeps them.

    Warns
    -----
    UserWarning
        What the command line notes: a range past the ``lcg`` shuffle's 2,097,151 distinct
        deals (seeds from there on repeat them, so the games are not independent), a ranking
        that plays as the standard one on the deck.
    """
    csv = None
    if isinstance(rows, (str, _os.PathLike)):
        csv, rows = _os.fspath(rows), False
    elif not isinstance(rows, bool):
        raise TypeError(f"rows: True, False or a file's path, not {rows!r}")
    if isinstance(rows_with, (str, bytes)) or not isinstance(rows_with, _Iterable):
        raise TypeError(f"rows_with: a list of row features such as [\"hands\"], not {rows_with!r}")
    features = list(rows_with)
    for feature in features:
        if feature not in _ROW_FEATURES:
            raise ValueError(f"rows_with: {feature!r} is not a row feature: give "
                             + " or ".join(repr(f) for f in _ROW_FEATURES))
    if resume and csv is None:
        raise ValueError('resume: a sweep resumes from the checkpoint beside its file of rows: '
                         'give rows="games.csv" as the stopped sweep did')
    if isinstance(seeds, tuple) and (len(seeds) != 2 or not all(
            isinstance(s, _numbers.Integral) and not isinstance(s, bool) for s in seeds)):
        raise TypeError(f"seeds: (start, end) of whole numbers, not {seeds!r}")
    chosen = _chosen(seeds)
    if chosen is not None:
        seeds = None
    bar = None
    if progress is True:
        bar = _Bar()
    elif progress is not False and not callable(progress):
        raise TypeError(f"progress: True, False or a callable, not {progress!r}")
    term = _Term()
    try:
        with term:
            native = _warsweep.sweep(
                seeds, rules=rules, threads=_whole("threads", threads), deck=deck,
                players=_whole("players", players), face_down=_whole("face_down", face_down),
                short_war=short_war, gather=gather, deal=deal, ranking=ranking, shuffle=shuffle,
                max_rounds=_whole("max_rounds", max_rounds), won_pile=won_pile, rows=rows,
                csv=csv, cycles=cycles, memory=_available_memory() if rows else None,
                progress=bar if bar is not None else (progress or None),
                chosen=None if chosen is None else chosen.astype("<u8").tobytes(),
                gpu=gpu, resume=bool(resume), hands="hands" in features,
            )
    finally:
        if bar is not None:
            bar.close()
    swept = Sweep(native, csv, chosen)
    if swept.stopped:
        s = swept.summary["seeds"]
        by = " by SIGTERM" if term.received else ""
        stop = KeyboardInterrupt(
            f"the sweep was stopped{by} after seeds {s['start']}..{s['end']}: "
            "this exception's sweep holds them"
        )
        stop.sweep = swept  # type: ignore[attr-defined]
        raise stop
    return swept
