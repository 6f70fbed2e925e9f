//! The hash of the tables that loops fill: the known cycles of a walk (looked up every few
//! rounds of a long game) and a sweep's distinct cycles (one look a looping deal). With the
//! standard SipHash, hashing was a tenth of a `--cycles` walk of 1x13; this hash folds 8 bytes
//! at a time with one multiplication, and such walks take 0.84x to 0.91x the time
//! (`docs/runs/2026-11-27-vm-30/cycle-hash.md`). Its key is drawn per process from the
//! standard `RandomState`, so a summary written to collide in one run does not in another.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// An odd constant with well-spread bits (the fractional part of the golden ratio).
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

/// Builds [`Fold`] hashers from this process's key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FoldState(u64);

impl Default for FoldState {
    fn default() -> Self {
        static KEY: OnceLock<u64> = OnceLock::new();
        FoldState(*KEY.get_or_init(|| RandomState::new().hash_one(SPREAD)))
    }
}

impl BuildHasher for FoldState {
    type Hasher = Fold;
    fn build_hasher(&self) -> Fold {
        Fold(self.0)
    }
}

/// Folds each word into the state with a 64x64 to 128-bit multiplication, whose two halves
/// are xored: every input bit reaches every output bit, high bits included (the table picks
/// its slot by the low bits and checks the top seven).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fold(u64);

impl Fold {
    #[inline(always)]
    fn fold(&mut self, word: u64) {
        let product = u128::from(self.0 ^ word) * u128::from(SPREAD);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for Fold {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.fold(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            // The length tells `[1, 0]` from `[1]`.
            self.fold(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.fold(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.fold(n);
    }

    #[inline]
    fn write_u128(&mut self, n: u128) {
        self.fold(n as u64);
        self.fold((n >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.fold(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Distinct short states (as the cycle tables hold) hash apart: no two of 53,609 byte
    /// strings that differ in one place, in their length, or by trailing zeros share a hash,
    /// and their slots in a table of 2^16 spread evenly.
    #[test]
    fn near_keys_hash_apart() {
        let mut keys = HashSet::new();
        for len in 1..=20usize {
            for place in 0..len {
                for value in 0..=255u8 {
                    let mut key = vec![1u8; len];
                    key[place] = value;
                    keys.insert(key);
                }
            }
        }
        for len in 0..40usize {
            keys.insert(vec![0u8; len]);
        }
        assert_eq!(keys.len(), 53_609);
        let build = FoldState::default();
        let mut hashes = HashSet::new();
        let mut slots = vec![0u32; 1 << 16];
        for key in &keys {
            let h = build.hash_one(&key[..]);
            assert!(hashes.insert(h), "{key:?} shares a hash");
            slots[(h & 0xffff) as usize] += 1;
        }
        let fullest = *slots.iter().max().expect("slots");
        assert!(fullest < 12, "a slot of {fullest} keys");
    }

    /// The pairs of words that key the known cycles hash apart too.
    #[test]
    fn word_pairs_hash_apart() {
        let build = FoldState::default();
        let mut hashes = HashSet::new();
        for a in 0..400u128 {
            for b in 0..400u128 {
                assert!(hashes.insert(build.hash_one((a << 70, b))), "{a} {b}");
            }
        }
        assert_eq!(hashes.len(), 160_000);
    }
}
