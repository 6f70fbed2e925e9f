"""``warsweep.shapes``: the census of a setting's shapes, and the ``Census`` it returns."""
from __future__ import annotations

from typing import Any as _Any, Dict as _Dict, List as _List, Optional as _Optional

from . import _warsweep
from ._args import _Gather, _Preset, _whole


class Census:
    """What a census found: ``placings`` tried, ``shapes`` (placings and hand sizes whose cards
    can take one value in each circle), and ``found``, the shapes that take the deck's values."""

    def __init__(self, placings: int, shapes: int, rows: _List[tuple]) -> None:
        self.placings = placings
        self.shapes = shapes
        self._rows = rows

    @property
    def found(self) -> _Any:
        """Each shape that takes the values: ``word`` (``A`` where player 1 wins the battle),
        ``wars`` (``KINDS@BATTLE``; ``war`` is any kind), ``held`` (player 1's hand size) and
        ``hands`` (the state, on a cycle: a list of values from 1 a player); a pandas DataFrame
        where pandas is installed, else a list of dictionaries."""
        rows: _List[_Dict[str, _Any]] = [
            {"word": w, "wars": k, "held": len(one), "hands": [list(one), list(two)]}
            for w, k, one, two in self._rows
        ]
        try:
            import pandas
        except ImportError:
            return rows
        return pandas.DataFrame(rows, columns=["word", "wars", "held", "hands"])

    def __repr__(self) -> str:
        return (f"<warsweep.Census {self.placings} placings, {self.shapes} shapes, "
                f"{len(self._rows)} taking the values>")


def shapes(
    *,
    rules: _Preset,
    deck: _Optional[str] = None,
    face_down: _Optional[int] = None,
    gather: _Optional[_Gather] = None,
    longest: int = 16,
    wars: int = 0,
    ties: bool = False,
    threads: _Optional[int] = None,
) -> Census:
    """The census of a setting's shapes, as ``warsweep shapes`` takes it, with the same
    keywords: every word of up to ``longest`` battles (without a war, or with ``wars`` = 1 or 2
    placed, the first at player 1's first battle; ``ties=True``: a battle followed by one of
    the same winner may be ``sorted``'s high war), from every size of player 1's hand; the
    engine's gather says where each card goes and a SAT solver whether the deck's values fit.
    The same answer on any number of ``threads`` (all cores by default). A bad argument raises
    ``ValueError`` naming it."""
    placings, found, rows = _warsweep._shapes(
        rules=rules, deck=deck, face_down=_whole("face_down", face_down), gather=gather,
        longest=_whole("longest", longest), wars=_whole("wars", wars), ties=bool(ties),
        threads=_whole("threads", threads),
    )
    return Census(placings, found, rows)
