//! A certificate of an infinite game: what a referee checks by hand or with any program of
//! their own. The rules in words, the deal, where the cycle starts and its length, the state at
//! both ends (equal), the wars of one period and their kinds, every physical card told apart
//! (suits, in the order each value's copies are dealt) with how many periods bring each back
//! to its place, and whether `natural` and `sorted` play the same game from the deal. The
//! engine plays every game here; this file only watches and compares.

use super::play::Start;
use crate::deal::seeds::RangeError;
use crate::engine::hands::Hands;
use crate::engine::hands::HandsError;
use crate::engine::{Engine, Observer, Outcome, Silent};
use crate::rules::{Card, Gather, Ranking, Rules, RulesError, Settings, ShortWar, WonPile};
use crate::shapes::Kind;
use crate::text::{count, group};

/// The most rounds up to the cycle's end whose states are kept to compare `natural` and
/// `sorted` (a state a round: about 54 MB for 52 cards).
pub const MOST_COMPARED_ROUNDS: u64 = 1_000_000;

/// What a referee checks of an infinite game ([`certify`]); printed, the certificate itself.
///
/// ```
/// use warsweep::puzzles::{certify, Start};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x6")?).build()?;
/// let hands = warsweep::puzzles::parse_hands(b"2,1,4,4,3,2,6,6,5,3,5,1|4,2,4,1,6,3,6,2,3,1,5,5", rules.deck())?;
/// let c = certify(rules, Start::Hands(&hands))?;
/// assert_eq!((c.cycle_start, c.cycle_length, c.aligned, c.periods_back), (0, 36, Some(3), Some(3)));
/// let values = |hands: &[Vec<warsweep::Card>]| hands.iter().map(|h| h.iter().map(|c| c.value()).collect()).collect::<Vec<Vec<u8>>>();
/// assert_eq!(values(&c.start), values(&c.end));
/// assert!(c.to_string().contains("the same state, value by value"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The rules the game was played under.
    pub rules: Rules,
    /// The deal, each hand top card first, each card told apart where the deck allows.
    pub deal: Vec<Vec<Card>>,
    /// Whether the deal's cards are told apart: one copy of each value, or at most four
    /// copies of at most 13 values (suits H, D, C, S in the order each value's copies are
    /// dealt).
    pub told_apart: bool,
    /// The round after which the state first recurs (0: the deal).
    pub cycle_start: u64,
    /// The rounds until it recurs.
    pub cycle_length: u64,
    /// Each hand after round `cycle_start`, top card first.
    pub start: Vec<Vec<Card>>,
    /// The hands after round `cycle_start + cycle_length`: the same values, the cards told
    /// apart possibly elsewhere.
    pub end: Vec<Vec<Card>>,
    /// The wars of one period, in order.
    pub wars: Vec<PeriodWar>,
    /// Whether the cycle is aligned: the first round of its period (counted from the cycle's
    /// start, 1 to its length) after which every hand holds as many cards, if any.
    pub aligned: Option<u64>,
    /// The periods after which every card told apart is back in its place (the order of the
    /// permutation one period makes of them), where they are told apart.
    pub periods_back: Option<u64>,
    /// The deal played under `natural` and under `sorted`, where the rules' gather is one of
    /// them: whether the games are the same.
    pub gathers: Option<Gathers>,
}

