//! The project's one source of pseudo-randomness.
//!
//! Generation and the solver's restarts must give the same result for the same seed on every
//! machine and with any version of any dependency (the `rand` crate does not promise that for its
//! standard generator), so both draw from this fully specified generator.

/// Sebastiano Vigna's SplitMix64: tiny, fast, and fully specified by its seed.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (> 0), by Lemire's multiply-shift; its bias is below 2^-50 for
    /// the bounds used here.
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            items.swap(last, self.below(last + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_one_sequence() {
        let mut first = SplitMix64(7);
        let mut second = SplitMix64(7);
        assert!((0..100).all(|_| first.next_u64() == second.next_u64()));
        // Vigna's reference output for seed 0.
        assert_eq!(SplitMix64(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn below_stays_below_and_shuffle_permutes() {
        let mut random = SplitMix64(1);
        assert!((0..1000).all(|_| random.below(9) < 9));
        let mut items: Vec<u8> = (0..9).collect();
        random.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..9).collect::<Vec<u8>>());
    }
}
