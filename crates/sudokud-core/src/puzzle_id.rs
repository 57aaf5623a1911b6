//! Names for generated puzzles, and the puzzle of the day.
//!
//! A generated puzzle is fixed by its box, level, symmetry and seed (see [`crate::generate`]), so
//! those four are its id: `hard.rotational.3x3.42`. Anyone can make the puzzle again from it, and
//! it is the same puzzle in every run of the same version of sudokud.
//!
//! Ids of grids other than 9x9 end in their generator's format, `.v2` ([`SIZED_FORMAT`]): when a
//! change makes other puzzles from the same seeds, the format goes up, and an id of an earlier
//! format is refused, saying so, rather than answered with a puzzle it never named. Classic 9x9
//! ids have no format: their puzzles have not changed since the first release.
//!
//! The puzzle of the day is the puzzle of an id derived from the date alone, so everybody asking
//! for a date and level gets the same one without the service keeping anything: its seed is
//! `SplitMix64(days * 8 + level).next() >> 11` (days since 1970-01-01, negative before it, in
//! 64-bit two's complement; level 0 for easy to 4 for extreme; the output's top 53 bits, as every
//! seed the service makes), on a 9x9 grid with
//! rotational symmetry, as newspapers print them.

use std::fmt;
use std::str::FromStr;

use crate::generate::Symmetry;
use crate::logic::Level;
use crate::member;
use crate::random::SplitMix64;
use sudokud_model::shape::{Shape, UnknownShape};

/// What makes a generated puzzle: enough to make it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PuzzleId {
    /// The box, which gives the grid's size.
    pub shape: Shape,
    /// The level it was made for.
    pub level: Level,
    /// The pattern of its givens.
    pub symmetry: Symmetry,
    /// The generator's seed.
    pub seed: u64,
}

impl PuzzleId {
    /// The puzzle of `date` at `level`.
    pub fn daily(date: Date, level: Level) -> PuzzleId {
        let index = Level::ALL.iter().position(|&each| each == level).expect("every level is listed") as u64;
        let seed = SplitMix64((date.days() as u64).wrapping_mul(8).wrapping_add(index)).next_u64() >> 11;
        PuzzleId { shape: Shape::CLASSIC, level, symmetry: Symmetry::Rotational, seed }
    }
}

/// The format of the generator of grids other than 9x9, in their ids. 1 was sudokud 0.1.0's, whose
/// grids were the solver's first solutions; 2 fills them as 9x9 grids are filled.
pub const SIZED_FORMAT: u32 = 2;

/// `level.symmetry.box.seed`: `hard.rotational.3x3.42`; other sizes add their format,
/// `easy.none.4x4.3.v2`.
impl fmt::Display for PuzzleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}.{}", self.level, self.symmetry, self.shape, self.seed)?;
        if self.shape != Shape::CLASSIC {
            write!(f, ".v{SIZED_FORMAT}")?;
        }
        Ok(())
    }
}

/// Why a text is no puzzle id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{found:?} is no puzzle id: {why}; an id is LEVEL.SYMMETRY.BOX.SEED, as `hard.rotational.3x3.42`, and other sizes than 9x9 add their generator's format, as `easy.none.4x4.3.v{SIZED_FORMAT}`"
)]
pub struct BadPuzzleId {
    found: String,
    why: String,
}

impl FromStr for PuzzleId {
    type Err = BadPuzzleId;

