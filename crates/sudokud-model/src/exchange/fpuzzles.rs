//! f-puzzles' puzzle data, the form f-puzzles links (`https://www.f-puzzles.com/?load=...`) and
//! SudokuPad links (`https://sudokupad.app/fpuzzles...`) carry: a JSON object compressed with
//! lz-string and written in base64.
//!
//! The object has the grid's `size`, its `grid` (N rows of N cells, each with its `value` and
//! whether it is `given`, and a jigsaw's `region`), and a member per rule: flags (`diagonal+`,
//! `diagonal-`, `disjointgroups`, `antiknight`, `antiking`, `nonconsecutive`), lists of cells
//! (`killercage`, `extraregion`, `thermometer`'s, `whispers`', `palindrome`'s, `renban`'s,
//! `betweenline`'s, `modularline`'s and `entropicline`'s `lines`, a whispers line's difference its
//! `value`, `odd`, `even`, `lockout`'s `lines`, whose diamonds differ by the grid's own
//! difference, half its digits rounded down: 4 on 9x9), marks between two cells (`difference`,
//! `ratio`, `xv`) and `negative`,
//! the marks whose absence is a rule too, quadruples (`quadruple`: the four `cells` around a
//! corner and the digits in its circle, `values`), and clues outside the grid (`littlekillersum`: the
//! clue's `cell`, `R0C3` one row above the grid, its `direction`, `UL`, `UR`, `DL` or `DR`, the
//! diagonal's `cells` and the sum its `value`; `sandwichsum`: the clue's `cell` beside a row's or
//! column's end, `R0C4` above column 4, `R4C0` left of row 4, and its sum the `value`; `xsum`
//! likewise, read from the clue's end). Cells are named `R1C1`. What sudokud has, it reads and
//! writes; any other rule, and the drawings whose meaning the puzzle's rules give only in words
//! (`line`, `circle`, `rectangle`, `cage`, `text`), is refused by name, never dropped. A `line`
//! that f-puzzles drew for a line rule it also wrote as its own member (`fromConstraint`:
//! `Whispers`, `German Whispers`, `Dutch Whispers`) is that rule's drawing, and is read as
//! nothing more when the member has a line of its cells. A player's entries and pencil marks are
//! not read. f-puzzles has no greater-than signs between cells (its `minimum` and `maximum`
//! cells are another rule, which sudokud lacks): a puzzle with them cannot be written, nor one
//! with a lockout line of another difference than the grid's own.

use serde_json::{Map, Value, json};

use super::{ShareError, SharedPuzzle, check_writable, numbered, whispers_lines};
use crate::constraints::{
    Arrow, Cage, Constraints, Diagonals, Direction, End, LittleKiller, LockoutLine, Place, Quadruple, RegionId,
    Regions, Sandwich, XSum,
};
use crate::family::lockout_lines;
use crate::grid::Grid;
use crate::shape::{SIZES, Shape};

/// The format's name in messages.
const FORMAT: &str = "f-puzzles data";

/// The tool's name in messages.
const TOOL: &str = "f-puzzles";

fn malformed(why: impl Into<String>) -> ShareError {
    ShareError::Malformed { format: FORMAT, why: why.into() }
}

fn unsupported(rule: &str, what: impl Into<String>) -> ShareError {
    ShareError::Unsupported { tool: TOOL, rule: rule.to_owned(), what: what.into() }
}

/// The puzzle of f-puzzles data as its links carry it: lz-string compressed, in base64.
pub fn decode(data: &str) -> Result<SharedPuzzle, ShareError> {
    // A `+` that a form decoder turned into a space is a `+` again.
    let data: String = data.trim().chars().map(|ch| if ch == ' ' { '+' } else { ch }).collect();
    let json = lz_str::decompress_from_base64(&data)
        .and_then(|wide| String::from_utf16(&wide).ok())
        .filter(|json| !json.is_empty())
        .ok_or_else(|| malformed("it is not lz-string compressed base64"))?;
    read_json(&json)
}

/// `puzzle` as f-puzzles data compressed for a link, which [`decode`] reads back.
pub fn encode(puzzle: &SharedPuzzle) -> Result<String, ShareError> {
    Ok(lz_str::compress_to_base64(write_json(puzzle)?.to_string().as_str()))
}

/// The puzzle of an f-puzzles JSON object.
pub fn read_json(json: &str) -> Result<SharedPuzzle, ShareError> {
    let value: Value = serde_json::from_str(json).map_err(|error| malformed(format!("its JSON: {error}")))?;
    let Value::Object(object) = value else { return Err(malformed("it is not a JSON object")) };
    let size = object.get("size").and_then(Value::as_u64).ok_or_else(|| malformed("it has no `size`"))?;
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    let shape = Shape::default_for(size)
        .filter(|_| SIZES.contains(&size))
        .ok_or_else(|| unsupported("size", format!("a {size}x{size} grid")))?;
    let mut reader = Reader { size, constraints: Constraints::default(), drawn: Vec::new() };
    let (givens, regions) = reader.grid(object.get("grid"))?;
    for (key, value) in &object {
        reader.member(key, value)?;
    }
    reader.check_drawn()?;
    let default_regions: Vec<usize> = (0..size * size).map(|cell| shape.box_of(cell / size, cell % size)).collect();
    if regions != default_regions {
        let rows = regions.chunks(size).map(|row| row.iter().map(|&id| RegionId(id as u64)).collect());
        reader.constraints.regions = Some(Regions::Rows(rows.collect()));
    }
    let givens = Grid::new(shape, givens).expect("every given is a digit of the grid");
    Ok(SharedPuzzle { givens, constraints: reader.constraints })
}

/// What the members say so far.
struct Reader {
    size: usize,
    constraints: Constraints,
    /// The `line` drawings of line rules (`fromConstraint`), each with its cells: each must be a
    /// line of its rule's own member.
    drawn: Vec<(String, Vec<Place>)>,
}

/// The `fromConstraint` names of the `line` drawings f-puzzles makes for rules it also writes
/// as their own members, with the member.
const DRAWN_RULES: [(&str, &str); 3] =
    [("Whispers", "whispers"), ("German Whispers", "whispers"), ("Dutch Whispers", "whispers")];

