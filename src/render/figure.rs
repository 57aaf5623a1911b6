//! One puzzle drawn: its grid with the boxes or jigsaw regions outlined, the marks of its
//! variant (windows, diagonals, cages, thermometers, Kropki dots, X and V marks, greater-than
//! signs, whispers lines, palindromes, renban lines, arrows, between and lockout lines, modular
//! and entropic lines, custom relations, even and odd cells, quadruples' circles, and little
//! killers', sandwiches' and X-sums' clues outside the grid, in a margin the grid leaves for them
//! only when there are some), its
//! givens, and if asked its solution (in red, as the playground shows it) or pencil marks, under
//! a title and over a caption. Proportions are of the grid's side, so a figure scales to any
//! width and page.

use crate::puzzle::Puzzle;
use crate::sizes::{AnyGrid, Marks, Shape};
use crate::variants::{Between, Constraints, CustomRelation, Diagonals, End, LittleKiller, Place};

use super::font::Font;
use super::scene::{Color, Path, Point, Scene, Stroke};

/// Givens.
const GIVEN: Color = Color::BLACK;
/// Digits the solution adds: the playground's red.
const SOLVED: Color = Color(0xc0, 0x1c, 0x28);
/// Pencil marks.
const MARK: Color = Color(0x44, 0x44, 0x44);
/// Extra regions (a windoku's windows), and even and odd cells.
const SHADE: Color = Color(0xdd, 0xdd, 0xdd);
/// Thermometers.
const THERMOMETER: Color = Color(0xc4, 0xc4, 0xc4);
/// Diagonals.
const DIAGONAL: Color = Color(0x99, 0x99, 0x99);
/// Whispers lines: the community's green.
const WHISPERS: Color = Color(0x67, 0xf0, 0x67);
/// Palindromes: the community's grey, darker than a thermometer's.
const PALINDROME: Color = Color(0x9a, 0x9a, 0x9a);
/// Arrows, their bulbs' outlines and their shafts: the community's grey.
const ARROW: Color = Color(0x8a, 0x8a, 0x8a);
/// Renban lines: the community's purple.
const RENBAN: Color = Color(0xf0, 0x67, 0xf0);
/// Modular lines: a teal blue.
const MODULAR: Color = Color(0x3d, 0xa5, 0xd9);
/// Entropic lines: an orange.
const ENTROPIC: Color = Color(0xf0, 0xa0, 0x40);
/// A whispers line's difference, written beside its first cell: a darker green that reads on white.
const WHISPERS_LABEL: Color = Color(0x1a, 0x7f, 0x1a);
/// A custom relation's line, its nodes and its name.
const RELATION: Color = Color(0x6a, 0x4c, 0x9c);

/// The band around the grid for clues outside it (little killers), in cells: the grid and its
/// band fill the figure's width, as the grid alone does without such clues.
const OUTSIDE_BAND: f32 = 0.75;

/// Shares of the grid's side above it for a title, and below for a caption.
const TITLE_BAND: f32 = 0.09;
const TITLE_SIZE: f32 = 0.06;
const CAPTION_BAND: f32 = 0.055;
const CAPTION_SIZE: f32 = 0.032;

/// A puzzle and what is drawn with it.
#[derive(Clone, Copy, Debug)]
pub struct Figure<'a> {
    /// The puzzle: its givens, and what its variant's rules draw (regions, cages, lines, dots).
    pub puzzle: &'a Puzzle,
    /// The solution, whose values in the puzzle's blank cells are drawn in red.
    pub solution: Option<&'a AnyGrid>,
    /// Pencil marks, drawn small in blank cells the solution does not fill.
    pub marks: Option<&'a Marks>,
    /// A line above the grid, scaled down to fit its width.
    pub title: Option<&'a str>,
    /// A line under the grid (a puzzle's id); the rules the drawing cannot show follow it.
    pub caption: Option<&'a str>,
}

