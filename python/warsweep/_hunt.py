"""``warsweep.hunt``: the search for long games and cycles, and the ``Hunted`` it returns."""
from __future__ import annotations

import json as _json
from typing import Any as _Any, Dict as _Dict, List as _List, Optional as _Optional
from typing import Literal as _Literal, Sequence as _Sequence, Tuple as _Tuple

from . import _warsweep
from ._args import _Deal, _Gather, _Preset, _Ranking, _ShortWar, _Term, _whole


class Hunted:
    """What a hunt found: its report (the dictionary ``warsweep hunt --out`` writes), the best
    deals with their hands as lists of values (from 1, top card first), and the log of its
    improvements."""

    def __init__(self, report_json: str) -> None:
        self._json = report_json
        self.report: _Dict[str, _Any] = _json.loads(report_json)

    @property
    def best(self) -> _List[_Dict[str, _Any]]:
        """The best deals, best first: ``hands`` (one list of values a player), ``value``
        (the metric, or an infinite game's cycle length), ``rounds``, ``battles``, ``wars``,
        ``winner`` (from 1), ``outcome``, and for an infinite game ``cycle_start``,
        ``cycle_length`` and ``cycle`` (its least state)."""
        return [dict(d, hands=_hand_lists(d["hands"])) for d in self.report["best"]]

    @property
    def games(self) -> int:
        """Games played."""
        return int(self.report["games"])

    @property
    def seconds(self) -> float:
        """Seconds it took."""
        return float(self.report["seconds"])

    @property
    def cycles(self) -> _Optional[int]:
        """Distinct cycles reached (a hunt for cycles: every one, logged, however many it
        keeps); None for a hunt for the longest game."""
        return self.report.get("cycles")

    @property
    def built(self) -> _Optional[int]:
        """Games whose deal a strategy that builds them (``construct``, ``shapes``) built;
        None for the strategies that draw their deals."""
        return self.report.get("built")

    @property
    def fell_back(self) -> _Optional[int]:
        """Games such a strategy could not build, and drew at random instead."""
        return self.report.get("fell_back")

    @property
    def stopped(self) -> bool:
        """Whether it was stopped (Ctrl-C) before its budget was spent."""
        return bool(self.report["stopped"])

    @property
    def log(self) -> _Any:
        """Each improvement (in a hunt for cycles, each distinct cycle): ``seconds``, ``games``,
        ``value``, ``hands``, and for a building strategy ``built`` and ``fell_back`` (its games
        so far); a pandas DataFrame where pandas is installed, else a list of dictionaries."""
        rows = [dict(e, hands=_hand_lists(e["hands"])) for e in self.report["log"]]
        try:
            import pandas
        except ImportError:
            return rows
        columns = ["stream", "seconds", "games", "value", "hands", "built", "fell_back"]
        frame = pandas.DataFrame(rows, columns=columns)
        counts = {"games": "UInt64", "value": "UInt64", "built": "UInt64", "fell_back": "UInt64"}
        return frame.astype(counts)

    def __repr__(self) -> str:
        r = self.report
        best = r["best"][0]["value"] if r["best"] else None
        return (f"<warsweep.Hunted {r['goal']} by {r['metric']}: {r['games']} games, "
                f"best {best}, {len(r['best'])} kept>")

    def __reduce__(self) -> _Any:
        return (Hunted, (self._json,))


def _hand_lists(hands: str) -> _List[_List[int]]:
    """``"1,2|3,4"`` as ``[[1, 2], [3, 4]]``."""
    return [[int(v) for v in hand.split(",") if v] for hand in hands.split("|")]


def hunt(
    *,
    rules: _Preset,
    goal: _Literal["longest", "cycles"] = "longest",
    metric: _Literal["rounds", "battles", "wars"] = "rounds",
    strategy: _Optional[_Literal["random", "climb", "backward", "construct", "shapes", "war-free"]] = None,
    seed: int = 0,
    games: _Optional[int] = None,
    time: _Optional[float] = None,
    threads: _Optional[int] = None,
    keep: int = 10,
    start: _Optional[_Sequence[_Sequence[_Sequence[int]]]] = None,
    backward_states: _Optional[int] = None,
    stream: _Optional[_Tuple[int, int]] = None,
    gpu: bool = False,
    deck: _Optional[str] = None,
    players: _Optional[int] = None,
    face_down: _Optional[int] = None,
    short_war: _Optional[_ShortWar] = None,
    gather: _Optional[_Gather] = None,
    deal: _Optional[_Deal] = None,
    ranking: _Optional[_Ranking] = None,
) -> Hunted:
    """Searches deals for the longest finished game (``goal="longest"``, by ``metric``) or for
    infinite games (``goal="cycles"``), as ``warsweep hunt`` does, with the same keywords: at
    most ``games`` games (1,000,000 when neither ``games`` nor ``time`` is given) and ``time``
    seconds, on ``threads`` threads (all cores by default; the results are the same for any
    count), keeping the ``keep`` best deals (or distinct cycles). ``strategy`` is ``"random"``,
    ``"climb"``, ``"backward"`` (the default for the longest game: random deals, the longest
    games among them extended backward), ``"construct"`` (cycles only: deals built of pieces
    that come back forever, two equal hands) or ``"shapes"`` (``"war-free"`` is another name
    for it; cycles only: deals walked back from states the SAT solver lays on the setting's
    shapes, periodic words of who wins each battle without a war or with one, 52 cards
    included; each cycle's ``reached`` counts the games that reached it); a building strategy counts the games it built and
    those it fell back to random deals for (``built``, ``fell_back``), and a setting where it
    would build nothing is refused; a hunt for cycles counts every distinct cycle (``cycles``)
    and is ``"random"`` by default, and refuses ``"backward"``, which extends no cycle; ``time``
    counts from the call (a building strategy's shapes included); ``start`` gives deals to start from (each a list of hands, values from
    1), ``stream=(k, n)`` one stream of a hunt split over ``n`` processes. ``gpu=True`` plays the
    random and backward strategies' random games on an NVIDIA GPU (a module built with the
    feature ``gpu``), the same deals as on the CPU.

    Returns a ``Hunted``: ``best`` (each deal's hands as lists), ``log`` (a DataFrame of the
    improvements), ``report``. Ctrl-C or SIGTERM ends the hunt at its next generation and raises
    ``KeyboardInterrupt`` whose ``hunt`` holds what it found; a bad argument raises
    ``ValueError`` naming it."""
    native_start = None
    if start is not None:
        native_start = [[[_whole("start", v) for v in hand] for hand in deal] for deal in start]
    with _Term() as term:
        report, interrupted = _warsweep._hunt(
            rules=rules, deck=deck, players=_whole("players", players),
            face_down=_whole("face_down", face_down), short_war=short_war, gather=gather,
            deal=deal, ranking=ranking, goal=goal, metric=metric, strategy=strategy,
            seed=_whole("seed", seed), games=_whole("games", games),
            seconds=None if time is None else float(time), threads=_whole("threads", threads),
            keep=_whole("keep", keep), start=native_start,
            backward_states=_whole("backward_states", backward_states), stream=stream,
            gpu=bool(gpu),
        )
    hunted = Hunted(report)
    if interrupted:
        by = " by SIGTERM" if term.received else ""
        stop = KeyboardInterrupt(
            f"the hunt was stopped{by} after {hunted.games} games: this exception's hunt holds "
            "what it found"
        )
        stop.hunt = hunted  # type: ignore[attr-defined]
        raise stop
    return hunted
