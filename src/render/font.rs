//! The one font drawings use: Noto Sans, subset to Latin (`assets/fonts`, SIL Open Font Licence
//! 1.1), read once. Every glyph is drawn as its outline, so an SVG, PNG or PDF looks the same on
//! every viewer and printer, with no font to install and none embedded as a font.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::scene::{Path, Point};

/// The font file, built into the binary.
const FONT_FILE: &[u8] = include_bytes!("../../assets/fonts/NotoSans-Subset.ttf");

/// A glyph: its outline in font units (y up, the baseline at 0) and how far it moves the pen.
#[derive(Debug)]
pub(super) struct Glyph {
    pub outline: Path,
    pub advance: f32,
    /// The outline's left and right edge, to centre a symbol in its cell.
    pub left: f32,
    pub right: f32,
}

/// The glyphs of every character the font has, and the size of its em.
#[derive(Debug)]
pub(super) struct Font {
    pub units_per_em: f32,
    /// The height of a capital (and of a digit), to centre symbols vertically.
    pub cap_height: f32,
    glyphs: BTreeMap<char, Glyph>,
}

impl Font {
    /// The font, read on first use.
    pub(super) fn get() -> &'static Font {
        static FONT: OnceLock<Font> = OnceLock::new();
        FONT.get_or_init(|| Font::read(FONT_FILE))
    }

    fn read(file: &[u8]) -> Font {
        let face = ttf_parser::Face::parse(file, 0).expect("the built-in font parses");
        let mut glyphs = BTreeMap::new();
        for subtable in
            face.tables().cmap.into_iter().flat_map(|cmap| cmap.subtables).filter(|table| table.is_unicode())
        {
            subtable.codepoints(|code| {
                let Some(ch) = char::from_u32(code) else { return };
                let Some(id) = subtable.glyph_index(code) else { return };
                let mut outline = Outline(Path::default());
                let bounds = face.outline_glyph(id, &mut outline);
                let (left, right) = bounds.map_or((0.0, 0.0), |rect| (f32::from(rect.x_min), f32::from(rect.x_max)));
                let advance = face.glyph_hor_advance(id).map_or(0.0, f32::from);
                glyphs.insert(ch, Glyph { outline: outline.0, advance, left, right });
            });
        }
        let cap_height = face.capital_height().map_or(0.7 * f32::from(face.units_per_em()), f32::from);
        Font { units_per_em: f32::from(face.units_per_em()), cap_height, glyphs }
    }

    /// The glyph of `ch`, if the font has it.
    pub(super) fn glyph(&self, ch: char) -> Option<&Glyph> {
        self.glyphs.get(&ch)
    }

    /// The first character of `text` the font cannot draw.
    pub(super) fn missing(&self, text: &str) -> Option<char> {
        text.chars().find(|ch| !self.glyphs.contains_key(ch))
    }

    /// How wide `text` is at `size` (the em's height in drawing units).
    pub(super) fn width(&self, text: &str, size: f32) -> f32 {
        let units: f32 = text.chars().filter_map(|ch| self.glyph(ch)).map(|glyph| glyph.advance).sum();
        units * size / self.units_per_em
    }
}

/// Collects an outline as a [`Path`], quadratic curves raised to cubic ones (PDF has no others).
struct Outline(Path);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(Point(x, y));
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(Point(x, y));
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let from = self.0.current();
        let (control, to) = (Point(x1, y1), Point(x, y));
        self.0.cubic_to(from.lerp(control, 2.0 / 3.0), to.lerp(control, 2.0 / 3.0), to);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(Point(x1, y1), Point(x2, y2), Point(x, y));
    }

    fn close(&mut self) {
        self.0.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_draws_every_symbol_and_latin_text() {
        let font = Font::get();
        for ch in "123456789ABCDEFGHIJKLMNOP".chars() {
            let glyph = font.glyph(ch).unwrap();
            assert!(!glyph.outline.is_empty() && glyph.right > glyph.left, "{ch}");
        }
        assert_eq!(font.missing("Sudoku für Zoë – #12 · hard"), None);
        assert_eq!(font.missing("数独"), Some('数'));
        assert!(font.cap_height > 0.5 * font.units_per_em && font.cap_height < font.units_per_em);
        // Digits are tabular: every one as wide as the others.
        assert_eq!(font.width("1", 10.0), font.width("8", 10.0));
        assert_eq!(font.width("ab", 10.0), font.width("a", 10.0) + font.width("b", 10.0));
    }
}
