//! The Interactive Sudoku Solver's constraint strings, the form of its links and collections:
//! `.~R1C1_5~R1C2_3.Cage~21~R1C1~R1C2.Thermo~R9C4~R8C3.WhiteDot~R8C9~R9C9`.
//!
//! A string is a list of items, each `.` then a type and its arguments separated by `~`
//! (whitespace anywhere is dropped). The type of givens is empty: `~R1C1_5` gives r1c1 the 5,
//! `~R1C1_2_4_6_8` limits it to those digits. A cell is `R`, its row, `C`, its column, each one
//! base-17 digit (`1`-`9`, then `a`-`g`), so the format reaches 16x16 grids. Grids other than
//! 9x9 begin with `.Shape~NxN`.
//!
//! What sudokud has, it reads and writes: givens, even and odd cells (as the candidate lists
//! `2_4_6_8` and `1_3_5_7_9`), `Shape`, `NoBoxes` with `Jigsaw` (regions in place of the boxes),
//! `Jigsaw` alone and `AllDifferent` of N cells (extra regions), `Windoku`, `Diagonal`,
//! `DisjointSets` (disjoint groups), `AntiKnight`, `AntiKing`, `AntiConsecutive`, `AntiTaxicab`, `Cage`,
//! `Thermo`, `WhiteDot`, `BlackDot`,
//! `StrictKropki`, `X`, `V`, `StrictXV`, `GreaterThan` (`GreaterThan~R1C1~R1C2`: each cell greater than
//! the later cells beside it) and `Whisper` (`Whisper~4~R1C1~R1C2`, its difference
//! first when it gives one; a line through a cell again is read as lines cut there) and
//! `Palindrome`, `Renban`, `Arrow` (the bulb's cell first), `PillArrow` (`PillArrow~2~R1C1~R1C2~R2C3`:
//! the pill's size, its cells, read left to right and top to bottom, then the shaft) and
//! `LittleKiller` (`LittleKiller~23~R1C5`: the sum, then the cell ISS names the diagonal by, at
//! one end; a clue at the other end is written there, the same cells and sum, and a diagonal of
//! one cell, which ISS lacks, is refused), `Between` (`Between~R9C5~R8C6~R7C7`: the line's
//! cells, its circles first and last), `Lockout` (`Lockout~4~R1C2~R2C2~R3C2`: the diamonds'
//! least difference, then the line's cells, its diamonds first and last; written with the
//! difference always, read as a line of the size's own difference when it is that), `Quad`
//! (`Quad~R1C1~1~4~6~7`: the top-left cell of the four around the circle's corner, then its
//! digits), `Modular` (`Modular~3~R1C1~R1C2~R1C3`: the modulus, 3, then the line's cells),
//! `Entropic` (the line's cells), `Sandwich` (`Sandwich~35~C4`: the sum, then the row or column,
//! `R` or `C` and its number; ISS draws it at the line's start, so a clue drawn at the end is
//! written there, the same sum) and `XSum` (`XSum~C2~27~8`: the row or column, then its clue from
//! the start, left or top, then from the end, either empty; each clue is written as its own
//! item), `GlobalEntropy` and `GlobalMod` (every 2x2 square holds a low, a middle and a high
//! digit, or a digit of each residue mod 3), `Pair`, `PairX` (`Pair~KEY~_name~R1C1~R1C2~~R2C1~R2C2`:
//! custom relations, each two cells in a row or every two cells of each group keeping the key's
//! table of digit pairs; groups separated by an empty argument, each taking the `_`-prefixed,
//! URI-encoded name before it; the older `Binary` and `BinaryX`, keys with `-` and `_` swapped,
//! are read too). Any other type is refused by name
//! ([`ShareError::Unsupported`]), never dropped.

use super::{LARGEST, ShareError, SharedPuzzle, check_writable, numbered, whispers_lines};
use crate::constraints::{
    Arrow, Between, Cage, Constraints, CustomRelation, Diagonals, DigitPair, Direction, End, GreaterThan, LittleKiller,
    LockoutLine, Place, Quadruple, Regions, Sandwich, XSum,
};
use crate::family::lockout_lines;
use crate::grid::Grid;
use crate::shape::{SIZES, Shape};

/// The format's name in messages.
const FORMAT: &str = "an ISS constraint string";

/// The tool's name in messages.
const TOOL: &str = "ISS";

fn malformed(why: impl Into<String>) -> ShareError {
    ShareError::Malformed { format: FORMAT, why: why.into() }
}

fn inexpressible(what: impl Into<String>) -> ShareError {
    ShareError::Inexpressible { format: FORMAT, what: what.into() }
}

/// The puzzle of an ISS constraint string.
pub fn read(text: &str) -> Result<SharedPuzzle, ShareError> {
    let text: String = text.chars().filter(|ch| !ch.is_whitespace()).collect();
    let Some(items) = text.strip_prefix('.') else {
        return Err(malformed("it starts with `.`, as `.~R1C1_5~R1C2_3`".to_owned()));
    };
    // The solver's page also reads plain grids, which may start with a blank: those are boards.
    let cells = text.chars().count();
    if !text.contains('~') && SIZES.iter().any(|size| cells == size * size || cells == 2 * size * size) {
        return Err(malformed("it is a grid of digits and dots (with a jigsaw layout after it), a board".to_owned()));
    }
    let items: Vec<(&str, Vec<&str>)> = items
        .split('.')
        // An empty item (`..`, a trailing `.`) says nothing.
        .filter(|item| !item.is_empty())
        .map(|item| {
            let mut parts = item.split('~');
            let kind = parts.next().unwrap_or_default();
            (kind, parts.collect())
        })
        .collect();
    let shape = read_shape(&items)?;
    let mut reader = Reader { size: shape.size(), givens: vec![0; shape.cells()], ..Reader::default() };
    for (kind, args) in &items {
        reader.item(kind, args)?;
    }
    reader.finish(shape)
}

/// The grid's shape from its `Shape` item (9x9 without one): square grids of the sizes sudokud
/// has, with their default boxes (the format's boxes are those too).
fn read_shape(items: &[(&str, Vec<&str>)]) -> Result<Shape, ShareError> {
    let mut shapes = items.iter().filter(|(kind, _)| *kind == "Shape");
    let Some((_, args)) = shapes.next() else { return Ok(Shape::CLASSIC) };
    if shapes.next().is_some() {
        return Err(malformed("it has two `Shape` items".to_owned()));
    }
    let spec = args.join("~");
    let unsupported = |what: &str| ShareError::Unsupported {
        tool: TOOL,
        rule: "Shape".to_owned(),
        what: format!("`Shape~{spec}`: {what}"),
    };
    let (dims, range, grid_type) = match args.as_slice() {
        [dims] => (*dims, "", ""),
        [dims, range] => (*dims, *range, ""),
        [dims, range, grid_type] => (*dims, *range, *grid_type),
        _ => return Err(malformed(format!("`Shape~{spec}` is no shape, as `Shape~6x6`"))),
    };
    let (rows, cols) = dims
        .split_once('x')
        .and_then(|(rows, cols)| Some((rows.parse::<usize>().ok()?, cols.parse::<usize>().ok()?)))
        .ok_or_else(|| malformed(format!("`Shape~{spec}` is no shape, as `Shape~6x6`")))?;
    if rows != cols {
        return Err(unsupported("a grid that is not square"));
    }
    let shape = Shape::default_for(rows).ok_or_else(|| unsupported("a grid of a size sudokud does not have"))?;
    let size = rows.to_string();
    if !(range.is_empty() || range == size || range == format!("1-{size}")) {
        return Err(unsupported("digits other than 1 to the grid's size"));
    }
    if !(grid_type.is_empty() || grid_type == "Sudoku") {
        return Err(unsupported("a grid without rows and columns as houses"));
    }
    Ok(shape)
}

