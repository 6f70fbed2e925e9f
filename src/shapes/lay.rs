//! Values laid on a shape's cards by a SAT solver: the deck's values, each on as many cards as
//! the deck has copies of it, meeting every relation; or the solver's proof that none do.
//!
//! Order encoding: `at_least(u, k)` says card `u`'s value is `k` or more (values `1..=V`,
//! `k = 2..=V`). A relation is then a clause for each `k`, and "`count_k` cards of value `k`"
//! says how many cards are at least each value, by a sequential counter (Sinz, 2005).

use super::Relation;

/// A formula in conjunctive normal form: variables `1..=vars`, literals as DIMACS writes them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cnf {
    pub(crate) vars: u32,
    pub(crate) clauses: Vec<Vec<i32>>,
}

impl Cnf {
    fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars as i32
    }

    /// `exactly` of `lits` true: a sequential counter whose register `s[j]` after the `i`th
    /// literal says "at least `j` of the first `i` are true", both ways.
    fn exactly(&mut self, lits: &[i32], exactly: usize) {
        let top = exactly + 1;
        // s[j] for the literals so far; j = 0 is true, so kept as None.
        let mut s: Vec<Option<i32>> = vec![None; top + 1];
        let mut known_false = vec![true; top + 1];
        known_false[0] = false;
        for &x in lits {
            let mut now: Vec<Option<i32>> = vec![None; top + 1];
            let mut now_false = vec![true; top + 1];
            now_false[0] = false;
            for j in 1..=top {
                if known_false[j] && known_false[j - 1] {
                    continue;
                }
                let r = self.fresh();
                now[j] = Some(r);
                now_false[j] = false;
                // Before: s[j] -> r; x and s[j-1] -> r.
                if let Some(p) = s[j].filter(|_| !known_false[j]) {
                    self.clauses.push(vec![-p, r]);
                }
                match (j - 1, s[j - 1]) {
                    (0, _) => self.clauses.push(vec![-x, r]),
                    (_, Some(q)) if !known_false[j - 1] => self.clauses.push(vec![-x, -q, r]),
                    _ => {}
                }
                // After: r -> s[j] or x; r -> s[j] or s[j-1].
                let before = s[j].filter(|_| !known_false[j]);
                let mut either = vec![-r, x];
                either.extend(before);
                self.clauses.push(either);
                if j > 1 {
                    let mut or = vec![-r];
                    or.extend(before);
                    or.extend(s[j - 1].filter(|_| !known_false[j - 1]));
                    self.clauses.push(or);
                }
            }
            (s, known_false) = (now, now_false);
        }
        // At least `exactly`, and not `exactly + 1`.
        if exactly > 0 {
            match s[exactly].filter(|_| !known_false[exactly]) {
                Some(r) => self.clauses.push(vec![r]),
                None => self.clauses.push(Vec::new()),
            }
        }
        if let Some(r) = s[top].filter(|_| !known_false[top]) {
            self.clauses.push(vec![-r]);
        }
    }
}

/// The formula whose models are the values `1..=counts.len()` on `n` cards, `counts[v - 1]`
/// of value `v`, that meet `relations`: card `u` at least `k` is variable
/// `1 + u * (V - 1) + (k - 2)`.
pub(crate) fn formula(relations: &[Relation], n: usize, counts: &[usize]) -> Cnf {
    let kinds = counts.len();
    let mut cnf = Cnf::default();
    if kinds < 2 {
        // One value: every relation that is strict fails (a tie is then at least its decider).
        if relations.iter().any(|r| matches!(r, Relation::Above(..))) {
            cnf.clauses.push(Vec::new());
        }
        return cnf;
    }
    cnf.vars = (n * (kinds - 1)) as u32;
    let at = |u: usize, k: usize| (1 + u * (kinds - 1) + (k - 2)) as i32;
    for u in 0..n {
        for k in 2..kinds {
            cnf.clauses.push(vec![-at(u, k + 1), at(u, k)]);
        }
    }
    for r in relations {
        match *r {
            Relation::AtLeast(u, v) => {
                for k in 2..=kinds {
                    cnf.clauses.push(vec![-at(v, k), at(u, k)]);
                }
            }
            Relation::Above(u, v) => cnf.clauses.extend(above(&at, u, v, kinds, None)),
            Relation::AboveOrTie(u, v, d) => {
                // t: the battle ties (u = v, u >= d); else u > v.
                let t = cnf.fresh();
                cnf.clauses.extend(above(&at, u, v, kinds, Some(t)));
                for (a, b) in [(u, v), (v, u), (u, d)] {
                    for k in 2..=kinds {
                        cnf.clauses.push(vec![-t, -at(b, k), at(a, k)]);
                    }
                }
            }
        }
    }
    for k in 2..=kinds {
        let lits: Vec<i32> = (0..n).map(|u| at(u, k)).collect();
        cnf.exactly(&lits, counts[k - 1..].iter().sum());
    }
    cnf
}

