"""The Python module's hunt: the deals it keeps replay through play, the building strategies'
cycles are the games they claim, and what it cannot hunt it refuses in one sentence."""
import pickle

import pytest

import warsweep


def test_a_hunt_finds_deals_that_replay():
    found = warsweep.hunt(rules="bataille", deck="4x5", games=20_000, seed=1, keep=3)
    assert found.games == 20_000 and len(found.best) == 3
    for deal in found.best:
        game = warsweep.play(deal["hands"], rules="bataille", deck="4x5")
        assert game.rounds == deal["rounds"] == deal["value"]
        assert game.winner == deal["winner"]
    assert [d["value"] for d in found.best] == sorted((d["value"] for d in found.best), reverse=True)
    log = found.log
    assert list(log.columns) == ["stream", "seconds", "games", "value", "hands", "built",
                                 "fell_back"]
    assert found.cycles is None and found.built is None and found.fell_back is None
    assert log["value"].iloc[-1] == found.best[0]["value"]
    assert log["value"].is_monotonic_increasing
    # The same deals on one thread; a pickled result is the same result.
    again = warsweep.hunt(rules="bataille", deck="4x5", games=20_000, seed=1, keep=3, threads=1)
    assert again.best == found.best
    assert pickle.loads(pickle.dumps(found)).best == found.best


def test_a_hunt_for_cycles_and_from_given_hands():
    cycles = warsweep.hunt(rules="bataille", deck="4x4", goal="cycles", strategy="random",
                           games=300_000, seed=5)
    assert cycles.best and all(d["cycle_length"] == 24 for d in cycles.best)
    assert all("|" in d["cycle"] for d in cycles.best)
    record = [[1, 3, 2, 2, 1, 2, 1, 4], [4, 4, 3, 4, 1, 2, 3, 3]]
    started = warsweep.hunt(rules="bataille", deck="4x4", games=1, start=[record])
    assert started.best[0]["rounds"] >= 144


def _replayed_cycles(built, deck):
    """Each kept deal replayed by play: infinite, on the cycle it names, each cycle once."""
    games, cycles = [], set()
    for deal in built.best:
        game = warsweep.play(deal["hands"], rules="bataille", deck=deck)
        assert game.outcome == "infinite" and deal["outcome"] == "infinite"
        assert (game.cycle_start, game.cycle_length) == (deal["cycle_start"], deal["cycle_length"])
        assert deal["reached"] >= 1 and deal["cycle"] not in cycles
        cycles.add(deal["cycle"])
        games.append(game)
    return games


def test_a_construction_returns_cycles_with_the_deals_that_reach_them():
    built = warsweep.hunt(rules="bataille", deck="4x8", goal="cycles", strategy="construct",
                          games=2_000, seed=1, keep=50, threads=2)
    assert built.games == 2_000 and len(built.best) >= 5
    _replayed_cycles(built, "4x8")
    with pytest.raises(ValueError, match="^strategy: the construct strategy builds infinite games"):
        warsweep.hunt(rules="bataille", deck="4x8", strategy="construct")
    with pytest.raises(ValueError, match="^strategy: the construct strategy builds deals of two equal"):
        warsweep.hunt(rules="bataille", deck="4x4+1", goal="cycles", strategy="construct")


def test_shapes_cycles_come_with_deals_of_22_cards_a_hand():
    built = warsweep.hunt(rules="bataille", deck="4x11", goal="cycles", strategy="shapes",
                          games=100, seed=1, keep=1000, threads=2)
    assert built.games == 100 and len(built.best) >= 50
    assert all([len(h) for h in deal["hands"]] == [22, 22] for deal in built.best)
    assert all(game.cycle_length % 8 == 0 for game in _replayed_cycles(built, "4x11"))
    assert built.built + built.fell_back == 100 and built.built > 50
    assert built.cycles == len(built.log) == len(built.best)
    assert built.log["built"].is_monotonic_increasing
    with pytest.raises(ValueError, match="^strategy: the shapes strategy builds infinite games"):
        warsweep.hunt(rules="bataille", deck="4x11", strategy="shapes")
    # `war-free` is another name for it: the same hunt.
    alias = warsweep.hunt(rules="bataille", deck="4x11", goal="cycles", strategy="war-free",
                          games=100, seed=1, keep=1000, threads=2)
    assert alias.best == built.best


def test_war_shapes_give_infinite_games_of_52_cards():
    built = warsweep.hunt(rules="bataille", deck="4x13", goal="cycles", strategy="shapes",
                          games=32, seed=3, keep=1000, threads=2)
    assert built.games == 32 and len(built.best) >= 16
    assert all([len(h) for h in deal["hands"]] == [26, 26] for deal in built.best)
    assert all(game.cycle_length == 1020 for game in _replayed_cycles(built, "4x13"))
    assert all(deal["wars"] > 0 for deal in built.best)  # one war a period


def test_every_distinct_cycle_is_counted_whatever_is_kept():
    one = warsweep.hunt(rules="bataille", deck="4x4", goal="cycles", games=100_000, seed=7,
                        keep=1)
    every = warsweep.hunt(rules="bataille", deck="4x4", goal="cycles", games=100_000, seed=7,
                          keep=1000)
    assert len(one.best) == 1 and one.cycles == len(every.best) >= 3
    assert len(one.log) == one.cycles


def test_a_strategy_that_would_build_nothing_is_refused():
    with pytest.raises(ValueError, match="^strategy: none of the .* shapes of this setting"):
        warsweep.hunt(rules="bataille", deck="4x8", gather="sorted", goal="cycles",
                      strategy="shapes", games=10)
    with pytest.raises(ValueError, match="^strategy: the construct strategy builds hands of pieces"):
        warsweep.hunt(rules="bataille", deck="1x2", goal="cycles", strategy="construct", games=10)


def test_a_hunt_refuses_what_it_cannot_hunt():
    cases = [
        (dict(games=0), ValueError, "^games: a hunt needs a budget"),
        (dict(goal="sideways"), ValueError, "^goal: "),
        (dict(metric="cycle_length"), ValueError, "^metric: "),
        (dict(strategy="dig"), ValueError, "^strategy: "),
        (dict(gather="random"), ValueError, "^gather: a hunt needs games that the deal decides"),
        (dict(start=[[[1, 2], [3, 4]]]), ValueError, "^start: the starting hands #1"),
        (dict(threads=0), ValueError, "^threads: "),
        (dict(time=-1), ValueError, "^time: "),
        (dict(time=1e20), ValueError, "^time: .* seconds is no time a hunt can keep"),
        (dict(goal="cycles", strategy="backward"), ValueError,
         "^strategy: the backward strategy extends the longest games"),
        (dict(backward_states=0), ValueError, "^backward_states: a backward search expands"),
        (dict(games=1.5), TypeError, "^games: a whole number"),
        (dict(gpu=True, strategy="climb"), ValueError,
         "^gpu: the GPU cannot play this hunt: .*the GPU plays the random"),
        (dict(gpu=True, strategy="climb", players=3, short_war="most-cards"), ValueError,
         "^gpu: the GPU cannot play this hunt: .*not the climb.*; the GPU plays two players, not 3"),
        (dict(gpu=True, players=3, short_war="most-cards", strategy="random"), ValueError,
         "^gpu: the GPU cannot play this hunt: .*two players, not 3"),
    ]
    for extra, error, message in cases:
        with pytest.raises(error, match=message):
            warsweep.hunt(rules="bataille", deck="4x4", **extra)