/// What the items say so far.
#[derive(Default)]
struct Reader {
    size: usize,
    givens: Vec<u8>,
    constraints: Constraints,
    no_boxes: bool,
    /// The layouts of `Jigsaw` items: the boxes' replacement with `NoBoxes`, else extra regions.
    jigsaws: Vec<String>,
    diagonals: [bool; 2],
}

impl Reader {
    fn item(&mut self, kind: &str, args: &[&str]) -> Result<(), ShareError> {
        let flag = |args: &[&str]| match args {
            [] => Ok(()),
            _ => Err(malformed(format!("`{kind}` takes no arguments"))),
        };
        match kind {
            "" => args.iter().try_for_each(|given| self.given(given))?,
            // Read first, by `read_shape`.
            "Shape" => {}
            "NoBoxes" => flag(args).map(|()| self.no_boxes = true)?,
            "Jigsaw" => self.jigsaw(args)?,
            "Windoku" => {
                flag(args)?;
                self.constraints.extra_regions.extend(windows(self.size));
            }
            "AllDifferent" => {
                let cells = self.cells(kind, args)?;
                if cells.len() != self.size {
                    return Err(ShareError::Unsupported {
                        tool: TOOL,
                        rule: kind.to_owned(),
                        what: format!("{} cells that differ: sudokud's extra regions have {}", cells.len(), self.size),
                    });
                }
                self.constraints.extra_regions.push(cells);
            }
            "Diagonal" => match args {
                ["1"] => self.diagonals[1] = true,
                ["-1"] => self.diagonals[0] = true,
                _ => return Err(malformed(format!("`Diagonal~{}` is neither 1 nor -1", args.join("~")))),
            },
            "DisjointSets" => flag(args).map(|()| self.constraints.disjoint_groups = true)?,
            "AntiKnight" => flag(args).map(|()| self.constraints.anti_knight = true)?,
            "AntiKing" => flag(args).map(|()| self.constraints.anti_king = true)?,
            "AntiConsecutive" => flag(args).map(|()| self.constraints.non_consecutive = true)?,
            "AntiTaxicab" => flag(args).map(|()| self.constraints.anti_taxicab = true)?,
            "StrictKropki" => flag(args).map(|()| self.constraints.kropki.all_given = true)?,
            "StrictXV" => flag(args).map(|()| self.constraints.xv.all_given = true)?,
            "GlobalEntropy" => flag(args).map(|()| self.constraints.global_entropy = true)?,
            "GlobalMod" => flag(args).map(|()| self.constraints.global_mod = true)?,
            "Cage" => {
                let Some((sum, cells)) = args.split_first() else {
                    return Err(malformed("a `Cage` has a sum (or none) and cells".to_owned()));
                };
                let sum = match *sum {
                    "" => None,
                    sum => Some(sum.parse().map_err(|_| malformed(format!("`{sum}` is no cage sum")))?),
                };
                let cells = self.cells(kind, cells)?;
                self.constraints.cages.push(Cage { cells, sum });
            }
            "Thermo" => {
                let cells = self.cells(kind, args)?;
                self.constraints.thermometers.push(cells);
            }
            "Whisper" => {
                // The difference, when given, comes first; a cell is never a number.
                let (difference, cells) = match args.split_first() {
                    Some((first, cells)) if first.bytes().all(|byte| byte.is_ascii_digit()) => {
                        let difference = first.parse().map_err(|_| malformed(format!("`{first}` is no difference")))?;
                        (Some(difference), cells)
                    }
                    _ => (None, args),
                };
                let line = self.cells(kind, cells)?;
                self.constraints.whispers.extend(whispers_lines(&line, difference));
            }
            "Palindrome" => {
                let line = self.cells(kind, args)?;
                self.constraints.palindromes.push(line);
            }
            "Renban" => {
                let line = self.cells(kind, args)?;
                self.constraints.renbans.push(line);
            }
            "Between" => {
                let line = self.cells(kind, args)?;
                self.constraints.between_lines.push(line);
            }
            "Lockout" => {
                let Some((difference, cells)) = args.split_first() else {
                    return Err(malformed("a `Lockout` has a difference and cells".to_owned()));
                };
                let difference: u64 =
                    difference.parse().map_err(|_| malformed(format!("`{difference}` is no lockout difference")))?;
                let line = self.cells(kind, cells)?;
                // The size's own difference is the one a line without a difference takes.
                let difference = (difference != lockout_lines::default_difference(self.size)).then_some(difference);
                self.constraints.lockout_lines.push(LockoutLine { line, difference });
            }
            "Modular" => {
                let Some((&"3", cells)) = args.split_first() else {
                    return Err(ShareError::Unsupported {
                        tool: TOOL,
                        rule: kind.to_owned(),
                        what: format!(
                            "a modular line of modulus `{}`: sudokud's modular lines are mod 3",
                            args.first().unwrap_or(&"")
                        ),
                    });
                };
                let line = self.cells(kind, cells)?;
                self.constraints.modular_lines.push(line);
            }
            "Entropic" => {
                let line = self.cells(kind, args)?;
                self.constraints.entropic_lines.push(line);
            }
            "Arrow" | "PillArrow" => {
                let (pill, cells) = match (kind, args.split_first()) {
                    ("PillArrow", Some((size, cells))) => {
                        (size.parse().map_err(|_| malformed(format!("`{size}` is no pill size")))?, cells)
                    }
                    _ => (1, args),
                };
                let mut line = self.cells(kind, cells)?;
                if pill == 0 || pill >= line.len() {
                    return Err(malformed(format!("`{kind}` has no shaft past its bulb of {pill}")));
                }
                let bulb = line.drain(..pill).collect();
                self.constraints.arrows.push(Arrow { bulb, line });
            }
            "LittleKiller" => {
                let [sum, cell] = args else {
                    return Err(malformed("a `LittleKiller` has a sum and a cell".to_owned()));
                };
                let sum = sum.parse().map_err(|_| malformed(format!("`{sum}` is no little killer's sum")))?;
                let start = self.place(cell)?;
                let direction = iss_direction(start, self.size).ok_or_else(|| {
                    malformed(format!("`{cell}` is the end of no diagonal ISS names a little killer by"))
                })?;
                self.constraints.little_killers.push(LittleKiller { sum, start, direction });
            }
            "Sandwich" => {
                let [sum, line] = args else {
                    return Err(malformed(
                        "a `Sandwich` has a sum and a row or column, as `Sandwich~35~C4`".to_owned(),
                    ));
                };
                let sum = sum.parse().map_err(|_| malformed(format!("`{sum}` is no sandwich's sum")))?;
                let (row, column) = self.line(line)?;
                self.constraints.sandwiches.push(Sandwich { sum, row, column, from: End::Start });
            }
            "XSum" => {
                let ((row, column), clues) = self.clues_at_both_ends(kind, args)?;
                for (sum, from) in clues {
                    self.constraints.x_sums.push(XSum { sum, row, column, from });
                }
            }
            "WhiteDot" => self.constraints.kropki.white.extend(self.pairs(kind, args)?),
            "BlackDot" => self.constraints.kropki.black.extend(self.pairs(kind, args)?),
            "X" => self.constraints.xv.x.extend(self.pairs(kind, args)?),
            "V" => self.constraints.xv.v.extend(self.pairs(kind, args)?),
            "Quad" => {
                let Some((cell, digits)) = args.split_first() else {
                    return Err(malformed("a `Quad` has a cell and digits".to_owned()));
                };
                let top_left = self.place(cell)?;
                let digits = digits
                    .iter()
                    .map(|digit| digit.parse().map_err(|_| malformed(format!("`{digit}` is no digit of a `Quad`"))))
                    .collect::<Result<_, _>>()?;
                self.constraints.quadruples.push(Quadruple { top_left, digits });
            }
            "Pair" | "PairX" | "Binary" | "BinaryX" => self.relations(kind, args)?,
            "GreaterThan" => {
                let signs = self.pairs(kind, args)?.into_iter().map(|[greater, less]| GreaterThan { greater, less });
                self.constraints.greater_than.extend(signs);
            }
            other => return Err(unsupported(other)),
        }
        Ok(())
    }

