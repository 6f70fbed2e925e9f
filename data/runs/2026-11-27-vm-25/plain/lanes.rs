// Lanes experiment: L games of bataille 4x5 at once, auto-vectorized, refilled from a lex walk.
use std::env;

const L: usize = 8;
type V = [u64; L];

mod lex;
use lex::{next_perm, unrank};

#[derive(Default, Clone, Copy)]
struct Lanes {
    h0: V,
    h1: V,
    e0: V,
    rounds: V,
    t0: V,
    t1: V,
    lam: V,
    power: V,
    flag: V,
}

const LIMIT: u64 = 64;
/// One round in every lane, committed only if no lane needs the scalar path; returns whether any does.
#[inline(always)]
fn step(s: &mut Lanes, total: u64) -> bool {
    let mut need: V = [0; L];
    let mut nh0 = [0; L];
    let mut nh1 = [0; L];
    let mut ne0 = [0; L];
    for i in 0..L {
        let (h0, h1, e0) = (s.h0[i], s.h1[i], s.e0[i]);
        let a = h0 & 7;
        let b = h1 & 7;
        let tie = a == b;
        let sh = if tie { 3 } else { 0 };
        let x = (h0 >> sh) & 7;
        let y = (h1 >> sh) & 7;
        let p1 = x > y;
        let down = sh + 3;
        let r0 = h0 >> down;
        let r1 = h1 >> down;
        let hi = if p1 { x } else { y };
        let lo = if p1 { y } else { x };
        let earlier = if tie { (a | a << 3) << 6 } else { 0 };
        let table = hi | lo << 3 | earlier;
        let e0r = e0 - down;
        let e1r = total - e0 - down;
        let at = if p1 { e0r } else { e1r };
        let won = (if p1 { r0 } else { r1 }) | table << at;
        let lost = if p1 { r1 } else { r0 };
        let special =
            (tie & ((x == y) | (x == 0) | (y == 0))) | (lost == 0) | (s.rounds[i] == LIMIT);
        nh0[i] = if p1 { won } else { lost };
        nh1[i] = if p1 { lost } else { won };
        ne0[i] = if p1 { e0 + down } else { e0r };
        need[i] = if special { u64::MAX } else { 0 };
    }
    let mut any = 0;
    for i in 0..L {
        any |= need[i];
    }
    if any != 0 {
        s.flag = need;
        return true;
    }
    s.h0 = nh0;
    s.h1 = nh1;
    s.e0 = ne0;
    for i in 0..L {
        s.rounds[i] += 1;
    }
    false
}

#[target_feature(enable = "avx2,bmi2")]
unsafe fn run_avx2(s: &mut Lanes, total: u64) -> u64 {
    run_gen(s, total)
}
#[target_feature(enable = "avx512f,avx512vl,avx2,bmi2")]
unsafe fn run_avx512(s: &mut Lanes, total: u64) -> u64 {
    run_gen(s, total)
}
#[inline(always)]
fn run_gen(s: &mut Lanes, total: u64) -> u64 {
    while !step(s, total) {}
    0
}

// scalar one round with full wars (returns Some(result) when game ends): 0/1 winner, 2 draw
fn scalar_round(h0: &mut u64, h1: &mut u64, e0: &mut u64, total: u64) -> Option<u8> {
    let n0 = (*e0 / 3) as u32;
    let n1 = ((total - *e0) / 3) as u32;
    let (mut a, mut b) = (*h0 & 7, *h1 & 7);
    let mut m = 1u32;
    let mut earlier = 0u64;
    while a == b {
        if n0 == m || n1 == m {
            return Some(if n0 == m && n1 == m {
                2
            } else if n0 == m {
                1
            } else {
                0
            });
        }
        earlier = earlier << 6 | a | a << 3;
        a = *h0 >> (3 * m) & 7;
        b = *h1 >> (3 * m) & 7;
        m += 1;
    }
    let table = a.max(b) | a.min(b) << 3 | earlier << 6;
    let sh = 3 * m;
    *h0 >>= sh;
    *h1 >>= sh;
    let (n0, n1) = (n0 - m, n1 - m);
    if a > b {
        *h0 |= table << (3 * n0);
        *e0 = 3 * (n0 + 2 * m) as u64;
    } else {
        *h1 |= table << (3 * n1);
        *e0 = 3 * n0 as u64;
    }
    if *h1 == 0 {
        return Some(0);
    }
    if *h0 == 0 {
        return Some(1);
    }
    None
}

