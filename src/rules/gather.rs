//! What the gather orders mean, once for every kernel.
//!
//! [`Gather::order`](super::Gather::order) names each gather as a combination of parts
//! ([`Order`], [`Place`], [`Direction`]); [`gather`] alone says what each part does: which of the
//! table's runs of cards go first, and which way each run reads. A kernel stores its table as it
//! likes (a vector of cards and owners, bytes of two interleaved hands, cards of a word, one
//! card a player) and implements [`PickUp`], the few ways of putting down a run of its cards; it
//! never matches on a gather itself. A kernel compiles one loop per gather (its const parameter
//! is [`Gather::code`](super::Gather::code)), so the match below folds away in each.

use super::MAX_PLAYERS;

/// The table's order after a round, as the gathers of `docs/rules.md` compose it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Order {
    /// Every card in the order it reached the table, player order within a moment.
    Reveal,
    /// Each player's cards one player after the other, in player order but for the winner's
    /// [`Place`], each player's run read in the [`Direction`].
    ByPlayer(Place, Direction),
    /// The deciding battle's cards (the winning card, then the others in player order), then
    /// the rest of the table, read in the [`Direction`].
    DecidingFirst(Direction),
    /// By value, strongest first (ace or joker highest, whatever the ranking), equal values
    /// in reveal order.
    Strongest,
    /// Shuffled by the game's generator.
    Shuffled,
}

/// Where the winner's cards go in an [`Order::ByPlayer`] table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Place {
    /// In player order, like everyone's.
    InTurn,
    /// Before every other player's.
    First,
    /// After every other player's.
    Last,
}

/// Which way a run of the table's cards is read.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Direction {
    /// In the order the cards reached the table.
    AsPlayed,
    /// The most recent first: the reverse.
    LatestFirst,
}

impl Order {
    /// Whether the table of a battle without a war (one card a player) goes in player order
    /// whoever wins, which the kernels that keep a battle's cards as they lie can play.
    pub(crate) const fn keeps_battle_in_player_order(self) -> bool {
        match self {
            Order::Reveal | Order::ByPlayer(Place::InTurn, _) => true,
            Order::ByPlayer(Place::First | Place::Last, _)
            | Order::DecidingFirst(_)
            | Order::Strongest
            | Order::Shuffled => false,
        }
    }

    /// The direction in which the gather reads the cards before the deciding battle, if it
    /// reads them (a kernel may build that run as a war goes).
    pub(crate) const fn earlier(self) -> Option<Direction> {
        match self {
            Order::DecidingFirst(direction) => Some(direction),
            Order::Reveal | Order::ByPlayer(..) | Order::Strongest | Order::Shuffled => None,
        }
    }
}

/// A round's table as a kernel keeps it, and the winner's pick-up being built from it: each
/// method puts a run of the table's cards next in the pick-up. Runs a player did not play are
/// empty.
pub(crate) trait PickUp {
    /// Players in the game.
    fn players(&self) -> usize;
    /// The players other than `winner` of the `players` of the game, in player order.
    #[inline(always)]
    fn others(players: usize, winner: usize) -> impl Iterator<Item = usize> {
        (0..players).filter(move |&p| p != winner)
    }
    /// Puts player `p`'s cards, read in `direction`.
    fn put_player(&mut self, p: usize, direction: Direction);
    /// Puts player `p`'s card of the deciding battle, if `p` played in it.
    fn put_deciding(&mut self, p: usize);
    /// Puts every card before the deciding battle, in `direction` (`AsPlayed`: reveal order,
    /// player order within a moment).
    fn put_earlier(&mut self, direction: Direction);
    /// Puts every card in reveal order.
    fn put_revealed(&mut self);
    /// Puts every card by value, strongest first, equal values in reveal order.
    fn put_strongest(&mut self);
    /// Puts every card shuffled by the game's generator.
    fn put_shuffled(&mut self);
}