    /// `R1C1_5` (a given) or `R1C1_2_4_6_8` (the digits a cell may hold: even or odd ones).
    fn given(&mut self, given: &str) -> Result<(), ShareError> {
        let mut parts = given.split('_');
        let place = self.place(parts.next().unwrap_or_default())?;
        let mut digits = Vec::new();
        for digit in parts {
            match digit.parse::<u8>() {
                Ok(value) if (1..=self.size).contains(&usize::from(value)) && digit == value.to_string() => {
                    digits.push(value)
                }
                _ => return Err(malformed(format!("`{given}`: `{digit}` is no digit of the grid"))),
            }
        }
        digits.sort_unstable();
        digits.dedup();
        let parity = |even: bool| (1..=self.size as u8).filter(|digit| (digit % 2 == 0) == even).collect::<Vec<_>>();
        match digits.as_slice() {
            [] => return Err(malformed(format!("`{given}` gives no digit"))),
            &[value] => {
                let cell = &mut self.givens[place.0 as usize * self.size + place.1 as usize];
                if *cell != 0 && *cell != value {
                    return Err(malformed(format!("`{given}`: that cell has another given")));
                }
                *cell = value;
            }
            digits if *digits == parity(true) => self.constraints.even.push(place),
            digits if *digits == parity(false) => self.constraints.odd.push(place),
            _ => {
                return Err(ShareError::Unsupported {
                    tool: TOOL,
                    rule: "Given".to_owned(),
                    what: format!("`{given}`: candidates other than the even or the odd digits"),
                });
            }
        }
        Ok(())
    }

    fn jigsaw(&mut self, args: &[&str]) -> Result<(), ShareError> {
        // `Jigsaw~LAYOUT`, or the older `Jigsaw~SHAPE~LAYOUT`.
        let layout = match args {
            [layout] | [_, layout] => *layout,
            _ => return Err(malformed("a `Jigsaw` has one layout".to_owned())),
        };
        if layout.chars().count() != self.size * self.size {
            return Err(malformed(format!(
                "a `Jigsaw` layout has a character for each of the {} cells",
                self.size * self.size
            )));
        }
        self.jigsaws.push(layout.to_owned());
        Ok(())
    }

    /// `Pair~KEY~_name~R1C1~R1C2~~R3C3~R3C4` (`PairX` for every two cells of each group; the
    /// older `Binary` and `BinaryX` with `-` and `_` of the key swapped): the key, the table of
    /// allowed digit pairs ([`binary_key`]), then groups of cells separated by empty arguments,
    /// each after the name (`_` and the name, URI-encoded) it takes, if any; one custom relation
    /// a group.
    fn relations(&mut self, kind: &str, args: &[&str]) -> Result<(), ShareError> {
        let Some((key, items)) = args.split_first() else {
            return Err(malformed(format!("a `{kind}` has a key and cells")));
        };
        let key = match kind {
            "Binary" | "BinaryX" => key
                .chars()
                .map(|ch| match ch {
                    '-' => '_',
                    '_' => '-',
                    ch => ch,
                })
                .collect(),
            _ => (*key).to_owned(),
        };
        let allowed = allowed_of_key(&key, self.size)?;
        let between = if kind.ends_with('X') { Between::EveryTwo } else { Between::Neighbours };
        let (mut name, mut cells, mut groups) = (String::new(), Vec::new(), Vec::new());
        for item in items.iter().chain(std::iter::once(&"")) {
            if item.is_empty() || item.starts_with('_') {
                if !cells.is_empty() {
                    groups.push((name.clone(), std::mem::take(&mut cells)));
                }
                if let Some(label) = item.strip_prefix('_') {
                    name = super::percent_decoded(label, false);
                }
            } else {
                cells.push(self.place(item)?);
            }
        }
        if groups.is_empty() {
            return Err(malformed(format!("`{kind}` names no cells")));
        }
        for (name, cells) in groups {
            let name = (!name.is_empty()).then_some(name);
            self.constraints.relations.push(CustomRelation { cells, between, allowed: allowed.clone(), name });
        }
        Ok(())
    }

    /// The pairs of an item's cells that are side by side, each earlier cell first (as ISS pairs
    /// them: its greater-than signs make the earlier cell the greater).
    fn pairs(&self, kind: &str, args: &[&str]) -> Result<Vec<[Place; 2]>, ShareError> {
        let cells = self.cells(kind, args)?;
        let side_by_side = |a: Place, b: Place| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
        let found: Vec<[Place; 2]> = cells
            .iter()
            .enumerate()
            .flat_map(|(index, &a)| {
                cells[index + 1..].iter().filter(move |&&b| side_by_side(a, b)).map(move |&b| [a, b])
            })
            .collect();
        if found.is_empty() {
            return Err(malformed(format!("`{kind}~{}`: no two of its cells are side by side", args.join("~"))));
        }
        Ok(found)
    }

    fn cells(&self, kind: &str, args: &[&str]) -> Result<Vec<Place>, ShareError> {
        if args.is_empty() {
            return Err(malformed(format!("`{kind}` names no cells")));
        }
        args.iter().map(|cell| self.place(cell)).collect()
    }

    /// The clues of an item naming a row or column, then its clue from the start (left or top),
    /// then from the end, either left empty (`XSum~C2~27~`): the row or column, and each clue's
    /// number and end.
    fn clues_at_both_ends(&self, kind: &str, args: &[&str]) -> Result<(ClueLine, Vec<(u64, End)>), ShareError> {
        let [line, clues @ ..] = args else {
            return Err(malformed(format!("`{kind}` names a row or column first, as `{kind}~C2~12~`")));
        };
        if clues.len() > 2 {
            return Err(malformed(format!("`{kind}` has a clue at each end at most, as `{kind}~C2~12~8`")));
        }
        let (row, column) = self.line(line)?;
        let mut found = Vec::new();
        for (&clue, from) in clues.iter().zip([End::Start, End::End]).filter(|(clue, _)| !clue.is_empty()) {
            let number = clue.parse().map_err(|_| malformed(format!("`{clue}` is no `{kind}` clue")))?;
            found.push((number, from));
        }
        Ok(((row, column), found))
    }

    /// `R3` or `C5`: a row or a column, one base-17 digit, as `(row, column)`, one of the two.
    fn line(&self, line: &str) -> Result<ClueLine, ShareError> {
        let number = |byte: u8| {
            char::from(byte).to_digit(LARGEST as u32 + 1).filter(|&digit| (1..=self.size as u32).contains(&digit))
        };
        match line.as_bytes() {
            [b'R' | b'r', row] if number(*row).is_some() => Ok((number(*row).map(|row| u64::from(row - 1)), None)),
            [b'C' | b'c', col] if number(*col).is_some() => Ok((None, number(*col).map(|col| u64::from(col - 1)))),
            _ => Err(malformed(format!("`{line}` is no row or column of a {0}x{0} grid, as `R3` or `C5`", self.size))),
        }
    }

    /// `R1C1`: a row and a column, each one base-17 digit.
    fn place(&self, cell: &str) -> Result<Place, ShareError> {
        let bytes = cell.as_bytes();
        let coordinate = |byte: u8| {
            char::from(byte).to_digit(LARGEST as u32 + 1).filter(|&digit| (1..=self.size as u32).contains(&digit))
        };
        match bytes {
            [b'R' | b'r', row, b'C' | b'c', col] => match (coordinate(*row), coordinate(*col)) {
                (Some(row), Some(col)) => Ok(Place(u64::from(row - 1), u64::from(col - 1))),
                _ => Err(malformed(format!("`{cell}` is no cell of a {0}x{0} grid", self.size))),
            },
            _ => Err(malformed(format!("`{cell}` is no cell, as `R1C1`"))),
        }
    }

