"""warsweep: the card game War, played exactly and very fast, from Python.

``play`` plays one game; ``sweep`` plays every seed of a range on all cores and returns its
summary (the same dictionary ``warsweep sweep --summary`` writes) and its rows (the CSV's
columns, as NumPy arrays or a pandas DataFrame). Rules, knobs and their names are the command
line's (``warsweep --help``); a bad setting raises ``ValueError`` naming the argument at fault
(``face_down: a war puts 0 to 8 cards face down, not 9``) with the command line's sentence.

>>> import warsweep
>>> str(warsweep.play(seed=0))
'2 22'
>>> warsweep.play([[1, 3, 2, 2, 1, 2, 1, 4], [4, 4, 3, 4, 1, 2, 3, 3]],
...               rules="bataille", deck="4x4").rounds
144
"""
from __future__ import annotations

import json
from typing import Any, Dict, Optional, Sequence, Tuple, Union

from . import _warsweep
from ._warsweep import Game

__all__ = ["Game", "Sweep", "play", "sweep"]

#: The outcomes, in the order of the rows' codes.
OUTCOMES = ("win", "draw", "infinite", "capped")


def play(
    hands: Optional[Sequence[Sequence[Union[int, str]]]] = None,
    *,
    seed: Optional[int] = None,
    rules: str = "codingame",
    deck: Optional[str] = None,
    players: Optional[int] = None,
    face_down: Optional[int] = None,
    short_war: Optional[str] = None,
    gather: Optional[str] = None,
    deal: Optional[str] = None,
    ranking: Optional[str] = None,
    shuffle: Optional[str] = None,
    max_rounds: Optional[int] = None,
    won_pile: Optional[str] = None,
) -> Game:
    """Plays one game: the given ``hands`` (a list of hands, top card first, each a list of
    values 1..V or of cards such as ``"10H"``), or the deal of ``seed`` under ``shuffle``
    (``"lcg"`` by default). Returns a ``Game``: ``outcome`` (``"win"``, ``"draw"``,
    ``"infinite"``, ``"capped"``), ``winner`` (from 1), ``rounds``, ``battles``, ``wars``,
    ``cycle_start``, ``cycle_length``; ``str(game)`` is the line ``warsweep play`` prints."""
    return _warsweep.play(
        None if hands is None else [list(h) for h in hands],
        seed=seed, rules=rules, deck=deck, players=players, face_down=face_down,
        short_war=short_war, gather=gather, deal=deal, ranking=ranking, shuffle=shuffle,
        max_rounds=max_rounds, won_pile=won_pile,
    )


class Sweep:
    """A finished sweep: ``summary`` (a dict), ``to_numpy()`` and ``to_pandas()`` (one row a
    seed, in seed order, the columns of ``warsweep sweep --csv``). Rows are held in 32 bytes
    a game until asked for."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self._summary: Optional[Dict[str, Any]] = None

    @property
    def summary(self) -> Dict[str, Any]:
        """The JSON summary ``warsweep sweep --summary`` writes for the same setting."""
        if self._summary is None:
            self._summary = json.loads(self._native.summary_json)
        return self._summary

    def __len__(self) -> int:
        return self.summary["games"]

    def to_numpy(self) -> Dict[str, Any]:
        """The rows as a dict of NumPy arrays: ``seed`` (uint64), ``outcome`` (str),
        ``winner`` (uint8, 0 when nobody won), and ``rounds``, ``battles``, ``wars``,
        ``cycle_start``, ``cycle_length`` as masked uint64 arrays, masked where the CSV's
        field is empty."""
        import numpy as np

        raw = np.frombuffer(
            self._native.row_bytes(),
            dtype=np.dtype(
                [("a", "<u8"), ("b", "<u8"), ("wars", "<u8"), ("outcome", "u1"),
                 ("winner", "u1"), ("pad", "V6")]
            ),
        )
        n = len(raw)
        infinite = raw["outcome"] == 2
        first = self._native.first_seed
        return {
            "seed": np.arange(first, first + n, dtype=np.uint64),
            "outcome": np.array(OUTCOMES)[raw["outcome"]],
            "winner": raw["winner"].copy(),
            "rounds": np.ma.array(raw["a"], mask=infinite),
            "battles": np.ma.array(raw["b"], mask=infinite),
            "wars": np.ma.array(raw["wars"], mask=infinite),
            "cycle_start": np.ma.array(raw["a"], mask=~infinite),
            "cycle_length": np.ma.array(raw["b"], mask=~infinite),
        }

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame with the CSV's columns: nullable integers (``<NA>``
        where the CSV's field is empty) and ``outcome`` as a category."""
        import numpy as np
        import pandas as pd

        arrays = self.to_numpy()
        winner = arrays["winner"]
        columns: Dict[str, Any] = {
            "seed": arrays["seed"],
            "outcome": pd.Categorical(arrays["outcome"], categories=list(OUTCOMES)),
            "winner": pd.arrays.IntegerArray(winner, winner == 0),
        }
        for name in ("rounds", "battles", "wars", "cycle_start", "cycle_length"):
            column = arrays[name]
            columns[name] = pd.arrays.IntegerArray(
                np.asarray(column.data, dtype=np.uint64), np.ma.getmaskarray(column).copy()
            )
        return pd.DataFrame(columns)

    def __repr__(self) -> str:
        s = self.summary
        return f"<warsweep.Sweep {s['rules']} seeds {s['seeds']['start']}..{s['seeds']['end']}>"


def sweep(
    seeds: Union[None, Tuple[int, int], range] = None,
    *,
    rules: str = "shortened",
    threads: Optional[int] = None,
    deck: Optional[str] = None,
    players: Optional[int] = None,
    face_down: Optional[int] = None,
    short_war: Optional[str] = None,
    gather: Optional[str] = None,
    deal: Optional[str] = None,
    ranking: Optional[str] = None,
    shuffle: Optional[str] = None,
    max_rounds: Optional[int] = None,
    won_pile: Optional[str] = None,
    rows: bool = True,
    cycles: bool = False,
) -> Sweep:
    """Plays every seed of ``seeds`` (``(start, end)``, end excluded, or a ``range``; by
    default 0..100000, or every deal with ``shuffle="lex"``) on ``threads`` threads (all
    cores by default). The interpreter is released while it plays, and Ctrl-C stops it
    (``KeyboardInterrupt``). ``rows=False`` keeps the summary only. ``cycles=True`` finds
    every distinct cycle and its basin: ``summary["cycles"]``, as ``sweep --cycles`` writes
    them."""
    return Sweep(
        _warsweep.sweep(
            seeds, rules=rules, threads=threads, deck=deck, players=players,
            face_down=face_down, short_war=short_war, gather=gather, deal=deal,
            ranking=ranking, shuffle=shuffle, max_rounds=max_rounds, won_pile=won_pile,
            rows=rows, cycles=cycles,
        )
    )
