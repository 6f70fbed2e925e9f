"""The Python module's census of shapes: the counts of ``warsweep shapes``, each state it
finds played to an infinite game from its first round, and its refusals."""
import pytest

import warsweep


def test_a_census_finds_the_shapes_that_take_the_values():
    census = warsweep.shapes(rules="bataille", deck="4x11", longest=16)
    assert (census.placings, census.shapes) == (1158, 8)
    found = census.found
    assert list(found.columns) == ["word", "wars", "held", "hands", "cycle", "aligned", "deal"]
    assert not any(found["aligned"])
    assert all(deal is None for deal in found["deal"])
    assert census.taking == 4
    assert list(found["word"]) == ["AAAABBBB"] * 4
    assert list(found["held"]) == [8, 16, 24, 32]
    for hands, cycle in zip(found["hands"], found["cycle"]):
        game = warsweep.play(hands, rules="bataille", deck="4x11")
        assert (game.outcome, game.cycle_start, game.cycle_length) == ("infinite", 0, cycle)
    # One war a period: the 52-card cycle, on one thread as on all.
    one = warsweep.shapes(rules="bataille", wars=1, longest=18, threads=1)
    assert (one.placings, one.shapes, len(one.found)) == (15521, 20, 1)
    row = one.found.iloc[0]
    assert (row["word"], row["wars"], row["held"]) == ("AABAABBAABBAABBBBA", "war@0", 13)
    game = warsweep.play(row["hands"], rules="bataille")
    assert (game.outcome, game.cycle_start, game.cycle_length) == ("infinite", 0, 1020)
    # Under sorted, a battle followed by one of the same winner may be a high war.
    tied = warsweep.shapes(rules="bataille", deck="4x7", gather="sorted", ties=True)
    assert len(tied.found) == 2
    for hands in tied.found["hands"]:
        game = warsweep.play(hands, rules="bataille", deck="4x7", gather="sorted")
        assert game.outcome == "infinite" and game.cycle_start == 0


def test_super_periods_and_many_states_a_shape():
    # Four wins each repeated 45 times, a mid war at a fixed battle: the 4x11 cycle of 42,624
    # rounds random sampling found is among the states laid on it.
    census = warsweep.shapes(rules="bataille", deck="4x11", gather="sorted", periods=(45, 45),
                             ties=True, states=8)
    assert (census.placings, census.shapes, census.taking) == (12, 2, 2)
    found = census.found
    assert len(found) == 16 and set(found["word"]) == {"(AAAABBBB)x45"}
    assert 42624 in set(found["cycle"])
    for hands, cycle in zip(found["hands"], found["cycle"]):
        game = warsweep.play(hands, rules="bataille", deck="4x11", gather="sorted")
        assert (game.outcome, game.cycle_start, game.cycle_length) == ("infinite", 0, cycle)
    # Each state walked back to a deal of the rules, which reaches its cycle.
    dealt = warsweep.shapes(rules="bataille", deck="4x11", gather="sorted", periods=(45, 45),
                            ties=True, deals=True)
    for deal, cycle in zip(dealt.found["deal"], dealt.found["cycle"]):
        assert [len(h) for h in deal] == [22, 22]
        game = warsweep.play(deal, rules="bataille", deck="4x11", gather="sorted")
        assert (game.outcome, game.cycle_length) == ("infinite", cycle)
    with pytest.raises(ValueError, match="1 <= FIRST <= LAST <= 1024, not 3-1"):
        warsweep.shapes(rules="bataille", periods=(3, 1))
    with pytest.raises(ValueError, match="periods: a pair"):
        warsweep.shapes(rules="bataille", periods=45)
    with pytest.raises(ValueError, match="1 to 1000 states on each shape, not 0"):
        warsweep.shapes(rules="bataille", deck="4x7", states=0)


def test_a_census_refuses_what_has_no_shapes():
    with pytest.raises(ValueError, match="the random gather moves cards by a generator"):
        warsweep.shapes(rules="bataille", gather="random")
    with pytest.raises(ValueError, match="even number of battles from 2 to 30, not 7"):
        warsweep.shapes(rules="bataille", longest=7)
    with pytest.raises(ValueError, match="1 to 6 wars a word, not 7"):
        warsweep.shapes(rules="bataille", wars=7)
    with pytest.raises(ValueError, match="so no battle can tie in a shape"):
        warsweep.shapes(rules="bataille", ties=True)
    with pytest.raises(ValueError, match="threads: a census needs 1 thread or more"):
        warsweep.shapes(rules="bataille", threads=0)


