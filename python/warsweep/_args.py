"""What the package's functions share: the names of each knob as types, whole-number
arguments checked and named, and SIGTERM taken as Ctrl-C while the library plays."""
from __future__ import annotations

import numbers as _numbers
from typing import Any as _Any, Literal as _Literal, Optional as _Optional

# The same names as types, so that a type checker flags ``rules="clasic"`` (a test checks that
# they list exactly the constants above).
_Preset = _Literal["codingame", "shortened", "classic", "oorlog", "bataille"]
_ShortWar = _Literal["draw", "shorten", "first-out-loses", "most-cards"]
_Gather = _Literal[
    "reveal", "p1-first", "winner-first", "loser-first", "winner-first-latest", "natural",
    "pair-first", "sorted", "random",
]
_Deal = _Literal["round-robin", "blocks"]
_Ranking = _Literal["standard", "oorlog", "cyclic"]
_WonPile = _Literal["none", "shuffled"]
_Shuffle = _Literal["lcg", "splitmix", "lex"]


def _whole(name: str, value: _Any) -> _Optional[int]:
    """``value`` as a whole number for the argument ``name``, from 0 to 2^64 - 1, or ``None``:
    a ``TypeError`` or ``ValueError`` that names the argument otherwise (the library then
    checks the setting's own limits)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, _numbers.Integral):
        raise TypeError(f"{name}: a whole number, not {value!r}")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name}: 0 or more, not {value}")
    if value >= 2**64:
        raise ValueError(f"{name}: below 2^64, not {value}")
    return value


class _Term:
    """While a sweep or a hunt plays, SIGTERM (a job scheduler's stop) raises
    ``KeyboardInterrupt`` as Ctrl-C does, so that what was played is kept; only in the main
    thread, where Python runs signal handlers. The previous handler comes back after."""

    def __init__(self) -> None:
        self.received = False
        self._previous: _Any = None

    def __enter__(self) -> "_Term":
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            def stop(signum: int, frame: _Any) -> None:
                self.received = True
                raise KeyboardInterrupt("SIGTERM")

            self._previous = signal.signal(signal.SIGTERM, stop)
        return self

    def __exit__(self, *exc: _Any) -> None:
        if self._previous is not None:
            import signal

            signal.signal(signal.SIGTERM, self._previous)