/// A war of a cycle's period.
///
/// ```
/// use warsweep::puzzles::{certify, Start};
/// use warsweep::{Preset, Rules};
/// let hands = warsweep::puzzles::parse_hands(
///     b"2,8,1,13,10,7,1,13,10,8,1,13,10|2,6,2,3,1,13,9,9,2,10,9,7,5,12,9,7,6,6,3,5,3,4,3,12,11,11,4,12,11,11,5,12,7,8,5,8,4,6,4",
///     Rules::preset(Preset::Bataille).deck(),
/// )?;
/// let c = certify(Rules::preset(Preset::Bataille), Start::Hands(&hands))?;
/// assert_eq!(c.cycle_length, 1020);
/// assert!(c.wars.iter().all(|w| w.battles.len() == 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeriodWar {
    /// Its round, counted from the cycle's start (1: the first round of the period).
    pub round: u64,
    /// The cards each battle of the round revealed, `(player, card)` (players from 0), the
    /// first battle the tie.
    pub battles: Vec<Vec<(usize, Card)>>,
    /// The cards put face down, `(player, card)`, in the order they reached the table.
    pub face_down: Vec<(usize, Card)>,
    /// The player who took the table (from 0).
    pub winner: usize,
    /// Its kind where two players fought one war: the tied value against the winner's and the
    /// loser's deciding cards.
    pub kind: Option<Kind>,
}

/// The deal played under `natural` and under `sorted`, the other parts of the rules the same.
///
/// ```
/// use warsweep::puzzles::{certify, Start};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x6")?).build()?;
/// let hands = warsweep::puzzles::parse_hands(b"2,1,4,4,3,2,6,6,5,3,5,1|4,2,4,1,6,3,6,2,3,1,5,5", rules.deck())?;
/// let gathers = certify(rules, Start::Hands(&hands))?.gathers.unwrap();
/// assert_eq!((gathers.differ_after, gathers.compared), (Some(3), true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gathers {
    /// The outcome under `natural`.
    pub natural: Outcome,
    /// The outcome under `sorted`.
    pub sorted: Outcome,
    /// The first round after which their states differ ([`None`]: the same state after every
    /// round up to the cycle's end, so the same game forever), where compared.
    pub differ_after: Option<u64>,
    /// Whether the states were compared: up to [`MOST_COMPARED_ROUNDS`] rounds.
    pub compared: bool,
}

