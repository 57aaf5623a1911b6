//! What a drawing is made of, before it is written in a format: filled and stroked paths and
//! glyphs, in drawing units with y growing downwards. SVG, PNG and PDF each write the same scene,
//! so they cannot differ in what they show.

/// A point in drawing units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point(pub f32, pub f32);

impl Point {
    /// The point `t` of the way from `self` to `to`.
    pub fn lerp(self, to: Point, t: f32) -> Point {
        Point(self.0 + (to.0 - self.0) * t, self.1 + (to.1 - self.1) * t)
    }
}

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segment {
    /// Lifts the pen to the point, starting a new piece.
    Move(Point),
    /// A straight line to the point.
    Line(Point),
    /// A cubic Bézier curve: two control points, then the end.
    Cubic(Point, Point, Point),
    /// A straight line back to the start of the piece, which closes it.
    Close,
}

/// A path: lines and cubic curves, in one or more pieces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    /// The steps, in drawing order; a piece starts at a [`Segment::Move`].
    pub segments: Vec<Segment>,
}

/// How far a circle's control points lie along its tangents, as a share of the radius, for four
/// cubic curves to follow it within 0.03 %.
const CIRCLE_KAPPA: f32 = 0.552_284_8;

impl Path {
    /// Starts a new piece at `to`.
    pub fn move_to(&mut self, to: Point) {
        self.segments.push(Segment::Move(to));
    }

    /// A straight line from the pen to `to`.
    pub fn line_to(&mut self, to: Point) {
        self.segments.push(Segment::Line(to));
    }

    /// A cubic curve from the pen to `to`, pulled towards the control points `first` and `second`.
    pub fn cubic_to(&mut self, first: Point, second: Point, to: Point) {
        self.segments.push(Segment::Cubic(first, second, to));
    }

    /// Closes the current piece with a line back to its start.
    pub fn close(&mut self) {
        self.segments.push(Segment::Close);
    }

    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Where the pen is: the end of the last segment, or the start of the piece a close ended.
    pub fn current(&self) -> Point {
        let mut start = Point(0.0, 0.0);
        let mut pen = start;
        for segment in &self.segments {
            match *segment {
                Segment::Move(to) => (start, pen) = (to, to),
                Segment::Line(to) | Segment::Cubic(_, _, to) => pen = to,
                Segment::Close => pen = start,
            }
        }
        pen
    }

    /// A straight line.
    pub fn line(from: Point, to: Point) -> Path {
        Path { segments: vec![Segment::Move(from), Segment::Line(to)] }
    }

    /// Lines through `points`, in order.
    pub fn polyline(points: impl IntoIterator<Item = Point>) -> Path {
        let mut path = Path::default();
        for (index, point) in points.into_iter().enumerate() {
            if index == 0 { path.move_to(point) } else { path.line_to(point) }
        }
        path
    }

    /// A rectangle from its top left corner and size.
    pub fn rect(x: f32, y: f32, width: f32, height: f32) -> Path {
        let mut path =
            Path::polyline([Point(x, y), Point(x + width, y), Point(x + width, y + height), Point(x, y + height)]);
        path.close();
        path
    }

    /// A diamond (a square standing on a corner) whose corners lie `half` from `centre`.
    pub fn diamond(centre: Point, half: f32) -> Path {
        let Point(x, y) = centre;
        let mut path = Path::polyline([Point(x, y - half), Point(x + half, y), Point(x, y + half), Point(x - half, y)]);
        path.close();
        path
    }

    /// A circle, as four cubic curves.
    pub fn circle(centre: Point, radius: f32) -> Path {
        let Point(x, y) = centre;
        let k = radius * CIRCLE_KAPPA;
        let mut path = Path::default();
        path.move_to(Point(x + radius, y));
        path.cubic_to(Point(x + radius, y + k), Point(x + k, y + radius), Point(x, y + radius));
        path.cubic_to(Point(x - k, y + radius), Point(x - radius, y + k), Point(x - radius, y));
        path.cubic_to(Point(x - radius, y - k), Point(x - k, y - radius), Point(x, y - radius));
        path.cubic_to(Point(x + k, y - radius), Point(x + radius, y - k), Point(x + radius, y));
        path.close();
        path
    }
}

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// Black: givens, grid lines and text.
    pub const BLACK: Color = Color(0, 0, 0);
    /// White: every scene's background, and what covers lines behind a label or a white dot.
    pub const WHITE: Color = Color(255, 255, 255);
}