def test_rows_hand_sizes_and_kinds_narrow_a_census():
    # A row of counts a length of word, summing to the census's counts.
    census = warsweep.shapes(rules="bataille", deck="4x11", longest=16)
    rows = census.rows
    assert list(rows.columns) == ["battles", "words", "placings", "looked", "shapes", "taking"]
    assert list(rows["battles"]) == [2, 4, 6, 8, 10, 12, 14, 16]
    assert (rows["placings"].sum(), rows["shapes"].sum(), rows["taking"].sum()) == (1158, 8, 4)
    assert list(rows["taking"]) == [0, 0, 0, 4, 0, 0, 0, 0]
    # Player 1's hand sizes 13 to 16: the shapes from 16 cards of those four.
    narrow = warsweep.shapes(rules="bataille", deck="4x11", longest=16, held=(13, 16))
    assert (narrow.placings, narrow.taking, list(narrow.found["held"])) == (1158, 1, [16])
    # The 52-card cycle's war is a low one: kept by kinds=["low"], gone with the others.
    low = warsweep.shapes(rules="bataille", wars=1, longest=18, kinds=["low"])
    assert (low.taking, list(low.found["wars"])) == (1, ["low@0"])
    assert warsweep.shapes(rules="bataille", wars=1, longest=18, kinds=["high", "mid"]).taking == 0
    with pytest.raises(ValueError, match="kinds: \"middle\" is no kind of war"):
        warsweep.shapes(rules="bataille", wars=1, kinds=["middle"])
    with pytest.raises(ValueError, match="kinds: a list of names"):
        warsweep.shapes(rules="bataille", wars=1, kinds="low")
    with pytest.raises(ValueError, match="not 40-30"):
        warsweep.shapes(rules="bataille", held=(40, 30))


def test_aligned_cycles_only():
    # 1x10: AABB from 4 cards reaches 5 and 5, the one aligned cycle of words up to 16.
    census = warsweep.shapes(rules="bataille", deck="1x10", longest=16, aligned=True)
    assert (census.taking, list(census.found["held"]), list(census.found["aligned"])) == (1, [4], [True])
    game = warsweep.play(census.found["hands"][0], rules="bataille", deck="1x10")
    assert (game.outcome, game.cycle_length) == ("infinite", 60)
    assert warsweep.shapes(rules="bataille", deck="4x11", longest=16, aligned=True).taking == 0


def test_chained_wars():
    # Classic War on 4x5 loops through wars of three ties in a row: two wars chained up to
    # three ties, one each player's, in a word of 22 battles (player 1 holding 7).
    census = warsweep.shapes(rules="classic", deck="4x5", wars=2, chain=3, longest=22, held=(7, 7), states=20)
    assert (census.taking, set(census.found["cycle"])) == (1, {16, 48})
    assert census.found["wars"][0] == "war@0-3 war@11-14"
    with pytest.raises(ValueError, match="chains 1 to 3 ties in a row before a war's deciding battle, not 4"):
        warsweep.shapes(rules="classic", wars=1, chain=4)


def test_mirrored_words():
    # From 12 cards each, a word that ends with the hands swapped: its cycle is the word then
    # its mirror, aligned at its start (4x6 natural, 36 rounds).
    census = warsweep.shapes(rules="bataille", deck="4x6", wars=2, longest=18, mirrored=True)
    assert (census.taking, list(census.found["cycle"]), list(census.found["aligned"])) == (1, [36], [True])
    with pytest.raises(ValueError, match="a mirrored census starts from equal hands"):
        warsweep.shapes(rules="bataille", deck="5x3", mirrored=True)


def test_more_wars_a_word():
    # Four wars a mirrored word of 16 battles: aligned 4x4 cycles of 24 rounds, whose deals
    # the engine plays to `INFINITE 0 24`; one to three wars give none.
    census = warsweep.shapes(rules="bataille", deck="4x4", wars=4, longest=16, mirrored=True, deals=True)
    assert census.taking == 4 and set(census.found["cycle"]) == {24}
    assert all(census.found["aligned"])
    for deal in census.found["deal"]:
        game = warsweep.play(deal, rules="bataille", deck="4x4")
        assert (game.outcome, game.cycle_start, game.cycle_length) == ("infinite", 0, 24)
    for wars in (1, 2, 3):
        assert warsweep.shapes(rules="bataille", deck="4x4", wars=wars, longest=16, mirrored=True).taking == 0
