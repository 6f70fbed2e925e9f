use super::{census, Bounds, Census, Found, Kind, ShapesError};
use crate::engine::Engine;
use crate::rules::{Deck, Gather, Preset, Settings};
use crate::{Outcome, Silent};

/// `bataille` on `deck` with `gather`.
fn bataille(deck: &str, gather: Gather) -> crate::rules::Rules {
    (Settings::new(Preset::Bataille).deck(Deck::parse(deck).unwrap()))
        .gather(gather)
        .build()
        .unwrap()
}

/// Every state a census found is on a cycle: the engine plays it to `INFINITE 0`.
fn check_states(rules: &crate::rules::Rules, census: &Census) -> usize {
    let mut engine = Engine::new(*rules);
    for Found { placing, hands, .. } in &census.found {
        let card = |v: &u8| rules.deck().value_card(i64::from(*v)).unwrap();
        let hands = hands.clone().map(|h| h.iter().map(card).collect());
        let result = engine.play_hands(&hands, 0, &mut Silent).unwrap();
        assert!(
            matches!(result.outcome, Outcome::Infinite { cycle_start: 0, .. }),
            "{placing} {hands:?}: {result:?}"
        );
    }
    census.found.len()
}

/// The values `engine` leaves under player `w`'s hand after one round of `tables` (each
/// player's cards as played, `w` winning), a card below each so that the game goes on.
fn gathered_by(engine: &mut Engine, tables: &[Vec<u8>; 2], w: usize) -> Vec<u8> {
    let hands = tables.clone().map(|mut t| {
        t.push(0);
        t
    });
    let mut after = [Vec::new(), Vec::new()];
    engine
        .step_values([&hands[0], &hands[1]], &mut after)
        .unwrap();
    after[w][after[w].len() - tables[0].len() - tables[1].len()..].to_vec()
}

