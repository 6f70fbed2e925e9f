"""The Python module against the command line it shares its library with: the same games, the
same summaries, the same rows, the same sentences for bad settings; and what only Python has
(NumPy and pandas rows, the interpreter released, Ctrl-C)."""
import _thread
import json
import os
import pickle
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

import warsweep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("WARSWEEP", os.path.join(ROOT, "target", "release", "warsweep"))


def cli(*args, stdin=""):
    """The command line's stdout, or its stderr and exit code when it fails."""
    run = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True)
    return run.stdout, run.stderr, run.returncode


SETTINGS = [
    {"rules": "codingame"},
    {"rules": "shortened"},
    {"rules": "classic", "gather": "loser-first"},
    {"rules": "oorlog", "players": 5, "gather": "pair-first"},
    {"rules": "bataille", "deck": "4x4", "shuffle": "lex"},
    {"rules": "classic", "ranking": "cyclic", "won_pile": "shuffled"},
    {"rules": "codingame", "gather": "random", "max_rounds": 50},
    {"rules": "bataille", "deck": "4x4", "shuffle": "lex", "gather": "winner-first-latest"},
    {"rules": "classic", "gather": "winner-first-latest"},
]


def flags(setting):
    out = []
    for key, value in setting.items():
        out += ["--" + key.replace("_", "-"), str(value)]
    return out


def test_play_prints_what_the_command_line_prints():
    compared = 0
    for setting in SETTINGS:
        for seed in range(12):
            game = warsweep.play(seed=seed, **{"rules": "codingame", **setting})
            out, _, code = cli("play", "--seed", str(seed), *flags(setting))
            assert code == 0
            assert str(game) == out.strip(), (setting, seed)
            compared += 1
    assert compared == 108


def test_game_fields():
    game = warsweep.play(seed=0, rules="codingame")
    assert (game.outcome, game.winner, game.rounds, game.battles, game.wars) == ("win", 2, 22, 25, 3)
    assert (game.cycle_start, game.cycle_length) == (None, None)
    looping = warsweep.play(seed=1, rules="codingame")
    assert (looping.outcome, looping.winner, looping.rounds) == ("infinite", None, None)
    assert (looping.cycle_start, looping.cycle_length) == (1024, 52)
    # The longest 4x4 game of the research, as bare values and as cards.
    values = [[1, 3, 2, 2, 1, 2, 1, 4], [4, 4, 3, 4, 1, 2, 3, 3]]
    assert str(warsweep.play(values, rules="bataille", deck="4x4")) == "1 144"
    cards = [["5H", "3S", "8D"], ["2H", "9C", "10D"]]
    out, _, _ = cli("play", stdin="3\n5H\n3S\n8D\n3\n2H\n9C\n10D\n")
    assert str(warsweep.play(cards, rules="codingame")) == out.strip()


def test_sweep_summary_and_rows_are_the_command_lines():
    compared = 0
    for setting in SETTINGS:
        seeds = (1000, 1600)
        swept = warsweep.sweep(seeds, threads=2, **{"rules": "shortened", **setting})
        out, _, code = cli(
            "sweep", "--seeds", "1000..1600", "-q", "--summary", "-", *flags(setting)
        )
        assert code == 0
        expected = json.loads(out)
        got = dict(swept.summary)
        for timing in ("elapsed_seconds", "games_per_second"):
            del expected[timing], got[timing]
        # Python numbers players from 1: the JSON's list of wins is keyed by player.
        assert got["wins"] == {p + 1: n for p, n in enumerate(expected["wins"])}
        got["wins"] = expected["wins"]
        assert got == expected, setting
        csv, _, _ = cli("sweep", "--seeds", "1000..1600", "-q", "--csv", "-", *flags(setting))
        lines = csv.splitlines()
        frame = swept.to_pandas()
        assert list(frame.columns) == lines[0].split(",")
        as_csv = frame.astype(object).where(frame.notna(), "").astype(str)
        rows = [",".join(r) for r in as_csv.itertuples(index=False, name=None)]
        assert rows == lines[1:], setting
        compared += len(rows)
    assert compared == 9 * 600


def test_numpy_rows_and_their_size():
    swept = warsweep.sweep(range(0, 5000), rules="codingame")
    arrays = swept.to_numpy()
    assert arrays["seed"].dtype == np.uint64 and list(arrays["seed"][:3]) == [0, 1, 2]
    assert arrays["rounds"][0] == 22 and np.isnan(arrays["rounds"][1])
    assert arrays["cycle_length"][1] == 52 and np.isnan(arrays["cycle_length"][0])
    # Outcomes as one byte a row, codes into warsweep.OUTCOMES.
    assert arrays["outcome"].dtype == np.uint8 and arrays["outcome"].nbytes == 5000
    assert [warsweep.OUTCOMES[c] for c in arrays["outcome"][:2]] == ["win", "infinite"]
    # Rows are held in 32 bytes a game (wars in 64 bits, as the CSV has them).
    assert len(swept._native.row_bytes()) == 32 * 5000
    assert len(warsweep.sweep((0, 10), rows=False, rules="shortened")._native) == 0