impl Reader {
    /// The givens and each cell's region (its box unless the cell names one).
    fn grid(&mut self, grid: Option<&Value>) -> Result<(Vec<u8>, Vec<usize>), ShareError> {
        let size = self.size;
        let rows = grid.and_then(Value::as_array).filter(|rows| rows.len() == size);
        let rows = rows.ok_or_else(|| malformed(format!("its `grid` is not {size} rows")))?;
        let shape = Shape::default_for(size).expect("a size read before");
        let (mut givens, mut regions) = (Vec::with_capacity(size * size), Vec::with_capacity(size * size));
        for (row, cells) in rows.iter().enumerate() {
            let cells = cells.as_array().filter(|cells| cells.len() == size);
            let cells = cells.ok_or_else(|| malformed(format!("row {} of its `grid` is not {size} cells", row + 1)))?;
            for (col, cell) in cells.iter().enumerate() {
                let name = format!("R{}C{}", row + 1, col + 1);
                let cell = cell.as_object().ok_or_else(|| malformed(format!("{name} is not an object")))?;
                let given = cell.get("given").and_then(Value::as_bool).unwrap_or(false);
                let value = match cell.get("value") {
                    Some(value) if given => self.digit(value).ok_or_else(|| malformed(format!("{name}'s value")))?,
                    // A value not given is the solver's entry, not the puzzle's.
                    _ => 0,
                };
                givens.push(value);
                if let Some(marks) = cell.get("givenPencilMarks").and_then(Value::as_array).filter(|m| !m.is_empty()) {
                    self.given_marks(&name, marks, &mut givens)?;
                }
                regions.push(match cell.get("region") {
                    Some(region) => region
                        .as_u64()
                        .map(|region| region as usize)
                        .filter(|&region| region < size)
                        .ok_or_else(|| malformed(format!("{name}'s region")))?,
                    None => shape.box_of(row, col),
                });
            }
        }
        Ok((givens, regions))
    }

    fn digit(&self, value: &Value) -> Option<u8> {
        let digit = value.as_u64().or_else(|| value.as_str().and_then(|text| text.parse().ok()))?;
        (1..=self.size as u64).contains(&digit).then_some(digit as u8)
    }

    /// Digits given as a cell's only candidates: its given when there is one, its parity when they
    /// are the even or the odd digits.
    fn given_marks(&mut self, name: &str, marks: &[Value], givens: &mut [u8]) -> Result<(), ShareError> {
        let mut digits = marks.iter().map(|mark| self.digit(mark)).collect::<Option<Vec<u8>>>();
        let digits = digits.as_mut().ok_or_else(|| malformed(format!("{name}'s givenPencilMarks")))?;
        digits.sort_unstable();
        digits.dedup();
        let parity = |even: bool| (1..=self.size as u8).filter(|digit| (digit % 2 == 0) == even).collect::<Vec<_>>();
        let place = self.place(name)?;
        if let [digit] = digits[..] {
            // One candidate: the cell's given.
            let cell = &mut givens[place.0 as usize * self.size + place.1 as usize];
            if *cell != 0 && *cell != digit {
                return Err(malformed(format!("{name} is given {cell} and the candidate {digit}")));
            }
            *cell = digit;
        } else if *digits == parity(true) {
            self.constraints.even.push(place);
        } else if *digits == parity(false) {
            self.constraints.odd.push(place);
        } else {
            return Err(unsupported(
                "givenPencilMarks",
                format!("{name} given the candidates {digits:?}, which are not the even or the odd digits"),
            ));
        }
        Ok(())
    }

