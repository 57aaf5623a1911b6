//! A board as bitboards, the layout the solver and the conflict check work in: per band of three
//! rows, a 27-bit set of cells (bit `9 * row + column`) per value. And what the givens leave:
//! each digit's candidates, and the digits given twice in a row, column or box. And back: the
//! board of a solved grid's per-digit cells.
//!
//! Each runs once per puzzle, and for an easy puzzle or a line with clashing givens they were a
//! good part of the whole: about 1,900 instructions, of 11,200 for an easy puzzle's solve and
//! 3,700 for a clashing line of `sudokud solve`. On x86_64 they work in SSE2 registers (part of
//! the baseline, so no run-time detection): sixteen cells or four digits an instruction, with
//! nothing stored and loaded back between the steps. The search's AVX2 twins build them in AVX2
//! registers, a band or eight digits an instruction. Elsewhere, and as the tests' oracle beside
//! the others, a portable version computes the same a word or a digit at a time.

use super::{Board, CELLS};

/// The 27 cells of a band.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// One bit per row of a band at column 0: multiplying a set of columns by it repeats the set in
/// all three rows.
pub(crate) const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;

/// The first box of a band (columns 0-2 of its three rows).
pub(crate) const BOX_CELLS: u32 = 7 * COLUMN_SPREAD;

/// The rows and the boxes of a band, each as its nine cells.
const UNITS_OF_BAND: [u32; 6] = [0x1ff, 0x1ff << 9, 0x1ff << 18, BOX_CELLS, BOX_CELLS << 3, BOX_CELLS << 6];

/// Per band, the blank cells and, per digit, the cells given it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bitboards {
    pub(crate) blanks: [u32; 3],
    /// Lane `d - 1` for digit `d`. Lanes 9-11 are always empty: four digits make one vector.
    pub(crate) digits: [[u32; 12]; 3],
}

/// Which instructions build a puzzle's starting bitboards and what its givens leave: the
/// baseline's ([`Baseline`]), or AVX2's ([`Avx2`]) inside the search's twins compiled for it.
pub(crate) trait Build {
    /// The bitboards of `board`.
    fn bitboards(board: &Board) -> Bitboards;
    /// What the givens of `bitboards` leave: per band and digit (index `d - 1`), the blank cells
    /// whose row, column and box are not given the digit, and the cells given it, written to
    /// `candidates`. Returns the digits given twice in some row, column or box, bit `d` for digit
    /// `d`: a board with any breaks the rules, and its candidates mean nothing.
    ///
    /// Written where the caller keeps them rather than returned: the search's state, returned by
    /// value, was copied by loads that straddled the stores that had just written it, each
    /// waiting for them to reach the cache (a store-forwarding stall; a fifth of the time of
    /// building a state on the clashing lines of `sudokud solve`).
    fn givens(bitboards: &Bitboards, candidates: &mut [[u32; 9]; 3]) -> u16;
}

/// SSE2 on x86_64 (part of its baseline), a word or a digit at a time elsewhere.
pub(crate) struct Baseline;

impl Build for Baseline {
    #[inline(always)]
    fn bitboards(board: &Board) -> Bitboards {
        imp::bitboards(board.cells())
    }

    #[inline(always)]
    fn givens(bitboards: &Bitboards, candidates: &mut [[u32; 9]; 3]) -> u16 {
        imp::givens(bitboards, candidates)
    }
}

/// AVX2: a band's 27 cells in one register, and eight digits, or one digit's three bands, a
/// vector. Only for code that runs where the CPU has AVX2: the search's twins compiled for it
/// ([`crate::solver::SearchPath::Avx2`] and after), into which it is inlined.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Build for Avx2 {
    #[inline(always)]
    #[allow(unsafe_code)]
    fn bitboards(board: &Board) -> Bitboards {
        // SAFETY: only code that runs where the CPU has AVX2 uses `Avx2` (see above).
        unsafe { avx2::bitboards(board.cells()) }
    }

    #[inline(always)]
    #[allow(unsafe_code)]
    fn givens(bitboards: &Bitboards, candidates: &mut [[u32; 9]; 3]) -> u16 {
        // SAFETY: as for `bitboards`.
        unsafe { avx2::givens(bitboards, candidates) }
    }
}

impl Bitboards {
    /// The bitboards of `board`.
    #[inline(always)]
    pub(crate) fn of(board: &Board) -> Bitboards {
        Baseline::bitboards(board)
    }