def test_numpy_arrays_cannot_pass_a_missing_value_for_a_length():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    swept = warsweep.sweep((0, 20000), threads=2, rules="shortened")
    arrays = swept.to_numpy()
    frame = swept.to_pandas()
    finished = frame.rounds.dropna().to_numpy(dtype=np.int64)
    infinite = swept.summary["infinite"]
    assert infinite > 1000 and len(finished) + infinite == 20000
    checked = 0
    for name in ("rounds", "battles", "wars", "cycle_start", "cycle_length"):
        column = arrays[name]
        assert column.flags.writeable
        kept = frame[name].dropna().to_numpy(dtype=np.int64)
        # np.histogram refuses the missing values; np.percentile says NaN; nanpercentile
        # and plt.hist see the games that have the figure, and only those.
        with pytest.raises(ValueError):
            np.histogram(column)
        assert np.isnan(np.percentile(column, 50))
        assert np.nanpercentile(column, 50) == np.percentile(kept, 50)
        counts, _, _ = plt.hist(column, bins=20)
        assert counts.sum() == len(kept), name
        column.sort()
        assert np.array_equal(column[: len(kept)], np.sort(kept))
        assert np.isnan(column[len(kept):]).all()
        checked += 1
    assert checked == 5
    # The winner is missing alike in both: NaN here, <NA> there.
    winner = arrays["winner"]
    assert np.array_equal(np.isnan(winner), frame.winner.isna().to_numpy())
    assert np.array_equal(winner[~np.isnan(winner)], frame.winner.dropna().to_numpy(dtype=float))


def test_pandas_columns_are_typed_and_each_frame_is_new():
    import tracemalloc

    swept = warsweep.sweep((0, 200000), rules="classic", threads=2)
    tracemalloc.start()
    frame = swept.to_pandas()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = frame.memory_usage(deep=True).sum()
    assert peak <= 2 * size, (peak, size)
    again = swept.to_pandas()
    assert again is not frame and again.equals(frame)
    frame.loc[0, "rounds"] = -7
    assert swept.to_pandas().rounds.iloc[0] != -7, "an edit of one frame changed the next"
    assert str(frame.outcome.dtype) == "category"
    assert list(frame.outcome.cat.categories) == list(warsweep.OUTCOMES)
    assert str(frame.seed.dtype) == "UInt64"
    for name in ("winner", "rounds", "battles", "wars", "cycle_start", "cycle_length"):
        assert str(frame[name].dtype) == "Int64", name
    # Differences and shifts of counts stay signed.
    assert frame.rounds.diff().min() < 0


def test_seeds_on_both_sides_of_2_63_concatenate_exactly():
    import pandas as pd

    below = warsweep.sweep((2**63 - 2, 2**63), rules="classic", shuffle="splitmix", threads=1)
    above = warsweep.sweep((2**63, 2**63 + 2), rules="classic", shuffle="splitmix", threads=1)
    frame = pd.concat([below.to_pandas(), above.to_pandas()], ignore_index=True)
    assert str(frame.seed.dtype) == "UInt64"
    assert [int(s) for s in frame.seed] == [2**63 - 2, 2**63 - 1, 2**63, 2**63 + 1]


def test_summary_is_a_fresh_dict():
    swept = warsweep.sweep((0, 100), rows=False, rules="shortened")
    swept.summary["games"] = -1
    assert len(swept) == 100 and swept.summary["games"] == 100


def test_a_range_past_the_lcg_deals_warns():
    with pytest.warns(UserWarning, match="the lcg shuffle has 2,097,151 distinct deals") as caught:
        swept = warsweep.sweep((2_097_100, 2_097_200), rows=False, rules="shortened")
    assert len(caught) == 1 and len(swept) == 100
    # The warning points at the caller's line, not at the module's.
    assert caught[0].filename == __file__, caught[0].filename
    # One game of such a seed: the same note, the game of the seed it repeats.
    with pytest.warns(UserWarning, match="seed s deals like s mod 2,097,151") as caught:
        game = warsweep.play(seed=3_000_000, rules="codingame")
    assert caught[0].filename == __file__
    assert game.hands == warsweep.play(seed=3_000_000 - 2_097_151, rules="codingame").hands
    _, err, code = cli("sweep", "--seeds", "2097100..2097200", "--summary", os.devnull)
    assert code == 0 and str(caught[0].message) in err