impl Figure<'_> {
    /// How tall the figure is for each unit of its width.
    pub fn aspect(&self) -> f32 {
        1.0 + if self.title.is_some() { TITLE_BAND } else { 0.0 }
            + if self.caption_line().is_empty() { 0.0 } else { CAPTION_BAND }
    }

    /// The caption and the rules no mark shows, in one line.
    fn caption_line(&self) -> String {
        let rules = self.puzzle.variant().map(|variant| unmarked_rules(variant.constraints())).unwrap_or_default();
        let parts: Vec<&str> = self.caption.into_iter().chain(rules).collect();
        parts.join(" · ")
    }

    /// Draws the figure `width` wide with its top left corner at `at`.
    pub fn draw(&self, scene: &mut Scene, at: Point, width: f32) {
        let mut top = at.1;
        if let Some(title) = self.title {
            let size = fit(title, TITLE_SIZE * width, width);
            scene.text_centred(title, at.0 + width / 2.0, top + 0.07 * width, size, Color::BLACK);
            top += TITLE_BAND * width;
        }
        let size = self.puzzle.shape().size();
        let outside = self.puzzle.variant().is_some_and(|variant| has_outside_clues(variant.constraints()));
        let grid = if outside {
            let cell = width / (size as f32 + 2.0 * OUTSIDE_BAND);
            GridBox { left: at.0 + OUTSIDE_BAND * cell, top: top + OUTSIDE_BAND * cell, cell, size }
        } else {
            GridBox { left: at.0, top, cell: width / size as f32, size }
        };
        if let Some(variant) = self.puzzle.variant() {
            draw_under_lines(scene, &grid, variant.constraints());
        }
        draw_lines(scene, &grid, &self.puzzle.regions());
        if let Some(variant) = self.puzzle.variant() {
            draw_over_lines(scene, &grid, variant.constraints());
        }
        self.draw_symbols(scene, &grid);
        let caption = self.caption_line();
        if !caption.is_empty() {
            let size = fit(&caption, CAPTION_SIZE * width, width);
            scene.text_centred(&caption, at.0 + width / 2.0, top + width + 0.04 * width, size, Color::BLACK);
        }
    }

    fn draw_symbols(&self, scene: &mut Scene, grid: &GridBox) {
        let puzzle = self.puzzle.grid();
        let shape = puzzle.shape();
        for (index, &given) in puzzle.cells().iter().enumerate() {
            let solved = self.solution.map_or(0, |solution| solution.cells()[index]);
            if given != 0 {
                grid.symbol(scene, index, shape.symbol(given), GIVEN);
            } else if solved != 0 {
                grid.symbol(scene, index, shape.symbol(solved), SOLVED);
            } else if let Some(marks) = self.marks {
                grid.marks(scene, index, shape, marks.values(index));
            }
        }
    }
}

/// The font size at which `text` is `size` high at most and `width` wide at most.
fn fit(text: &str, size: f32, width: f32) -> f32 {
    let natural = Font::get().width(text, size);
    if natural > width { size * width / natural } else { size }
}

/// The rules a drawing has no mark for, named under it. Disjoint groups are among them: the
/// rule bears on every cell alike, as anti-knight does, and the community prints it by name in
/// the rules rather than in the grid; nine tints would drown the other marks and a dot per cell
/// would sit where pencil marks or the centre digit go. Global entropy and global mod likewise
/// bear on every 2x2 square alike.
fn unmarked_rules(constraints: &Constraints) -> Vec<&'static str> {
    let rules = [
        (constraints.disjoint_groups, "disjoint groups"),
        (constraints.anti_knight, "anti-knight"),
        (constraints.anti_king, "anti-king"),
        (constraints.non_consecutive, "non-consecutive"),
        (constraints.anti_taxicab, "anti-taxicab"),
        (constraints.kropki.all_given, "every Kropki dot shown"),
        (constraints.xv.all_given, "every X and V shown"),
        (!constraints.even.is_empty(), "squares even"),
        (!constraints.odd.is_empty(), "circles odd"),
        (constraints.global_entropy, "global entropy"),
        (constraints.global_mod, "global mod"),
    ];
    rules.into_iter().filter(|(applies, _)| *applies).map(|(_, name)| name).collect()
}

/// Where the grid is: its top left corner, a cell's side, and the cells per side.
struct GridBox {
    left: f32,
    top: f32,
    cell: f32,
    size: usize,
}

impl GridBox {
    fn corner(&self, row: usize, col: usize) -> Point {
        Point(self.left + col as f32 * self.cell, self.top + row as f32 * self.cell)
    }

    fn centre(&self, place: Place) -> Point {
        let Place(row, col) = place;
        let Point(x, y) = self.corner(row as usize, col as usize);
        Point(x + self.cell / 2.0, y + self.cell / 2.0)
    }