    /// The cells of `band` given `digit` (1-9).
    #[inline(always)]
    pub(crate) fn given(&self, band: usize, digit: usize) -> u32 {
        self.digits[band][digit - 1]
    }
}

/// The board of a solved grid's per-digit cells (`digits[band][d - 1]`, one cell per row of the
/// band for every digit): the inverse of [`Bitboards::of`], run once per solved puzzle, a twentieth
/// of an easy puzzle's solve when it wrote the 81 cells one by one.
#[inline(always)]
pub(crate) fn solved_board(digits: &[[u32; 9]; 3]) -> Board {
    Board::from_solved_cells(imp::solved_cells(digits))
}

/// Per band of a solved grid, bit `b` of every cell's value (one 27-bit plane per bit).
#[inline(always)]
fn value_planes(digits: &[u32; 9]) -> [u32; 4] {
    let mut planes = [0u32; 4];
    for (index, &cells) in digits.iter().enumerate() {
        let value = index + 1;
        for (bit, plane) in planes.iter_mut().enumerate() {
            if value >> bit & 1 != 0 {
                *plane |= cells;
            }
        }
    }
    planes
}

#[cfg(target_arch = "x86_64")]
use sse2 as imp;

#[cfg(not(target_arch = "x86_64"))]
use portable as imp;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi8, _mm_cmpeq_epi32,
        _mm_cvtsi32_si128, _mm_movemask_epi8, _mm_movemask_ps, _mm_or_si128, _mm_set1_epi8, _mm_set1_epi32,
        _mm_slli_epi16, _mm_slli_epi32, _mm_srli_epi32, _mm_unpackhi_epi32, _mm_unpacklo_epi8, _mm_unpacklo_epi16,
        _mm_unpacklo_epi32, _mm_xor_si128,
    };

    use super::{BAND, Bitboards, CELLS, UNITS_OF_BAND};

    // SAFETY (every `unsafe` here but the two transmutes): SSE2 is part of the x86_64 baseline,
    // so every CPU this code runs on has it, and these intrinsics work on values and read no
    // memory.

    /// Four lanes as a vector.
    #[inline(always)]
    fn vector(lanes: [u32; 4]) -> __m128i {
        // SAFETY: both are 16 bytes of plain bits, every pattern valid.
        unsafe { std::mem::transmute::<[u32; 4], __m128i>(lanes) }
    }

    /// A vector as four lanes.
    #[inline(always)]
    fn lanes(vector: __m128i) -> [u32; 4] {
        // SAFETY: both are 16 bytes of plain bits, every pattern valid.
        unsafe { std::mem::transmute::<__m128i, [u32; 4]>(vector) }
    }

    /// `value` in every lane.
    #[inline(always)]
    fn splat(value: u32) -> __m128i {
        unsafe { _mm_set1_epi32(value as i32) }
    }

    /// The value of lane `l` of vector `j` of a band's digits: digits 1-9, then 15, which no cell
    /// holds, so that lanes 9-11 come out empty.
    const fn lane_value(j: usize, l: usize) -> u32 {
        let value = 4 * j + l + 1;
        if value <= 9 { value as u32 } else { 15 }
    }

    /// Per vector of digits and bit of a value, all ones in the lanes whose value has the bit
    /// clear: XOR-ed with a plane, they turn it into the cells that agree with the lane's value
    /// on that bit.
    const FLIPS: [[[u32; 4]; 4]; 3] = {
        let mut flips = [[[0; 4]; 4]; 3];
        let mut j = 0;
        while j < 3 {
            let mut bit = 0;
            while bit < 4 {
                let mut l = 0;
                while l < 4 {
                    if lane_value(j, l) >> bit & 1 == 0 {
                        flips[j][bit][l] = u32::MAX;
                    }
                    l += 1;
                }
                bit += 1;
            }
            j += 1;
        }
        flips
    };

    /// Bits `16 * chunk + i`: byte `i` of the chunk has bit `BIT` set. Shifting the 16-bit lanes
    /// left by `7 - BIT` brings each byte's bit `BIT` to its top bit, which `pmovmskb` reads;
    /// a byte's top bit comes from the byte itself, so the shift crossing bytes does no harm.
    #[inline(always)]
    fn plane_bits(chunk: __m128i, bit: usize) -> u32 {
        let top = unsafe {
            match bit {
                0 => _mm_slli_epi16::<7>(chunk),
                1 => _mm_slli_epi16::<6>(chunk),
                2 => _mm_slli_epi16::<5>(chunk),
                _ => _mm_slli_epi16::<4>(chunk),
            }
        };
        unsafe { _mm_movemask_epi8(top) as u32 }
    }

    #[inline(always)]
    pub(super) fn bitboards(cells: &[u8; CELLS]) -> Bitboards {
        // `planes[b]`: the cells whose value has bit `b` set (values are below 16), bit per cell
        // in row-major order; sixteen cells at a time, and the last of the 81 alone.
        let mut planes = [0u128; 4];
        for (chunk, shift) in cells.chunks_exact(16).zip((0..).step_by(16)) {
            let bytes: [u8; 16] = chunk.try_into().expect("chunks of 16");
            // SAFETY: both are 16 bytes of plain bits, every pattern valid.
            let chunk = unsafe { std::mem::transmute::<[u8; 16], __m128i>(bytes) };
            for (bit, plane) in planes.iter_mut().enumerate() {
                *plane |= u128::from(plane_bits(chunk, bit)) << shift;
            }
        }
        for (bit, plane) in planes.iter_mut().enumerate() {
            *plane |= u128::from(cells[CELLS - 1] >> bit & 1) << (CELLS - 1);
        }
        let mut bitboards = Bitboards { blanks: [0; 3], digits: [[0; 12]; 3] };
        for (band, (blanks, digits)) in bitboards.blanks.iter_mut().zip(&mut bitboards.digits).enumerate() {
            let planes = planes.map(|plane| (plane >> (27 * band)) as u32 & BAND);
            *blanks = BAND & !(planes[0] | planes[1] | planes[2] | planes[3]);
            let planes = planes.map(splat);
            for (four, flips) in digits.chunks_exact_mut(4).zip(&FLIPS) {
                let mut cells = splat(u32::MAX);
                for (&plane, &flip) in planes.iter().zip(flips) {
                    cells = unsafe { _mm_and_si128(cells, _mm_xor_si128(plane, vector(flip))) };
                }
                four.copy_from_slice(&lanes(cells));
            }
        }
        bitboards
    }

    /// [`super::portable::solved_cells`] sixteen cells at a time: each bit plane of a band's
    /// values spread to one byte per cell (its bytes repeated eight times by unpacking, each
    /// byte's own bit picked by a compare), and the planes' bits summed into the values.
    #[inline(always)]
    pub(super) fn solved_cells(digits: &[[u32; 9]; 3]) -> [u8; CELLS] {
        /// Byte `i` of a vector: bit `i % 8`.
        const OWN_BIT: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: both are 16 bytes of plain bits, every pattern valid.
        let own_bit = unsafe { std::mem::transmute::<[u8; 16], __m128i>(OWN_BIT) };
        // Three bands of 27 bytes, each written whole (32 bytes) over the start of the next.
        let mut cells = [0u8; 96];
        for (band, digits) in digits.iter().enumerate() {
            let (mut low, mut high) = (splat(0), splat(0));
            for (bit, plane) in super::value_planes(digits).into_iter().enumerate() {
                unsafe {
                    let word = _mm_cvtsi32_si128(plane as i32);
                    let bytes = _mm_unpacklo_epi8(word, word);
                    let fours = _mm_unpacklo_epi16(bytes, bytes);
                    let value = _mm_set1_epi8(1 << bit);
                    let spread =
                        |eights: __m128i| _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(eights, own_bit), own_bit), value);
                    low = _mm_or_si128(low, spread(_mm_unpacklo_epi32(fours, fours)));
                    high = _mm_or_si128(high, spread(_mm_unpackhi_epi32(fours, fours)));
                }
            }
            let start = 27 * band;
            cells[start..start + 16].copy_from_slice(&bytes(low));
            cells[start + 16..start + 32].copy_from_slice(&bytes(high));
        }
        cells[..CELLS].try_into().expect("81 of 96")
    }

    /// A vector as sixteen bytes.
    #[inline(always)]
    fn bytes(vector: __m128i) -> [u8; 16] {
        // SAFETY: both are 16 bytes of plain bits, every pattern valid.
        unsafe { std::mem::transmute::<__m128i, [u8; 16]>(vector) }
    }

    /// [`super::portable::givens`] four digits at a time (digits 1-4, 5-8, and 9 with three
    /// empty lanes): each unit of a band is an AND, a compare and an AND-NOT per four digits,
    /// where digit by digit each row and box took a test and a table lookup.
    #[inline(always)]
    pub(super) fn givens(bitboards: &Bitboards, candidates: &mut [[u32; 9]; 3]) -> u16 {
        let (zero, nine_bits, minus_one) = (splat(0), splat(0x1ff), splat(u32::MAX));
        let units = UNITS_OF_BAND.map(splat);
        let four = |digits: &[u32; 12], first: usize| {
            vector([digits[first], digits[first + 1], digits[first + 2], digits[first + 3]])
        };
        let band = |band: usize| {
            let digits = &bitboards.digits[band];
            [four(digits, 0), four(digits, 4), four(digits, 8)]
        };
        let given = [band(0), band(1), band(2)];
        // Columns first, over the three bands: every band's candidates lose them all.
        let (mut columns, mut repeated) = ([zero; 3], [zero; 3]);
        for given in &given {
            for ((&cells, columns), repeated) in given.iter().zip(&mut columns).zip(&mut repeated) {
                unsafe {
                    let folded = _mm_or_si128(_mm_or_si128(cells, _mm_srli_epi32(cells, 9)), _mm_srli_epi32(cells, 18));
                    let own = _mm_and_si128(folded, nine_bits);
                    // Two givens in a column of one band share a box too: only columns across
                    // bands need this.
                    *repeated = _mm_or_si128(*repeated, _mm_and_si128(*columns, own));
                    *columns = _mm_or_si128(*columns, own);
                }
            }
        }
        let seen = columns.map(|columns| unsafe {
            _mm_or_si128(_mm_or_si128(columns, _mm_slli_epi32(columns, 9)), _mm_slli_epi32(columns, 18))
        });
        for ((band_candidates, given), &blanks) in candidates.iter_mut().zip(&given).zip(&bitboards.blanks) {
            let blanks = splat(blanks);
            let mut all = [0u32; 12];
            for (((four, &cells), &seen), repeated) in all.chunks_exact_mut(4).zip(given).zip(&seen).zip(&mut repeated)
            {
                let mut taken = seen;
                for &unit in &units {
                    unsafe {
                        let in_unit = _mm_and_si128(cells, unit);
                        taken = _mm_or_si128(taken, _mm_andnot_si128(_mm_cmpeq_epi32(in_unit, zero), unit));
                        // Two or more bits: clearing the lowest leaves some.
                        let above_lowest = _mm_and_si128(in_unit, _mm_add_epi32(in_unit, minus_one));
                        *repeated = _mm_or_si128(*repeated, above_lowest);
                    }
                }
                four.copy_from_slice(&lanes(unsafe { _mm_or_si128(_mm_andnot_si128(taken, blanks), cells) }));
            }
            band_candidates.copy_from_slice(&all[..9]);
        }
        let unique = |repeated: __m128i| unsafe { _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(repeated, zero))) };
        let clashing = !(unique(repeated[0]) | unique(repeated[1]) << 4 | unique(repeated[2]) << 8) & 0x1ff;
        (clashing as u16) << 1
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi8,
        _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_movemask_ps, _mm256_or_si256,
        _mm256_permutevar8x32_epi32, _mm256_set1_epi8, _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256,
        _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256, _mm256_testz_si256,
    };

    use super::{BAND, Bitboards, CELLS, UNITS_OF_BAND};

    // SAFETY (every `unsafe` here): the loads and stores stay in bounds, as each says; the
    // other intrinsics are safe in these functions, which have AVX2 enabled.

    /// A band's values in one 32-byte load, each value's cells by a compare and a `vpmovmskb`:
    /// no bit planes to build and pick apart.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn bitboards(cells: &[u8; CELLS]) -> Bitboards {
        let mut bitboards = Bitboards { blanks: [0; 3], digits: [[0; 12]; 3] };
        for (band, (blanks, digits)) in bitboards.blanks.iter_mut().zip(&mut bitboards.digits).enumerate() {
            // Bands 0 and 1 from their first cell (the five bytes past a band are masked off);
            // band 2 from 32 bytes before the board's end, its cells at bits 5-31.
            let (start, shift) = if band < 2 { (27 * band, 0) } else { (CELLS - 32, 27 * band - (CELLS - 32)) };
            // `start + 32 <= CELLS`: the load reads only the board's bytes.
            let bytes = unsafe { _mm256_loadu_si256(cells.as_ptr().add(start).cast::<__m256i>()) };
            let holding = |value: u8| {
                let equal = _mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(value as i8)));
                (equal as u32 >> shift) & BAND
            };
            *blanks = holding(0);
            for (digit, cells) in (1..).zip(&mut digits[..9]) {
                *cells = holding(digit);
            }
        }
        bitboards
    }

    /// [`super::portable::givens`] in four vectors: digits 1-8 of each band, then digit 9 of
    /// the three bands in lanes 0-2, where the SSE2 build takes nine of four digits each.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn givens(bitboards: &Bitboards, candidates: &mut [[u32; 9]; 3]) -> u16 {
        let (zero, nine_bits, minus_one) = (_mm256_setzero_si256(), _mm256_set1_epi32(0x1ff), _mm256_set1_epi32(-1));
        let digits = &bitboards.digits;
        // A band's lanes are twelve `u32`s: eight from the first are in bounds.
        let low = |band: usize| unsafe { _mm256_loadu_si256(digits[band].as_ptr().cast::<__m256i>()) };
        let nines = _mm256_setr_epi32(digits[0][8] as i32, digits[1][8] as i32, digits[2][8] as i32, 0, 0, 0, 0, 0);
        let given = [low(0), low(1), low(2), nines];
        // Each lane's givens folded onto the columns of its band's first row.
        let own = given.map(|cells| {
            let folded =
                _mm256_or_si256(_mm256_or_si256(cells, _mm256_srli_epi32(cells, 9)), _mm256_srli_epi32(cells, 18));
            _mm256_and_si256(folded, nine_bits)
        });
        // "At least one" and "at least two" bands giving the digit in a column: lane by lane for
        // digits 1-8; for digit 9, lanes 0-2 against the same lanes rotated by one and by two
        // (lanes 3-7 stay empty), so that each of lanes 0-2 sees all three bands.
        let once_twice = |a: __m256i, b: __m256i, c: __m256i| {
            let ab = _mm256_or_si256(a, b);
            (_mm256_or_si256(ab, c), _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(ab, c)))
        };
        let (columns_low, mut repeated_low) = once_twice(own[0], own[1], own[2]);
        let rotated =
            |by: [i32; 3]| _mm256_permutevar8x32_epi32(own[3], _mm256_setr_epi32(by[0], by[1], by[2], 3, 4, 5, 6, 7));
        let (columns_nine, mut repeated_nine) = once_twice(own[3], rotated([1, 2, 0]), rotated([2, 0, 1]));
        let spread = |columns: __m256i| {
            _mm256_or_si256(_mm256_or_si256(columns, _mm256_slli_epi32(columns, 9)), _mm256_slli_epi32(columns, 18))
        };
        let units = UNITS_OF_BAND.map(|unit| _mm256_set1_epi32(unit as i32));
        // The blank cells of each lane's band that no unit or column given the lane's digit
        // sees, with the cells given it; and the units given it twice.
        let left = |cells: __m256i, columns: __m256i, blanks: __m256i, repeated: &mut __m256i| {
            let mut taken = spread(columns);
            for &unit in &units {
                let in_unit = _mm256_and_si256(cells, unit);
                taken = _mm256_or_si256(taken, _mm256_andnot_si256(_mm256_cmpeq_epi32(in_unit, zero), unit));
                // Two or more bits: clearing the lowest leaves some.
                *repeated = _mm256_or_si256(*repeated, _mm256_and_si256(in_unit, _mm256_add_epi32(in_unit, minus_one)));
            }
            _mm256_or_si256(_mm256_andnot_si256(taken, blanks), cells)
        };
        for ((band_candidates, &cells), &blanks) in candidates.iter_mut().zip(&given).zip(&bitboards.blanks) {
            let left = left(cells, columns_low, _mm256_set1_epi32(blanks as i32), &mut repeated_low);
            // A band's candidates are nine `u32`s: the store writes the first eight.
            unsafe { _mm256_storeu_si256(band_candidates.as_mut_ptr().cast::<__m256i>(), left) };
        }
        let [b0, b1, b2] = bitboards.blanks.map(|blanks| blanks as i32);
        let blanks = _mm256_setr_epi32(b0, b1, b2, 0, 0, 0, 0, 0);
        let mut nine = [0u32; 8];
        let left_nine = left(nines, columns_nine, blanks, &mut repeated_nine);
        // `nine` is eight `u32`s.
        unsafe { _mm256_storeu_si256(nine.as_mut_ptr().cast::<__m256i>(), left_nine) };
        for (band_candidates, &cells) in candidates.iter_mut().zip(&nine) {
            band_candidates[8] = cells;
        }
        let unique_low = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(repeated_low, zero))) as u32;
        let clashing_nine = u32::from(_mm256_testz_si256(repeated_nine, repeated_nine) == 0);
        let clashing = (!unique_low & 0xff) | clashing_nine << 8;
        (clashing as u16) << 1
    }
}