def test_bad_arguments_are_named():
    named = 0
    for call, error, message in [
        (lambda: warsweep.play(seed=-1, rules="codingame"), ValueError, "^seed: 0 or more, not -1$"),
        (lambda: warsweep.play(seed=2**64, rules="codingame"), ValueError, "^seed: below 2\\^64"),
        (lambda: warsweep.play(seed=1.5, rules="codingame"), TypeError, "^seed: a whole number, not 1.5$"),
        (lambda: warsweep.sweep((0, 10), threads=-1, rules="shortened"), ValueError, "^threads: 0 or more"),
        (lambda: warsweep.sweep((0, 10), face_down=-1, rules="shortened"), ValueError, "^face_down: 0 or more"),
        (lambda: warsweep.sweep((0, 10), threads=0, rules="shortened"), ValueError,
         "^threads: a sweep runs on 1 to 1024 threads, not 0$"),
        (lambda: warsweep.sweep((0.0, 10), rules="shortened"), TypeError,
         "^seeds: \\(start, end\\) of whole numbers, not \\(0.0, 10\\)$"),
        (lambda: warsweep.play(seed=0, max_rounds=0, rules="codingame"), ValueError, "^max_rounds: "),
        (lambda: warsweep.play(seed=0, players=True, rules="codingame"), TypeError, "^players: a whole number"),
        (lambda: warsweep.play(0, rules="codingame"), TypeError, "^hands: a list of hands"),
        (lambda: warsweep.play("AH 2C", rules="codingame"), TypeError, "not a string: split it into cards first"),
        (lambda: warsweep.play(["AH", "2C"], rules="codingame"), TypeError, "a hand is a list, not 'AH'"),
        (lambda: warsweep.play([[1.5], [2]], rules="codingame"), TypeError, "^hands: 1.5 is neither a value"),
        (lambda: warsweep.play([[None], [2]], rules="codingame"), TypeError, "^hands: None is neither a value"),
        (lambda: warsweep.play([[2**70], [1]], rules="codingame"), ValueError, "^hands: 1180591620717411303424 is not a value"),
        (lambda: warsweep.play([[0], [1]], rules="codingame"), ValueError, "^hands: "),
    ]:
        with pytest.raises(error, match=message):
            call()
        named += 1
    assert named == 16


def test_the_module_shows_its_own_names():
    assert warsweep.__version__ == "0.1.0"
    shown = dir(warsweep)
    assert "play" in shown and "OUTCOMES" in shown
    assert not {"Any", "Dict", "Optional", "json"} & set(shown)


def test_game_repr_names_its_fields():
    assert repr(warsweep.play(seed=0, rules="codingame")) == "<warsweep.Game outcome='win' winner=2 rounds=22 battles=25 wars=3>"
    assert repr(warsweep.play(seed=1, rules="codingame")) == "<warsweep.Game outcome='infinite' cycle_start=1024 cycle_length=52>"


def test_the_library_refuses_seeds_it_cannot_deal():
    refused = 0
    for seeds, setting, message in [
        ((10, 5), {}, "the seed range 10..5 is reversed"),
        ((0, 2**64 + 1), {}, "past the last seed"),
        ((-3, 5), {}, "seeds are 0 or more"),
        ((0, 10), {"threads": 0}, "a sweep runs on 1 to 1024 threads, not 0"),
        ((0, 10), {"shuffle": "lex", "rules": "classic"}, "lex needs a smaller deck"),
    ]:
        with pytest.raises(ValueError, match=message):
            warsweep.sweep(seeds, **{"rules": "shortened", **setting})
        refused += 1
    with pytest.raises(ValueError, match="is past the 4x4 deck's 63063000 distinct deals"):
        warsweep.play(seed=63063000, rules="bataille", deck="4x4", shuffle="lex")
    assert refused == 5


BAD = [
    ({"deck": "4x0"}, ["--deck", "4x0"]),
    ({"rules": "bataille", "deck": "3x1", "ranking": "cyclic"},
     ["--rules", "bataille", "--deck", "3x1", "--ranking", "cyclic"]),
    ({"players": 13, "rules": "oorlog"}, ["--players", "13", "--rules", "oorlog"]),
    ({"players": 3}, ["--players", "3"]),
    ({"face_down": 9}, ["--face-down", "9"]),
    ({"deck": "4x4", "shuffle": "lex", "seed_range": (0, 63063001)},
     ["--deck", "4x4", "--shuffle", "lex", "--seeds", "0..63063001"]),
]


def test_bad_settings_raise_the_command_lines_sentence():
    # The same typed error behind both: Python names the argument (`face_down: ...`) where the
    # command line names its flag (`--face-down: ...`); the sentence after it is the same.
    raised = 0
    for setting, args in BAD:
        setting = dict(setting)
        seeds = setting.pop("seed_range", (0, 10))
        with pytest.raises(ValueError) as error:
            warsweep.sweep(seeds, **{"rules": "shortened", **setting})
        message = str(error.value)
        argument, _, reason = message.partition(": ")
        if argument.isidentifier():
            # The setting at fault, which may be another than the one given (players=3 makes
            # the preset's short_war unplayable).
            flag = "--" + argument.replace("_", "-")
        else:
            reason, flag = message, None
        default = [] if "--seeds" in args else ["--seeds", "0..10"]
        _, err, code = cli("sweep", "-q", *default, *args)
        if code == 2:
            # A value wrong on its own is a usage error there, in clap's words around the sentence.
            assert reason in err.splitlines()[0], (err, message)
        else:
            assert code == 1, err
            shown = f"{flag}: {reason}" if flag else reason
            assert err.strip() == "warsweep: " + shown, (err, message)
        raised += 1
    assert raised == len(BAD)
    for name, value in [("gather", "sideways"), ("won_pile", "reshuffled"), ("ranking", "cyclical")]:
        with pytest.raises(ValueError, match=f'^{name}: "{value}" is not one of '):
            warsweep.play(seed=0, **{"rules": "codingame", **{name: value}})
    with pytest.raises(ValueError, match="not both"):
        warsweep.play([[1]], seed=3, rules="codingame")
    with pytest.raises(ValueError):
        warsweep.play([["1", "ZZ"], ["2H"]], rules="codingame")


def test_the_interpreter_runs_while_a_sweep_plays():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        warsweep.sweep((0, 400000), threads=1, rows=False, rules="shortened")
    finally:
        done.set()
        ticker.join()
    assert len(ticks) >= 5