fn main() {
    let a: Vec<String> = env::args().collect();
    let (c, v): (usize, usize) = (a[1].parse().unwrap(), a[2].parse().unwrap());
    let from: u128 = a[3].parse().unwrap();
    let count: u64 = a[4].parse().unwrap();
    let isa = a.get(5).map(|s| s.as_str()).unwrap_or("avx2");
    let n = c * v;
    let half = n / 2;
    let total = 3 * n as u64;
    let mut counts = vec![c as u64; v];
    let mut vals = vec![0u8; n];
    unrank(&mut counts, from, &mut vals);
    let (mut w, mut d, mut l, mut rsum, mut longest) = ([0u64; 2], 0u64, 0u64, 0u64, 0u64);
    let mut s = Lanes::default();
    let mut live = [false; L];
    let mut dealt = 0u64;
    let mut finish = |r: u8, rounds: u64| {
        match r {
            0 | 1 => w[r as usize] += 1,
            2 => d += 1,
            _ => l += 1,
        }
        if r != 3 {
            rsum += rounds;
            longest = longest.max(rounds);
        }
    };
    let deal = |vals: &mut Vec<u8>, s: &mut Lanes, i: usize| {
        let mut h0 = 0u64;
        let mut h1 = 0u64;
        for k in (0..half).rev() {
            h0 = h0 << 3 | (vals[k] as u64 + 1);
        }
        for k in (half..n).rev() {
            h1 = h1 << 3 | (vals[k] as u64 + 1);
        }
        next_perm(vals);
        s.h0[i] = h0;
        s.h1[i] = h1;
        s.e0[i] = 3 * half as u64;
        s.rounds[i] = 0;
        s.t0[i] = h0;
        s.t1[i] = h1;
        s.lam[i] = 0;
        s.power[i] = 1;
    };
    for i in 0..L {
        if dealt < count {
            deal(&mut vals, &mut s, i);
            live[i] = true;
            dealt += 1;
        }
    }
    loop {
        if live.iter().all(|&x| x) {
            match isa {
                "avx512" => unsafe { run_avx512(&mut s, total) },
                "scalar" => run_gen(&mut s, total),
                _ => unsafe { run_avx2(&mut s, total) },
            };
        }
        // settle every lane that needs attention: play its round in scalar
        let mut any_live = false;
        for i in 0..L {
            if !live[i] {
                continue;
            }
            any_live = true;
            // does this lane need attention? replicate: run scalar round if special, else check cycle
            if s.flag[i] == 0 {
                continue;
            }
            s.flag[i] = 0;
            let mut ended = None;
            let (mut h0, mut h1, mut e0) = (s.h0[i], s.h1[i], s.e0[i]);
            if s.rounds[i] == LIMIT {
                // the rest of the game in scalar, with Brent from here
                let (mut t0, mut t1, mut lam, mut power) = (h0, h1, 0u64, 1u64);
                loop {
                    match scalar_round(&mut h0, &mut h1, &mut e0, total) {
                        Some(r) => {
                            if h0 == 0 || h1 == 0 {
                                s.rounds[i] += 1;
                            }
                            ended = Some(r);
                            break;
                        }
                        None => {
                            s.rounds[i] += 1;
                            if h0 == t0 && h1 == t1 {
                                ended = Some(3);
                                break;
                            }
                            lam += 1;
                            if lam == power {
                                t0 = h0;
                                t1 = h1;
                                power <<= 1;
                                lam = 0;
                            }
                        }
                    }
                }
            } else {
                match scalar_round(&mut h0, &mut h1, &mut e0, total) {
                    Some(r) => {
                        if h0 == 0 || h1 == 0 {
                            s.rounds[i] += 1;
                        }
                        ended = Some(r);
                    }
                    None => {
                        s.h0[i] = h0;
                        s.h1[i] = h1;
                        s.e0[i] = e0;
                        s.rounds[i] += 1;
                    }
                }
            }
            if let Some(r) = ended {
                finish(r, s.rounds[i]);
                if dealt < count {
                    deal(&mut vals, &mut s, i);
                    dealt += 1;
                } else {
                    live[i] = false;
                }
            }
        }
        if !any_live {
            break;
        }
        if !live.iter().all(|&x| x) {
            // drain the tail in scalar-ish way: run the same loop with dead lanes ignored
            // simple: fill dead lanes with a dummy that never ends quickly? just step scalar per live lane
            for i in 0..L {
                if live[i] {
                    let (mut h0, mut h1, mut e0) = (s.h0[i], s.h1[i], s.e0[i]);
                    loop {
                        match scalar_round(&mut h0, &mut h1, &mut e0, total) {
                            Some(r) => {
                                if h0 == 0 || h1 == 0 {
                                    s.rounds[i] += 1;
                                }
                                finish(r, s.rounds[i]);
                                break;
                            }
                            None => {
                                s.rounds[i] += 1;
                                if h0 == s.t0[i] && h1 == s.t1[i] {
                                    finish(3, s.rounds[i]);
                                    break;
                                }
                                s.lam[i] += 1;
                                if s.lam[i] == s.power[i] {
                                    s.t0[i] = h0;
                                    s.t1[i] = h1;
                                    s.power[i] <<= 1;
                                    s.lam[i] = 0;
                                }
                            }
                        }
                    }
                    live[i] = false;
                }
            }
            break;
        }
    }
    println!(
        "wins {:?} draws {} loops {} rounds {} longest {}",
        w, d, l, rsum, longest
    );
}