/// Why a game has no certificate.
///
/// ```
/// use warsweep::puzzles::{certify, CertifyError, Start};
/// use warsweep::{Preset, Rules, Shuffle};
/// let refused = certify(Rules::preset(Preset::Codingame), Start::Seed(Shuffle::Lcg, 0));
/// assert!(matches!(refused, Err(CertifyError::Ends(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum CertifyError {
    /// The shuffle has no deal for the seed.
    #[error(transparent)]
    Seed(#[from] RangeError),
    /// The hands cannot be played.
    #[error(transparent)]
    Hands(#[from] HandsError),
    /// The game is not infinite: what it does instead.
    #[error("the game is not infinite ({0}): there is nothing to certify")]
    Ends(String),
    /// The gather or the won pile moves cards at random.
    #[error("{0}: no cycle can be checked, so there is nothing to certify")]
    Random(&'static str),
    /// The rules with the other gather cannot be played.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// The certificate of the game from `start` under `rules`, or why there is none.
///
/// # Errors
///
/// A seed the shuffle has no deal for, hands that cannot be played, a game that ends, rules
/// that move cards at random.
pub fn certify(rules: Rules, start: Start) -> Result<Certificate, CertifyError> {
    if rules.gather() == Gather::Random {
        return Err(CertifyError::Random("the random gather shuffles the table"));
    }
    if rules.won_pile() == WonPile::Shuffled {
        return Err(CertifyError::Random("shuffled won piles"));
    }
    let given: Vec<Vec<Card>> = match start {
        Start::Seed(shuffle, seed) => Engine::new(rules).deal(shuffle, seed)?,
        Start::Hands(hands) => hands.to_vec(),
    };
    let (deal, told_apart) = told_apart(&rules, &given);
    let total = deal.iter().map(Vec::len).sum();
    let mut engine = Engine::with_capacity(rules, total)?;
    let game = engine.play_hands(&deal, 0, &mut Silent)?;
    let Outcome::Infinite {
        cycle_start,
        cycle_length,
    } = game.outcome
    else {
        let said = crate::output::record::play_line(&rules, &game);
        return Err(CertifyError::Ends(said));
    };
    let mut watch = Watch::new(cycle_start, cycle_length);
    engine.play_hands(&deal, 0, &mut watch)?;
    let start = watch.start.unwrap_or_else(|| deal.clone());
    let end = watch.end.expect("the engine plays to the cycle's end");
    let periods_back = told_apart.then(|| permutation_order(&start, &end));
    let gathers = match rules.gather() {
        Gather::Natural | Gather::Sorted => {
            Some(gathers(&rules, &deal, cycle_start + cycle_length)?)
        }
        _ => None,
    };
    Ok(Certificate {
        rules,
        told_apart,
        cycle_start,
        cycle_length,
        start,
        end,
        wars: watch.wars,
        aligned: watch.aligned,
        periods_back,
        gathers,
        deal,
    })
}

/// `hands` with each card told apart where the deck allows: one copy of each value, or faces
/// given in the order each value's copies are dealt (at most as many as the deck has); and
/// whether they are.
fn told_apart(rules: &Rules, hands: &[Vec<Card>]) -> (Vec<Vec<Card>>, bool) {
    let deck = rules.deck();
    let mut seen = vec![0u32; usize::from(deck.values())];
    for card in hands.iter().flatten() {
        seen[usize::from(card.value())] += 1;
    }
    // Hands may hold a value more often than the deck has it (`play` plays them as given):
    // such copies have no suit of their own.
    let excess = seen.iter().any(|&n| n > u32::from(deck.copies()));
    if excess || deck.jokers() > 0 || (deck.copies() > 1 && (!deck.ranked() || deck.copies() > 4)) {
        return (hands.to_vec(), false);
    }
    if deck.copies() == 1 {
        return (hands.to_vec(), true);
    }
    seen.fill(0);
    let faced = (hands.iter())
        .map(|hand| {
            (hand.iter())
                .map(|card| {
                    let v = card.value();
                    seen[usize::from(v)] += 1;
                    deck.card(v, seen[usize::from(v)] - 1)
                })
                .collect()
        })
        .collect();
    (faced, true)
}

/// Each hand's values.
fn values(hands: &[Vec<Card>]) -> Vec<Vec<u8>> {
    (hands.iter())
        .map(|h| h.iter().map(|c| c.value()).collect())
        .collect()
}

/// The order of the permutation of places that takes the cards of `from` to those of `to`
/// (the same cards, each once): the periods after which every card is back in its place.
fn permutation_order(from: &[Vec<Card>], to: &[Vec<Card>]) -> u64 {
    let (from, to): (Vec<Card>, Vec<Card>) = (from.concat(), to.concat());
    let place = |card: &Card| to.iter().position(|c| c == card).expect("the same cards");
    let next: Vec<usize> = from.iter().map(place).collect();
    let mut seen = vec![false; next.len()];
    let mut order = 1u64;
    for first in 0..next.len() {
        let mut length = 0u64;
        let mut i = first;
        while !seen[i] {
            seen[i] = true;
            i = next[i];
            length += 1;
        }
        if length > 0 {
            order = order / gcd(order, length) * length;
        }
    }
    order
}

/// The greatest common divisor.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The deal played under `natural` and `sorted` (the other parts as `rules` has them), their
/// states compared after every round up to `rounds`.
fn gathers(rules: &Rules, deal: &[Vec<Card>], rounds: u64) -> Result<Gathers, CertifyError> {
    let compared = rounds <= MOST_COMPARED_ROUNDS;
    let play = |gather: Gather| -> Result<(Outcome, Vec<Vec<u8>>), CertifyError> {
        let mut settings = Settings::new(rules.from_preset());
        for (name, value) in rules.parts().into_iter().skip(1) {
            settings = settings.part(name, &value)?;
        }
        let rules = settings.gather(gather).build()?;
        let mut states = States::new(if compared { rounds } else { 0 });
        let total = deal.iter().map(Vec::len).sum();
        let game = Engine::with_capacity(rules, total)?.play_hands(deal, 0, &mut states)?;
        Ok((game.outcome, states.states))
    };
    let ((natural, ours), (sorted, theirs)) = (play(Gather::Natural)?, play(Gather::Sorted)?);
    let differ_after = (1..=rounds)
        .zip(ours.iter().map(Some).chain(std::iter::repeat(None)))
        .zip(theirs.iter().map(Some).chain(std::iter::repeat(None)))
        .find(|((_, a), b)| a != b)
        .map(|((round, _), _)| round);
    Ok(Gathers {
        natural,
        sorted,
        differ_after: differ_after.filter(|_| compared),
        compared,
    })
}

/// Watches a game for the state after round `cycle_start` and after one period more, and for
/// the wars between.
struct Watch {
    cycle_start: u64,
    cycle_length: u64,
    round: u64,
    start: Option<Vec<Vec<Card>>>,
    end: Option<Vec<Vec<Card>>>,
    wars: Vec<PeriodWar>,
    aligned: Option<u64>,
    battles: Vec<Vec<(usize, Card)>>,
    face_down: Vec<(usize, Card)>,
}

impl Watch {
    fn new(cycle_start: u64, cycle_length: u64) -> Watch {
        Watch {
            cycle_start,
            cycle_length,
            round: 0,
            start: None,
            end: None,
            wars: Vec::new(),
            aligned: None,
            battles: Vec::new(),
            face_down: Vec::new(),
        }
    }

    /// Whether the round being played is one of the period's.
    fn in_period(&self) -> bool {
        let r = self.round + 1;
        r > self.cycle_start && r <= self.cycle_start + self.cycle_length
    }
}

impl Observer for Watch {
    fn revealed(&mut self, _battle: u64, _round: u64, cards: &[(usize, Card)]) {
        if self.in_period() {
            self.battles.push(cards.to_vec());
        }
    }

    fn war(&mut self, face_down: &[(usize, Card)]) {
        if self.in_period() {
            self.face_down.extend_from_slice(face_down);
        }
    }

    fn took(&mut self, winner: usize, _cards: &[Card]) {
        if self.in_period() && self.battles.len() > 1 {
            let battles = std::mem::take(&mut self.battles);
            self.wars.push(PeriodWar {
                round: self.round + 1 - self.cycle_start,
                kind: kind_of(&battles, winner),
                battles,
                face_down: std::mem::take(&mut self.face_down),
                winner,
            });
        }
        self.battles.clear();
        self.face_down.clear();
    }

    fn round_end(&mut self, hands: &Hands) {
        self.round += 1;
        let now = || {
            (0..hands.players())
                .map(|p| hands.hand(p).to_vec())
                .collect()
        };
        if self.round == self.cycle_start {
            self.start = Some(now());
        }
        if self.round == self.cycle_start + self.cycle_length {
            self.end = Some(now());
        }
        let in_period =
            self.round > self.cycle_start && self.round <= self.cycle_start + self.cycle_length;
        let equal = (1..hands.players()).all(|p| hands.len(p) == hands.len(0));
        if in_period && equal && self.aligned.is_none() {
            self.aligned = Some(self.round - self.cycle_start);
        }
    }
}

/// The kind of a war of two players decided at its second battle: the tied value `x` against
/// the winner's deciding card `y` and the loser's `z`.
fn kind_of(battles: &[Vec<(usize, Card)>], winner: usize) -> Option<Kind> {
    let [tie, decider] = battles else { return None };
    if tie.len() != 2 || decider.len() != 2 {
        return None;
    }
    let x = tie[0].1.value();
    let of = |p: usize| {
        decider
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, c)| c.value())
    };
    Some(Kind::of(x, of(winner)?, of(1 - winner)?))
}

/// Each state of a game, values with a mark between hands, after rounds 1 to a bound.
struct States {
    most: u64,
    states: Vec<Vec<u8>>,
}

impl States {
    fn new(most: u64) -> States {
        States {
            most,
            states: Vec::new(),
        }
    }
}

impl Observer for States {
    fn round_end(&mut self, hands: &Hands) {
        if (self.states.len() as u64) < self.most {
            let mut state = Vec::new();
            for p in 0..hands.players() {
                state.extend(hands.hand(p).iter().map(|c| c.value()));
                state.push(u8::MAX);
            }
            self.states.push(state);
        }
    }
}

impl std::fmt::Display for Certificate {
    /// The certificate as a referee reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "A certificate of an infinite game ({})",
            self.rules.flags()
        )?;
        writeln!(f, "The rules:")?;
        for line in in_words(&self.rules) {
            writeln!(f, "  {line}")?;
        }
        writeln!(f, "The deal (values from 1, the highest strongest; player 1's hand, top card first, then player 2's):")?;
        writeln!(f, "  {}", values_text(&self.deal))?;
        self.show_cycle(f)?;
        self.show_wars(f)?;
        self.show_cards(f)?;
        if let Some(gathers) = &self.gathers {
            writeln!(f, "{gathers}")?;
        }
        Ok(())
    }
}