def test_ctrl_c_stops_a_sweep_within_a_second():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt) as stopped:
        warsweep.sweep((0, 20_000_000), shuffle="splitmix", rules="shortened")
    assert time.monotonic() - start < 1.3
    # The seeds played are kept, from the first, as the command line keeps them.
    partial = stopped.value.sweep
    seeds = partial.summary["seeds"]
    assert partial.stopped and seeds["start"] == 0 and 0 < seeds["end"] < 20_000_000
    assert len(partial) == seeds["end"] == len(partial.to_numpy()["seed"])
    again = warsweep.sweep((0, seeds["end"]), shuffle="splitmix", rules="shortened")
    assert not again.stopped
    assert again.to_pandas().equals(partial.to_pandas())


def test_sigterm_stops_a_sweep_as_ctrl_c_does_and_resume_finishes_it(tmp_path):
    import signal

    args = dict(shuffle="splitmix", rules="classic", threads=2)
    stopped_csv, whole_csv = tmp_path / "stopped.csv", tmp_path / "whole.csv"
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    with pytest.raises(KeyboardInterrupt, match="stopped by SIGTERM after seeds 0..") as stopped:
        warsweep.sweep((0, 4_000_000), rows=str(stopped_csv), **args)
    partial = stopped.value.sweep
    assert partial.stopped and 0 < partial.summary["seeds"]["end"] < 4_000_000
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, "the handler is put back"
    assert (tmp_path / "stopped.csv.resume").exists()
    resumed = warsweep.sweep((0, 4_000_000), rows=str(stopped_csv), resume=True, **args)
    whole = warsweep.sweep((0, 4_000_000), rows=str(whole_csv), **args)
    assert stopped_csv.read_bytes() == whole_csv.read_bytes()
    a, b = resumed.summary, whole.summary
    for s in (a, b):
        del s["elapsed_seconds"], s["games_per_second"]
    assert a == b and not (tmp_path / "stopped.csv.resume").exists()
    with pytest.raises(ValueError, match="^resume: "):
        warsweep.sweep((0, 10), rules="classic", resume=True)


def test_games_and_sweeps_pickle_compare_and_merge():
    import pickle

    game = warsweep.play(seed=7, rules="classic")
    assert game.seed == 7 and warsweep.play([[1, 2], [2, 1]], rules="bataille", deck="2x2").seed is None
    back = pickle.loads(pickle.dumps(game))
    assert back == game and hash(back) == hash(game) and str(back) == str(game)
    assert game != warsweep.play(seed=8, rules="classic")
    assert len({game, back, warsweep.play(seed=7, rules="classic")}) == 1
    whole = warsweep.sweep((0, 3000), rules="classic", gather="winner-first", threads=2)
    copy = pickle.loads(pickle.dumps(whole))
    assert copy.summary == whole.summary and copy.to_pandas().equals(whole.to_pandas())
    assert copy == whole and copy != warsweep.sweep((0, 3000), rules="classic", threads=2)
    assert whole != whole.summary
    with pytest.raises(TypeError):
        hash(whole)
    html = whole._repr_html_()
    assert "<table>" in html and "3,000" in html and "classic" in html
    parts = [warsweep.sweep(r, rules="classic", gather="winner-first", rows=False)
             for r in [(1000, 3000), (0, 1000)]]
    joined = warsweep.merge(*parts)
    assert isinstance(joined, warsweep.Sweep) and len(joined) == 3000
    merged = joined.summary
    expected = whole.summary
    for timing in ("elapsed_seconds", "games_per_second"):
        del merged[timing], expected[timing]
    assert merged == expected
    assert warsweep.merge(parts[0].summary, parts[1]).summary["games"] == 3000
    with pytest.raises(ValueError, match="summaries\\[0\\]: the JSON text is not a warsweep summary"):
        warsweep.merge({"games": 1}, parts[0])
    with pytest.raises(ValueError):
        warsweep.merge(parts[0], parts[0])


def test_sweep_repr_names_what_differs_from_the_preset():
    swept = warsweep.sweep((5, 25), rules="classic", gather="loser-first", threads=1, rows=False)
    assert repr(swept) == "<warsweep.Sweep classic gather=loser-first seeds=5..25 games=20>"
    swept = warsweep.sweep((0, 10), rules="bataille", deck="4x4", shuffle="lex", rows=False)
    assert repr(swept) == "<warsweep.Sweep bataille deck=4x4 shuffle=lex seeds=0..10 games=10>"


def test_cycles_are_listed_with_their_basins():
    swept = warsweep.sweep(rules="bataille", deck="1x7", shuffle="lex", rows=False, cycles=True)
    cycles = swept.summary["cycles"]
    assert len(cycles) == 104
    assert sum(c["deals"] for c in cycles) == swept.summary["infinite"] == 2304
    assert all(c["cycle_length"] == 8 for c in cycles)


