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

/// "00", "01", ... "99": the two digits of every number below 100.
const PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut n = 0;
    while n < 100 {
        pairs[2 * n] = b'0' + (n / 10) as u8;
        pairs[2 * n + 1] = b'0' + (n % 10) as u8;
        n += 1;
    }
    pairs
};

impl Decimal {
    /// `magnitude`'s digits, after a `-` when `negative`. Two digits per division, from a
    /// table: a request's log line and a batch's error line write several integers.
    pub(crate) fn new(negative: bool, mut magnitude: u64) -> Decimal {
        let mut digits = [0u8; 21];
        let mut start = digits.len();
        while magnitude >= 100 {
            let pair = 2 * (magnitude % 100) as usize;
            magnitude /= 100;
            start -= 2;
            digits[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        }
        if magnitude >= 10 {
            let pair = 2 * magnitude as usize;
            start -= 2;
            digits[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        } else {
            start -= 1;
            digits[start] = b'0' + magnitude as u8;
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

    /// The digits as text.
    #[allow(unsafe_code)]
    pub(crate) fn as_str(&self) -> &str {
        // Not `from_utf8`: checking what is known to be ASCII was half of the work (a call and a
        // scan per integer, on every access-log line).
        // SAFETY: `new` writes only ASCII digits and `-` from `start` on.
        unsafe { std::str::from_utf8_unchecked(&self.digits[self.start..]) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_fmt_writes() {
        let powers = (0..19).flat_map(|exponent| {
            let power = 10i64.pow(exponent);
            [power - 1, power, power + 1, -power]
        });
        for value in (-1_000..=100_000).chain(powers).chain([i64::MAX, i64::MIN]) {
            assert_eq!(Decimal::new(value < 0, value.unsigned_abs()).as_str(), value.to_string());
        }
        assert_eq!(Decimal::new(false, u64::MAX).as_str(), u64::MAX.to_string());
        assert_eq!(Decimal::of(usize::MAX).as_str(), usize::MAX.to_string());
    }
}