    fn member(&mut self, key: &str, value: &Value) -> Result<(), ShareError> {
        let absent = matches!(value, Value::Null | Value::Bool(false)) || value.as_array().is_some_and(Vec::is_empty);
        let flag = |set: &mut bool| {
            *set = value.as_bool().ok_or_else(|| malformed(format!("`{key}` is not true or false")))?;
            Ok::<(), ShareError>(())
        };
        match key {
            // What the puzzle is called and by whom, and settings of the solvers that open it.
            "size"
            | "grid"
            | "title"
            | "author"
            | "ruleset"
            | "solution"
            | "disabledlogic"
            | "truecandidatesoptions" => {}
            _ if absent => {}
            "diagonal+" | "diagonal-" => {
                let mut set = false;
                flag(&mut set)?;
                let this = if key == "diagonal-" { Diagonals::Main } else { Diagonals::Anti };
                self.constraints.diagonals = match self.constraints.diagonals {
                    Some(other) if other != this => Some(Diagonals::Both),
                    _ => Some(this),
                };
            }
            "disjointgroups" => flag(&mut self.constraints.disjoint_groups)?,
            "antiknight" => flag(&mut self.constraints.anti_knight)?,
            "antiking" => flag(&mut self.constraints.anti_king)?,
            "nonconsecutive" => flag(&mut self.constraints.non_consecutive)?,
            "negative" => {
                let names: Option<Vec<&str>> =
                    value.as_array().map(|names| names.iter().filter_map(Value::as_str).collect());
                let names = names.ok_or_else(|| malformed("`negative` is not a list of names"))?;
                let kropki = ["ratio", "difference"].map(|name| names.contains(&name));
                match kropki {
                    [true, true] => self.constraints.kropki.all_given = true,
                    [false, false] => {}
                    _ => {
                        return Err(unsupported(
                            "negative",
                            "one kind of Kropki dot given in full without the other: sudokud's covers both",
                        ));
                    }
                }
                self.constraints.xv.all_given = names.contains(&"xv");
                if let Some(other) = names.iter().find(|name| !["ratio", "difference", "xv"].contains(name)) {
                    return Err(unsupported("negative", format!("`{other}` given in full")));
                }
            }
            "killercage" => {
                for cage in self.items(key, value)? {
                    let cells = self.cells(key, cage.get("cells"))?;
                    let sum = match cage.get("value").and_then(Value::as_str).map(str::trim) {
                        None | Some("") => None,
                        Some(sum) => Some(sum.parse().map_err(|_| malformed(format!("`{sum}` is no cage sum")))?),
                    };
                    self.constraints.cages.push(Cage { cells, sum });
                }
            }
            "extraregion" => {
                for region in self.items(key, value)? {
                    let cells = self.cells(key, region.get("cells"))?;
                    if cells.len() != self.size {
                        return Err(unsupported(
                            key,
                            format!("a region of {} cells: sudokud's extra regions have {}", cells.len(), self.size),
                        ));
                    }
                    self.constraints.extra_regions.push(cells);
                }
            }
            "thermometer" => {
                for thermometer in self.items(key, value)? {
                    for cells in self.lines(key, thermometer)? {
                        self.constraints.thermometers.push(cells);
                    }
                }
            }
            "difference" | "ratio" | "xv" => {
                for mark in self.items(key, value)? {
                    let pair = self.cells(key, mark.get("cells"))?;
                    let pair: [Place; 2] =
                        pair.try_into().map_err(|_| malformed(format!("a `{key}` has two cells")))?;
                    let label = mark.get("value").and_then(Value::as_str).unwrap_or("");
                    let constraints = &mut self.constraints;
                    let list = match (key, label) {
                        ("difference", "" | "1") => &mut constraints.kropki.white,
                        ("ratio", "" | "2") => &mut constraints.kropki.black,
                        ("xv", "X" | "x") => &mut constraints.xv.x,
                        ("xv", "V" | "v") => &mut constraints.xv.v,
                        _ => return Err(unsupported(key, format!("a mark of `{label}` between two cells"))),
                    };
                    list.push(pair);
                }
            }
            "whispers" => {
                for whispers in self.items(key, value)? {
                    let difference = match whispers.get("value") {
                        None | Some(Value::Null) => None,
                        Some(value) => {
                            let number = value.as_u64().or_else(|| value.as_str().and_then(|text| text.parse().ok()));
                            Some(number.ok_or_else(|| malformed(format!("`{value}` is no whispers difference")))?)
                        }
                    };
                    for line in self.lines(key, whispers)? {
                        self.constraints.whispers.extend(whispers_lines(&line, difference));
                    }
                }
            }
            "palindrome" => {
                for palindrome in self.items(key, value)? {
                    for cells in self.lines(key, palindrome)? {
                        self.constraints.palindromes.push(cells);
                    }
                }
            }
            "renban" => {
                for renban in self.items(key, value)? {
                    for cells in self.lines(key, renban)? {
                        self.constraints.renbans.push(cells);
                    }
                }
            }
            "betweenline" => {
                for line in self.items(key, value)? {
                    self.constraints.between_lines.extend(self.lines(key, line)?);
                }
            }
            // f-puzzles' lockout lines carry no difference: the size's own.
            "lockout" => {
                for line in self.items(key, value)? {
                    let lines = self.lines(key, line)?.into_iter();
                    self.constraints.lockout_lines.extend(lines.map(|line| LockoutLine { line, difference: None }));
                }
            }
            "modularline" => {
                for line in self.items(key, value)? {
                    self.constraints.modular_lines.extend(self.lines(key, line)?);
                }
            }
            "entropicline" => {
                for line in self.items(key, value)? {
                    self.constraints.entropic_lines.extend(self.lines(key, line)?);
                }
            }
            "arrow" => {
                for arrow in self.items(key, value)? {
                    let bulb = self.cells(key, arrow.get("cells"))?;
                    let [line] = &self.lines(key, arrow)?[..] else {
                        return Err(unsupported(key, "an arrow with several shafts adding up together"));
                    };
                    // A shaft is drawn from a cell of its bulb.
                    let line = line.iter().skip_while(|place| bulb.contains(place)).copied().collect();
                    self.constraints.arrows.push(Arrow { bulb, line });
                }
            }
            "quadruple" => {
                for quadruple in self.items(key, value)? {
                    let quadruple = self.quadruple(quadruple)?;
                    self.constraints.quadruples.push(quadruple);
                }
            }
            "littlekillersum" => {
                for clue in self.items(key, value)? {
                    let clue = self.little_killer(clue)?;
                    self.constraints.little_killers.push(clue);
                }
            }
            "sandwichsum" => {
                for clue in self.items(key, value)? {
                    let (row, column, from) = self.line_clue(key, clue)?;
                    let name = clue.get("cell").and_then(Value::as_str).unwrap_or("");
                    let sum = clue_number(key, name, clue, "a sandwich", "sum")?;
                    self.constraints.sandwiches.push(Sandwich { sum, row, column, from });
                }
            }
            "xsum" => {
                for clue in self.items(key, value)? {
                    let (row, column, from) = self.line_clue(key, clue)?;
                    let name = clue.get("cell").and_then(Value::as_str).unwrap_or("");
                    let sum = clue_number(key, name, clue, "an X-sum", "sum")?;
                    self.constraints.x_sums.push(XSum { sum, row, column, from });
                }
            }
            "line" => {
                for line in self.items(key, value)? {
                    let rule = line.get("fromConstraint").and_then(Value::as_str).unwrap_or_default();
                    if !DRAWN_RULES.iter().any(|(drawn, _)| *drawn == rule) {
                        return Err(unsupported(key, describe(key)));
                    }
                    for cells in self.lines(key, line)? {
                        self.drawn.push((rule.to_owned(), cells));
                    }
                }
            }
            "odd" | "even" => {
                for cell in self.items(key, value)? {
                    let name = cell.get("cell").and_then(Value::as_str).unwrap_or("");
                    let place = self.place(name)?;
                    if key == "odd" { &mut self.constraints.odd } else { &mut self.constraints.even }.push(place);
                }
            }
            other => return Err(unsupported(other, describe(other))),
        }
        Ok(())
    }

    /// A `littlekillersum`: its clue's `cell` outside the grid, its `direction`, its sum as its
    /// `value`, and its `cells`, when listed, the diagonal the arrow points along.
    fn little_killer(&self, clue: &Map<String, Value>) -> Result<LittleKiller, ShareError> {
        let key = "littlekillersum";
        let name = clue.get("cell").and_then(Value::as_str).unwrap_or("");
        let direction = match clue.get("direction").and_then(Value::as_str) {
            Some(direction) => FPUZZLES_DIRECTIONS.iter().find(|(written, _)| *written == direction).map(|&(_, d)| d),
            None => None,
        };
        let direction = direction
            .ok_or_else(|| malformed(format!("the `{key}` at `{name}` has no direction of UL, UR, DL, DR")))?;
        let sum = clue_number(key, name, clue, "an arrow", "sum")?;
        // The clue's cell, 0 and N + 1 outside the grid, and one step on from it the diagonal's
        // first.
        let size = self.size as i64;
        let outside = name
            .strip_prefix(['R', 'r'])
            .and_then(|rest| rest.split_once(['C', 'c']))
            .and_then(|(row, col)| Some((row.parse::<i64>().ok()?, col.parse::<i64>().ok()?)))
            .filter(|&(row, col)| (0..=size + 1).contains(&row) && (0..=size + 1).contains(&col));
        let inside = |coordinate: i64| (1..=size).contains(&coordinate);
        let (row, col) = outside
            .filter(|&(row, col)| !inside(row) || !inside(col))
            .ok_or_else(|| malformed(format!("`{name}` is no cell outside a {0}x{0} grid, as `R0C1`", self.size)))?;
        let (rows, cols) = direction.step();
        let (first_row, first_col) = (row + rows, col + cols);
        if !inside(first_row) || !inside(first_col) {
            return Err(malformed(format!("the `{key}` at `{name}` points past the grid")));
        }
        let little_killer = LittleKiller { sum, start: Place(first_row as u64 - 1, first_col as u64 - 1), direction };
        if let Some(cells) = clue.get("cells")
            && self.cells(key, Some(cells))? != little_killer.cells(self.size)
        {
            return Err(malformed(format!("the `{key}` at `{name}` lists cells off its diagonal")));
        }
        Ok(little_killer)
    }