def test_hands_with_repeated_cards_play_with_a_warning():
    # CodinGame's own inputs repeat cards; they play as the command line plays them.
    path = os.path.join(ROOT, "data", "puzzles", "codingame-repeated.txt")
    words = open(path).read().split()
    first = int(words[0])
    hands = [words[1 : 1 + first], words[2 + first :]]
    with pytest.warns(UserWarning, match="hold 2D, QH, KD and AH twice") as caught:
        game = warsweep.play(hands, rules="codingame")
    assert len(caught) == 1
    out, err, code = cli("play", path)
    assert code == 0 and str(game) == out.strip() == "2 2282"
    assert "hold 2D, QH, KD and AH twice" in err
    with pytest.warns(UserWarning, match="5 cards of value 1"):
        game = warsweep.play([[1, 1, 1, 1, 1], [2, 2, 2]], rules="bataille", deck="4x4")
    assert str(game) == "2 4"


def test_hands_missing_a_card_of_their_deck_play_with_a_warning():
    # 26 and 25 cards given as a 52-card deal: the missing card is named.
    deck = [v for v in range(1, 14) for _ in range(4)]
    deck.remove(7)
    hands = [deck[:26], deck[26:]]
    with pytest.warns(UserWarning, match="the hands hold 51 of the 4x13 deck's 52 cards: value 7 is missing"):
        warsweep.play(hands, rules="bataille", deck="4x13")


def test_options_that_would_do_nothing_are_refused_or_warned():
    with pytest.raises(ValueError, match="a table of cycles needs games whose cycles are found"):
        warsweep.sweep((0, 10), gather="random", cycles=True, rules="shortened")
    with pytest.warns(UserWarning, match="the oorlog ranking lets 2 and 3 beat the ace"):
        game = warsweep.play(seed=3, rules="bataille", deck="4x4", ranking="oorlog")
    assert str(game) == str(warsweep.play(seed=3, rules="bataille", deck="4x4"))


def test_constants_and_types_list_every_value():
    import typing

    listed = 0
    for values, literal in [
        (warsweep.PRESETS, warsweep._Preset),
        (warsweep.SHORT_WARS, warsweep._ShortWar),
        (warsweep.GATHERS, warsweep._Gather),
        (warsweep.DEALS, warsweep._Deal),
        (warsweep.RANKINGS, warsweep._Ranking),
        (warsweep.WON_PILES, warsweep._WonPile),
        (warsweep.SHUFFLES, warsweep._Shuffle),
    ]:
        assert typing.get_args(literal) == values
        listed += len(values)
    assert listed == 5 + 4 + 9 + 2 + 3 + 2 + 3
    for gather in warsweep.GATHERS:
        assert warsweep.play(seed=2, rules="classic", gather=gather, max_rounds=100).outcome



def test_play_and_sweep_name_their_rules():
    # No default preset: the presets change every figure, so each call names its own.
    for call in (lambda: warsweep.play(seed=0), lambda: warsweep.sweep((0, 10))):
        with pytest.raises(TypeError, match="required keyword-only argument: 'rules'"):
            call()


def test_players_are_numbered_from_1_everywhere():
    swept = warsweep.sweep((0, 2000), rules="classic", threads=2)
    wins = swept.summary["wins"]
    assert sorted(wins) == [1, 2]
    arrays, frame = swept.to_numpy(), swept.to_pandas()
    compared = 0
    for player in (1, 2):
        assert wins[player] == int((arrays["winner"] == player).sum())
        assert wins[player] == int((frame["winner"] == player).sum())
        compared += 1
    assert compared == 2
    # The winner is the same number in numpy and pandas, game by game.
    won = ~np.isnan(arrays["winner"])
    assert (arrays["winner"][won] == frame["winner"][won].to_numpy(dtype=float)).all()
    assert frame["winner"][~won].isna().all()


