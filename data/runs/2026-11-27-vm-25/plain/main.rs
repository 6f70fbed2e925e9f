// A plain open-war kernel: bataille rules, natural gather, blocks deal, 3-bit values,
// one u64 per hand (top card lowest), Brent on both words each round, lex by next-permutation.
use std::env;

mod lex;
use lex::{next_perm, unrank};

#[inline(always)]
fn play(mut h0: u64, mut h1: u64, mut n0: u32, mut n1: u32) -> (u8, u64) {
    // result: 0 p1 wins, 1 p2 wins, 2 draw, 3 loop; rounds
    let mut rounds = 0u64;
    let (mut t0, mut t1) = (h0, h1);
    let (mut power, mut lam) = (1u64, 0u64);
    loop {
        let mut a = h0 & 7;
        let mut b = h1 & 7;
        let mut m = 1u32; // cards each put down
        let mut earlier = 0u64; // earlier pairs, latest first
        while a == b {
            if n0 == m || n1 == m {
                // a player runs out during a tie
                return (
                    if n0 == m && n1 == m {
                        2
                    } else if n0 == m {
                        1
                    } else {
                        0
                    },
                    rounds,
                );
            }
            earlier = earlier << 6 | a | a << 3;
            a = h0 >> (3 * m) & 7;
            b = h1 >> (3 * m) & 7;
            m += 1;
        }
        let table = (a.max(b)) | (a.min(b)) << 3 | earlier << 6;
        let sh = 3 * m;
        h0 >>= sh;
        h1 >>= sh;
        n0 -= m;
        n1 -= m;
        rounds += 1;
        if a > b {
            h0 |= table << (3 * n0);
            n0 += 2 * m;
        } else {
            h1 |= table << (3 * n1);
            n1 += 2 * m;
        }
        if n0 == 0 {
            return (1, rounds);
        }
        if n1 == 0 {
            return (0, rounds);
        }
        if h0 == t0 && h1 == t1 {
            return (3, rounds);
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

fn main() {
    let a: Vec<String> = env::args().collect();
    let (c, v): (usize, usize) = (a[1].parse().unwrap(), a[2].parse().unwrap());
    let from: u128 = a[3].parse().unwrap();
    let count: u64 = a[4].parse().unwrap();
    let n = c * v;
    let mut counts = vec![c as u64; v];
    let mut vals = vec![0u8; n];
    unrank(&mut counts, from, &mut vals);
    let (mut w, mut d, mut l, mut rsum, mut longest) = ([0u64; 2], 0u64, 0u64, 0u64, 0u64);
    let half = n / 2;
    for _ in 0..count {
        let mut h0 = 0u64;
        let mut h1 = 0u64;
        for i in (0..half).rev() {
            h0 = h0 << 3 | (vals[i] as u64 + 1);
        }
        for i in (half..n).rev() {
            h1 = h1 << 3 | (vals[i] as u64 + 1);
        }
        let (r, rounds) = play(h0, h1, half as u32, (n - half) as u32);
        match r {
            0 | 1 => w[r as usize] += 1,
            2 => d += 1,
            _ => l += 1,
        }
        if r != 3 {
            rsum += rounds;
            longest = longest.max(rounds);
        }
        next_perm(&mut vals);
    }
    println!(
        "wins {:?} draws {} loops {} rounds {} longest {}",
        w, d, l, rsum, longest
    );
}