/// The clauses of card `u`'s value above card `v`'s (`at(u, k)`: `u` at least `k`), each with
/// the literal `or` where the relation holds only without it.
fn above(
    at: &impl Fn(usize, usize) -> i32,
    u: usize,
    v: usize,
    kinds: usize,
    or: Option<i32>,
) -> Vec<Vec<i32>> {
    let mut clauses = vec![vec![at(u, 2)], vec![-at(v, kinds)]];
    clauses.extend((2..kinds).map(|k| vec![-at(v, k), at(u, k + 1)]));
    for clause in &mut clauses {
        clause.extend(or);
    }
    clauses
}

/// A shape's formula, made once and solved for as many layings as asked ([`Laying::lay`]).
#[derive(Clone, Debug)]
pub(crate) struct Laying {
    cnf: Cnf,
    n: usize,
    kinds: usize,
}

impl Laying {
    /// The formula of `relations` on `n` cards with `counts` copies of each value; [`None`]
    /// where the copies are not `n` cards.
    pub(crate) fn new(relations: &[Relation], n: usize, counts: &[usize]) -> Option<Laying> {
        if counts.iter().sum::<usize>() != n {
            return None;
        }
        let cnf = formula(relations, n, counts);
        Some(Laying {
            cnf,
            n,
            kinds: counts.len(),
        })
    }

    /// Values `1..=counts.len()` on the `n` cards, `counts[v - 1]` of value `v`, meeting the
    /// relations; [`None`] where none do (the solver's proof). With a `seed`, the solver
    /// branches on variables and values drawn from it, so that seeds give many of the layings
    /// (each still exact); without, one laying, the same every time.
    pub(crate) fn lay(&self, seed: Option<u64>) -> Option<Vec<u8>> {
        let model = solve(&self.cnf, seed)?;
        let kinds = self.kinds;
        let value = |u: usize| {
            1 + (2..=kinds)
                .filter(|&k| model[u * (kinds - 1) + (k - 2)])
                .count()
        };
        Some((0..self.n).map(|u| value(u) as u8).collect())
    }
}

/// A model of `cnf` (the value of variable `i + 1` at `i`), or [`None`] where it has none;
/// with a `seed`, random polarities and first activities drawn from it.
pub(crate) fn solve(cnf: &Cnf, seed: Option<u64>) -> Option<Vec<bool>> {
    use batsat::{lbool, Lit, SolverInterface, Var};
    let mut opts = batsat::SolverOpts::default();
    if let Some(seed) = seed {
        opts.rnd_pol = true;
        opts.rnd_init_act = true;
        // The solver's generator takes a positive seed below 2^31 (MiniSat's drand).
        opts.random_seed = (seed % 0x7fff_fffe + 1) as f64;
    }
    let mut solver = batsat::Solver::new(opts, batsat::callbacks::Basic::new());
    let vars: Vec<Var> = (0..cnf.vars).map(|_| solver.new_var_default()).collect();
    let mut clause = Vec::new();
    for c in &cnf.clauses {
        clause.clear();
        clause.extend(
            c.iter()
                .map(|&l| Lit::new(vars[(l.unsigned_abs() - 1) as usize], l > 0)),
        );
        if !solver.add_clause_reuse(&mut clause) {
            return None;
        }
    }
    if solver.solve_limited(&[]) != lbool::TRUE {
        return None;
    }
    Some(
        vars.iter()
            .map(|&v| solver.value_var(v) == lbool::TRUE)
            .collect(),
    )
}
