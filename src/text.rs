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

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1u32, "card"), "1 card");
        assert_eq!(super::count(0u32, "seed"), "0 seeds");
        assert_eq!(super::count(2u64, "hand"), "2 hands");
    }
}