    /// A clue beside one end of a row or column (`sandwichsum`): its `cell`, one step outside the
    /// grid beside the line (`R0C4` above column 4, `R4C0` left of row 4, row or column N + 1
    /// below or right), as the line's `(row, column)`, one of the two, and the end.
    fn line_clue(&self, key: &str, clue: &Map<String, Value>) -> Result<(Option<u64>, Option<u64>, End), ShareError> {
        let name = clue.get("cell").and_then(Value::as_str).unwrap_or("");
        let size = self.size as u64;
        let outside = name
            .strip_prefix(['R', 'r'])
            .and_then(|rest| rest.split_once(['C', 'c']))
            .and_then(|(row, col)| Some((row.parse::<u64>().ok()?, col.parse::<u64>().ok()?)));
        let inside = |coordinate: u64| (1..=size).contains(&coordinate);
        match outside {
            Some((0, col)) if inside(col) => Ok((None, Some(col - 1), End::Start)),
            Some((row, col)) if row == size + 1 && inside(col) => Ok((None, Some(col - 1), End::End)),
            Some((row, 0)) if inside(row) => Ok((Some(row - 1), None, End::Start)),
            Some((row, col)) if col == size + 1 && inside(row) => Ok((Some(row - 1), None, End::End)),
            _ => Err(malformed(format!(
                "the `{key}` at `{name}` is not beside a row or a column of a {0}x{0} grid, as `R0C1`",
                self.size
            ))),
        }
    }

    /// The cells of each of a line rule's `lines`.
    fn lines(&self, key: &str, item: &Map<String, Value>) -> Result<Vec<Vec<Place>>, ShareError> {
        let lines = item.get("lines").and_then(Value::as_array);
        let lines = lines.ok_or_else(|| malformed(format!("a `{key}` has no `lines`")))?;
        lines.iter().map(|line| self.cells(key, Some(line))).collect()
    }

    /// Refuses a `line` drawn for a rule whose own member has no line of its cells: the drawing
    /// would be all there is of the rule.
    fn check_drawn(&self) -> Result<(), ShareError> {
        for (rule, cells) in &self.drawn {
            let member = DRAWN_RULES.iter().find(|(drawn, _)| drawn == rule).map_or("", |(_, member)| member);
            // The drawing in the pieces its member was read as.
            let (lines, pieces): (Vec<&Vec<Place>>, Vec<Vec<Place>>) = match member {
                "whispers" => (
                    self.constraints.whispers.iter().map(|whispers| &whispers.line).collect(),
                    whispers_lines(cells, None).into_iter().map(|whispers| whispers.line).collect(),
                ),
                _ => (Vec::new(), vec![cells.clone()]),
            };
            if !pieces.iter().all(|piece| lines.contains(&piece)) {
                return Err(unsupported(
                    "line",
                    format!("a line drawn as {rule} without its `{member}` member: a drawing sudokud cannot read"),
                ));
            }
        }
        Ok(())
    }

    /// A `quadruple`: its four `cells` around a corner, and the `values` written in its circle.
    fn quadruple(&self, quadruple: &Map<String, Value>) -> Result<Quadruple, ShareError> {
        let mut cells = self.cells("quadruple", quadruple.get("cells"))?;
        cells.sort_unstable_by_key(|place| (place.0, place.1));
        let top_left = cells[0];
        let around = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(down, right)| Place(top_left.0 + down, top_left.1 + right));
        if cells != around {
            return Err(malformed("a `quadruple` names four cells that do not share a corner".to_owned()));
        }
        let values = quadruple.get("values").and_then(Value::as_array);
        let digits = values.and_then(|values| {
            values
                .iter()
                .map(|value| value.as_u64().or_else(|| value.as_str()?.parse().ok()))
                .collect::<Option<Vec<u64>>>()
        });
        let digits = digits.ok_or_else(|| malformed("a `quadruple` has no list of digits in `values`".to_owned()))?;
        Ok(Quadruple { top_left, digits })
    }

    fn items<'a>(&self, key: &str, value: &'a Value) -> Result<Vec<&'a Map<String, Value>>, ShareError> {
        let items = value.as_array().map(|items| items.iter().map(Value::as_object).collect::<Option<Vec<_>>>());
        items.flatten().ok_or_else(|| malformed(format!("`{key}` is not a list of objects")))
    }

    fn cells(&self, key: &str, cells: Option<&Value>) -> Result<Vec<Place>, ShareError> {
        let cells = cells.and_then(Value::as_array).filter(|cells| !cells.is_empty());
        let cells = cells.ok_or_else(|| malformed(format!("a `{key}` names no cells")))?;
        cells.iter().map(|cell| self.place(cell.as_str().unwrap_or(""))).collect()
    }

    /// `R1C1`, rows and columns from 1.
    fn place(&self, name: &str) -> Result<Place, ShareError> {
        let coordinates = name
            .strip_prefix(['R', 'r'])
            .and_then(|rest| rest.split_once(['C', 'c']))
            .and_then(|(row, col)| Some((row.parse::<usize>().ok()?, col.parse::<usize>().ok()?)));
        match coordinates {
            Some((row, col)) if (1..=self.size).contains(&row) && (1..=self.size).contains(&col) => {
                Ok(Place(row as u64 - 1, col as u64 - 1))
            }
            _ => Err(malformed(format!("`{name}` is no cell of a {0}x{0} grid", self.size))),
        }
    }
}

/// The number a clue outside the grid (`what`, `an arrow`) gives as its `value` (its `number`,
/// `sum`): a clue without one is a rule sudokud lacks (the puzzle's words give it).
fn clue_number(key: &str, name: &str, clue: &Map<String, Value>, what: &str, number: &str) -> Result<u64, ShareError> {
    let value = match clue.get("value") {
        Some(Value::String(text)) if !text.trim().is_empty() => text.trim().parse().ok(),
        Some(Value::Number(value)) => value.as_u64(),
        None | Some(_) => return Err(unsupported(key, format!("{what} at `{name}` without its {number}"))),
    };
    value.ok_or_else(|| malformed(format!("the `{key}` at `{name}` has no {number} of digits")))
}

/// What a member sudokud does not read is, where it is a rule the variant community uses.
fn describe(key: &str) -> &'static str {
    match key {
        "skyscraper" => "skyscrapers",
        "renbanline" => "renban lines",
        "regionsumline" => "region-sum lines",
        "clone" => "clones",
        "minimum" | "maximum" => "minimum and maximum cells",
        "line" | "circle" | "rectangle" | "cage" | "text" => {
            "drawings whose rule the puzzle gives in words, which sudokud cannot read"
        }
        _ => "a member of f-puzzles data",
    }
}