    fn side(&self) -> f32 {
        self.cell * self.size as f32
    }

    /// `symbol` centred in the cell at `index`, a capital's height half the cell's.
    fn symbol(&self, scene: &mut Scene, index: usize, symbol: char, color: Color) {
        let centre = self.centre(Place((index / self.size) as u64, (index % self.size) as u64));
        centred_glyph(scene, symbol, centre, 0.5 * self.cell, color);
    }

    /// Pencil marks in a cell, each value in its place of a small grid (3 x 3 for 9x9).
    fn marks(&self, scene: &mut Scene, index: usize, shape: Shape, values: impl Iterator<Item = u8>) {
        let (rows, cols) = (shape.box_rows().min(shape.box_cols()), shape.box_rows().max(shape.box_cols()));
        let Point(left, top) = self.corner(index / self.size, index % self.size);
        let (wide, high) = (self.cell / cols as f32, self.cell / rows as f32);
        for value in values {
            let place = usize::from(value - 1);
            let centre = Point(
                left + (place % cols) as f32 * wide + wide / 2.0,
                top + (place / cols) as f32 * high + high / 2.0,
            );
            centred_glyph(scene, shape.symbol(value), centre, 0.55 * wide.min(high), MARK);
        }
    }
}

/// A glyph centred on `centre`, its capital height `height`.
fn centred_glyph(scene: &mut Scene, ch: char, centre: Point, height: f32, color: Color) {
    let font = Font::get();
    let Some(glyph) = font.glyph(ch) else { return };
    let size = height * font.units_per_em / font.cap_height;
    let scale = size / font.units_per_em;
    let x = centre.0 - (glyph.left + glyph.right) / 2.0 * scale;
    scene.items.push(super::scene::Item::Glyph { ch, at: Point(x, centre.1 + height / 2.0), size, color });
}

/// Thin lines between every row and column, thick ones around the grid and between cells of
/// different boxes or regions.
fn draw_lines(scene: &mut Scene, grid: &GridBox, regions: &[u8]) {
    let (size, side) = (grid.size, grid.side());
    let mut thin = Path::default();
    for line in 1..size {
        let offset = line as f32 * grid.cell;
        thin.move_to(Point(grid.left + offset, grid.top));
        thin.line_to(Point(grid.left + offset, grid.top + side));
        thin.move_to(Point(grid.left, grid.top + offset));
        thin.line_to(Point(grid.left + side, grid.top + offset));
    }
    scene.stroke(thin, Stroke { color: Color::BLACK, width: 0.02 * grid.cell, dash: None, round: false });
    let mut thick = Path::rect(grid.left, grid.top, side, side);
    for row in 0..size {
        for col in 0..size {
            let region = regions[row * size + col];
            if col + 1 < size && regions[row * size + col + 1] != region {
                thick.move_to(grid.corner(row, col + 1));
                thick.line_to(grid.corner(row + 1, col + 1));
            }
            if row + 1 < size && regions[(row + 1) * size + col] != region {
                thick.move_to(grid.corner(row + 1, col));
                thick.line_to(grid.corner(row + 1, col + 1));
            }
        }
    }
    scene.stroke(thick, Stroke { color: Color::BLACK, width: 0.07 * grid.cell, dash: None, round: false });
}