impl Certificate {
    /// The cycle, its two ends and whether it is aligned.
    fn show_cycle(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (mu, end) = (self.cycle_start, self.cycle_start + self.cycle_length);
        writeln!(
            f,
            "The cycle: the state after round {mu} comes back after round {end} ({} rounds); no earlier state comes back.",
            group(self.cycle_length)
        )?;
        writeln!(f, "  after round {mu}: {}", values_text(&self.start))?;
        writeln!(f, "  after round {end}: {}", values_text(&self.end))?;
        let same = values(&self.start) == values(&self.end);
        let said = if same {
            "the same state, value by value"
        } else {
            "NOT the same state"
        };
        writeln!(f, "  {said}")?;
        match self.aligned {
            Some(r) => writeln!(
                f,
                "Aligned: the hands are equal after round {} ({r} of the period).",
                mu + r
            ),
            None => writeln!(f, "Not aligned: no state of the cycle has equal hands."),
        }
    }

    /// The wars of one period, a line each.
    fn show_wars(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "The wars of one period: {}", self.wars.len())?;
        for war in &self.wars {
            let battles: Vec<String> = (war.battles.iter())
                .map(|b| {
                    let each: Vec<String> = (b.iter())
                        .map(|(p, c)| format!("{c} (player {})", p + 1))
                        .collect();
                    each.join(" against ")
                })
                .collect();
            let down = match war.face_down.len() {
                0 => String::new(),
                n => format!(", {} face down", count(n as u64, "card")),
            };
            let kind = (war.kind).map_or(String::new(), |k| format!(", a {} war", k.name()));
            writeln!(
                f,
                "  round {}: {}{down}; player {} takes the table{kind}",
                war.round,
                battles.join(", then "),
                war.winner + 1
            )?;
        }
        Ok(())
    }

    /// The cards told apart at the deal and both ends, and the periods that bring them back.
    fn show_cards(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.told_apart {
            return writeln!(f, "The cards are not told apart: the deck has more than four copies of a value, more than 13 values, or jokers, or the hands hold a value more often than the deck has it.");
        }
        let (mu, end) = (self.cycle_start, self.cycle_start + self.cycle_length);
        writeln!(f, "The cards told apart (each value's copies H, D, C, S in the order they are dealt where the deck has several):")?;
        writeln!(f, "  deal: {}", cards_text(&self.deal))?;
        writeln!(f, "  after round {mu}: {}", cards_text(&self.start))?;
        writeln!(f, "  after round {end}: {}", cards_text(&self.end))?;
        if let Some(back) = self.periods_back {
            writeln!(
                f,
                "  every card is back in its place after {} ({} rounds)",
                count(back, "period"),
                group(u128::from(back) * u128::from(self.cycle_length))
            )?;
        }
        Ok(())
    }
}