    fn finish(mut self, shape: Shape) -> Result<SharedPuzzle, ShareError> {
        self.constraints.diagonals = match self.diagonals {
            [true, true] => Some(Diagonals::Both),
            [true, false] => Some(Diagonals::Main),
            [false, true] => Some(Diagonals::Anti),
            [false, false] => None,
        };
        match (self.no_boxes, self.jigsaws.as_slice()) {
            (true, [layout]) => self.constraints.regions = Some(Regions::Line(layout.clone())),
            (true, []) => {
                return Err(ShareError::Unsupported {
                    tool: TOOL,
                    rule: "NoBoxes".to_owned(),
                    what: "rows and columns without boxes or regions".to_owned(),
                });
            }
            (true, _) => return Err(malformed("it has more than one jigsaw layout".to_owned())),
            (false, layouts) => {
                for region in layouts.iter().flat_map(|layout| regions_of(layout, self.size)) {
                    if region.len() != self.size {
                        return Err(ShareError::Unsupported {
                            tool: TOOL,
                            rule: "Jigsaw".to_owned(),
                            what: format!(
                                "a region of {} cells beside the boxes: sudokud's extra regions have {}",
                                region.len(),
                                self.size
                            ),
                        });
                    }
                    self.constraints.extra_regions.push(region);
                }
            }
        }
        let givens = Grid::new(shape, self.givens).expect("every given is a digit of the grid");
        Ok(SharedPuzzle { givens, constraints: self.constraints })
    }
}

/// The `row` and `column` of a clue beside a line, one of them named.
type ClueLine = (Option<u64>, Option<u64>);

/// The error for a type sudokud lacks, with what it is where it is one the variant community uses.
fn unsupported(kind: &str) -> ShareError {
    let what = match kind {
        "DoubleArrow" => "double arrows (two circles adding up to the line between them)",
        "Skyscraper" | "HiddenSkyscraper" => "skyscrapers",
        "Zipper" => "zipper lines",
        "RegionSumLine" => "region-sum lines",
        "SumLine" => "sum lines",
        "GreaterThan" => "greater-than signs",
        "RellikCage" => "rellik cages",
        "Lunchbox" => "lunchboxes",
        "Indexing" | "ValueIndexing" => "indexing",
        "NumberedRoom" => "numbered rooms",
        "CountingCircles" => "counting circles",
        "EqualityCage" => "equality cages",
        "Or" | "And" | "End" => "a composite of rules",
        _ => "a rule of the Interactive Sudoku Solver",
    };
    ShareError::Unsupported { tool: TOOL, rule: kind.to_owned(), what: what.to_owned() }
}

/// The way ISS's little killer named by `cell` points on a grid of `size`, or `None` where no
/// diagonal of two cells or more is named by it. ISS names each diagonal once, by one end: a
/// cell of the left column (not the last) pointing down and to the right, of the right column
/// (not the first or last) up and to the left, of the top row (not the first) down and to the
/// left, of the bottom row (not the first or last) up and to the right.
fn iss_direction(cell: Place, size: usize) -> Option<Direction> {
    let last = size as u64 - 1;
    match cell {
        Place(row, 0) if row < last => Some(Direction::DownRight),
        Place(row, col) if col == last && (1..last).contains(&row) => Some(Direction::UpLeft),
        Place(0, col) if col >= 1 => Some(Direction::DownLeft),
        Place(row, col) if row == last && (1..last).contains(&col) => Some(Direction::UpRight),
        _ => None,
    }
}

/// The cell ISS names the diagonal of `clue` by: its first cell, or its last when the clue sits
/// at the other end from ISS's (the same cells, the same sum); `None` for a diagonal of one cell,
/// which ISS has no little killer for.
fn iss_little_killer_cell(clue: &LittleKiller, size: usize) -> Option<Place> {
    let cells = clue.cells(size);
    let ends = [(cells.first()?, clue.direction), (cells.last()?, clue.direction.reversed())];
    let named =
        ends.into_iter().find(|&(&cell, direction)| cells.len() > 1 && iss_direction(cell, size) == Some(direction));
    named.map(|(&cell, _)| cell)
}

/// The windows `Windoku` means: boxes' shapes one cell in from the edges and one apart, as many as
/// fit inside the grid's last row and column (one on 6x6, four on 9x9).
fn windows(size: usize) -> Vec<Vec<Place>> {
    let shape = Shape::default_for(size).expect("a shape the string was read at");
    let starts = |side: usize| (1..).step_by(side + 1).take_while(move |start| start + side < size);
    let mut windows = Vec::new();
    for top in starts(shape.box_rows()) {
        for left in starts(shape.box_cols()) {
            let cells = (top..top + shape.box_rows())
                .flat_map(|row| (left..left + shape.box_cols()).map(move |col| Place(row as u64, col as u64)));
            windows.push(cells.collect());
        }
    }
    windows
}

/// The cells of each character of a layout, in the order the characters first appear.
fn regions_of(layout: &str, size: usize) -> Vec<Vec<Place>> {
    let mut ids: Vec<char> = Vec::new();
    let mut regions: Vec<Vec<Place>> = Vec::new();
    for (cell, id) in layout.chars().enumerate() {
        let place = Place((cell / size) as u64, (cell % size) as u64);
        match ids.iter().position(|&seen| seen == id) {
            Some(index) => regions[index].push(place),
            None => {
                ids.push(id);
                regions.push(vec![place]);
            }
        }
    }
    regions
}

