//! Words for messages: a count with its noun, singular or plural as the count asks.

/// `1 card`, `2 cards`, `0 cards`: every noun warsweep counts takes an `s`.
pub fn count(n: impl Into<u128>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `1 game`, `23,048,192 games`: [`count`] with the digits grouped, as tables and reports
/// write counts.
pub(crate) fn grouped_count(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{} {noun}s", group(n)),
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn group(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1u32, "card"), "1 card");
        assert_eq!(super::count(0u32, "seed"), "0 seeds");
        assert_eq!(super::count(2u64, "hand"), "2 hands");
    }

    #[test]
    fn counts_grouped() {
        assert_eq!(super::grouped_count(1, "game"), "1 game");
        assert_eq!(super::grouped_count(23_048_192, "game"), "23,048,192 games");
    }

    #[test]
    fn groups_of_three_digits() {
        let cases = [
            (0u64, "0"),
            (999, "999"),
            (1000, "1,000"),
            (2097151, "2,097,151"),
        ];
        for (n, text) in cases {
            assert_eq!(super::group(n), text);
        }
        assert_eq!(super::group(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(super::group(1u128 << 64), "18,446,744,073,709,551,616");
    }
}
