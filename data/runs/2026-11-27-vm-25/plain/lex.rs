// Lex stepping shared by the plain kernel and the lanes prototype: next-permutation, and the
// arrangement of a rank by counting.

pub fn next_perm(v: &mut [u8]) {
    let n = v.len();
    let mut i = n - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        v.reverse();
        return;
    }
    let mut j = n - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
}

/// Arrangements of a multiset with `c[v]` copies of each value `v`.
fn arrangements(c: &[u64]) -> u128 {
    let mut r: u128 = 1;
    let mut m = 0u128;
    for &x in c {
        for i in 1..=x {
            m += 1;
            r = r * m / i as u128;
        }
    }
    r
}

pub fn unrank(counts: &mut [u64], mut k: u128, out: &mut [u8]) {
    for slot in out.iter_mut() {
        for v in 0..counts.len() {
            if counts[v] == 0 {
                continue;
            }
            counts[v] -= 1;
            let w = arrangements(counts);
            if k < w {
                *slot = v as u8;
                break;
            }
            k -= w;
            counts[v] += 1;
        }
    }
}