impl std::fmt::Display for Gathers {
    /// Both outcomes, and whether the games are the same.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = |o: &Outcome| match *o {
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => format!("INFINITE {cycle_start} {cycle_length}"),
            Outcome::Win(p) => format!("player {} wins", p + 1),
            Outcome::Draw => "a draw".to_string(),
            Outcome::Capped => "capped".to_string(),
        };
        let verdict = match (self.compared, self.differ_after) {
            (false, _) => format!(
                "not compared round by round (past {} rounds)",
                group(MOST_COMPARED_ROUNDS)
            ),
            (true, None) => {
                "the same game: the same state after every round up to the cycle's end".to_string()
            }
            (true, Some(r)) => format!("different games: their states differ after round {r}"),
        };
        write!(
            f,
            "natural and sorted: natural {}, sorted {}; {verdict}",
            outcome(&self.natural),
            outcome(&self.sorted)
        )
    }
}

/// Hands of cards by name, a space between cards and ` | ` between hands.
fn cards_text(hands: &[Vec<Card>]) -> String {
    let each: Vec<String> = (hands.iter())
        .map(|h| h.iter().map(Card::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    each.join(" | ")
}

/// Hands by value from 1, as `play` reads them on one line.
fn values_text(hands: &[Vec<Card>]) -> String {
    let each: Vec<String> = (values(hands).iter())
        .map(|h| {
            h.iter()
                .map(|v| (v + 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    each.join("|")
}

/// The rules in words, a sentence a part, as docs/rules.md says them.
fn in_words(rules: &Rules) -> Vec<String> {
    let deck = rules.deck();
    let jokers = match deck.jokers() {
        0 => String::new(),
        j => format!(" and {} of the top value", count(j, "joker")),
    };
    let down = match rules.face_down() {
        0 => "no card face down (an open war)".to_string(),
        d => format!("{} face down", count(d as u64, "card")),
    };
    let ranking = match rules.ranking() {
        Ranking::Standard => "the higher value wins",
        Ranking::Oorlog => "the higher value wins, except that the strongest 2 or 3 wins when an ace or joker and a 2 or 3 are revealed together",
        Ranking::Cyclic => "the higher value wins, except that the lowest value wins when it is revealed with the top value",
    };
    let short = match rules.short_war() {
        ShortWar::Draw => "the game is a draw",
        ShortWar::Shorten => "both put down fewer cards, one less than the smaller count left",
        ShortWar::FirstOutLoses => {
            "the player who would run out first loses; running out together is a draw"
        }
        ShortWar::MostCards => "the game ends and the player with most cards wins",
    };
    let gather = match rules.gather() {
        Gather::Reveal => "the order the cards reached the table, player order within a moment",
        Gather::P1First => "player 1's cards as played, then player 2's, and so on",
        Gather::WinnerFirst => "the winner's cards as played, then every other player's in player order",
        Gather::LoserFirst => "every other player's cards as played, in player order, then the winner's",
        Gather::WinnerFirstLatest => "the winner's cards, the most recent first, then every other player's, each the most recent first",
        Gather::Natural => "as a hand picks up a pile, the winning card, the deciding battle's other cards in player order, then every earlier card, the most recent first",
        Gather::PairFirst => "the winning card, the deciding battle's other cards in player order, then every earlier card in the order it reached the table",
        Gather::Sorted => "every card by value, the strongest first, equal values in the order they reached the table",
        Gather::Random => "shuffled",
    };
    vec![
        format!("{} players; {} copies of each of {} values{jokers}: {} cards.", rules.players(), deck.copies(), deck.values(), deck.size()),
        format!("Each round every player reveals the top card of their hand; {ranking}, and the winner takes every card on the table."),
        format!("Players tied for the strongest card go to war: each puts {down}, then reveals one more card, and the tied players' new cards decide, again and again until one wins."),
        format!("A tied player without the cards a war needs: {short}."),
        format!("The winner puts the table's cards under their hand in the `{}` order: {gather}.", rules.gather()),
        "A player with no card left loses. The state is each hand's values after a round, the deal the state after round 0; a state that comes back comes back forever.".to_string(),
    ]
}