def test_a_sweep_too_large_for_memory_is_refused_before_it_starts():
    # Under a 1.5 GB address-space limit, a sweep keeping the rows of 10^12 games is refused
    # with the figure and the alternatives, at once; the summary-only one of the same range
    # would run (it is stopped by a shorter range here).
    code = (
        "import resource, time, warsweep\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))\n"
        "start = time.monotonic()\n"
        "try:\n"
        "    warsweep.sweep((0, 10**12), rules='classic', shuffle='splitmix')\n"
        "except MemoryError as e:\n"
        "    print(e)\n"
        "assert time.monotonic() - start < 1\n"
        "print(len(warsweep.sweep((0, 1000), rules='classic', threads=1)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    refusal, games = run.stdout.strip().splitlines()
    assert refusal.startswith("keeping a row for each of 1000000000000 games takes 32.0 TB, and ")
    assert "rows=False" in refusal and 'rows="games.csv"' in refusal
    assert games == "1000"


def test_rows_stream_to_a_file_as_the_command_line_writes_them(tmp_path):
    path = tmp_path / "games.csv"
    swept = warsweep.sweep((0, 3000), rules="classic", rows=path, threads=2)
    assert swept.csv == str(path) and len(swept) == 3000
    out, _, code = cli("sweep", "--rules", "classic", "--seeds", "0..3000", "-q", "--csv", "-")
    assert code == 0 and path.read_text() == out
    chunks = list(pd.read_csv(path, chunksize=1000))
    assert [len(c) for c in chunks] == [1000, 1000, 1000]
    with pytest.raises(ValueError, match="streamed its rows to .*games.csv"):
        swept.to_pandas()
    # A file that cannot be written is refused before the first game, in one sentence.
    with pytest.raises(ValueError, match="^cannot write"):
        warsweep.sweep((0, 10), rules="classic", rows=tmp_path / "no" / "such" / "dir.csv")
    with pytest.raises(TypeError, match="^rows: True, False or a file's path"):
        warsweep.sweep((0, 10), rules="classic", rows=3)


def test_progress_is_shown_or_reported():
    calls = []
    swept = warsweep.sweep((0, 300_000), rules="shortened", threads=2, rows=False,
                           progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (300_000, 300_000)
    assert all(total == 300_000 for _, total in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert len(swept) == 300_000
    with pytest.raises(TypeError, match="^progress: "):
        warsweep.sweep((0, 10), rules="classic", progress="yes")


def test_progress_bar_without_tqdm_writes_a_line(capfd, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name.startswith("tqdm"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    warsweep.sweep((0, 20_000), rules="classic", rows=False, progress=True)
    err = capfd.readouterr().err
    assert "20,000 / 20,000 games (100%)" in err and err.endswith("\n")


def test_progress_bar_is_tqdms_when_installed(capfd):
    pytest.importorskip("tqdm", reason="tqdm is not installed: its bar is not tested")
    warsweep.sweep((0, 20_000), rules="classic", rows=False, progress=True)
    err = capfd.readouterr().err
    assert "100%" in err and "20.0k/20.0k" in err


def test_a_traced_game_is_the_command_lines_trace():
    compared = 0
    for setting in [{"rules": "codingame"}, {"rules": "classic"}, {"rules": "oorlog"},
                    {"rules": "classic", "won_pile": "shuffled"}]:
        for seed in range(4):
            game = warsweep.play(seed=seed, trace=True, **setting)
            plain = warsweep.play(seed=seed, **setting)
            assert plain.trace is None and str(plain) == str(game)
            out, _, code = cli("play", "--seed", str(seed), "--trace", *flags(setting))
            assert code == 0
            # The trace starts with the deal, as the command line's does.
            deal, battles = game.trace[0], game.trace[1:]
            dealt = [line.split(": ", 1)[1].split() for line in out.splitlines()
                     if line.startswith("P") and " cards): " in line][: len(game.cards)]
            assert (deal["battle"], deal["round"]) == (0, 0)
            assert deal["dealt"] == [(p + 1, hand) for p, hand in enumerate(dealt)]
            assert [hand for _, hand in deal["dealt"]] == game.cards
            assert all(set(b) == set(deal) for b in game.trace)
            shown = [line for line in out.splitlines() if line.startswith("battle ")]
            assert len(shown) == len(battles)
            for line, battle in zip(shown, battles):
                by_player = "  ".join(
                    f"P{p} " + " ".join(c for q, c in battle["revealed"] if q == p)
                    for p in sorted({p for p, _ in battle["revealed"]})
                )
                assert line == f"battle {battle['battle']} (round {battle['round']}): {by_player}"
                compared += 1
            taken = [line.split(": ", 1)[1] for line in out.splitlines() if " takes " in line]
            assert taken == [" ".join(b["took"]) for b in battles if b["winner"]]
            if game.outcome != "infinite":
                assert len(battles) == game.battles
            assert pickle_round_trip(game) == game
    assert compared > 1000


def pickle_round_trip(value):
    import pickle

    return pickle.loads(pickle.dumps(value))


def test_chosen_seeds_a_stepped_range_or_an_array():
    compared = 0
    for seeds in [range(3, 4000, 37), np.array([9, 2, 9, 500_000]), [5, 1, 3], range(40, 0, -3)]:
        swept = warsweep.sweep(seeds, rules="classic", threads=2)
        wanted = list(seeds)
        summary = swept.summary
        assert summary["chosen"] == len(wanted) == len(swept)
        assert summary["seeds"] == {"start": min(wanted), "end": max(wanted) + 1}
        arrays, frame = swept.to_numpy(), swept.to_pandas()
        assert arrays["seed"].tolist() == wanted and frame["seed"].tolist() == wanted
        for i, seed in enumerate(wanted):
            game = warsweep.play(seed=seed, rules="classic")
            assert (frame["rounds"][i], frame["outcome"][i]) == (game.rounds, game.outcome)
            compared += 1
        assert sum(summary["wins"].values()) + summary["draws"] + summary["infinite"] == len(wanted)
        assert "chosen=" in repr(swept)
        assert pickle_round_trip(swept).to_pandas().equals(frame)
    assert compared == 109 + 4 + 3 + 14
    # A range of step 1 is a range: its summary merges.
    whole = warsweep.sweep(range(0, 500, 1), rules="classic")
    assert "chosen" not in whole.summary
    with pytest.raises(ValueError, match="chosen seeds merges with no other"):
        warsweep.merge(warsweep.sweep([1, 2], rules="classic"), whole)
    for seeds, error, message in [
        ([-1], ValueError, "^seeds: 0 or more"),
        ([2**64], ValueError, "^seeds: below 2\\^64"),
        ([[1, 2]], ValueError, "^seeds: a 1-D array"),
        (["a"], TypeError, "^seeds: whole numbers"),
        ([], ValueError, "^seeds: no seed is chosen"),
        ("0..10", TypeError, "^seeds: \\(start, end\\), a range or a 1-D array"),
        ([1, 63063000], ValueError, "63063000"),
    ]:
        with pytest.raises(error, match=message):
            warsweep.sweep(seeds, rules="bataille", deck="4x4", shuffle="lex")
    with pytest.raises(ValueError, match="^rows streamed to a file take a range of seeds"):
        warsweep.sweep([1, 2], rules="classic", rows="x.csv")


def test_a_gpu_sweep_it_cannot_play_says_why():
    walk = dict(rules="bataille", deck="4x4", shuffle="lex")
    built = "this module is built without GPU support \\(install it with MATURIN_PEP517_ARGS="
    # Every reason at once, the build first: without the feature, per-game rows, the deck.
    with pytest.raises(ValueError) as refused:
        warsweep.sweep((0, 100), rules="classic", deck="5x13", gpu=True)
    said = str(refused.value)
    assert said.startswith("gpu: the GPU cannot play this sweep: ")
    assert "the GPU keeps no per-game rows (pass rows=False)" in said
    assert "the 5x13 deck has 65 cards of 13 values" in said
    assert "\n" not in said
    with pytest.raises(ValueError, match="the GPU walks ranges of seeds"):
        warsweep.sweep([1, 2, 3], gpu=True, rows=False, **walk)
    # This module is built without the feature (CI has no GPU), or the machine has no driver.
    with pytest.raises(ValueError, match=f"^gpu: (the GPU cannot play this sweep: {built}|no NVIDIA driver)"):
        warsweep.sweep((0, 100), gpu=True, rows=False, **walk)
    # On the CPU, the same sweep plays.
    assert warsweep.sweep((0, 100), rows=False, **walk).summary["games"] == 100


def test_the_deal_behind_each_game():
    compared = 0
    for setting in SETTINGS:
        for seed in (0, 1, 17):
            dealt = warsweep.deal(seed, **{k: v for k, v in setting.items() if k != "max_rounds"})
            game = warsweep.play(seed=seed, **setting)
            assert (game.hands, game.cards) == (dealt["hands"], dealt["cards"]), setting
            # The hands replay to the same game, and the command line's trace deals the same.
            again = warsweep.play(dealt["hands"], **setting)
            if setting.get("gather") != "random" and setting.get("won_pile") != "shuffled":
                assert (again.outcome, again.rounds) == (game.outcome, game.rounds), setting
            flags = [f"--{k.replace('_', '-')}={v}" for k, v in setting.items()]
            out, _, code = cli("play", "--seed", str(seed), "--trace", *flags)
            shown = [line.split(": ", 1)[1].split() for line in out.splitlines()
                     if line.startswith("P") and " cards): " in line][: len(dealt["cards"])]
            assert code == 0 and shown == dealt["cards"], (setting, seed)
            compared += 1
    assert compared == 3 * len(SETTINGS)
    given = warsweep.play([[1, 3, 2, 2], [4, 4, 3, 1]], rules="bataille", deck="4x4")
    assert given.hands == [[1, 3, 2, 2], [4, 4, 3, 1]] and len(given.cards[0]) == 4
    import pickle

    assert pickle.loads(pickle.dumps(given)).hands == given.hands
    with pytest.raises(ValueError, match="^deck: "):
        warsweep.deal(0, rules="classic", deck="9x9")
    with pytest.raises(ValueError, match="past the 4x4 deck"):
        warsweep.deal(10**12, rules="bataille", deck="4x4", shuffle="lex")


def test_histograms_of_any_sweep_are_the_command_lines(tmp_path):
    kept = warsweep.sweep((0, 20000), rules="classic", threads=2)
    bare = warsweep.sweep((0, 20000), rules="classic", threads=2, rows=False)
    merged = warsweep.merge(warsweep.sweep((0, 7000), rules="classic", rows=False),
                            warsweep.sweep((7000, 20000), rules="classic", rows=False))
    hist = tmp_path / "hist.csv"
    _, _, code = cli("sweep", "--rules", "classic", "--seeds", "0..20000", "-q", "--hist", str(hist))
    assert code == 0
    rows = [line.split(",") for line in hist.read_text().splitlines()[1:]]
    compared = 0
    for metric in ("rounds", "battles", "wars", "cycle_start", "cycle_length"):
        wanted = [(int(v), int(g)) for m, v, g in rows if m == metric]
        for swept in (kept, bare, merged):
            values, games = swept.histogram(metric)
            assert values.dtype == np.uint64 and games.dtype == np.uint64
            assert list(zip(values.tolist(), games.tolist())) == wanted, metric
            assert int(games.sum()) == swept.summary[metric]["count"]
            compared += 1
    assert compared == 15
    # Exact where the rows are: every bucket below 2,048 counts the games of that length.
    rounds = kept.to_numpy()["rounds"]
    values, games = kept.histogram("rounds")
    for value, count in zip(values.tolist(), games.tolist()):
        if value < 2048:
            assert count == int(np.sum(rounds == value)), value
    with pytest.raises(ValueError, match="^metric: \"turns\" is not one of rounds"):
        kept.histogram("turns")


def test_plots_are_what_the_command_line_draws(tmp_path):
    parts = [warsweep.sweep((0, 5000), rules=r, rows=False) for r in ("classic", "bataille")]
    drawn = warsweep.plot(parts, metric="rounds", log=True)
    assert drawn._repr_svg_() == drawn.svg and drawn.svg.startswith("<svg")
    for i, part in enumerate(parts):
        (tmp_path / f"{i}.json").write_text(part._native.summary_json)
    out = tmp_path / "cli.svg"
    _, err, code = cli("plot", str(tmp_path / "0.json"), str(tmp_path / "1.json"),
                       "--metric", "rounds", "--log", "--output", str(out))
    assert code == 0, err
    assert drawn.svg == out.read_text()
    alone = parts[0].plot("battles")
    assert "sweep1.json" in alone.svg and str(tmp_path) not in alone.svg
    alone.save(tmp_path / "alone.svg")
    assert (tmp_path / "alone.svg").read_text() == alone.svg
    with pytest.raises(ValueError, match="no cycle_length to plot"):
        parts[0].plot("cycle_length")
    with pytest.raises(ValueError, match="^metric: "):
        parts[0].plot("turns")
    with pytest.raises(TypeError, match="^sweeps: "):
        warsweep.plot([parts[0].summary])


def test_rows_with_hands_are_each_seeds_deal():
    compared = 0
    for setting in SETTINGS:
        seeds = (5, 45) if setting.get("shuffle") != "lex" else (100, 140)
        swept = warsweep.sweep(seeds, threads=3, rows_with=["hands"], **setting)
        hands = swept.to_numpy()["hands"]
        frame = swept.to_pandas()
        players = setting.get("players", 2)
        assert hands.dtype == np.uint8 and hands.shape[:2] == (40, players)
        knobs = {k: v for k, v in setting.items() if k != "max_rounds"}
        for i, seed in enumerate(range(*seeds)):
            dealt = warsweep.deal(seed, **knobs)["hands"]
            assert [list(h[: len(d)]) for h, d in zip(hands[i], dealt)] == dealt, (setting, seed)
            assert all(not h[len(d):].any() for h, d in zip(hands[i], dealt))
            assert [list(frame[f"hand{p + 1}"][i]) for p in range(players)] == dealt
            compared += 1
        # Rows without hands are what they were, and the hands pickle with the rows.
        plain = warsweep.sweep(seeds, threads=3, **setting)
        assert plain.to_numpy().keys() == swept.to_numpy().keys() - {"hands"}
        assert (plain.to_numpy()["rounds"][~np.isnan(plain.to_numpy()["rounds"])] ==
                swept.to_numpy()["rounds"][~np.isnan(swept.to_numpy()["rounds"])]).all()
        assert pickle_round_trip(swept) == swept and plain != swept
    assert compared == 40 * len(SETTINGS)
    chosen = warsweep.sweep([9, 3, 7], rules="classic", rows_with=("hands",))
    assert [list(h[0]) for h in chosen.to_numpy()["hands"]] == [
        warsweep.deal(s, rules="classic")["hands"][0] for s in (9, 3, 7)]
    with pytest.raises(ValueError, match="^rows_with: 'cards' is not a row feature"):
        warsweep.sweep((0, 10), rules="classic", rows_with=["cards"])
    with pytest.raises(TypeError, match="^rows_with: "):
        warsweep.sweep((0, 10), rules="classic", rows_with="hands")
    with pytest.raises(ValueError, match="^rows_with: the hands join rows kept in memory"):
        warsweep.sweep((0, 10), rules="classic", rows=False, rows_with=["hands"])


def test_capped_games_count_the_same_in_rows_and_summary():
    swept = warsweep.sweep((0, 3000), rules="classic", gather="random", max_rounds=300)
    s, frame = swept.summary, swept.to_pandas()
    assert 0 < s["capped"] < s["games"]
    compared = 0
    for outcome, prefix in (("capped", "capped_"), ("finished", "")):
        if outcome == "capped":
            rows = frame[frame.outcome == "capped"]
        else:
            rows = frame[frame.outcome.isin(["win", "draw"])]
        for length in ("rounds", "battles", "wars"):
            stats, values = s[prefix + length], rows[length].astype("int64")
            assert stats["count"] == len(values) and stats["total"] == values.sum()
            assert stats["mean"] == pytest.approx(values.mean(), rel=1e-12)
            assert stats["stdev"] == pytest.approx(values.std(ddof=0), rel=1e-9)
            assert (stats["min"], stats["max"]) == (values.min(), values.max())
            counts = swept.histogram(prefix + length)[1]
            assert counts.sum() == len(values)
            compared += 1
    assert compared == 6
    assert s["capped_rounds"]["min"] == s["capped_rounds"]["max"] == 300


def test_the_hands_study_runs_and_prints_its_table():
    script = os.path.join(ROOT, "docs", "study-hands.py")
    run = subprocess.run([sys.executable, script, "20000"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    headers = [line.split(" (")[0] for line in lines if "20,000 deals; player 1 wins" in line]
    assert headers == ["classic", "bataille"]
    # Under bataille four aces never lose (an ace is beaten by nothing) and none never win.
    bataille = lines[[i for i, line in enumerate(lines) if line.startswith("bataille")][0]:]
    assert bataille[2].split()[0] == "0" and bataille[2].split()[2] == "0.000"
    assert bataille[6].split()[0] == "4" and bataille[6].split()[2] == "1.000"
    assert sum(1 for line in lines if "% of the won games" in line) == 4
