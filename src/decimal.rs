//! Integers in decimal without `core::fmt`, for the lines written most often (every access-log
//! line, and the batch CLI's error lines), where `fmt`'s padding machinery cost more than the
//! rest of the line.

/// The decimal digits of an integer, in a buffer of their own.
pub(crate) struct Decimal {
    /// The digits, right-aligned, with a leading `-` when negative.
    digits: [u8; 21],
    /// Where they start.
    start: usize,
}

impl Decimal {
    /// `magnitude`'s digits, after a `-` when `negative`.
    pub(crate) fn new(negative: bool, mut magnitude: u64) -> Decimal {
        let mut digits = [0u8; 21];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (magnitude % 10) as u8;
            magnitude /= 10;
            if magnitude == 0 {
                break;
            }
        }
        if negative {
            start -= 1;
            digits[start] = b'-';
        }
        Decimal { digits, start }
    }

    /// An unsigned count's digits.
    pub(crate) fn of(count: usize) -> Decimal {
        Decimal::new(false, count as u64)
    }

    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.digits[self.start..]).expect("ASCII digits")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_fmt_writes() {
        for value in [0i64, 7, -7, 10, 12_345, -9_000, i64::MAX, i64::MIN] {
            assert_eq!(Decimal::new(value < 0, value.unsigned_abs()).as_str(), value.to_string());
        }
        assert_eq!(Decimal::new(false, u64::MAX).as_str(), u64::MAX.to_string());
        assert_eq!(Decimal::of(usize::MAX).as_str(), usize::MAX.to_string());
    }
}