/// f-puzzles' names of the ways a little killer's arrow points.
const FPUZZLES_DIRECTIONS: [(&str, Direction); 4] =
    [("UL", Direction::UpLeft), ("UR", Direction::UpRight), ("DL", Direction::DownLeft), ("DR", Direction::DownRight)];

/// `puzzle` as an f-puzzles JSON object.
pub fn write_json(puzzle: &SharedPuzzle) -> Result<Value, ShareError> {
    let shape = puzzle.givens.shape();
    let size = shape.size();
    check_writable(shape, FORMAT)?;
    let constraints = &puzzle.constraints;
    for (given, rule) in [
        (!constraints.greater_than.is_empty(), "greater-than signs"),
        (constraints.global_entropy, "global entropy"),
        (constraints.global_mod, "global mod"),
        (constraints.anti_taxicab, "anti-taxicab"),
    ] {
        if given {
            let what = format!("{rule}: f-puzzles has no such rule");
            return Err(ShareError::Inexpressible { format: FORMAT, what });
        }
    }
    if !constraints.relations.is_empty() {
        let what = "custom relations (`relations`): f-puzzles has no such rule".to_owned();
        return Err(ShareError::Inexpressible { format: FORMAT, what });
    }
    let own = lockout_lines::default_difference(size);
    if let Some(difference) = constraints.lockout_lines.iter().find_map(|line| line.difference.filter(|&d| d != own)) {
        let what = format!(
            "a lockout line whose diamonds differ by {difference} at least: f-puzzles' lockout lines differ by {own}, a {size}x{size} grid's own"
        );
        return Err(ShareError::Inexpressible { format: FORMAT, what });
    }
    let regions = constraints.regions.as_ref().map(|regions| region_ids(regions, size)).transpose()?;
    let grid: Vec<Value> = puzzle
        .givens
        .cells()
        .chunks(size)
        .enumerate()
        .map(|(row, values)| {
            let cells = values.iter().enumerate().map(|(col, &value)| {
                let mut cell = Map::new();
                if value != 0 {
                    cell.insert("value".to_owned(), json!(value));
                    cell.insert("given".to_owned(), json!(true));
                }
                if let Some(regions) = &regions {
                    cell.insert("region".to_owned(), json!(regions[row * size + col]));
                }
                Value::Object(cell)
            });
            Value::Array(cells.collect())
        })
        .collect();
    let name = |place: &Place| json!(format!("R{}C{}", place.0 + 1, place.1 + 1));
    let names = |places: &[Place]| Value::Array(places.iter().map(name).collect());
    let mut out = Map::new();
    out.insert("size".to_owned(), json!(size));
    out.insert("grid".to_owned(), Value::Array(grid));
    let mut set = |key: &str, value: Value| {
        out.insert(key.to_owned(), value);
    };
    if matches!(constraints.diagonals, Some(Diagonals::Anti | Diagonals::Both)) {
        set("diagonal+", json!(true));
    }
    if matches!(constraints.diagonals, Some(Diagonals::Main | Diagonals::Both)) {
        set("diagonal-", json!(true));
    }
    for (on, key) in [
        (constraints.disjoint_groups, "disjointgroups"),
        (constraints.anti_knight, "antiknight"),
        (constraints.anti_king, "antiking"),
        (constraints.non_consecutive, "nonconsecutive"),
    ] {
        if on {
            set(key, json!(true));
        }
    }
    let mut negative = Vec::new();
    if constraints.kropki.all_given {
        negative.extend(["ratio", "difference"]);
    }
    if constraints.xv.all_given {
        negative.push("xv");
    }
    if !negative.is_empty() {
        set("negative", json!(negative));
    }
    let list = |items: Vec<Value>| (!items.is_empty()).then_some(Value::Array(items));
    let cages = constraints.cages.iter().map(|cage| {
        let sum = cage.sum.map_or_else(String::new, |sum| sum.to_string());
        json!({ "cells": names(&cage.cells), "value": sum })
    });
    let regions = constraints.extra_regions.iter().map(|region| json!({ "cells": names(region) }));
    let thermometers = constraints.thermometers.iter().map(|cells| json!({ "lines": [names(cells)] }));
    let palindromes = constraints.palindromes.iter().map(|cells| json!({ "lines": [names(cells)] }));
    let renbans = constraints.renbans.iter().map(|cells| json!({ "lines": [names(cells)] }));
    let between_lines = constraints.between_lines.iter().map(|cells| json!({ "lines": [names(cells)] }));
    let lockout_lines = constraints.lockout_lines.iter().map(|lockout| json!({ "lines": [names(&lockout.line)] }));
    let modular_lines = constraints.modular_lines.iter().map(|cells| json!({ "lines": [names(cells)] }));
    let entropic_lines = constraints.entropic_lines.iter().map(|cells| json!({ "lines": [names(cells)] }));
    // A shaft drawn from its bulb's last cell.
    let arrows = constraints.arrows.iter().map(|arrow| {
        let line: Vec<Place> = arrow.bulb.last().into_iter().chain(&arrow.line).copied().collect();
        json!({ "cells": names(&arrow.bulb), "lines": [names(&line)] })
    });
    let little_killers = constraints.little_killers.iter().map(|clue| {
        let (row, col) = clue.clue();
        let direction = FPUZZLES_DIRECTIONS.iter().find(|(_, direction)| *direction == clue.direction);
        json!({
            "cell": format!("R{}C{}", row + 1, col + 1),
            "cells": names(&clue.cells(size)),
            "direction": direction.map_or("", |(written, _)| written),
            "value": clue.sum.to_string(),
        })
    });
    let quadruples = constraints.quadruples.iter().map(|quadruple| {
        let Place(row, col) = quadruple.top_left;
        let cells = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(down, right)| Place(row + down, col + right));
        json!({ "cells": names(&cells), "values": quadruple.digits })
    });
    // The cell beside the line's end, one step outside the grid.
    let beside = |row: Option<u64>, column: Option<u64>, from: End| {
        let outside = if from == End::Start { 0 } else { size as u64 + 1 };
        match (row, column) {
            (Some(row), None) if row < size as u64 => Ok(format!("R{}C{outside}", row + 1)),
            (None, Some(column)) if column < size as u64 => Ok(format!("R{outside}C{}", column + 1)),
            _ => Err(ShareError::Inexpressible {
                format: FORMAT,
                what: "a clue beside no one row or column of the grid".to_owned(),
            }),
        }
    };
    let mut sandwiches = Vec::new();
    for clue in &constraints.sandwiches {
        sandwiches.push(json!({ "cell": beside(clue.row, clue.column, clue.from)?, "value": clue.sum.to_string() }));
    }
    let mut x_sums = Vec::new();
    for clue in &constraints.x_sums {
        x_sums.push(json!({ "cell": beside(clue.row, clue.column, clue.from)?, "value": clue.sum.to_string() }));
    }
    let whispers = constraints.whispers.iter().map(|whispers| match whispers.difference {
        Some(difference) => json!({ "lines": [names(&whispers.line)], "value": difference.to_string() }),
        None => json!({ "lines": [names(&whispers.line)] }),
    });
    let pairs = |pairs: &[[Place; 2]], value: Option<&str>| -> Vec<Value> {
        let pair = |pair: &[Place; 2]| match value {
            Some(value) => json!({ "cells": names(pair), "value": value }),
            None => json!({ "cells": names(pair) }),
        };
        pairs.iter().map(pair).collect()
    };
    let mut xv = pairs(&constraints.xv.x, Some("X"));
    xv.extend(pairs(&constraints.xv.v, Some("V")));
    let cells = |places: &[Place]| places.iter().map(|place| json!({ "cell": name(place) })).collect::<Vec<_>>();
    for (key, items) in [
        ("killercage", cages.collect()),
        ("extraregion", regions.collect()),
        ("thermometer", thermometers.collect()),
        ("whispers", whispers.collect()),
        ("palindrome", palindromes.collect()),
        ("renban", renbans.collect()),
        ("betweenline", between_lines.collect()),
        ("arrow", arrows.collect()),
        ("littlekillersum", little_killers.collect()),
        ("quadruple", quadruples.collect()),
        ("sandwichsum", sandwiches),
        ("xsum", x_sums),
        ("difference", pairs(&constraints.kropki.white, None)),
        ("ratio", pairs(&constraints.kropki.black, None)),
        ("xv", xv),
        ("odd", cells(&constraints.odd)),
        ("even", cells(&constraints.even)),
        ("lockout", lockout_lines.collect()),
        ("modularline", modular_lines.collect()),
        ("entropicline", entropic_lines.collect()),
    ] {
        if let Some(items) = list(items) {
            set(key, items);
        }
    }
    Ok(Value::Object(out))
}