/// What lies under the grid's lines: shaded windows, even and odd cells, thermometers, whispers
/// lines, palindromes, renban lines, arrows, between and lockout lines, modular and entropic
/// lines, custom relations and diagonals.
fn draw_under_lines(scene: &mut Scene, grid: &GridBox, constraints: &Constraints) {
    let cell = grid.cell;
    for &Place(row, col) in constraints.extra_regions.iter().flatten() {
        let Point(x, y) = grid.corner(row as usize, col as usize);
        scene.fill(Path::rect(x, y, cell, cell), SHADE);
    }
    for &place in &constraints.even {
        let Point(x, y) = grid.centre(place);
        let half = 0.33 * cell;
        scene.fill(Path::rect(x - half, y - half, 2.0 * half, 2.0 * half), SHADE);
    }
    for &place in &constraints.odd {
        scene.fill(Path::circle(grid.centre(place), 0.36 * cell), SHADE);
    }
    for thermometer in &constraints.thermometers {
        let Some(&bulb) = thermometer.first() else { continue };
        scene.fill(Path::circle(grid.centre(bulb), 0.36 * cell), THERMOMETER);
        let tube = Path::polyline(thermometer.iter().map(|&place| grid.centre(place)));
        scene.stroke(tube, Stroke { color: THERMOMETER, width: 0.24 * cell, dash: None, round: true });
    }
    for whispers in &constraints.whispers {
        let line = Path::polyline(whispers.line.iter().map(|&place| grid.centre(place)));
        scene.stroke(line, Stroke { color: WHISPERS, width: 0.18 * cell, dash: None, round: true });
    }
    for palindrome in &constraints.palindromes {
        let line = Path::polyline(palindrome.iter().map(|&place| grid.centre(place)));
        scene.stroke(line, Stroke { color: PALINDROME, width: 0.14 * cell, dash: None, round: true });
    }
    for renban in &constraints.renbans {
        let line = Path::polyline(renban.iter().map(|&place| grid.centre(place)));
        scene.stroke(line, Stroke { color: RENBAN, width: 0.18 * cell, dash: None, round: true });
    }
    for arrow in &constraints.arrows {
        draw_arrow(scene, grid, &arrow.bulb, &arrow.line);
    }
    for line in &constraints.between_lines {
        draw_marked_line(scene, grid, line, Path::circle);
    }
    for lockout in &constraints.lockout_lines {
        draw_marked_line(scene, grid, &lockout.line, Path::diamond);
    }
    for (lines, color) in [(&constraints.modular_lines, MODULAR), (&constraints.entropic_lines, ENTROPIC)] {
        for line in lines {
            let line = Path::polyline(line.iter().map(|&place| grid.centre(place)));
            scene.stroke(line, Stroke { color, width: 0.18 * cell, dash: None, round: true });
        }
    }
    for relation in &constraints.relations {
        draw_relation(scene, grid, relation);
    }
    let (left, top, side) = (grid.left, grid.top, grid.side());
    let diagonal = Stroke { color: DIAGONAL, width: 0.03 * cell, dash: None, round: false };
    if matches!(constraints.diagonals, Some(Diagonals::Main | Diagonals::Both)) {
        scene.stroke(Path::line(Point(left, top), Point(left + side, top + side)), diagonal);
    }
    if matches!(constraints.diagonals, Some(Diagonals::Anti | Diagonals::Both)) {
        scene.stroke(Path::line(Point(left + side, top), Point(left, top + side)), diagonal);
    }
}

/// A line with a mark at each end (a between line's circles, a lockout line's diamonds), as the
/// community draws it: a grey line through its cells' middles, and over each end a white `shape`
/// (a circle or a diamond from its centre and the reach of its edge) in a grey ring, as an arrow's
/// bulb.
fn draw_marked_line(scene: &mut Scene, grid: &GridBox, cells: &[Place], shape: fn(Point, f32) -> Path) {
    let cell = grid.cell;
    let line = Path::polyline(cells.iter().map(|&place| grid.centre(place)));
    scene.stroke(line, Stroke { color: ARROW, width: 0.08 * cell, dash: None, round: true });
    for end in [cells.first(), cells.last()].into_iter().flatten() {
        for (color, radius) in ring(cell) {
            scene.fill(shape(grid.centre(*end), radius), color);
        }
    }
}

/// A custom relation as ISS draws it: a thin line through its cells in order, a small circle at
/// each cell, hollow when each cell and the next keep the relation, filled when every two do, and
/// its name, if any, small at the bottom left of its first cell.
fn draw_relation(scene: &mut Scene, grid: &GridBox, relation: &CustomRelation) {
    let cell = grid.cell;
    let width = 0.04 * cell;
    let line = Path::polyline(relation.cells.iter().map(|&place| grid.centre(place)));
    scene.stroke(line, Stroke { color: RELATION, width, dash: None, round: true });
    for &place in &relation.cells {
        let node = Path::circle(grid.centre(place), 0.1 * cell);
        match relation.between {
            Between::Neighbours => {
                scene.fill(node.clone(), Color::WHITE);
                scene.stroke(node, Stroke { color: RELATION, width, dash: None, round: false });
            }
            Between::EveryTwo => scene.fill(node, RELATION),
        }
    }
    if let (Some(name), Some(&Place(row, col))) = (&relation.name, relation.cells.first()) {
        let Point(x, y) = grid.corner(row as usize + 1, col as usize);
        scene.text(name, Point(x + 0.06 * cell, y - 0.06 * cell), 0.2 * cell, RELATION);
    }
}