/// `puzzle` as an ISS constraint string, which [`read`] reads back as `puzzle` (a jigsaw's
/// regions given as rows come back as one line of their ids).
pub fn write(puzzle: &SharedPuzzle) -> Result<String, ShareError> {
    let shape = puzzle.givens.shape();
    let size = shape.size();
    check_writable(shape, FORMAT)?;
    let mut out = String::new();
    let cell = |place: &Place| {
        let digit = |coordinate: u64| char::from_digit(coordinate as u32 + 1, LARGEST as u32 + 1).expect("within 16");
        format!("R{}C{}", digit(place.0), digit(place.1))
    };
    let item = |out: &mut String, kind: &str, args: &mut dyn Iterator<Item = String>| {
        out.push('.');
        out.push_str(kind);
        args.for_each(|arg| {
            out.push('~');
            out.push_str(&arg);
        });
    };
    let cells = |places: &[Place]| places.iter().map(cell).collect::<Vec<_>>().into_iter();
    if shape != Shape::CLASSIC {
        item(&mut out, "Shape", &mut std::iter::once(format!("{size}x{size}")));
    }
    let given_cells = puzzle.givens.cells().iter().enumerate().filter(|(_, value)| **value != 0);
    let mut givens: Vec<String> = given_cells
        .map(|(index, value)| format!("{}_{value}", cell(&Place((index / size) as u64, (index % size) as u64))))
        .collect();
    let parity = |places: &[Place], even: bool| {
        let digits: Vec<String> =
            (1..=size).filter(|digit| (digit % 2 == 0) == even).map(|digit| digit.to_string()).collect();
        places.iter().map(move |place| format!("{}_{}", cell(place), digits.join("_"))).collect::<Vec<_>>()
    };
    let constraints = &puzzle.constraints;
    givens.extend(parity(&constraints.even, true));
    givens.extend(parity(&constraints.odd, false));
    if !givens.is_empty() {
        item(&mut out, "", &mut givens.into_iter());
    }
    if let Some(regions) = &constraints.regions {
        item(&mut out, "NoBoxes", &mut std::iter::empty());
        item(&mut out, "Jigsaw", &mut std::iter::once(layout(regions)?));
    }
    for region in &constraints.extra_regions {
        item(&mut out, "AllDifferent", &mut cells(region));
    }
    let directions = match constraints.diagonals {
        Some(Diagonals::Main) => &["-1"][..],
        Some(Diagonals::Anti) => &["1"],
        Some(Diagonals::Both) => &["-1", "1"],
        None => &[],
    };
    for direction in directions {
        item(&mut out, "Diagonal", &mut std::iter::once((*direction).to_owned()));
    }
    for (set, kind) in [
        (constraints.disjoint_groups, "DisjointSets"),
        (constraints.anti_knight, "AntiKnight"),
        (constraints.anti_king, "AntiKing"),
        (constraints.non_consecutive, "AntiConsecutive"),
        (constraints.kropki.all_given, "StrictKropki"),
        (constraints.xv.all_given, "StrictXV"),
        (constraints.global_entropy, "GlobalEntropy"),
        (constraints.global_mod, "GlobalMod"),
        (constraints.anti_taxicab, "AntiTaxicab"),
    ] {
        if set {
            item(&mut out, kind, &mut std::iter::empty());
        }
    }
    for cage in &constraints.cages {
        let sum = cage.sum.map_or_else(String::new, |sum| sum.to_string());
        item(&mut out, "Cage", &mut std::iter::once(sum).chain(cells(&cage.cells)));
    }
    for thermometer in &constraints.thermometers {
        item(&mut out, "Thermo", &mut cells(thermometer));
    }
    for whispers in &constraints.whispers {
        let difference = whispers.difference.map(|difference| difference.to_string());
        item(&mut out, "Whisper", &mut difference.into_iter().chain(cells(&whispers.line)));
    }
    for palindrome in &constraints.palindromes {
        item(&mut out, "Palindrome", &mut cells(palindrome));
    }
    for renban in &constraints.renbans {
        item(&mut out, "Renban", &mut cells(renban));
    }
    for line in &constraints.between_lines {
        item(&mut out, "Between", &mut cells(line));
    }
    for lockout in &constraints.lockout_lines {
        let difference = lockout.difference.unwrap_or(lockout_lines::default_difference(size));
        item(&mut out, "Lockout", &mut std::iter::once(difference.to_string()).chain(cells(&lockout.line)));
    }
    for line in &constraints.modular_lines {
        item(&mut out, "Modular", &mut std::iter::once("3".to_owned()).chain(cells(line)));
    }
    for line in &constraints.entropic_lines {
        item(&mut out, "Entropic", &mut cells(line));
    }
    for arrow in &constraints.arrows {
        let pill = (arrow.bulb.len() > 1).then(|| arrow.bulb.len().to_string());
        let kind = if pill.is_some() { "PillArrow" } else { "Arrow" };
        item(&mut out, kind, &mut pill.into_iter().chain(cells(&arrow.bulb)).chain(cells(&arrow.line)));
    }
    for clue in &constraints.little_killers {
        let Some(named) = iss_little_killer_cell(clue, size) else {
            let start = clue.start;
            return Err(inexpressible(format!(
                "a little killer of one cell (r{}c{}): its little killers run along two cells or more",
                start.0 + 1,
                start.1 + 1
            )));
        };
        item(&mut out, "LittleKiller", &mut [clue.sum.to_string(), cell(&named)].into_iter());
    }
    for quadruple in &constraints.quadruples {
        let digits = quadruple.digits.iter().map(u64::to_string);
        item(&mut out, "Quad", &mut cells(&[quadruple.top_left]).chain(digits));
    }
    let digit = |index: u64| char::from_digit(index as u32 + 1, LARGEST as u32 + 1).expect("within 16");
    let line = |row: Option<u64>, column: Option<u64>| match (row, column) {
        (Some(row), None) if row < size as u64 => Ok(format!("R{}", digit(row))),
        (None, Some(column)) if column < size as u64 => Ok(format!("C{}", digit(column))),
        _ => Err(inexpressible("a clue beside no one row or column of the grid")),
    };
    for clue in &constraints.sandwiches {
        item(&mut out, "Sandwich", &mut [clue.sum.to_string(), line(clue.row, clue.column)?].into_iter());
    }
    // One item a clue, its number on the side of its end, the other side empty.
    let at_end = |number: u64, from: End| match from {
        End::Start => [number.to_string(), String::new()],
        End::End => [String::new(), number.to_string()],
    };
    for clue in &constraints.x_sums {
        let [start, end] = at_end(clue.sum, clue.from);
        item(&mut out, "XSum", &mut [line(clue.row, clue.column)?, start, end].into_iter());
    }
    for sign in &constraints.greater_than {
        item(&mut out, "GreaterThan", &mut cells(&[sign.greater, sign.less]));
    }
    for (pairs, kind) in [
        (&constraints.kropki.white, "WhiteDot"),
        (&constraints.kropki.black, "BlackDot"),
        (&constraints.xv.x, "X"),
        (&constraints.xv.v, "V"),
    ] {
        for pair in pairs {
            item(&mut out, kind, &mut cells(pair));
        }
    }
    for relation in &constraints.relations {
        let kind = match relation.between {
            Between::Neighbours => "Pair",
            Between::EveryTwo => "PairX",
        };
        let key = binary_key(&relation.allowed, size)?;
        let name = relation.name.as_deref().map(|name| format!("_{}", uri_encoded(name)));
        item(&mut out, kind, &mut std::iter::once(key).chain(name).chain(cells(&relation.cells)));
    }
    // An empty puzzle is the string of no item, which the format writes as its lone `.`.
    if out.is_empty() {
        out.push('.');
    }
    Ok(out)
}

/// The URL-safe Base64 digits of a relation's key, 6 bits each.
const KEY_DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A relation's table as ISS keys it: one bit per digit pair, the first digit's row of N bits
/// after another (bit `(a - 1) * N + (b - 1)` for `a` then `b`), six bits to a Base64 digit,
/// lowest bit first, the trailing zero digits left out.
fn binary_key(allowed: &[DigitPair], size: usize) -> Result<String, ShareError> {
    let mut bits = vec![0u8; (size * size).div_ceil(6)];
    for &DigitPair(first, second) in allowed {
        let digits = 1..=size as u64;
        if !digits.contains(&first) || !digits.contains(&second) {
            return Err(inexpressible(format!("a relation's pair [{first}, {second}] of digits outside 1 to {size}")));
        }
        let bit = (first - 1) as usize * size + (second - 1) as usize;
        bits[bit / 6] |= 1 << (bit % 6);
    }
    while bits.last() == Some(&0) {
        bits.pop();
    }
    Ok(bits.into_iter().map(|value| char::from(KEY_DIGITS[usize::from(value)])).collect())
}

/// The digit pairs a relation's key allows (see [`binary_key`]), first digit first.
fn allowed_of_key(key: &str, size: usize) -> Result<Vec<DigitPair>, ShareError> {
    let values = key
        .bytes()
        .map(|byte| KEY_DIGITS.iter().position(|&digit| digit == byte))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| malformed(format!("`{key}` is no relation's key (Base64 digits, URL-safe)")))?;
    if values.len() > (size * size).div_ceil(6) {
        return Err(malformed(format!("`{key}` is longer than a relation's key on a {size}x{size} grid")));
    }
    let set = |bit: usize| values.get(bit / 6).is_some_and(|value| value >> (bit % 6) & 1 == 1);
    let pairs = (1..=size as u64).flat_map(|first| (1..=size as u64).map(move |second| (first, second)));
    Ok(pairs
        .filter(|&(first, second)| set((first - 1) as usize * size + (second - 1) as usize))
        .map(|(first, second)| DigitPair(first, second))
        .collect())
}

/// `name` as ISS writes a relation's name: percent-encoded as a URI component (all but
/// `-_!*'()` of the punctuation), `.` and `~` too, which separate items and arguments.
fn uri_encoded(name: &str) -> String {
    super::percent_encoded_but(name, b"-_!*'()")
}