/// The build a word or a digit at a time, where there is no SSE2, and the tests' second
/// implementation where there is.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    use super::{BAND, Bitboards, CELLS, COLUMN_SPREAD, UNITS_OF_BAND};

    /// Bit-sliced rather than one OR per cell: an OR into a slot picked by the value makes each
    /// cell wait for the store of the cell before it when both hold the same value (most are
    /// blank). Eight cells at a time give up bit `b` of their values at once (one multiply
    /// gathers the low bit of each byte), and each value's cells are the AND of the four planes
    /// or their complements.
    pub(super) fn bitboards(cells: &[u8; CELLS]) -> Bitboards {
        /// The low bit of each byte of a word.
        const LOW_BITS: u64 = 0x0101_0101_0101_0101;
        /// Moves the low bit of byte `i` to bit `56 + i` (terms land on distinct bits, so no carries).
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let mut bitboards = Bitboards { blanks: [0; 3], digits: [[0; 12]; 3] };
        for (band, cells) in cells.chunks_exact(27).enumerate() {
            // `planes[b]`: the cells whose value has bit `b` set (values are below 16).
            let mut planes = [0u32; 4];
            for (chunk, shift) in cells.chunks(8).zip((0..).step_by(8)) {
                let mut bytes = [0u8; 8];
                bytes[..chunk.len()].copy_from_slice(chunk);
                let word = u64::from_le_bytes(bytes);
                for (bit, plane) in planes.iter_mut().enumerate() {
                    let lows = word >> bit & LOW_BITS;
                    *plane |= ((lows.wrapping_mul(GATHER) >> 56) as u32) << shift;
                }
            }
            let holding = |value: usize| {
                planes
                    .iter()
                    .enumerate()
                    .fold(BAND, |cells, (bit, &plane)| cells & if value >> bit & 1 != 0 { plane } else { !plane })
            };
            bitboards.blanks[band] = holding(0);
            for digit in 1..=9 {
                bitboards.digits[band][digit - 1] = holding(digit);
            }
        }
        bitboards
    }

    /// Cell by cell from the bit planes of the values.
    pub(super) fn solved_cells(digits: &[[u32; 9]; 3]) -> [u8; CELLS] {
        let mut cells = [0u8; CELLS];
        for (band, digits) in digits.iter().enumerate() {
            let planes = super::value_planes(digits);
            for (pos, cell) in cells[27 * band..27 * band + 27].iter_mut().enumerate() {
                *cell = planes.iter().enumerate().map(|(bit, plane)| ((plane >> pos & 1) as u8) << bit).sum();
            }
        }
        cells
    }

    /// A digit's candidates lose every cell of the rows, boxes and columns it is given in; it
    /// clashes when one of them holds two of its givens.
    pub(super) fn givens(bitboards: &Bitboards, candidates: &mut [[u32; 9]; 3]) -> u16 {
        let mut clashing = 0;
        for digit in 1..=9 {
            let (mut columns, mut repeated) = (0, false);
            let mut taken = [0u32; 3];
            for (band, taken) in taken.iter_mut().enumerate() {
                let cells = bitboards.given(band, digit);
                for unit in UNITS_OF_BAND {
                    let in_unit = cells & unit;
                    *taken |= if in_unit != 0 { unit } else { 0 };
                    repeated |= in_unit.count_ones() > 1;
                }
                let own = (cells | cells >> 9 | cells >> 18) & 0x1ff;
                repeated |= columns & own != 0;
                columns |= own;
            }
            for (band, candidates) in candidates.iter_mut().enumerate() {
                let seen = (columns * COLUMN_SPREAD) | taken[band];
                candidates[digit - 1] = bitboards.blanks[band] & !seen | bitboards.given(band, digit);
            }
            clashing |= u16::from(repeated) << digit;
        }
        clashing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// Boards of random values, many of them clashing, from nearly empty to nearly full.
    fn random_boards() -> impl Iterator<Item = [u8; CELLS]> {
        let mut random = SplitMix64(17);
        (0..2000).map(move |round| {
            let filled = round % 82;
            let mut cells = [0u8; CELLS];
            for cell in &mut cells {
                if random.below(81) < filled {
                    *cell = 1 + random.below(9) as u8;
                }
            }
            cells
        })
    }

    /// Whether this CPU runs the AVX2 build, which the tests then hold to the others.
    fn avx2_runs() -> bool {
        #[cfg(target_arch = "x86_64")]
        return is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// Every cell lands in its value's bitboard and no other, checked cell by cell, in every
    /// build.
    #[test]
    fn bitboards_hold_each_cell_under_its_value() {
        let mut random = SplitMix64(5);
        for _ in 0..500 {
            let mut cells = [0u8; CELLS];
            for cell in &mut cells {
                *cell = random.below(10) as u8;
            }
            let bitboards = imp::bitboards(&cells);
            assert_eq!(bitboards, portable::bitboards(&cells));
            #[cfg(target_arch = "x86_64")]
            if avx2_runs() {
                assert_eq!(Avx2::bitboards(&Board::from_cells(cells).expect("values 0-9")), bitboards);
            }
            for (index, &value) in cells.iter().enumerate() {
                let (band, pos) = (index / 27, index % 27);
                assert_eq!(bitboards.blanks[band] >> pos & 1 == 1, value == 0, "cell {index}");
                for (lane, cells) in bitboards.digits[band].iter().enumerate() {
                    assert_eq!(cells >> pos & 1 == 1, usize::from(value) == lane + 1, "cell {index}, lane {lane}");
                }
            }
        }
    }

    /// Solved grids back from their bitboards, in both builds.
    #[test]
    fn solved_boards_come_back_from_their_digits() {
        let example: Board = crate::board::EXAMPLE_SOLUTION.parse().expect("a board");
        for seed in 0..200 {
            let solution = crate::board::Shuffle::from_seed(seed).apply(&example);
            let digits = Bitboards::of(&solution).digits.map(|lanes| std::array::from_fn(|index| lanes[index]));
            assert_eq!(solved_board(&digits), solution);
            assert_eq!(portable::solved_cells(&digits), *solution.cells());
        }
    }

    /// The candidates and clashing digits of every build against a cell-by-cell reading of the
    /// rules: a cell keeps a digit when it is given it, or is blank and nothing in its row,
    /// column or box is given it; a digit clashes when two of its givens share a unit.
    #[test]
    fn givens_leave_what_the_rules_say() {
        let unit_of = |cell: usize| [cell / 9, 9 + cell % 9, 18 + cell / 27 * 3 + cell % 9 / 3];
        for cells in random_boards() {
            let mut given_in = [[0u32; 27]; 10];
            let mut clashing = 0u16;
            for (cell, &value) in cells.iter().enumerate().filter(|&(_, &value)| value != 0) {
                for unit in unit_of(cell) {
                    given_in[usize::from(value)][unit] += 1;
                    if given_in[usize::from(value)][unit] > 1 {
                        clashing |= 1 << value;
                    }
                }
            }
            let board = Board::from_cells(cells).expect("values 0-9");
            let bitboards = Bitboards::of(&board);
            let build = |givens: fn(&Bitboards, &mut [[u32; 9]; 3]) -> u16| {
                // Filled with what no build writes, so that a cell left unwritten shows.
                let mut candidates = [[u32::MAX; 9]; 3];
                let clashing = givens(&bitboards, &mut candidates);
                (candidates, clashing)
            };
            let mut builds = vec![build(Baseline::givens), build(portable::givens)];
            #[cfg(target_arch = "x86_64")]
            if avx2_runs() {
                builds.push(build(Avx2::givens));
            }
            for (candidates, found_clashing) in builds {
                assert_eq!(found_clashing, clashing);
                for (cell, &value) in cells.iter().enumerate() {
                    for digit in 1..=9u8 {
                        let free =
                            value == 0 && unit_of(cell).iter().all(|&unit| given_in[usize::from(digit)][unit] == 0);
                        let kept = candidates[cell / 27][usize::from(digit) - 1] >> (cell % 27) & 1 == 1;
                        assert_eq!(kept, value == digit || free, "cell {cell}, digit {digit}");
                    }
                }
            }
        }
    }
}