/// The two fills of a circle's grey ring on a grid of `cell`: a grey disc under a smaller white
/// one, as `(colour, radius)`, first drawn first.
fn ring(cell: f32) -> [(Color, f32); 2] {
    let (radius, outline) = (0.4 * cell, 0.06 * cell);
    [(ARROW, radius), (Color::WHITE, radius - outline)]
}

/// An arrow as the community draws it: its bulb a grey outline (a circle, or a capsule round a
/// pill), its shaft a thin grey line from the bulb's edge through its cells, with a head at the end.
fn draw_arrow(scene: &mut Scene, grid: &GridBox, bulb: &[Place], shaft: &[Place]) {
    let cell = grid.cell;
    let (radius, outline) = (0.4 * cell, 0.06 * cell);
    let line = Stroke { color: ARROW, width: outline, dash: None, round: true };
    // A thick grey stroke under a thinner white one leaves the outline.
    for (color, half_width) in ring(cell) {
        let width = 2.0 * half_width;
        match bulb {
            [one] => scene.fill(Path::circle(grid.centre(*one), width / 2.0), color),
            _ => {
                let pill = Path::polyline(bulb.iter().map(|&place| grid.centre(place)));
                scene.stroke(pill, Stroke { color, width, dash: None, round: true });
            }
        }
    }
    let (Some(&first), Some(&last)) = (shaft.first(), shaft.last()) else { return };
    // From the bulb's cell nearest the shaft, at its edge.
    let nearest = |place: &&Place| place.0.abs_diff(first.0).max(place.1.abs_diff(first.1));
    let Some(&from) = bulb.iter().min_by_key(nearest) else { return };
    let (Point(x0, y0), Point(x1, y1)) = (grid.centre(from), grid.centre(first));
    let length = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt().max(f32::EPSILON);
    let start = Point(x0 + (x1 - x0) * radius / length, y0 + (y1 - y0) * radius / length);
    let points = std::iter::once(start).chain(shaft.iter().map(|&place| grid.centre(place)));
    scene.stroke(Path::polyline(points), line);
    // The head: two strokes back from the tip, 35 degrees either side of the last step.
    let before = if shaft.len() > 1 { grid.centre(shaft[shaft.len() - 2]) } else { start };
    let (Point(tx, ty), Point(bx, by)) = (grid.centre(last), before);
    let angle = (ty - by).atan2(tx - bx);
    for side in [-1.0f32, 1.0] {
        let back = angle + std::f32::consts::PI - side * 35f32.to_radians();
        let end = Point(tx + 0.25 * cell * back.cos(), ty + 0.25 * cell * back.sin());
        scene.stroke(Path::line(Point(tx, ty), end), line);
    }
}