    fn from_str(text: &str) -> Result<PuzzleId, BadPuzzleId> {
        let bad = |why: String| BadPuzzleId { found: text.to_owned(), why };
        let parts: Vec<&str> = text.split('.').collect();
        let (level, symmetry, shape, seed, format) = match parts[..] {
            [level, symmetry, shape, seed] => (level, symmetry, shape, seed, None),
            [level, symmetry, shape, seed, format] => (level, symmetry, shape, seed, Some(format)),
            _ => return Err(bad(format!("it has {} parts", parts.len()))),
        };
        let shape: Shape = shape.parse().map_err(|error: UnknownShape| bad(error.to_string()))?;
        let expected = (shape != Shape::CLASSIC).then(|| format!("v{SIZED_FORMAT}"));
        if format != expected.as_deref() {
            return Err(bad(match (format, expected) {
                (Some(format), None) => format!("9x9 ids have no format, so {format:?} names nothing"),
                (None, Some(_)) => format!(
                    "ids of {shape} boxes without a format are sudokud 0.1.0's, whose generator made other puzzles from the same seeds"
                ),
                (Some(format), Some(expected)) => {
                    format!(
                        "format {format:?} is not this generator's ({expected}), which makes other puzzles from the same seeds"
                    )
                }
                (None, None) => unreachable!("the formats differ"),
            }));
        }
        Ok(PuzzleId {
            level: member::parse(level).map_err(|error| bad(error.to_string()))?,
            symmetry: member::parse(symmetry).map_err(|error| bad(error.to_string()))?,
            shape,
            seed: seed.parse().map_err(|_| bad(format!("seed {seed:?} is no whole number below 2^64")))?,
        })
    }
}

/// A day of the Gregorian calendar, years 0000 to 9999 (proleptic before 1582).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    year: u32,
    month: u32,
    day: u32,
}

/// Why a text is no date.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{found:?} is no date: expected YYYY-MM-DD")]
pub struct BadDate {
    found: String,
}

impl Date {
    /// The date `days` after 1970-01-01, before it when negative (Howard Hinnant's
    /// `civil_from_days`, proleptic Gregorian).
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z.rem_euclid(146_097);
        let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let shifted_month = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
        let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 } as u32;
        let year = (year_of_era + era * 400 + i64::from(month <= 2)) as u32;
        Date { year, month, day }
    }

    /// Days since 1970-01-01, negative before it (Howard Hinnant's `days_from_civil`).
    pub fn days(self) -> i64 {
        let year = i64::from(self.year) - i64::from(self.month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year.rem_euclid(400);
        let shifted_month = i64::from((self.month + 9) % 12);
        let day_of_year = (153 * shifted_month + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }
}

impl FromStr for Date {
    type Err = BadDate;

    fn from_str(text: &str) -> Result<Date, BadDate> {
        let bad = || BadDate { found: text.to_owned() };
        let bytes = text.as_bytes();
        let digits = |range: std::ops::Range<usize>| {
            let part = bytes.get(range).filter(|part| part.iter().all(u8::is_ascii_digit)).ok_or_else(bad)?;
            Ok(part.iter().fold(0u32, |value, digit| value * 10 + u32::from(digit - b'0')))
        };
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return Err(bad());
        }
        let date = Date { year: digits(0..4)?, month: digits(5..7)?, day: digits(8..10)? };
        // A day past its month's end comes back as another date.
        if !(1..=12).contains(&date.month) || date.day == 0 || Date::from_days(date.days()) != date {
            return Err(bad());
        }
        Ok(date)
    }
}