/// How a path's outline is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// The line's colour.
    pub color: Color,
    /// The line's width, in drawing units.
    pub width: f32,
    /// Dashes and gaps of this length, or a solid line.
    pub dash: Option<f32>,
    /// Round ends and corners (a thermometer), or square ones.
    pub round: bool,
}

/// One thing drawn, over everything drawn before it.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A path's inside, in one colour.
    Fill {
        /// The outline filled, by the non-zero winding rule in every format.
        path: Path,
        /// The colour it is filled with.
        color: Color,
    },
    /// A path's outline.
    Stroke {
        /// The outline drawn.
        path: Path,
        /// How it is drawn.
        stroke: Stroke,
    },
    /// A character of the built-in font, its baseline's left end at `at`, its em `size`
    /// high.
    Glyph {
        /// The character.
        ch: char,
        /// The left end of its baseline.
        at: Point,
        /// Its em height, in drawing units.
        size: f32,
        /// Its colour.
        color: Color,
    },
}

/// A page or an image: its size in drawing units, on white, and what is drawn on it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The width, in drawing units (points on a PDF page, pixels in an image).
    pub width: f32,
    /// The height, in the same units.
    pub height: f32,
    /// What is drawn, in order: each item over those before it.
    pub items: Vec<Item>,
}

impl Scene {
    /// An empty scene of this size.
    pub fn new(width: f32, height: f32) -> Scene {
        Scene { width, height, items: Vec::new() }
    }

    /// Fills `path` over what is drawn so far.
    pub fn fill(&mut self, path: Path, color: Color) {
        self.items.push(Item::Fill { path, color });
    }

    /// Draws `path`'s outline over what is drawn so far.
    pub fn stroke(&mut self, path: Path, stroke: Stroke) {
        self.items.push(Item::Stroke { path, stroke });
    }

    /// `text` in the font, its baseline starting at `at`; characters the font lacks are skipped
    /// (callers check text they take from a request first: [`super::check_title`]).
    pub fn text(&mut self, text: &str, at: Point, size: f32, color: Color) {
        let font = super::font::Font::get();
        let mut x = at.0;
        for ch in text.chars() {
            let Some(glyph) = font.glyph(ch) else { continue };
            if ch != ' ' {
                self.items.push(Item::Glyph { ch, at: Point(x, at.1), size, color });
            }
            x += glyph.advance * size / font.units_per_em;
        }
    }

    /// `text` centred on `centre_x`.
    pub fn text_centred(&mut self, text: &str, centre_x: f32, baseline: f32, size: f32, color: Color) {
        let width = super::font::Font::get().width(text, size);
        self.text(text, Point(centre_x - width / 2.0, baseline), size, color);
    }

    /// The characters drawn, each once, in order: what a format defines before using them.
    pub fn glyphs_used(&self) -> Vec<char> {
        let mut used: Vec<char> = self
            .items
            .iter()
            .filter_map(|item| if let Item::Glyph { ch, .. } = item { Some(*ch) } else { None })
            .collect();
        used.sort_unstable();
        used.dedup();
        used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_knows_where_its_pen_is() {
        let mut path = Path::rect(1.0, 2.0, 3.0, 4.0);
        assert_eq!(path.current(), Point(1.0, 2.0));
        path.line_to(Point(9.0, 9.0));
        assert_eq!(path.current(), Point(9.0, 9.0));
        let circle = Path::circle(Point(5.0, 5.0), 2.0);
        assert_eq!(circle.segments.len(), 6);
        assert_eq!(circle.current(), Point(7.0, 5.0));
    }

    #[test]
    fn text_skips_spaces_and_lists_its_glyphs_once() {
        let mut scene = Scene::new(100.0, 100.0);
        scene.text("1 21", Point(0.0, 10.0), 10.0, Color::BLACK);
        assert_eq!(scene.items.len(), 3);
        assert_eq!(scene.glyphs_used(), vec!['1', '2']);
        let Item::Glyph { at, .. } = scene.items[1] else { panic!() };
        assert!(at.0 > 0.0 && at.1 == 10.0);
    }
}
