"""Type stubs of warsweep's native module (see the package's documentation)."""
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

__version__: str

class Game:
    """One game's result; ``str(game)`` is the line ``warsweep play`` prints."""

    @property
    def seed(self) -> Optional[int]: ...
    @property
    def outcome(self) -> str: ...
    @property
    def winner(self) -> Optional[int]: ...
    @property
    def rounds(self) -> Optional[int]: ...
    @property
    def battles(self) -> Optional[int]: ...
    @property
    def wars(self) -> Optional[int]: ...
    @property
    def cycle_start(self) -> Optional[int]: ...
    @property
    def cycle_length(self) -> Optional[int]: ...
    @property
    def hands(self) -> List[List[int]]: ...
    @property
    def cards(self) -> List[List[str]]: ...
    @property
    def trace(self) -> Optional[List[Dict[str, Any]]]: ...

class Swept:
    """A finished sweep, as the native module returns it (``warsweep.Sweep`` wraps it)."""

    @property
    def summary_json(self) -> str: ...
    @property
    def first_seed(self) -> int: ...
    @property
    def has_rows(self) -> bool: ...
    @property
    def stopped(self) -> bool: ...
    def __len__(self) -> int: ...
    def row_bytes(self) -> bytes: ...
    def hand_bytes(self) -> Optional[bytes]: ...
    @property
    def hand_sizes(self) -> Optional[List[int]]: ...

def play(
    hands: Optional[List[List[Union[int, str]]]] = None,
    *,
    seed: Optional[int] = None,
    rules: str,
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
    trace: bool = False,
) -> Game: ...
def sweep(
    seeds: Any = None,
    *,
    rules: str,
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
    csv: Optional[str] = None,
    cycles: bool = False,
    memory: Optional[int] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    chosen: Optional[bytes] = None,
    gpu: bool = False,
    resume: bool = False,
    hands: bool = False,
) -> Swept: ...
def merge(summaries: List[str]) -> str: ...
def _histogram(summary_json: str, metric: str) -> Tuple[List[int], List[int]]: ...
def deal(
    seed: int,
    *,
    rules: str,
    deck: Optional[str] = None,
    players: Optional[int] = None,
    face_down: Optional[int] = None,
    short_war: Optional[str] = None,
    gather: Optional[str] = None,
    deal: Optional[str] = None,
    ranking: Optional[str] = None,
    shuffle: Optional[str] = None,
    won_pile: Optional[str] = None,
) -> Dict[str, Any]: ...
def _hunt(
    *,
    rules: str,
    deck: Optional[str] = None,
    players: Optional[int] = None,
    face_down: Optional[int] = None,
    short_war: Optional[str] = None,
    gather: Optional[str] = None,
    deal: Optional[str] = None,
    ranking: Optional[str] = None,
    goal: str = "longest",
    metric: str = "rounds",
    strategy: Optional[str] = None,
    seed: int = 0,
    games: Optional[int] = None,
    seconds: Optional[float] = None,
    threads: Optional[int] = None,
    keep: int = 10,
    start: Optional[List[List[List[int]]]] = None,
    backward_states: Optional[int] = None,
    stream: Optional[Tuple[int, int]] = None,
    gpu: bool = False,
) -> Tuple[str, bool]: ...
def _shapes(
    *,
    rules: str,
    deck: Optional[str] = None,
    face_down: Optional[int] = None,
    gather: Optional[str] = None,
    longest: int = 16,
    wars: Optional[int] = None,
    ties: bool = False,
    periods: Optional[Tuple[int, int]] = None,
    states: int = 1,
    deals: bool = False,
    threads: Optional[int] = None,
) -> Tuple[int, int, int, List[Tuple[str, str, List[int], List[int], int, Optional[List[List[int]]]]]]: ...
def _plot(summaries: List[str], metric: str, title: Optional[str] = None, log: bool = False) -> str: ...