/// Each cell's region, 0 to N - 1: the ids of rows that are those numbers already (as read),
/// else numbered in the order regions first appear.
fn region_ids(regions: &Regions, size: usize) -> Result<Vec<usize>, ShareError> {
    if let Regions::Rows(rows) = regions
        && rows.iter().flatten().all(|id| id.0 < size as u64)
    {
        return Ok(rows.iter().flatten().map(|id| id.0 as usize).collect());
    }
    let ids = match regions {
        Regions::Line(line) => numbered(line.chars()),
        Regions::Rows(rows) => numbered(rows.iter().flatten()),
    };
    match ids.iter().max() {
        Some(&most) if most >= size => {
            Err(ShareError::Inexpressible { format: FORMAT, what: format!("more than {size} regions") })
        }
        _ => Ok(ids),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{Kropki, Whispers, Xv};
    use crate::random::SplitMix64;

    fn place(row: u64, col: u64) -> Place {
        Place(row, col)
    }

    #[test]
    fn every_rule_sudokud_has_is_read_into_its_member() {
        let mut grid = vec![vec![json!({}); 6]; 6];
        grid[0][0] = json!({ "value": 2, "given": true });
        // A value not given is a player's entry.
        grid[0][1] = json!({ "value": 3 });
        grid[5][5] = json!({ "value": 6, "given": true, "centerPencilMarks": [1, 2] });
        grid[1][1] = json!({ "givenPencilMarks": [2, 4, 6] });
        // One candidate given is the cell's given.
        grid[4][4] = json!({ "givenPencilMarks": [3] });
        let data = json!({
            "size": 6, "grid": grid, "title": "t", "author": "a", "ruleset": "r", "disabledlogic": ["wings"],
            "diagonal+": true, "diagonal-": false, "disjointgroups": true, "antiknight": true, "antiking": true, "nonconsecutive": true,
            "negative": ["ratio", "difference", "xv"],
            "killercage": [{ "cells": ["R1C1", "R1C2"], "value": "7" }, { "cells": ["R2C1"] }],
            "extraregion": [{ "cells": ["R1C1", "R2C2", "R3C3", "R4C4", "R5C5", "R6C6"] }],
            "thermometer": [{ "lines": [["R3C1", "R3C2", "R3C3"], ["R6C1", "R5C1"]] }],
            "difference": [{ "cells": ["R4C1", "R4C2"] }],
            "ratio": [{ "cells": ["R5C2", "R6C2"], "value": "2" }],
            "xv": [{ "cells": ["R1C5", "R1C6"], "value": "X" }, { "cells": ["R2C5", "R2C6"], "value": "V" }],
            "odd": [{ "cell": "R1C3" }], "even": [{ "cell": "R1C4" }],
            "whispers": [{ "lines": [["R6C1", "R5C2"]] }, { "lines": [["R6C3", "R6C4"], ["R5C5", "R5C6"]], "value": "2" }],
            "line": [{ "lines": [["R6C1", "R5C2"]], "outlineC": "#67F067", "fromConstraint": "German Whispers" }],
            "palindrome": [{ "lines": [["R4C4", "R5C5", "R4C6"]] }],
            "quadruple": [{ "cells": ["R3C4", "R3C3", "R4C3", "R4C4"], "values": [1, 6, 6] }],
            "renban": [{ "lines": [["R6C4", "R6C5"]] }],
            "betweenline": [{ "lines": [["R2C1", "R3C2", "R3C3"], ["R1C6", "R2C6", "R3C6"]] }],
            "lockout": [{ "lines": [["R4C1", "R4C2", "R4C3"]] }],
            "modularline": [{ "lines": [["R1C1", "R2C1", "R3C1"]] }],
            "entropicline": [{ "lines": [["R4C1", "R4C2"], ["R5C1", "R5C2", "R5C3"]] }],
            "arrow": [{ "cells": ["R6C6"], "lines": [["R6C6", "R5C6", "R4C6"]] }, { "cells": ["R1C3", "R1C4"], "lines": [["R1C4", "R2C4"]] }],
            "littlekillersum": [
                { "cell": "R0C3", "cells": ["R1C2", "R2C1"], "direction": "DL", "value": "11" },
                { "cell": "R7C2", "direction": "UL", "value": 1 },
                { "cell": "R7C7", "cells": ["R6C6", "R5C5", "R4C4", "R3C3", "R2C2", "R1C1"], "direction": "UL", "value": "21" }
            ],
            "sandwichsum": [
                { "cell": "R0C2", "value": "5" }, { "cell": "R3C0", "value": 0 },
                { "cell": "R7C6", "value": "9" }, { "cell": "R6C7", "value": "2" }
            ],
            "xsum": [{ "cell": "R0C5", "value": "13" }, { "cell": "R2C7", "value": 6 }]
        });
        let puzzle = read_json(&data.to_string()).unwrap();
        assert_eq!(puzzle.givens.shape(), Shape::new(2, 3).unwrap());
        let cells = puzzle.givens.cells();
        assert_eq!((cells[0], cells[1], cells[4 * 6 + 4], cells[35]), (2, 0, 3, 6));
        let expected = Constraints {
            diagonals: Some(Diagonals::Anti),
            extra_regions: vec![(0..6).map(|index| place(index, index)).collect()],
            regions: None,
            disjoint_groups: true,
            cages: vec![
                Cage { cells: vec![place(0, 0), place(0, 1)], sum: Some(7) },
                Cage { cells: vec![place(1, 0)], sum: None },
            ],
            anti_knight: true,
            anti_king: true,
            non_consecutive: true,
            thermometers: vec![vec![place(2, 0), place(2, 1), place(2, 2)], vec![place(5, 0), place(4, 0)]],
            kropki: Kropki {
                white: vec![[place(3, 0), place(3, 1)]],
                black: vec![[place(4, 1), place(5, 1)]],
                all_given: true,
            },
            xv: Xv { x: vec![[place(0, 4), place(0, 5)]], v: vec![[place(1, 4), place(1, 5)]], all_given: true },
            whispers: vec![
                Whispers { line: vec![place(5, 0), place(4, 1)], difference: None },
                Whispers { line: vec![place(5, 2), place(5, 3)], difference: Some(2) },
                Whispers { line: vec![place(4, 4), place(4, 5)], difference: Some(2) },
            ],
            palindromes: vec![vec![place(3, 3), place(4, 4), place(3, 5)]],
            renbans: vec![vec![place(5, 3), place(5, 4)]],
            between_lines: vec![
                vec![place(1, 0), place(2, 1), place(2, 2)],
                vec![place(0, 5), place(1, 5), place(2, 5)],
            ],
            arrows: vec![
                Arrow { bulb: vec![place(5, 5)], line: vec![place(4, 5), place(3, 5)] },
                Arrow { bulb: vec![place(0, 2), place(0, 3)], line: vec![place(1, 3)] },
            ],
            little_killers: vec![
                LittleKiller { sum: 11, start: place(0, 1), direction: Direction::DownLeft },
                LittleKiller { sum: 1, start: place(5, 0), direction: Direction::UpLeft },
                LittleKiller { sum: 21, start: place(5, 5), direction: Direction::UpLeft },
            ],
            greater_than: Vec::new(),
            quadruples: vec![Quadruple { top_left: place(2, 2), digits: vec![1, 6, 6] }],
            sandwiches: vec![
                Sandwich { sum: 5, row: None, column: Some(1), from: End::Start },
                Sandwich { sum: 0, row: Some(2), column: None, from: End::Start },
                Sandwich { sum: 9, row: None, column: Some(5), from: End::End },
                Sandwich { sum: 2, row: Some(5), column: None, from: End::End },
            ],
            x_sums: vec![
                XSum { sum: 13, row: None, column: Some(4), from: End::Start },
                XSum { sum: 6, row: Some(1), column: None, from: End::End },
            ],
            even: vec![place(1, 1), place(0, 3)],
            odd: vec![place(0, 2)],
            lockout_lines: vec![LockoutLine { line: vec![place(3, 0), place(3, 1), place(3, 2)], difference: None }],
            modular_lines: vec![vec![place(0, 0), place(1, 0), place(2, 0)]],
            entropic_lines: vec![vec![place(3, 0), place(3, 1)], vec![place(4, 0), place(4, 1), place(4, 2)]],
            global_entropy: false,
            global_mod: false,
            anti_taxicab: false,
            relations: Vec::new(),
        };
        assert_eq!(puzzle.constraints, expected);
    }

    #[test]
    fn regions_other_than_the_boxes_are_a_jigsaw() {
        let mut grid = vec![vec![json!({}); 4]; 4];
        let layout = [[0, 0, 1, 1], [0, 2, 1, 1], [0, 2, 3, 3], [2, 2, 3, 3]];
        for (row, ids) in layout.iter().enumerate() {
            for (col, &id) in ids.iter().enumerate() {
                grid[row][col] = json!({ "region": id });
            }
        }
        let puzzle = read_json(&json!({ "size": 4, "grid": grid }).to_string()).unwrap();
        let rows = layout.iter().map(|ids| ids.iter().map(|&id| RegionId(id)).collect()).collect();
        assert_eq!(puzzle.constraints.regions, Some(Regions::Rows(rows)));
        let boxes =
            [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]].map(|ids| ids.map(|id| json!({ "region": id })));
        assert_eq!(read_json(&json!({ "size": 4, "grid": boxes }).to_string()).unwrap().constraints.regions, None);
    }

    #[test]
    fn what_sudokud_lacks_is_refused_by_name() {
        let empty = |size: usize| vec![vec![json!({}); size]; size];
        let refused = |extra: Value| {
            let mut data = json!({ "size": 9, "grid": empty(9) });
            data.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            read_json(&data.to_string()).unwrap_err().to_string()
        };
        assert_eq!(
            refused(json!({ "arrow": [{ "cells": ["R1C1"], "lines": [["R1C1", "R1C2"], ["R1C1", "R2C1"]] }] })),
            "the f-puzzles rule `arrow` (an arrow with several shafts adding up together) is not one sudokud has"
        );
        assert!(refused(json!({ "line": [{ "lines": [["R1C1", "R1C2"]] }] })).contains("`line` (drawings whose rule"));
        let drawn = json!({ "line": [{ "lines": [["R1C1", "R1C2"]], "fromConstraint": "Dutch Whispers" }] });
        assert!(refused(drawn).contains("`line` (a line drawn as Dutch Whispers without its `whispers` member"));
        let elsewhere = json!({
            "whispers": [{ "lines": [["R2C1", "R2C2"]] }],
            "line": [{ "lines": [["R1C1", "R1C2"]], "fromConstraint": "Whispers" }]
        });
        assert!(refused(elsewhere).contains("a line drawn as Whispers without"));
        assert!(
            refused(json!({ "whispers": [{ "lines": [["R1C1", "R1C2"]], "value": "x" }] }))
                .contains("is no whispers difference")
        );
        assert!(
            refused(json!({ "difference": [{ "cells": ["R1C1", "R1C2"], "value": "3" }] })).contains("a mark of `3`")
        );
        assert!(refused(json!({ "negative": ["ratio"] })).contains("one kind of Kropki dot given in full"));
        assert!(refused(json!({ "fog": true })).contains("`fog` (a member of f-puzzles data)"));
        assert_eq!(
            refused(json!({ "littlekillersum": [{ "cell": "R0C3", "direction": "DL", "value": "" }] })),
            "the f-puzzles rule `littlekillersum` (an arrow at `R0C3` without its sum) is not one sudokud has"
        );
        let mut grid = empty(9);
        grid[0][0] = json!({ "givenPencilMarks": [1, 2] });
        assert!(read_json(&json!({ "size": 9, "grid": grid }).to_string()).unwrap_err().to_string().contains("[1, 2]"));
        assert!(
            read_json(&json!({ "size": 7, "grid": empty(7) }).to_string()).unwrap_err().to_string().contains("7x7")
        );
    }

    #[test]
    fn malformed_data_says_what_is_wrong() {
        let refused = |text: &str| match read_json(text) {
            Err(ShareError::Malformed { why, .. }) => why,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(refused("[]"), "it is not a JSON object");
        assert_eq!(refused("{}"), "it has no `size`");
        assert_eq!(refused(r#"{"size":4,"grid":[]}"#), "its `grid` is not 4 rows");
        let grid = json!([[{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}]]);
        assert_eq!(refused(&json!({ "size": 4, "grid": grid }).to_string()), "row 4 of its `grid` is not 4 cells");
        let grid = vec![vec![json!({}); 4]; 4];
        let with = |extra: Value| {
            let mut data = json!({ "size": 4, "grid": grid.clone() });
            data.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            refused(&data.to_string())
        };
        assert_eq!(with(json!({ "killercage": [{ "cells": ["R5C1"] }] })), "`R5C1` is no cell of a 4x4 grid");
        assert_eq!(with(json!({ "killercage": [{ "cells": [] }] })), "a `killercage` names no cells");
        assert_eq!(with(json!({ "killercage": [{ "cells": ["R1C1"], "value": "x" }] })), "`x` is no cage sum");
        assert_eq!(with(json!({ "ratio": [{ "cells": ["R1C1"] }] })), "a `ratio` has two cells");
        assert_eq!(with(json!({ "antiking": "yes" })), "`antiking` is not true or false");
        assert_eq!(with(json!({ "odd": [1] })), "`odd` is not a list of objects");
        let clue = |cell: &str, direction: &str, value: Value| {
            with(json!({ "littlekillersum": [{ "cell": cell, "direction": direction, "value": value }] }))
        };
        assert_eq!(clue("R0C3", "D", json!("5")), "the `littlekillersum` at `R0C3` has no direction of UL, UR, DL, DR");
        assert_eq!(clue("R0C3", "DL", json!("x")), "the `littlekillersum` at `R0C3` has no sum of digits");
        assert_eq!(clue("R2C2", "DL", json!("5")), "`R2C2` is no cell outside a 4x4 grid, as `R0C1`");
        assert_eq!(clue("R0C7", "DL", json!("5")), "`R0C7` is no cell outside a 4x4 grid, as `R0C1`");
        assert_eq!(clue("R0C3", "UL", json!("5")), "the `littlekillersum` at `R0C3` points past the grid");
        for cell in ["R0C0", "R5C5", "R0C5", "R5C6", "R1C"] {
            assert_eq!(
                with(json!({ "sandwichsum": [{ "cell": cell, "value": "5" }] })),
                format!("the `sandwichsum` at `{cell}` is not beside a row or a column of a 4x4 grid, as `R0C1`")
            );
        }
        assert_eq!(
            with(json!({ "sandwichsum": [{ "cell": "R0C1", "value": "five" }] })),
            "the `sandwichsum` at `R0C1` has no sum of digits"
        );
        let off =
            json!({ "littlekillersum": [{ "cell": "R0C3", "cells": ["R1C2"], "direction": "DL", "value": "5" }] });
        assert_eq!(with(off), "the `littlekillersum` at `R0C3` lists cells off its diagonal");
        assert!(matches!(decode("not base64!"), Err(ShareError::Malformed { .. })));
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let mut random = SplitMix64(11);
        for shape in [4, 6, 8, 9, 10, 12, 15, 16].map(|size| Shape::default_for(size).unwrap()) {
            for _ in 0..20 {
                let mut puzzle = super::super::tests::random_puzzle(shape, &mut random);
                // f-puzzles has no greater-than signs: a puzzle with some is refused, never
                // written without them.
                if !puzzle.constraints.greater_than.is_empty() {
                    let refused = encode(&puzzle).unwrap_err().to_string();
                    assert_eq!(refused, "f-puzzles data cannot hold greater-than signs: f-puzzles has no such rule");
                    puzzle.constraints.greater_than.clear();
                }
                // Nor global entropy or global mod.
                let globals = &mut puzzle.constraints;
                if globals.global_entropy || globals.global_mod {
                    let rule = if globals.global_entropy { "global entropy" } else { "global mod" };
                    let refused = encode(&puzzle).unwrap_err().to_string();
                    assert_eq!(refused, format!("f-puzzles data cannot hold {rule}: f-puzzles has no such rule"));
                    (puzzle.constraints.global_entropy, puzzle.constraints.global_mod) = (false, false);
                }
                // Nor anti-taxicab.
                if puzzle.constraints.anti_taxicab {
                    let refused = encode(&puzzle).unwrap_err().to_string();
                    assert_eq!(refused, "f-puzzles data cannot hold anti-taxicab: f-puzzles has no such rule");
                    puzzle.constraints.anti_taxicab = false;
                }
                // Nor custom relations.
                let refused = encode(&puzzle).unwrap_err().to_string();
                assert_eq!(
                    refused,
                    "f-puzzles data cannot hold custom relations (`relations`): f-puzzles has no such rule"
                );
                puzzle.constraints.relations.clear();
                // Nor lockout lines of another difference than the grid's own.
                if puzzle.constraints.lockout_lines.iter().any(|line| line.difference.is_some()) {
                    let refused = encode(&puzzle).unwrap_err().to_string();
                    assert!(refused.contains("f-puzzles' lockout lines differ by"), "{refused}");
                    puzzle.constraints.lockout_lines.retain(|line| line.difference.is_none());
                }
                let data = encode(&puzzle).unwrap();
                // Regions come back as rows of their numbers in the order they first appear.
                if let Some(regions) = &puzzle.constraints.regions {
                    let ids = region_ids(regions, shape.size()).unwrap();
                    let rows = ids.chunks(shape.size()).map(|row| row.iter().map(|&id| RegionId(id as u64)).collect());
                    puzzle.constraints.regions = Some(Regions::Rows(rows.collect()));
                }
                assert_eq!(decode(&data).as_ref(), Ok(&puzzle), "{}", write_json(&puzzle).unwrap());
                assert_eq!(encode(&decode(&data).unwrap()).unwrap(), data);
            }
        }
    }
}
