"""``warsweep.shapes``: the census of a setting's shapes, and the ``Census`` it returns."""
from __future__ import annotations

from typing import Any as _Any, Dict as _Dict, List as _List, Optional as _Optional, Tuple as _Tuple

from . import _warsweep
from ._args import _Gather, _Preset, _whole


def _table(rows: _List[_Dict[str, _Any]], columns: _List[str]) -> _Any:
    """``rows`` as a pandas DataFrame where pandas is installed, else as they are."""
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows, columns=columns)


class Census:
    """What a census found: ``placings`` tried, ``shapes`` (placings and hand sizes whose cards
    can take one value in each circle), ``taking`` (those that take the deck's values),
    ``rows``, these counts for each length of word, and ``found``, the states laid on the
    shapes that take the values."""

    def __init__(self, placings: int, shapes: int, taking: int, found: _List[tuple],
                 counts: _List[tuple]) -> None:
        self.placings = placings
        self.shapes = shapes
        self.taking = taking
        self._found = found
        self._counts = counts

    @property
    def rows(self) -> _Any:
        """The counts for each length of word (each number of repeats of a super-period):
        ``battles``, ``words``, ``placings``, ``looked`` (all of them: a census from Python
        is not stopped), ``shapes``, ``taking``; a pandas DataFrame where pandas is installed,
        else a list of dictionaries."""
        columns = ["battles", "words", "placings", "looked", "shapes", "taking"]
        return _table([dict(zip(columns, row)) for row in self._counts], columns)

    @property
    def found(self) -> _Any:
        """Each state laid on a shape that takes the values: ``word`` (``A`` where player 1
        wins the battle; ``(WORD)xM`` repeated), ``wars`` (``KINDS@BATTLE``; ``war`` is any
        kind), ``held`` (player 1's hand size), ``hands`` (the state, on a cycle: a list of
        values from 1 a player), ``cycle`` (its rounds), ``aligned`` (some state of the cycle
        has equal hands) and ``deal`` (with ``deals=True``, a deal whose game reaches it, as
        ``hands``; else None); a pandas DataFrame where pandas is installed, else a list of
        dictionaries."""
        columns = ["word", "wars", "held", "hands", "cycle", "aligned", "deal"]
        rows: _List[_Dict[str, _Any]] = [
            {"word": w, "wars": k, "held": len(one), "hands": [list(one), list(two)],
             "cycle": cycle, "aligned": aligned,
             "deal": None if deal is None else [list(h) for h in deal]}
            for w, k, one, two, cycle, aligned, deal in self._found
        ]
        return _table(rows, columns)

    def __repr__(self) -> str:
        return (f"<warsweep.Census {self.placings} placings, {self.shapes} shapes, "
                f"{self.taking} taking the values>")


def shapes(
    *,
    rules: _Preset,
    deck: _Optional[str] = None,
    face_down: _Optional[int] = None,
    gather: _Optional[_Gather] = None,
    longest: int = 16,
    wars: _Optional[int] = None,
    ties: bool = False,
    periods: _Optional[_Tuple[int, int]] = None,
    held: _Optional[_Tuple[int, int]] = None,
    kinds: _Optional[_List[str]] = None,
    aligned: bool = False,
    chain: int = 1,
    mirrored: bool = False,
    states: int = 1,
    deals: bool = False,
    threads: _Optional[int] = None,
) -> Census:
    """The census of a setting's shapes, as ``warsweep shapes`` takes it, with the same
    keywords: every word of up to ``longest`` battles (without a war, or with ``wars`` = 1 to 6
    placed, the first at player 1's first battle, each other after the last; ``ties=True``: a battle followed by one of
    the same winner may be ``sorted``'s high war), from every size of player 1's hand; the
    engine's gather says where each card goes and a SAT solver whether the deck's values fit.
    ``periods=(FIRST, LAST)`` takes four wins each repeated FIRST to LAST times instead, its
    ``wars`` (1 by default) at fixed battles of that super-period. ``held=(FIRST, LAST)``
    narrows player 1's hand sizes, ``kinds`` (of ``"high"``, ``"mid"``, ``"low"``) the kinds
    of war placed, ``aligned=True`` the cycles to aligned ones (some state with equal hands);
    ``chain`` (1 to 3) places each war with up to that many ties in a row before its deciding
    battle; ``mirrored=True`` takes only words that end with the hands swapped, from half the
    deck each (the cycle: the word, then its mirror).
    ``states`` distinct states
    are laid on each shape that takes the values, each walked back to a deal with ``deals=True``.
    The same answer on any number of
    ``threads`` (all cores by default). A bad argument raises ``ValueError`` naming it."""
    periods = _pair("periods", periods)
    held = _pair("held", held)
    if kinds is not None and (isinstance(kinds, str) or not all(isinstance(k, str) for k in kinds)):
        raise ValueError(f"kinds: a list of names (high, mid, low), not {kinds!r}")
    placings, shapes_, taking, found, counts = _warsweep._shapes(
        rules=rules, deck=deck, face_down=_whole("face_down", face_down), gather=gather,
        longest=_whole("longest", longest), wars=_whole("wars", wars), ties=bool(ties),
        periods=periods, held=held, kinds=None if kinds is None else list(kinds),
        aligned=bool(aligned), chain=_whole("chain", chain), mirrored=bool(mirrored),
        states=_whole("states", states), deals=bool(deals), threads=_whole("threads", threads),
    )
    return Census(placings, shapes_, taking, found, counts)


def _pair(name: str, value: _Any) -> _Optional[_Tuple[int, int]]:
    """``value``, a pair of whole numbers (FIRST, LAST) or None; else ``ValueError`` naming it."""
    if value is None:
        return None
    if not isinstance(value, tuple) or len(value) != 2:
        raise ValueError(f"{name}: a pair (FIRST, LAST), not {value!r}")
    return (_whole(name, value[0]), _whole(name, value[1]))