/// What lies over the grid's lines: killer cages with their sums, Kropki dots, X and V letters
/// on a white square where the two cells meet, as printed puzzles show them, greater-than signs
/// across the edge between their cells, and little killers' clues outside the grid.
fn draw_over_lines(scene: &mut Scene, grid: &GridBox, constraints: &Constraints) {
    let cell = grid.cell;
    for cage in &constraints.cages {
        scene.stroke(
            cage_outline(grid, &cage.cells),
            Stroke { color: Color::BLACK, width: 0.025 * cell, dash: Some(0.07 * cell), round: false },
        );
        let (Some(sum), Some(&first)) = (cage.sum, cage.cells.iter().min_by_key(|place| (place.0, place.1))) else {
            continue;
        };
        let label = sum.to_string();
        let size = 0.26 * cell;
        let Point(x, y) = grid.corner(first.0 as usize, first.1 as usize);
        let width = Font::get().width(&label, size);
        scene.fill(Path::rect(x + 0.04 * cell, y + 0.04 * cell, width + 0.06 * cell, 0.26 * cell), Color::WHITE);
        scene.text(&label, Point(x + 0.07 * cell, y + 0.26 * cell), size, Color::BLACK);
    }
    // A difference a line gives, small at the bottom right of its first cell (a cage's sum
    // takes the top left).
    for whispers in &constraints.whispers {
        let (Some(difference), Some(&first)) = (whispers.difference, whispers.line.first()) else { continue };
        let label = difference.to_string();
        let size = 0.22 * cell;
        let Point(x, y) = grid.corner(first.0 as usize + 1, first.1 as usize + 1);
        let width = Font::get().width(&label, size);
        scene.text(&label, Point(x - width - 0.06 * cell, y - 0.06 * cell), size, WHISPERS_LABEL);
    }
    let dots = constraints.kropki.white.iter().map(|pair| (pair, false));
    for (&[first, second], black) in dots.chain(constraints.kropki.black.iter().map(|pair| (pair, true))) {
        let centre = grid.centre(first).lerp(grid.centre(second), 0.5);
        let dot = Path::circle(centre, 0.11 * cell);
        scene.fill(dot.clone(), if black { Color::BLACK } else { Color::WHITE });
        scene.stroke(dot, Stroke { color: Color::BLACK, width: 0.025 * cell, dash: None, round: false });
    }
    for clue in &constraints.little_killers {
        draw_little_killer(scene, grid, clue);
    }
    for clue in &constraints.sandwiches {
        draw_line_clue(scene, grid, clue.row, clue.column, clue.from, &clue.sum.to_string());
    }
    for clue in &constraints.x_sums {
        draw_line_clue(scene, grid, clue.row, clue.column, clue.from, &clue.sum.to_string());
    }
    let marks = constraints.xv.x.iter().map(|pair| (pair, 'X'));
    for (&[first, second], letter) in marks.chain(constraints.xv.v.iter().map(|pair| (pair, 'V'))) {
        let Point(x, y) = grid.centre(first).lerp(grid.centre(second), 0.5);
        let half = 0.15 * cell;
        scene.fill(Path::rect(x - half, y - half, 2.0 * half, 2.0 * half), Color::WHITE);
        centred_glyph(scene, letter, Point(x, y), 0.24 * cell, Color::BLACK);
    }
    for sign in &constraints.greater_than {
        scene.stroke(
            chevron(grid, sign.greater, sign.less),
            Stroke { color: Color::BLACK, width: 0.04 * cell, dash: None, round: true },
        );
    }
    for quadruple in &constraints.quadruples {
        draw_quadruple(scene, grid, quadruple.top_left, &quadruple.digits);
    }
}