/// `YYYY-MM-DD`.
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive oracle: count the days one by one, month lengths by the leap-year rule.
    fn naive_days(year: u32, month: u32, day: u32) -> i64 {
        let leap = |year: u32| year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        let length = |year: u32, month: u32| match month {
            2 if leap(year) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let year_days = |year: u32| if leap(year) { 366 } else { 365 };
        let whole_years: i64 =
            if year >= 1970 { (1970..year).map(year_days).sum() } else { -(year..1970).map(year_days).sum::<i64>() };
        let whole_months: i64 = (1..month).map(|month| length(year, month)).sum();
        whole_years + whole_months + i64::from(day) - 1
    }

    #[test]
    fn dates_count_days_as_the_calendar_does() {
        for (text, days) in [("1970-01-01", 0), ("2000-02-29", naive_days(2000, 2, 29)), ("2026-12-02", 20_789)] {
            let date: Date = text.parse().unwrap();
            assert_eq!(date.days(), days, "{text}");
            assert_eq!(date.to_string(), text);
        }
        for days in (-719_528..2_932_897).step_by(97) {
            let date = Date::from_days(days);
            assert_eq!(naive_days(date.year, date.month, date.day), days, "{date}");
            assert_eq!(date.to_string().parse::<Date>(), Ok(date));
        }
    }

    #[test]
    fn what_is_no_date_is_refused() {
        for text in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-04-31",
            "1773-19-40",
            "2026-1-01",
            "20261201",
            "2026-12-0x",
            "",
        ] {
            assert_eq!(text.parse::<Date>(), Err(BadDate { found: text.to_owned() }), "{text}");
        }
        for text in ["2024-02-29", "1969-12-31", "0000-01-01", "9999-12-31", "1600-02-29"] {
            assert_eq!(text.parse::<Date>().map(|date| date.to_string()).as_deref(), Ok(text));
        }
        assert_eq!("1969-12-31".parse::<Date>().unwrap().days(), -1);
    }

    #[test]
    fn ids_read_back_and_say_what_is_wrong() {
        let id = PuzzleId { shape: Shape::CLASSIC, level: Level::Hard, symmetry: Symmetry::Rotational, seed: 42 };
        assert_eq!(id.to_string(), "hard.rotational.3x3.42");
        assert_eq!("hard.rotational.3x3.42".parse(), Ok(id));
        let error = "hard.spiral.3x3.42".parse::<PuzzleId>().unwrap_err().to_string();
        assert!(error.contains("unknown symmetry \"spiral\""), "{error}");
        let error = "hard.none.3x3".parse::<PuzzleId>().unwrap_err().to_string();
        assert!(error.contains("it has 3 parts") && error.contains("LEVEL.SYMMETRY.BOX.SEED"), "{error}");
        assert!("hard.none.3x3.-1".parse::<PuzzleId>().unwrap_err().to_string().contains("seed \"-1\""));
        assert!("hard.none.7x7.1".parse::<PuzzleId>().is_err());
        assert!("hard.none.3x3.42.v2".parse::<PuzzleId>().unwrap_err().to_string().contains("9x9 ids have no format"));
        assert!("hard.none.3x3.42.1.2".parse::<PuzzleId>().unwrap_err().to_string().contains("it has 6 parts"));
    }

    #[test]
    fn ids_of_other_sizes_carry_their_generator_s_format() {
        let id = PuzzleId { shape: Shape::new(4, 4).unwrap(), level: Level::Easy, symmetry: Symmetry::None, seed: 3 };
        assert_eq!(id.to_string(), "easy.none.4x4.3.v2");
        assert_eq!("easy.none.4x4.3.v2".parse(), Ok(id));
        let error = "easy.none.4x4.3".parse::<PuzzleId>().unwrap_err().to_string();
        assert!(error.contains("sudokud 0.1.0's") && error.contains("easy.none.4x4.3.v2"), "{error}");
        let error = "easy.none.4x4.3.v1".parse::<PuzzleId>().unwrap_err().to_string();
        assert!(error.contains("format \"v1\" is not this generator's (v2)"), "{error}");
    }

    #[test]
    fn the_daily_puzzle_depends_on_the_date_and_level_only() {
        let day: Date = "2026-12-02".parse().unwrap();
        let next: Date = "2026-12-03".parse().unwrap();
        let id = PuzzleId::daily(day, Level::Hard);
        assert_eq!(id, PuzzleId::daily(day, Level::Hard));
        assert_ne!(id.seed, PuzzleId::daily(next, Level::Hard).seed);
        assert_ne!(id.seed, PuzzleId::daily(day, Level::Medium).seed);
        assert_eq!((id.shape, id.symmetry, id.level), (Shape::CLASSIC, Symmetry::Rotational, Level::Hard));
        assert!(id.seed < 1 << 53);
        // The documented formula.
        assert_eq!(id.seed, SplitMix64(day.days() as u64 * 8 + 2).next_u64() >> 11);
    }

    /// The date of every day from 1970 to 2400 against a naive count of days per month.
    #[test]
    fn dates_follow_day_by_day() {
        let (mut year, mut month, mut day) = (1970, 1, 1);
        for days in 0..157_000 {
            assert_eq!(Date::from_days(days), Date { year, month, day }, "day {days}");
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
            let length = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month as usize - 1];
            day += 1;
            if day > length {
                (day, month) = (1, month + 1);
                if month > 12 {
                    (month, year) = (1, year + 1);
                }
            }
        }
    }
}