/// [`PickUp::players`] and [`PickUp::others`] of a two-player pick-up, written once for the
/// two-card battles, `pair`'s wars and `packed`'s tables: the other player is `1 - winner`.
macro_rules! two_players {
    () => {
        #[inline(always)]
        fn players(&self) -> usize {
            2
        }
        #[inline(always)]
        fn others(_: usize, winner: usize) -> impl Iterator<Item = usize> {
            std::iter::once(1 - winner)
        }
    };
}
pub(crate) use two_players;

/// The winner's pick-up of `table` under `order`: the one meaning of every gather's parts.
#[inline(always)]
pub(crate) fn gather<T: PickUp>(order: Order, table: &mut T, winner: usize) {
    debug_assert!(table.players() <= MAX_PLAYERS);
    match order {
        Order::Reveal => table.put_revealed(),
        Order::ByPlayer(place, direction) => {
            if place == Place::First {
                table.put_player(winner, direction);
            }
            match place {
                Place::InTurn => {
                    for p in 0..table.players() {
                        table.put_player(p, direction);
                    }
                }
                Place::First | Place::Last => {
                    for p in T::others(table.players(), winner) {
                        table.put_player(p, direction);
                    }
                }
            }
            if place == Place::Last {
                table.put_player(winner, direction);
            }
        }
        Order::DecidingFirst(direction) => {
            table.put_deciding(winner);
            for p in T::others(table.players(), winner) {
                table.put_deciding(p);
            }
            table.put_earlier(direction);
        }
        Order::Strongest => table.put_strongest(),
        Order::Shuffled => table.put_shuffled(),
    }
}

/// Player `p`'s item of two (`p` is 0 or 1), selected rather than indexed: a kernel's two
/// values stay in registers, and who won is a coin toss to the processor, never branched on.
#[inline(always)]
pub(crate) fn of_two<T: Copy>([first, second]: [T; 2], p: usize) -> T {
    std::hint::select_unpredictable(p == 0, first, second)
}

/// A battle without a war between two players, as the two-player kernels keep it: the two
/// cards (player 1's first), and the pick-up built from them.
pub(crate) struct TwoCards<T, C> {
    cards: [T; 2],
    out: [T; 2],
    put: usize,
    /// A fair coin of the game's generator (`Shuffled` alone reads it).
    coin: C,
}

impl<T: Copy + Ord + Default, C: FnMut() -> bool> TwoCards<T, C> {
    /// The battle of `cards` (player 1's, player 2's), each a value that orders as its strength
    /// in `sorted` order (the raw value: ace or joker highest).
    #[inline(always)]
    pub(crate) fn new(cards: [T; 2], coin: C) -> Self {
        TwoCards {
            cards,
            out: [T::default(); 2],
            put: 0,
            coin,
        }
    }

    /// The pick-up of the battle `p1_won` decided, under `order`.
    #[inline(always)]
    pub(crate) fn gathered(mut self, order: Order, p1_won: bool) -> [T; 2] {
        gather(order, &mut self, usize::from(!p1_won));
        debug_assert_eq!(self.put, 2);
        self.out
    }

    #[inline(always)]
    fn push(&mut self, card: T) {
        self.out[self.put] = card;
        self.put += 1;
    }
}

impl<T: Copy + Ord + Default, C: FnMut() -> bool> PickUp for TwoCards<T, C> {
    two_players!();
    #[inline(always)]
    fn put_player(&mut self, p: usize, _: Direction) {
        self.push(of_two(self.cards, p));
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        self.push(of_two(self.cards, p));
    }
    #[inline(always)]
    fn put_earlier(&mut self, _: Direction) {}
    #[inline(always)]
    fn put_revealed(&mut self) {
        self.out = self.cards;
        self.put = 2;
    }
    #[inline(always)]
    fn put_strongest(&mut self) {
        let [a, b] = self.cards;
        self.out = if b > a { [b, a] } else { [a, b] };
        self.put = 2;
    }
    #[inline(always)]
    fn put_shuffled(&mut self) {
        // Fisher-Yates on two cards is one draw.
        let [a, b] = self.cards;
        self.out = if (self.coin)() { [b, a] } else { [a, b] };
        self.put = 2;
    }
}