/// A quadruple as the community draws it: a white circle on the corner its four cells share,
/// its digits small inside, two to a line (one line for one or two digits).
fn draw_quadruple(scene: &mut Scene, grid: &GridBox, top_left: Place, digits: &[u64]) {
    let cell = grid.cell;
    let centre = grid.corner(top_left.0 as usize + 1, top_left.1 as usize + 1);
    let circle = Path::circle(centre, 0.24 * cell);
    scene.fill(circle.clone(), Color::WHITE);
    scene.stroke(circle, Stroke { color: Color::BLACK, width: 0.02 * cell, dash: None, round: false });
    let lines: Vec<String> =
        digits.chunks(2).map(|pair| pair.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")).collect();
    let size = 0.17 * cell;
    let step = 0.16 * cell;
    let top = centre.1 - step * (lines.len() as f32 - 1.0) / 2.0;
    for (number, line) in lines.iter().enumerate() {
        let baseline = top + number as f32 * step + 0.06 * cell;
        scene.text_centred(line, centre.0, baseline, size, Color::BLACK);
    }
}

/// A greater-than sign: a chevron on the middle of the edge between `greater` and `less`, open
/// towards the greater and pointing at the smaller.
fn chevron(grid: &GridBox, greater: Place, less: Place) -> Path {
    let (from, to) = (grid.centre(greater), grid.centre(less));
    let middle = from.lerp(to, 0.5);
    // A cell's step from the greater to the smaller, and how deep and wide the chevron is.
    let (down, right) = ((to.1 - from.1) / grid.cell, (to.0 - from.0) / grid.cell);
    let (depth, half) = (0.07 * grid.cell, 0.16 * grid.cell);
    let arm =
        |side: f32| Point(middle.0 - right * depth - side * down * half, middle.1 - down * depth + side * right * half);
    Path::polyline([arm(1.0), Point(middle.0 + right * depth, middle.1 + down * depth), arm(-1.0)])
}

/// Whether the grid leaves a band outside it for clues: little killers and clues beside rows and
/// columns.
fn has_outside_clues(constraints: &Constraints) -> bool {
    !constraints.little_killers.is_empty() || !constraints.sandwiches.is_empty() || !constraints.x_sums.is_empty()
}

/// A clue beside a row's or column's end (a sandwich, an X-sum), as printed puzzles show it: its number in
/// the band outside the grid, in line with the row or column, beyond the `from` end.
fn draw_line_clue(scene: &mut Scene, grid: &GridBox, row: Option<u64>, column: Option<u64>, from: End, label: &str) {
    let cell = grid.cell;
    // The band's middle beyond the end, and the line's middle along it.
    let beyond = |start: f32| match from {
        End::Start => start - OUTSIDE_BAND / 2.0 * cell,
        End::End => start + grid.side() + OUTSIDE_BAND / 2.0 * cell,
    };
    let along = |start: f32, index: u64| start + (index as f32 + 0.5) * cell;
    let centre = match (row, column) {
        (Some(row), None) => Point(beyond(grid.left), along(grid.top, row)),
        (None, Some(column)) => Point(along(grid.left, column), beyond(grid.top)),
        _ => return,
    };
    let height = 0.26 * cell;
    let size = height * Font::get().units_per_em / Font::get().cap_height;
    scene.text_centred(label, centre.0, centre.1 + height / 2.0, size, Color::BLACK);
}

/// A little killer as printed puzzles show it: its sum in the band outside the grid, beside the
/// cell before the diagonal's first, and a small arrow pointing at that first cell's corner.
fn draw_little_killer(scene: &mut Scene, grid: &GridBox, clue: &LittleKiller) {
    let cell = grid.cell;
    let (rows, cols) = clue.direction.step();
    let (row, col) = clue.clue();
    // Along each axis: the outside cell's middle in the grid's range, the band's middle beyond
    // it; nudged back from the arrow.
    let at = |coordinate: i64, step: i64, start: f32| {
        let step = step as f32;
        if (0..grid.size as i64).contains(&coordinate) {
            start + (coordinate as f32 + 0.5) * cell - 0.14 * step * cell
        } else if coordinate < 0 {
            start - OUTSIDE_BAND / 2.0 * cell - 0.08 * step * cell
        } else {
            start + grid.side() + OUTSIDE_BAND / 2.0 * cell - 0.08 * step * cell
        }
    };
    let label = clue.sum.to_string();
    let height = 0.22 * cell;
    let size = height * Font::get().units_per_em / Font::get().cap_height;
    scene.text_centred(&label, at(col, cols, grid.left), at(row, rows, grid.top) + height / 2.0, size, Color::BLACK);
    // The arrow ends just short of the corner the clue's cell shares with the diagonal's first.
    let first = grid.centre(clue.start);
    let (dx, dy) = (cols as f32 * cell, rows as f32 * cell);
    let corner = Point(first.0 - dx / 2.0, first.1 - dy / 2.0);
    let tip = Point(corner.0 - 0.05 * dx, corner.1 - 0.05 * dy);
    let tail = Point(corner.0 - 0.3 * dx, corner.1 - 0.3 * dy);
    let line = Stroke { color: Color::BLACK, width: 0.025 * cell, dash: None, round: true };
    scene.stroke(Path::line(tail, tip), line);
    let angle = dy.atan2(dx);
    for side in [-1.0f32, 1.0] {
        let back = angle + std::f32::consts::PI - side * 35f32.to_radians();
        let end = Point(tip.0 + 0.1 * cell * back.cos(), tip.1 + 0.1 * cell * back.sin());
        scene.stroke(Path::line(tip, end), line);
    }
}

/// A cage's outline, drawn a little inside its cells: each side of a cage cell that borders a
/// cell outside the cage, running on into the next cell's side along a straight stretch and
/// meeting the turning side at an inner corner.
fn cage_outline(grid: &GridBox, cells: &[Place]) -> Path {
    let inset = 0.09 * grid.cell;
    let size = grid.size as i64;
    let inside = |row: i64, col: i64| {
        (0..size).contains(&row) && (0..size).contains(&col) && cells.contains(&Place(row as u64, col as u64))
    };
    let mut path = Path::default();
    for &Place(row, col) in cells {
        let (row, col) = (row as i64, col as i64);
        let Point(left, top) = grid.corner(row as usize, col as usize);
        let (right, bottom) = (left + grid.cell, top + grid.cell);
        // Each side: the step outwards (dr, dc), and along it (ar, ac).
        for (dr, dc) in [(-1i64, 0i64), (0, 1), (1, 0), (0, -1)] {
            if inside(row + dr, col + dc) {
                continue;
            }
            let (ar, ac) = (dc, -dr);
            // How far the side runs past each end: into the inset of a convex corner, to the
            // cell's edge along a straight stretch, or past it to meet an inner corner.
            let reach = |sign: i64| {
                if !inside(row + sign * ar, col + sign * ac) {
                    -inset
                } else if inside(row + sign * ar + dr, col + sign * ac + dc) {
                    inset
                } else {
                    0.0
                }
            };
            let (before, after) = (reach(-1), reach(1));
            let (from, to) = match (dr, dc) {
                (-1, _) => (Point(left - before, top + inset), Point(right + after, top + inset)),
                (1, _) => (Point(right + before, bottom - inset), Point(left - after, bottom - inset)),
                (_, 1) => (Point(right - inset, top - before), Point(right - inset, bottom + after)),
                _ => (Point(left + inset, bottom + before), Point(left + inset, top - after)),
            };
            path.move_to(from);
            path.line_to(to);
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Cage, Preset};

    fn grid() -> GridBox {
        GridBox { left: 0.0, top: 0.0, cell: 100.0, size: 9 }
    }

    fn segments(path: &Path) -> Vec<(Point, Point)> {
        path.segments
            .chunks(2)
            .map(|pair| match pair {
                [super::super::scene::Segment::Move(from), super::super::scene::Segment::Line(to)] => (*from, *to),
                other => panic!("not a line: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_single_cell_cage_is_a_square_inside_the_cell() {
        let lines = segments(&cage_outline(&grid(), &[Place(1, 1)]));
        assert_eq!(
            lines,
            vec![
                (Point(109.0, 109.0), Point(191.0, 109.0)),
                (Point(191.0, 109.0), Point(191.0, 191.0)),
                (Point(191.0, 191.0), Point(109.0, 191.0)),
                (Point(109.0, 191.0), Point(109.0, 109.0)),
            ]
        );
    }

    #[test]
    fn an_l_shaped_cage_meets_at_its_inner_corner() {
        // Cells r0c0, r0c1 and r1c0: the inner corner is at (191, 191) shifted by the inset.
        let lines = segments(&cage_outline(&grid(), &[Place(0, 0), Place(0, 1), Place(1, 0)]));
        // r0c1's bottom side runs from its right inset to past its left edge, to the corner the
        // inner side of r1c0 (its right side) reaches.
        assert!(lines.contains(&(Point(191.0, 91.0), Point(91.0, 91.0))), "{lines:?}");
        assert!(lines.contains(&(Point(91.0, 91.0), Point(91.0, 191.0))), "{lines:?}");
        // The top runs straight across both cells.
        assert!(lines.contains(&(Point(9.0, 9.0), Point(100.0, 9.0))));
        assert!(lines.contains(&(Point(100.0, 9.0), Point(191.0, 9.0))));
        assert_eq!(lines.len(), 8);
    }

    #[test]
    fn rules_without_marks_are_named_in_the_caption() {
        let board = AnyGrid::parse(&".".repeat(81), None).unwrap();
        let puzzle = Puzzle::new(board, Some(Preset::AntiKnight), &Constraints::default()).unwrap();
        let figure =
            Figure { puzzle: &puzzle, solution: None, marks: None, title: None, caption: Some("easy.none.3x3.1") };
        assert_eq!(figure.caption_line(), "easy.none.3x3.1 · anti-knight");
        let killer = Constraints {
            cages: vec![Cage { cells: vec![Place(0, 0), Place(0, 1)], sum: Some(3) }],
            ..Constraints::default()
        };
        let board = AnyGrid::parse(&".".repeat(81), None).unwrap();
        let puzzle = Puzzle::new(board, Some(Preset::Killer), &killer).unwrap();
        let figure = Figure { puzzle: &puzzle, solution: None, marks: None, title: None, caption: None };
        assert_eq!(figure.caption_line(), "");
        assert_eq!(figure.aspect(), 1.0);
    }
}