/// The census's line `line` (scripts/war-free-census.py, scripts/four-wins-census.py): its
/// deck, whether a war is placed, the longest word, the shapes and those taking the values.
fn census_line(line: &str) -> (String, bool, usize, usize, usize) {
    let deck = line.split([':', ' ']).next().unwrap().to_string();
    let count_after = |key: &str| -> usize {
        let at = line.find(key).unwrap() + key.len();
        let digits: String = line[at..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap()
    };
    let war = line.contains("placed war");
    let longest = if war {
        count_after("every word of 4..")
    } else {
        count_after("periods of 2..")
    };
    let shapes = if war {
        count_after("shapes whose circles can be of one value")
    } else {
        count_after("shapes with no circle")
    };
    (deck, war, longest, shapes, count_after("taking the values"))
}

/// The census of no-war shapes (4x7, 4x11, 4x13, periods up to 16 rounds, under `natural`
/// and `sorted`) and of one `natural` war a period (4x7 up to 14 battles, 4x13 up to 18) is
/// the scripts' (tests/data/census/shapes.txt): the same shapes, the same that take the
/// values, each state they found on a cycle.
#[test]
fn the_census_is_the_scripts_() {
    let text = include_str!("../../tests/data/census/shapes.txt");
    let mut compared = 0;
    for line in text.lines().filter(|l| l.starts_with("4x")) {
        let (deck, war, longest, shapes, taking) = census_line(line);
        let gathers: &[Gather] = if war {
            &[Gather::Natural]
        } else {
            &[Gather::Natural, Gather::Sorted]
        };
        for &gather in gathers {
            let rules = bataille(&deck, gather);
            let bounds = match war {
                true => Bounds::Words {
                    longest,
                    wars: 1,
                    ties: false,
                },
                false => Bounds::NoWar {
                    longest,
                    ties: false,
                },
            };
            let census = census(&rules, &bounds).unwrap();
            assert_eq!(
                (census.shapes, census.found.len()),
                (shapes, taking),
                "{deck} {gather:?}: {line}"
            );
            compared += check_states(&rules, &census) + census.shapes;
        }
    }
    // Shapes and states: 2 gathers x (4 + 8 + 5 shapes, 4 states), then 3 + 1 and 20 + 1.
    assert_eq!(compared, 2 * (4 + 8 + 5 + 4) + 3 + 1 + 20 + 1);
}

/// Under `sorted` a high war gathers as its two battles would, so a battle followed by one of
/// the same winner may tie at any pass (`--ties`): the census of no-war words on 4x7 finds
/// the scripts' 2 states (scripts/war-free-census.py --ties), that of one mid or low war a
/// word up to 18 battles research.md's row (31,042 placings, 3 shapes, 1 taking the values),
/// each state on a cycle; `natural` gathers no war so, and refuses ties.
#[test]
fn ties_under_sorted_are_the_scripts_() {
    let rules = bataille("4x7", Gather::Sorted);
    let no_war = census(
        &rules,
        &Bounds::NoWar {
            longest: 16,
            ties: true,
        },
    )
    .unwrap();
    let words = Bounds::Words {
        longest: 18,
        wars: 1,
        ties: true,
    };
    let one_war = census(&rules, &words).unwrap();
    assert_eq!((no_war.placings, no_war.found.len()), (1158, 2));
    assert_eq!(
        (one_war.placings, one_war.shapes, one_war.found.len()),
        (31_042, 3, 1)
    );
    // Mid and low wars are placed; high ones tie anywhere.
    assert!(one_war
        .found
        .iter()
        .all(|f| f.placing.wars[0].kinds != [Kind::High]));
    let played = check_states(&rules, &no_war) + check_states(&rules, &one_war);
    assert_eq!(played, 3);
    let natural = bataille("4x7", Gather::Natural);
    assert_eq!(census(&natural, &words), Err(ShapesError::Ties));
}

/// Four wins each repeated `m` times, a mid or low war at a fixed battle of the first eight
/// (`Bounds::FourWins`): on 4x7 `sorted` for `m` of 1 to 8, the counts of
/// `scripts/four-wins-census.py --periods 1-8 4x7` (96 placings, 6 shapes, all 6 taking the
/// values: a mid war at battle 1 or 5, `m` = 3, 6 or 8), each state on a cycle, five states
/// laid on each (distinct, each on a cycle the engine measures as printed); two wars a
/// super-period of `m` = 1 place the second anywhere after the first.
#[test]
fn four_wins_each_at_super_periods_is_the_script_s() {
    let rules = bataille("4x7", Gather::Sorted);
    let bounds = Bounds::FourWins {
        first: 1,
        last: 8,
        wars: 1,
        ties: true,
    };
    let found = census(&rules, &bounds).unwrap();
    assert_eq!((found.placings, found.shapes, found.taking), (96, 6, 6));
    let placed: Vec<String> = found.found.iter().map(|f| f.placing.to_string()).collect();
    let expected: Vec<String> = [3, 3, 6, 6, 8, 8]
        .iter()
        .zip([1, 5, 1, 5, 1, 5])
        .map(|(m, b)| format!("(AAAABBBB)x{m} mid@{b}"))
        .collect();
    assert_eq!(placed, expected);
    assert_eq!(check_states(&rules, &found), 6);
    let options = super::Options {
        states: 5,
        ..super::Options::default()
    };
    let many = super::census_with(&rules, &bounds, &options).unwrap();
    assert_eq!((many.taking, many.found.len()), (6, 30));
    let mut engine = Engine::new(rules);
    for state in &many.found {
        let card = |v: &u8| rules.deck().value_card(i64::from(*v)).unwrap();
        let hands = state.hands.clone().map(|h| h.iter().map(card).collect());
        let result = engine.play_hands(&hands, 0, &mut Silent).unwrap();
        let cycle = state.cycle;
        assert_eq!(
            result.outcome,
            Outcome::Infinite {
                cycle_start: 0,
                cycle_length: cycle
            }
        );
    }
    for shape in many.found.chunks(5) {
        let distinct: std::collections::HashSet<_> = shape.iter().map(|f| &f.hands).collect();
        assert_eq!(distinct.len(), 5);
    }
    // Two wars: the first in the first eight battles, the second two or more after it.
    let two = Bounds::FourWins {
        first: 1,
        last: 1,
        wars: 2,
        ties: true,
    };
    let two = census(&rules, &two).unwrap();
    // Firsts at battles 0, 1, 2, 4 (5 and 6 leave no battle for a second): kinds mid, low.
    let seconds: usize = [0usize, 1, 2, 4]
        .iter()
        .map(|&i| [0, 1, 2, 4, 5, 6].iter().filter(|&&j| j >= i + 2).count())
        .sum();
    assert_eq!(two.placings, seconds * 2 * 2);
    assert_eq!(
        census(
            &rules,
            &Bounds::FourWins {
                first: 2,
                last: 1,
                wars: 1,
                ties: true
            }
        ),
        Err(ShapesError::SuperPeriods(2, 1))
    );
}

/// A census's rows add up to its counts; narrowed to player 1's hand sizes or to kinds of war,
/// it splits into parts that add up to the whole: under `sorted` (which gathers each kind its
/// own way) the kinds one by one, hand sizes in two ranges; under `natural` (every kind
/// alike) a kind alone narrows each war's tie, so its shapes are among the whole's.
#[test]
fn rows_hand_sizes_and_kinds_split_a_census() {
    let bounds = Bounds::Words {
        longest: 14,
        wars: 1,
        ties: false,
    };
    let part = |rules: &crate::rules::Rules, held, kinds: &[Kind]| {
        let options = super::Options {
            held: Some(held),
            kinds,
            ..super::Options::default()
        };
        super::census_with(rules, &bounds, &options).unwrap()
    };
    let states = |c: &Census| -> std::collections::BTreeSet<String> {
        (c.found.iter())
            .map(|f| format!("{} {:?}", f.placing, f.hands))
            .collect()
    };
    let mut compared = 0;
    for gather in [Gather::Sorted, Gather::Natural] {
        let rules = bataille("4x7", gather);
        let whole = census(&rules, &bounds).unwrap();
        let sum = |f: fn(&super::Row) -> usize| whole.rows.iter().map(f).sum::<usize>();
        assert_eq!(
            (sum(|r| r.placings), sum(|r| r.shapes), sum(|r| r.taking)),
            (whole.placings, whole.shapes, whole.taking)
        );
        assert_eq!(
            whole.rows.iter().map(|r| r.battles).collect::<Vec<_>>(),
            [4, 6, 8, 10, 12, 14]
        );
        let halves = [
            part(&rules, (1, 13), &Kind::ALL),
            part(&rules, (14, 27), &Kind::ALL),
        ];
        assert_eq!(halves[0].shapes + halves[1].shapes, whole.shapes);
        assert_eq!(halves[0].taking + halves[1].taking, whole.taking);
        let mut joined = states(&halves[0]);
        joined.extend(states(&halves[1]));
        assert_eq!(joined, states(&whole));
        let kinds = Kind::ALL.map(|k| part(&rules, (1, 27), &[k]));
        let added = |f: fn(&Census) -> usize| kinds.iter().map(f).sum::<usize>();
        if gather == Gather::Sorted {
            assert_eq!(added(|c| c.placings), whole.placings);
            assert_eq!(added(|c| c.shapes), whole.shapes);
            assert_eq!(added(|c| c.taking), whole.taking);
            assert!(whole.taking > 0);
        } else {
            assert_eq!(added(|c| c.placings), 3 * whole.placings);
            // The words and hand sizes of the shapes taking the values (the wars' names and the
            // values laid differ).
            let shapes = |c: &Census| -> std::collections::BTreeSet<(Vec<u8>, usize)> {
                (c.found.iter())
                    .map(|f| (f.placing.word.clone(), f.hands[0].len()))
                    .collect()
            };
            for narrow in &kinds {
                assert!(narrow.shapes <= whole.shapes);
                assert!(shapes(narrow).is_subset(&shapes(&whole)));
            }
            // bataille_cpp's 52-round cycle: its war is a low one.
            assert_eq!((kinds[2].taking, kinds[0].taking + kinds[1].taking), (1, 0));
        }
        compared += whole.rows.len() + 2 + kinds.len();
    }
    assert_eq!(compared, 2 * (6 + 2 + 3));
}

/// `aligned` keeps exactly the states whose cycle has equal hands at some round: the census
/// asked for aligned cycles finds the aligned states of the whole census, no more, no fewer
/// (the 60-round 1x10 cycle, `AABB` from 4 cards of 10, and none of 4x11's or 4x7's); each
/// state's flag is what its game shows.
#[test]
fn aligned_cycles_are_those_of_the_whole_census_with_equal_hands() {
    let mut compared = 0;
    for (deck, gather, bounds, aligned) in [
        (
            "1x10",
            Gather::Natural,
            Bounds::NoWar {
                longest: 16,
                ties: false,
            },
            1,
        ),
        (
            "4x11",
            Gather::Natural,
            Bounds::NoWar {
                longest: 16,
                ties: false,
            },
            0,
        ),
        (
            "4x7",
            Gather::Natural,
            Bounds::Words {
                longest: 14,
                wars: 1,
                ties: false,
            },
            0,
        ),
    ] {
        let rules = bataille(deck, gather);
        let whole = census(&rules, &bounds).unwrap();
        let options = super::Options {
            aligned: true,
            ..super::Options::default()
        };
        let only = super::census_with(&rules, &bounds, &options).unwrap();
        let kept: Vec<&Found> = whole.found.iter().filter(|f| f.aligned).collect();
        assert_eq!(only.found.iter().collect::<Vec<_>>(), kept, "{deck}");
        assert_eq!((only.taking, only.found.len()), (aligned, aligned));
        assert!(only.shapes <= whole.shapes);
        for found in &whole.found {
            let sizes = plain_sizes(&rules, found);
            assert_eq!(
                found.aligned,
                sizes.iter().any(|&(a, b)| a == b),
                "{deck} {}",
                found.placing
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 1 + 4 + 1);
}

/// The hand sizes of the game of a found state, round by round over its cycle, as the engine
/// plays it watched.
fn plain_sizes(rules: &crate::rules::Rules, found: &Found) -> Vec<(usize, usize)> {
    struct Sizes(Vec<(usize, usize)>);
    impl crate::Observer for Sizes {
        fn round_end(&mut self, hands: &crate::engine::hands::Hands) {
            self.0.push((hands.hand(0).len(), hands.hand(1).len()));
        }
    }
    let card = |v: &u8| rules.deck().value_card(i64::from(*v)).unwrap();
    let hands = found.hands.clone().map(|h| h.iter().map(card).collect());
    let mut sizes = Sizes(vec![(found.hands[0].len(), found.hands[1].len())]);
    Engine::new(*rules)
        .play_hands(&hands, 0, &mut sizes)
        .unwrap();
    sizes.0.truncate(found.cycle as usize + 1);
    sizes.0
}

/// Under `sorted` with cards face down a war is gathered by the order of its table's values
/// (the tie, each face-down card, each deciding card): 60 orders for each winner with one card
/// face down, 2,520 with two, 181,440 with three. Values drawn at random, equal ones often, fall along exactly one
/// order (each above the next, or equal where the next is a later item), which leaves the
/// state the engine leaves: the values the engine gathers are those the order's slots say,
/// and the war's kind is among the order's.
#[test]
fn sorted_wars_with_cards_face_down_are_gathered_as_their_order_says() {
    use super::gathering::Gathering;
    let mut random = crate::deal::SplitMix64(11);
    let (mut compared, mut tables_played) = (0, 0);
    for (f, orders, draws) in [(1, 60, 200), (2, 2520, 200), (3, 181_440, 12)] {
        let rules = (Settings::new(Preset::Classic).gather(Gather::Sorted))
            .face_down(f)
            .build()
            .unwrap();
        let mut engine = Engine::new(rules);
        let gathering = Gathering::of(&rules, &mut engine, 1).unwrap();
        assert_eq!(gathering.wars.each_ref().map(Vec::len), [orders, orders]);
        for _ in 0..draws {
            // Values 1 to 4, so that equal ones are common; the deciding cards apart.
            let mut values: Vec<u8> = (0..2 * f + 3).map(|_| 1 + random.below(4) as u8).collect();
            let (y, z) = (2 * f + 1, 2 * f + 2);
            if values[y] == values[z] {
                continue;
            }
            if values[y] < values[z] {
                values.swap(y, z);
            }
            for w in 0..2 {
                let mut tables = [vec![values[0]], vec![values[0]]];
                tables[w].extend(&values[1..=f]);
                tables[1 - w].extend(&values[f + 1..=2 * f]);
                tables[w].push(values[y]);
                tables[1 - w].push(values[z]);
                let gathered = &gathered_by(&mut engine, &tables, w);
                let kind = Kind::of(values[0], values[y], values[z]);
                let falls = |order: &[u8]| {
                    order.windows(2).all(|p| {
                        let (u, v) = (values[usize::from(p[0])], values[usize::from(p[1])]);
                        u > v || u == v && p[0] < p[1]
                    })
                };
                let mut fitting = 0;
                for way in gathering.wars[w].iter().filter(|way| falls(&way.order)) {
                    let said: Vec<u8> = way.slots.iter().map(|&(p, k)| tables[p][k]).collect();
                    assert_eq!(gathered, &said[..], "{values:?}, player {w} winning");
                    assert!(way.kinds.contains(&kind), "{values:?}: {:?}", way.kinds);
                    fitting += 1;
                }
                assert_eq!(fitting, 1, "{values:?}");
                compared += fitting;
                tables_played += 1;
            }
        }
    }
    assert_eq!((tables_played, compared), (594, 594));
}

/// Where a war moves more cards than its two battles (one card face down: three a player), a
/// word with a war balances the cards, not the battles: 5x3 `sorted` under classic rules
/// loops on a word of 15 battles with one mid war, player 1 holding 6 (as random deals find,
/// 14 rounds a period). Four cards face down place no war under `sorted`.
#[test]
fn words_with_wars_balance_the_cards_a_war_moves() {
    let classic = |deck: &str, face_down: usize| {
        (Settings::new(Preset::Classic).deck(Deck::parse(deck).unwrap()))
            .gather(Gather::Sorted)
            .face_down(face_down)
            .build()
            .unwrap()
    };
    let rules = classic("5x3", 1);
    let bounds = Bounds::Words {
        longest: 16,
        wars: 1,
        ties: false,
    };
    let options = super::Options {
        held: Some((6, 6)),
        ..super::Options::default()
    };
    let found = super::census_with(&rules, &bounds, &options).unwrap();
    assert_eq!(check_states(&rules, &found), 1);
    let laid = &found.found[0];
    assert_eq!(
        (laid.placing.to_string(), laid.cycle),
        ("AABABABABBBABAB mid@0[y>x>=b>a>=z]".to_string(), 14)
    );
    let four = classic("4x13", 4);
    assert_eq!(census(&four, &bounds), Err(ShapesError::SortedFaceDown(4)));
    let no_war = Bounds::NoWar {
        longest: 8,
        ties: false,
    };
    assert!(census(&four, &no_war).is_ok());
}

/// A chained war (ties in a row, the cards face down after each, then the deciding battle) is
/// gathered as its way's slots say, whatever the values, under every gather but `sorted` (and
/// `random`), with 0, 1 and 3 cards face down: played again by the engine with values drawn
/// at random that keep its ties and its deciding battle.
#[test]
fn chained_wars_are_gathered_as_their_slots_say() {
    use super::gathering::Gathering;
    let mut random = crate::deal::SplitMix64(7);
    // A value from `low` to `high`.
    let mut draw =
        move |low: u8, high: u8| low + (random.next_u64() % u64::from(high - low + 1)) as u8;
    let mut compared = 0;
    for &gather in Gather::ALL
        .iter()
        .filter(|g| !matches!(g, Gather::Sorted | Gather::Random))
    {
        for face_down in [0, 1, 3] {
            let rules = (Settings::new(Preset::Classic).gather(gather))
                .face_down(face_down)
                .build()
                .unwrap();
            let mut engine = Engine::new(rules);
            let gathering = Gathering::of(&rules, &mut engine, super::MOST_CHAIN).unwrap();
            for w in 0..2 {
                for chain in 1..=super::MOST_CHAIN {
                    let ways: Vec<_> = (gathering.wars[w].iter())
                        .filter(|way| way.chain == chain)
                        .collect();
                    assert_eq!(
                        (ways.len(), ways[0].kinds.len()),
                        (1, 3),
                        "{gather:?}, chain {chain}"
                    );
                    for _ in 0..20 {
                        let mut tables = [Vec::new(), Vec::new()];
                        for _ in 0..chain {
                            let tie = draw(1, 13);
                            for table in &mut tables {
                                table.push(tie);
                                table.extend((0..face_down).map(|_| draw(1, 13)));
                            }
                        }
                        let high = draw(2, 13);
                        tables[w].push(high);
                        tables[1 - w].push(draw(1, high - 1));
                        let gathered = &gathered_by(&mut engine, &tables, w);
                        let said: Vec<u8> =
                            ways[0].slots.iter().map(|&(p, k)| tables[p][k]).collect();
                        assert_eq!(
                            gathered,
                            &said[..],
                            "{gather:?}, {tables:?}, player {w} winning"
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(
        compared,
        (Gather::ALL.len() - 2) * 3 * 2 * super::MOST_CHAIN * 20
    );
}

/// Random deals of 4x5 under classic War (`winner-first`, a card face down) loop through wars
/// of three ties in a row (48 rounds a cycle, the most common): a census of two wars chained
/// up to three ties finds that word, one war each player's, and its states are on cycles of 48
/// rounds (and 16). Chains that the census cannot place are refused.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: a census of 3,086,897 placings, twice"
)]
fn a_census_of_chained_wars_finds_the_cycles_of_classic_4x5() {
    let rules = (Settings::new(Preset::Classic).deck(Deck::parse("4x5").unwrap()))
        .build()
        .unwrap();
    let bounds = Bounds::Words {
        longest: 22,
        wars: 2,
        ties: false,
    };
    let options = super::Options {
        held: Some((7, 7)),
        chain: 3,
        states: 20,
        ..super::Options::default()
    };
    let found = super::census_with(&rules, &bounds, &options).unwrap();
    assert_eq!(
        (found.shapes, found.taking, check_states(&rules, &found)),
        (2, 1, 20)
    );
    assert_eq!(
        found.found[0].placing.to_string(),
        "AAAABABABABBBBBABABABA war@0-3 war@11-14"
    );
    let mut cycles: Vec<u64> = found.found.iter().map(|f| f.cycle).collect();
    cycles.dedup_by_key(|c| *c);
    cycles.sort_unstable();
    cycles.dedup();
    assert_eq!(cycles, [16, 48]);
    // Without chains the same census finds nothing.
    let plain = super::Options {
        chain: 1,
        ..options
    };
    assert_eq!(
        super::census_with(&rules, &bounds, &plain).unwrap().taking,
        0
    );
    let refused = |chain: usize, rules: &crate::rules::Rules, kinds: &[Kind]| {
        let options = super::Options {
            chain,
            kinds,
            ..super::Options::default()
        };
        super::census_with(rules, &bounds, &options).unwrap_err()
    };
    assert_eq!(refused(4, &rules, &Kind::ALL), ShapesError::Chain(4));
    assert_eq!(refused(0, &rules, &Kind::ALL), ShapesError::Chain(0));
    assert_eq!(refused(2, &rules, &[Kind::Low]), ShapesError::ChainKinds);
    let sorted = bataille("4x5", Gather::Sorted);
    assert_eq!(refused(2, &sorted, &Kind::ALL), ShapesError::ChainSorted);
}

/// A mirrored census (each word from equal hands ends with them swapped, the next period the
/// word with its winners swapped) finds on 4x6 `natural` an aligned cycle of 36 rounds, as the
/// construction's aligned 4x6 cycles are: its state a deal on its own cycle. Where the gather
/// lays the players' cards in player order (`natural` with a card face down), or the hands
/// cannot start equal, it is refused.
#[test]
fn a_mirrored_census_finds_aligned_cycles() {
    let rules = bataille("4x6", Gather::Natural);
    let bounds = Bounds::Words {
        longest: 18,
        wars: 2,
        ties: false,
    };
    let mirrored = super::Options {
        mirrored: true,
        ..super::Options::default()
    };
    let found = super::census_with(&rules, &bounds, &mirrored).unwrap();
    assert_eq!(
        (found.held, found.taking, check_states(&rules, &found)),
        ((12, 12), 1, 1)
    );
    let laid = &found.found[0];
    assert_eq!(
        (laid.placing.to_string(), laid.cycle, laid.aligned),
        ("(AABB)x2 war@0 war@6".to_string(), 36, true)
    );
    // The same word, not mirrored, comes back with player 1 holding other cards: no shape.
    let plain = super::census_with(&rules, &bounds, &super::Options::default()).unwrap();
    assert!(plain.found.iter().all(|f| f.placing != laid.placing));
    let classic = (Settings::new(Preset::Classic).gather(Gather::Natural))
        .build()
        .unwrap();
    let refused = |rules: &crate::rules::Rules, held| {
        let options = super::Options { held, ..mirrored };
        super::census_with(rules, &bounds, &options).unwrap_err()
    };
    assert_eq!(refused(&classic, None), ShapesError::MirroredGather);
    assert_eq!(refused(&rules, Some((12, 12))), ShapesError::MirroredHeld);
    assert_eq!(
        refused(&bataille("5x3", Gather::Natural), None),
        ShapesError::MirroredHeld
    );
}

/// More wars a word than two: the mirrored census of 4x4 `natural` up to 16 battles finds
/// aligned cycles only with four wars a word (24 rounds, the engine's own), none with one to
/// three; every placing's wars are in order, each after the last one's deciding battle; and a
/// census refuses more than [`super::MOST_WARS`].
#[test]
fn four_wars_a_mirrored_word_give_aligned_4x4_cycles() {
    let rules = bataille("4x4", Gather::Natural);
    let mirrored = super::Options {
        mirrored: true,
        ..super::Options::default()
    };
    let words = |wars| Bounds::Words {
        longest: 16,
        wars,
        ties: false,
    };
    let censuses: Vec<Census> = (1..=4)
        .map(|wars| super::census_with(&rules, &words(wars), &mirrored).unwrap())
        .collect();
    let taking: Vec<usize> = censuses.iter().map(|c| c.taking).collect();
    assert_eq!(taking, [0, 0, 0, 4]);
    let four = &censuses[3];
    assert_eq!(check_states(&rules, four), 4);
    for laid in &four.found {
        let wars = &laid.placing.wars;
        assert_eq!((wars.len(), laid.cycle, laid.aligned), (4, 24, true));
        assert!(wars
            .windows(2)
            .all(|w| w[1].battle > w[0].battle + w[0].chain));
    }
    let most = super::MOST_WARS + 1;
    assert_eq!(census(&rules, &words(most)), Err(ShapesError::Wars(most)));
}

/// The test of the cycles' mean values, made before any orbit is walked, refuses only
/// relations that the walk over every period refuses too (a necessary test, so the census
/// counts the same shapes): on random permutations of 3 to 12 places and 1 to 6 relations
/// of each kind, both refusing and both passing many times.
#[test]
fn the_cycle_means_refuse_only_what_every_period_refuses() {
    use super::{cycle_means_may_order, one_value_circles, over_every_period, Relation};
    let mut random = crate::deal::SplitMix64(5);
    let (mut compared, mut refused, mut passed) = (0, 0, 0);
    for _ in 0..20_000 {
        let n = 3 + random.below(10);
        let mut next: Vec<usize> = (0..n).collect();
        random.shuffle(&mut next);
        let first: Vec<Relation> = (0..1 + random.below(6))
            .map(|_| {
                let [u, v, d] = [n; 3].map(|n| random.below(n));
                match random.below(3) {
                    0 => Relation::Above(u, v),
                    1 => Relation::AtLeast(u, v),
                    _ => Relation::AboveOrTie(u, v, d),
                }
            })
            .collect();
        let every = over_every_period(&first, &next).is_some_and(|r| one_value_circles(&r, n, 4));
        let quick = cycle_means_may_order(&first, &next);
        assert!(quick || !every, "{next:?} {first:?}");
        compared += 1;
        refused += usize::from(!quick);
        passed += usize::from(every);
    }
    assert_eq!(compared, 20_000);
    assert!(refused > 2_000 && passed > 2_000, "{refused} {passed}");
}