/// A jigsaw's regions as one layout line: a line as it is (any characters will do), rows each
/// region's base-17 digit in the order regions first appear, as the format writes them.
fn layout(regions: &Regions) -> Result<String, ShareError> {
    let rows = match regions {
        Regions::Line(line) if !line.contains(['.', '~']) && !line.contains(char::is_whitespace) => {
            return Ok(line.clone());
        }
        Regions::Line(line) => return Err(inexpressible(format!("the region ids of `{line}`"))),
        Regions::Rows(rows) => rows,
    };
    numbered(rows.iter().flatten())
        .into_iter()
        .map(|index| {
            char::from_digit(index as u32, LARGEST as u32 + 1)
                .ok_or_else(|| inexpressible("more than 17 regions".to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{Kropki, Whispers, Xv};
    use crate::family::diagonals;
    use crate::random::SplitMix64;

    fn place(row: u64, col: u64) -> Place {
        Place(row, col)
    }

    #[test]
    fn givens_are_read_into_the_grid() {
        let puzzle = read(".~R1C1_5~R1C2_3~R9C9_9 .~R2C1_6..").unwrap();
        let mut expected = vec![0; 81];
        (expected[0], expected[1], expected[80], expected[9]) = (5, 3, 9, 6);
        assert_eq!(puzzle.givens, Grid::new(Shape::CLASSIC, expected).unwrap());
        assert!(puzzle.constraints.is_empty());
    }

    #[test]
    fn every_rule_sudokud_has_is_read_into_its_member() {
        let text = ".Shape~6x6.~R1C1_2_4_6~R1C2_1_3_5~R6C6_6.Cage~7~R1C1~R1C2.Cage~~R2C1\
                    .Thermo~R3C1~R3C2~R3C3.WhiteDot~R4C1~R4C2~R4C3.BlackDot~R5C1~R6C1.X~R1C5~R1C6\
                    .V~R2C5~R2C6.StrictKropki.StrictXV.AntiKnight.AntiKing.AntiConsecutive\
                    .Diagonal~1.AllDifferent~R1C1~R2C2~R3C3~R4C4~R5C5~R6C6.Windoku.DisjointSets\
                    .Whisper~R6C1~R5C2.Whisper~2~R6C3~R6C4~R5C5.Palindrome~R4C4~R5C5~R4C6.Renban~R6C4~R6C5\
                    .Between~R2C1~R3C2~R3C3.Arrow~R6C6~R5C6~R4C6.PillArrow~2~R1C3~R1C4~R2C4~R3C4\
                    .GreaterThan~R5C3~R5C2~R4C3.Quad~R3C3~1~6~6.Modular~3~R1C1~R2C1~R3C1\
                    .Entropic~R4C1~R4C2.AntiTaxicab.PairX~CE~_a%20b~R1C1~R2C2~~R6C1~R6C2.Pair~CE~R3C3~R3C4\
                    .LittleKiller~9~R2C1.LittleKiller~12~R1C6.LittleKiller~8~R3C6.LittleKiller~7~R6C2\
                    .Lockout~3~R1C1~R2C2.Lockout~2~R4C1~R4C2~R4C3\
                    .Sandwich~5~C2.Sandwich~0~R6.XSum~C5~13~6.XSum~R2~~8.GlobalEntropy.GlobalMod";
        let puzzle = read(text).unwrap();
        assert_eq!(puzzle.givens.shape(), Shape::new(2, 3).unwrap());
        assert_eq!(puzzle.givens.cells()[35], 6);
        let expected = Constraints {
            diagonals: Some(Diagonals::Anti),
            extra_regions: [
                (0..6).map(|index| place(index, index)).collect(),
                // The format's one 6x6 window: rows 2-3, columns 2-4.
                vec![place(1, 1), place(1, 2), place(1, 3), place(2, 1), place(2, 2), place(2, 3)],
            ]
            .into(),
            regions: None,
            disjoint_groups: true,
            cages: vec![
                Cage { cells: vec![place(0, 0), place(0, 1)], sum: Some(7) },
                Cage { cells: vec![place(1, 0)], sum: None },
            ],
            anti_knight: true,
            anti_king: true,
            non_consecutive: true,
            thermometers: vec![vec![place(2, 0), place(2, 1), place(2, 2)]],
            kropki: Kropki {
                white: vec![[place(3, 0), place(3, 1)], [place(3, 1), place(3, 2)]],
                black: vec![[place(4, 0), place(5, 0)]],
                all_given: true,
            },
            xv: Xv { x: vec![[place(0, 4), place(0, 5)]], v: vec![[place(1, 4), place(1, 5)]], all_given: true },
            // The first cell is greater than each later one beside it; r5c2 and r4c3 only touch.
            greater_than: vec![
                GreaterThan { greater: place(4, 2), less: place(4, 1) },
                GreaterThan { greater: place(4, 2), less: place(3, 2) },
            ],
            quadruples: vec![Quadruple { top_left: place(2, 2), digits: vec![1, 6, 6] }],
            whispers: vec![
                Whispers { line: vec![place(5, 0), place(4, 1)], difference: None },
                Whispers { line: vec![place(5, 2), place(5, 3), place(4, 4)], difference: Some(2) },
            ],
            palindromes: vec![vec![place(3, 3), place(4, 4), place(3, 5)]],
            renbans: vec![vec![place(5, 3), place(5, 4)]],
            between_lines: vec![vec![place(1, 0), place(2, 1), place(2, 2)]],
            arrows: vec![
                Arrow { bulb: vec![place(5, 5)], line: vec![place(4, 5), place(3, 5)] },
                Arrow { bulb: vec![place(0, 2), place(0, 3)], line: vec![place(1, 3), place(2, 3)] },
            ],
            little_killers: vec![
                LittleKiller { sum: 9, start: place(1, 0), direction: Direction::DownRight },
                LittleKiller { sum: 12, start: place(0, 5), direction: Direction::DownLeft },
                LittleKiller { sum: 8, start: place(2, 5), direction: Direction::UpLeft },
                LittleKiller { sum: 7, start: place(5, 1), direction: Direction::UpRight },
            ],
            sandwiches: vec![
                Sandwich { sum: 5, row: None, column: Some(1), from: End::Start },
                Sandwich { sum: 0, row: Some(5), column: None, from: End::Start },
            ],
            x_sums: vec![
                XSum { sum: 13, row: None, column: Some(4), from: End::Start },
                XSum { sum: 6, row: None, column: Some(4), from: End::End },
                XSum { sum: 8, row: Some(1), column: None, from: End::End },
            ],
            even: vec![place(0, 0)],
            odd: vec![place(0, 1)],
            // 3 is 6x6's own difference.
            lockout_lines: vec![
                LockoutLine { line: vec![place(0, 0), place(1, 1)], difference: None },
                LockoutLine { line: vec![place(3, 0), place(3, 1), place(3, 2)], difference: Some(2) },
            ],
            modular_lines: vec![vec![place(0, 0), place(1, 0), place(2, 0)]],
            entropic_lines: vec![vec![place(3, 0), place(3, 1)]],
            global_entropy: true,
            global_mod: true,
            anti_taxicab: true,
            // `CE`: bits 1 and 8, 1 then 2 and 2 then 3 on 6x6.
            relations: [
                (vec![place(0, 0), place(1, 1)], Between::EveryTwo, Some("a b")),
                (vec![place(5, 0), place(5, 1)], Between::EveryTwo, Some("a b")),
                (vec![place(2, 2), place(2, 3)], Between::Neighbours, None),
            ]
            .into_iter()
            .map(|(cells, between, name)| CustomRelation {
                cells,
                between,
                allowed: vec![DigitPair(1, 2), DigitPair(2, 3)],
                name: name.map(str::to_owned),
            })
            .collect(),
        };
        assert_eq!(puzzle.constraints, expected);
    }

    /// An X-sum is written as its own item, its clue on the side of its end, the other empty.
    #[test]
    fn an_x_sum_is_written_on_its_end_s_side() {
        let constraints = Constraints {
            x_sums: vec![
                XSum { sum: 27, row: None, column: Some(1), from: End::Start },
                XSum { sum: 8, row: Some(8), column: None, from: End::End },
            ],
            ..Constraints::default()
        };
        let written = write(&SharedPuzzle { givens: Grid::empty(Shape::CLASSIC), constraints: constraints.clone() });
        assert_eq!(written.as_deref(), Ok(".XSum~C2~27~.XSum~R9~~8"));
        assert_eq!(read(&written.unwrap()).unwrap().constraints, constraints);
    }

    /// ISS draws every sandwich at its line's start: one drawn at the end is written there, the
    /// same sum and line; a clue beside no line of the grid is refused.
    #[test]
    fn a_sandwich_is_written_at_its_line_s_start() {
        let written = |row, column, from| {
            let constraints =
                Constraints { sandwiches: vec![Sandwich { sum: 12, row, column, from }], ..Constraints::default() };
            write(&SharedPuzzle { givens: Grid::empty(Shape::CLASSIC), constraints }).map_err(|error| error.to_string())
        };
        assert_eq!(written(Some(2), None, End::Start).unwrap(), ".Sandwich~12~R3");
        assert_eq!(written(None, Some(8), End::End).unwrap(), ".Sandwich~12~C9");
        let refused = "an ISS constraint string cannot hold a clue beside no one row or column of the grid";
        assert_eq!(written(None, None, End::End).unwrap_err(), refused);
        assert_eq!(written(Some(9), None, End::End).unwrap_err(), refused);
    }

    /// ISS names each diagonal of two cells or more by one end: a clue drawn at the other end is
    /// written at ISS's (the same cells and sum), and one of a single cell is refused.
    #[test]
    fn a_little_killer_is_written_at_the_end_iss_names_it_by() {
        let written = |start: Place, direction| {
            let clue = LittleKiller { sum: 20, start, direction };
            let constraints = Constraints { little_killers: vec![clue], ..Constraints::default() };
            write(&SharedPuzzle { givens: Grid::empty(Shape::CLASSIC), constraints })
        };
        // ISS's own ends read back as they are.
        assert_eq!(written(place(0, 0), Direction::DownRight).unwrap(), ".LittleKiller~20~R1C1");
        // The main diagonal from its other end, and a diagonal from the top row pointing down and
        // to the right: ISS names both by the other end.
        assert_eq!(written(place(8, 8), Direction::UpLeft).unwrap(), ".LittleKiller~20~R1C1");
        assert_eq!(written(place(0, 3), Direction::DownRight).unwrap(), ".LittleKiller~20~R6C9");
        assert_eq!(written(place(8, 0), Direction::UpRight).unwrap(), ".LittleKiller~20~R1C9");
        assert_eq!(written(place(2, 0), Direction::UpRight).unwrap(), ".LittleKiller~20~R1C3");
        assert_eq!(written(place(8, 4), Direction::UpLeft).unwrap(), ".LittleKiller~20~R5C1");
        let back = read(".LittleKiller~20~R6C9").unwrap().constraints.little_killers;
        assert_eq!(back, [LittleKiller { sum: 20, start: place(5, 8), direction: Direction::UpLeft }]);
        assert_eq!(
            written(place(8, 0), Direction::UpLeft).unwrap_err().to_string(),
            "an ISS constraint string cannot hold a little killer of one cell (r9c1): its little killers run along two cells or more"
        );
        // Every diagonal of two cells or more has one end ISS names it by, on every size.
        for size in [4usize, 6, 9, 16] {
            let last = size as u64 - 1;
            for edge in 0..size as u64 {
                for (start, direction) in [
                    (place(0, edge), Direction::DownLeft),
                    (place(0, edge), Direction::DownRight),
                    (place(last, edge), Direction::UpLeft),
                    (place(last, edge), Direction::UpRight),
                    (place(edge, 0), Direction::DownRight),
                    (place(edge, last), Direction::DownLeft),
                ] {
                    let clue = LittleKiller { sum: 1, start, direction };
                    let named = iss_little_killer_cell(&clue, size);
                    assert_eq!(named.is_some(), clue.cells(size).len() > 1, "{clue:?} on {size}x{size}");
                    if let Some(named) = named {
                        let from_iss =
                            LittleKiller { sum: 1, start: named, direction: iss_direction(named, size).unwrap() };
                        let mut cells = from_iss.cells(size);
                        cells.sort_unstable_by_key(|place| (place.0, place.1));
                        let mut expected = clue.cells(size);
                        expected.sort_unstable_by_key(|place| (place.0, place.1));
                        assert_eq!(cells, expected, "{clue:?} on {size}x{size}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_jigsaw_replaces_the_boxes_only_with_no_boxes() {
        let layout = "000111000111222333222333444555444555";
        let jigsaw = read(&format!(".Shape~6x6.NoBoxes.Jigsaw~{layout}")).unwrap();
        assert_eq!(jigsaw.constraints.regions, Some(Regions::Line(layout.to_owned())));
        let extra = read(&format!(".Shape~6x6.Jigsaw~6x6~{layout}")).unwrap();
        assert_eq!(extra.constraints.regions, None);
        assert_eq!(extra.constraints.extra_regions.len(), 6);
        assert_eq!(
            extra.constraints.extra_regions[1],
            [(0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5)].map(|(r, c)| place(r, c))
        );
    }

    #[test]
    fn windoku_on_9x9_is_the_four_windows_of_the_preset() {
        assert_eq!(read(".Windoku").unwrap().constraints.extra_regions, diagonals::windows(Shape::CLASSIC));
    }

    #[test]
    fn cells_past_9_are_base_17_digits() {
        let puzzle = read(".Shape~16x16.~Rgcg_16~RaC1_10").unwrap();
        assert_eq!(puzzle.givens.cells()[255], 16);
        assert_eq!(puzzle.givens.cells()[9 * 16], 10);
        assert_eq!(write(&puzzle).unwrap(), ".Shape~16x16.~RaC1_10~RgCg_16");
    }

    #[test]
    fn what_sudokud_lacks_is_refused_by_name() {
        let refused = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(
            refused(".~R1C1_5.Lunchbox~R8C1~R7C1"),
            "the ISS rule `Lunchbox` (lunchboxes) is not one sudokud has"
        );
        assert_eq!(
            refused(".Modular~4~R1C1~R1C2"),
            "the ISS rule `Modular` (a modular line of modulus `4`: sudokud's modular lines are mod 3) is not one sudokud has"
        );
        assert!(refused(".Or.X~R1C1~R1C2.End").contains("`Or` (a composite of rules)"));
        assert!(refused(".DoubleArrow~R1C1~R1C2~R1C3").contains("`DoubleArrow` (double arrows (two circles adding up"));
        assert!(refused(".PillArrow~2~R1C1~R1C2").contains("`PillArrow` has no shaft past its bulb of 2"));
        assert!(
            refused(".~R1C1_1_2").contains("`Given` (`R1C1_1_2`: candidates other than the even or the odd digits)")
        );
        assert!(refused(".NoBoxes").contains("`NoBoxes` (rows and columns without boxes or regions)"));
        assert!(refused(".Shape~6x8").contains("`Shape` (`Shape~6x8`: a grid that is not square)"));
        assert!(refused(".Shape~6x6~9").contains("digits other than 1 to the grid's size"));
        assert!(refused(".Shape~7x7").contains("a grid of a size sudokud does not have"));
        assert!(refused(".AllDifferent~R1C1~R1C2").contains("2 cells that differ: sudokud's extra regions have 9"));
        assert!(refused(".FooBar").contains("`FooBar` (a rule of the Interactive Sudoku Solver)"));
        assert!(refused(".Pair~AB~R1C1~R1C2.FooBar").contains("`FooBar`"));
        let uneven = format!(".Jigsaw~{}{}", "0".repeat(80), "1");
        assert!(refused(&uneven).contains("a region of 80 cells beside the boxes"), "{}", refused(&uneven));
    }

    #[test]
    fn malformed_strings_say_what_is_wrong() {
        let refused = |text: &str| match read(text) {
            Err(ShareError::Malformed { why, .. }) => why,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(refused("~R1C1_5"), "it starts with `.`, as `.~R1C1_5~R1C2_3`");
        assert_eq!(
            refused(&format!("..3{}", ".".repeat(78))),
            "it is a grid of digits and dots (with a jigsaw layout after it), a board"
        );
        assert_eq!(refused(".~R0C1_5"), "`R0C1` is no cell of a 9x9 grid");
        assert_eq!(refused(".~RaC1_5"), "`RaC1` is no cell of a 9x9 grid");
        assert_eq!(refused(".~R1C15_5"), "`R1C15` is no cell, as `R1C1`");
        assert_eq!(refused(".~R1C1_10"), "`R1C1_10`: `10` is no digit of the grid");
        assert_eq!(refused(".~R1C1_05"), "`R1C1_05`: `05` is no digit of the grid");
        assert_eq!(refused(".~R1C1"), "`R1C1` gives no digit");
        assert_eq!(refused(".~R1C1_5.~R1C1_6"), "`R1C1_6`: that cell has another given");
        assert_eq!(refused(".Cage~x~R1C1"), "`x` is no cage sum");
        assert_eq!(refused(".Cage"), "a `Cage` has a sum (or none) and cells");
        assert_eq!(refused(".Thermo"), "`Thermo` names no cells");
        assert_eq!(refused(".Whisper~4"), "`Whisper` names no cells");
        assert_eq!(refused(".Whisper~99999999999999999999~R1C1"), "`99999999999999999999` is no difference");
        assert_eq!(refused(".WhiteDot~R1C1~R3C3"), "`WhiteDot~R1C1~R3C3`: no two of its cells are side by side");
        assert_eq!(refused(".GreaterThan~R1C1~R2C2"), "`GreaterThan~R1C1~R2C2`: no two of its cells are side by side");
        assert_eq!(refused(".Diagonal~2"), "`Diagonal~2` is neither 1 nor -1");
        assert_eq!(refused(".AntiKing~1"), "`AntiKing` takes no arguments");
        assert_eq!(refused(".Jigsaw~0011"), "a `Jigsaw` layout has a character for each of the 81 cells");
        assert_eq!(refused(".Shape~6x6.Shape~6x6"), "it has two `Shape` items");
        assert_eq!(refused(".Shape~six"), "`Shape~six` is no shape, as `Shape~6x6`");
        assert_eq!(refused(".LittleKiller~5"), "a `LittleKiller` has a sum and a cell");
        assert_eq!(refused(".LittleKiller~x~R1C1"), "`x` is no little killer's sum");
        assert_eq!(refused(".LittleKiller~5~R5C5"), "`R5C5` is the end of no diagonal ISS names a little killer by");
        assert_eq!(refused(".Sandwich~5"), "a `Sandwich` has a sum and a row or column, as `Sandwich~35~C4`");
        assert_eq!(refused(".Sandwich~x~R1"), "`x` is no sandwich's sum");
        assert_eq!(refused(".Sandwich~5~R0"), "`R0` is no row or column of a 9x9 grid, as `R3` or `C5`");
        assert_eq!(refused(".Sandwich~5~R1C1"), "`R1C1` is no row or column of a 9x9 grid, as `R3` or `C5`");
        assert_eq!(refused(".XSum"), "`XSum` names a row or column first, as `XSum~C2~12~`");
        assert_eq!(refused(".XSum~C2~1~2~3"), "`XSum` has a clue at each end at most, as `XSum~C2~12~8`");
        assert_eq!(refused(".XSum~C2~x~"), "`x` is no `XSum` clue");
        assert_eq!(refused(".LittleKiller~5~R9C9"), "`R9C9` is the end of no diagonal ISS names a little killer by");
    }

    #[test]
    fn relations_are_read_from_their_key_and_named_groups() {
        // ISS's "Odd/Even Thermo Sudoku" key: the second digit greater and of the same parity.
        let puzzle = read(".Pair~UFVQFUAFQAE~_Odd-Even%20Thermo~r1c2~r1c3~~r8c4~r9c4").unwrap();
        let relations = &puzzle.constraints.relations;
        assert_eq!(relations.len(), 2);
        for relation in relations {
            assert_eq!(relation.between, Between::Neighbours);
            assert_eq!(relation.name.as_deref(), Some("Odd-Even Thermo"));
            let expected: Vec<DigitPair> = (1..=9u64)
                .flat_map(|a| (a + 1..=9).filter(move |b| (a + b) % 2 == 0).map(move |b| DigitPair(a, b)))
                .collect();
            assert_eq!(relation.allowed, expected);
        }
        assert_eq!(relations[1].cells, [place(7, 3), place(8, 3)]);
        assert_eq!(
            write(&puzzle).unwrap(),
            ".Pair~UFVQFUAFQAE~_Odd-Even%20Thermo~R1C2~R1C3.Pair~UFVQFUAFQAE~_Odd-Even%20Thermo~R8C4~R9C4"
        );
        // Every two cells of a group, unnamed; the legacy key's `-` and `_` swapped.
        let every_two = read(".PairX~8H_xf8H_xf8H_B~R4C1~R5C1~R6C1").unwrap();
        let legacy = read(".BinaryX~8H-xf8H-xf8H-B~R4C1~R5C1~R6C1").unwrap();
        assert_eq!(every_two, legacy);
        let relation = &every_two.constraints.relations[0];
        assert_eq!((relation.between, relation.name.as_deref()), (Between::EveryTwo, None));
        assert!(relation.allowed.iter().all(|&DigitPair(a, b)| a.abs_diff(b) > 1), "{:?}", relation.allowed);
        assert_eq!(write(&every_two).unwrap(), ".PairX~8H_xf8H_xf8H_B~R4C1~R5C1~R6C1");
        let malformed = |text: &str| read(text).unwrap_err().to_string();
        assert!(malformed(".Pair").contains("a `Pair` has a key and cells"));
        assert!(malformed(".Pair~AB~_name").contains("`Pair` names no cells"));
        assert!(malformed(".Pair~A+B~R1C1~R1C2").contains("`A+B` is no relation's key"));
        assert!(malformed(&format!(".Pair~{}~R1C1~R1C2", "A".repeat(15))).contains("is longer than a relation's key"));
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let mut random = SplitMix64(7);
        for shape in [4, 6, 8, 9, 10, 12, 15, 16].map(|size| Shape::default_for(size).unwrap()) {
            for _ in 0..20 {
                let puzzle = super::super::tests::random_puzzle(shape, &mut random);
                // A cell given a digit and listed even keeps both, so the list is written apart.
                let written = write(&puzzle).unwrap();
                assert_eq!(read(&written).as_ref(), Ok(&puzzle), "{written}");
                assert_eq!(write(&read(&written).unwrap()).unwrap(), written);
            }
        }
    }

    #[test]
    fn an_empty_classic_grid_is_a_lone_dot() {
        let empty = SharedPuzzle { givens: Grid::empty(Shape::CLASSIC), constraints: Constraints::default() };
        assert_eq!(write(&empty).unwrap(), ".");
        assert_eq!(read("."), Ok(empty));
    }

    #[test]
    fn regions_given_as_rows_are_written_as_one_line() {
        use crate::constraints::RegionId;
        let shape = Shape::new(2, 2).unwrap();
        let rows = [[7, 7, 8, 8], [7, 7, 8, 8], [9, 9, 3, 3], [9, 9, 3, 3]];
        let regions = Regions::Rows(rows.iter().map(|row| row.iter().map(|&id| RegionId(id)).collect()).collect());
        let constraints = Constraints { regions: Some(regions), ..Constraints::default() };
        let written = write(&SharedPuzzle { givens: Grid::empty(shape), constraints }).unwrap();
        assert_eq!(written, ".Shape~4x4.NoBoxes.Jigsaw~0011001122332233");
    }
}
