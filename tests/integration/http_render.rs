//! `/v1/render` and `/v1/booklet` through the real router: SVGs byte for byte against golden
//! files (`tests/data/render`; `SUDOKUD_BLESS=1` writes them anew after a deliberate change, to
//! be looked at before committing), PNGs decoded and their pixels checked against the board,
//! PDFs read by a real reader (`pdftoppm`, from poppler-utils) page by page, and every error.

use std::path::PathBuf;
use std::process::Command;

use axum::body::to_bytes;
use axum::http::{StatusCode, header};
use serde_json::{Value, json};
use tiny_skia::Pixmap;
use tower::ServiceExt;

use crate::common::data_dir;
use crate::common::http::*;

/// The status, the media type and the bytes of an answer.
async fn draw(path: &str, body: Value) -> (StatusCode, String, Vec<u8>) {
    let response = router(&config()).oneshot(post_json(path, body.to_string())).await.unwrap();
    let status = response.status();
    let media_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_owned();
    let bytes = to_bytes(response.into_body(), 1 << 26).await.unwrap().to_vec();
    (status, media_type, bytes)
}

async fn drawn(path: &str, body: Value, media_type: &str) -> Vec<u8> {
    let (status, found, bytes) = draw(path, body).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&bytes));
    assert_eq!(found, media_type);
    bytes
}

fn golden(name: &str) -> PathBuf {
    data_dir().join("render").join(name)
}

/// Compares `svg` with the golden file `name`, or writes it when blessing.
fn assert_golden(name: &str, svg: &[u8]) {
    if std::env::var_os("SUDOKUD_BLESS").is_some() {
        std::fs::write(golden(name), svg).unwrap();
        return;
    }
    let expected = std::fs::read(golden(name)).unwrap_or_else(|error| panic!("{name}: {error}"));
    assert!(expected == svg, "{name}: the SVG differs from the golden file (SUDOKUD_BLESS=1 rewrites it)");
}

#[tokio::test]
async fn svgs_are_byte_stable() {
    let classic = json!({ "board": PUZZLE, "solution": true, "title": "LeetCode 37" });
    assert_golden("classic-solution.svg", &drawn("/v1/render", classic, "image/svg+xml").await);
    let marks = json!({ "board": ".14.........2..3", "candidates": true, "width": 300 });
    assert_golden("four-candidates.svg", &drawn("/v1/render", marks, "image/svg+xml").await);
    // Every mark a variant draws, on a 6x6 grid: a window, the diagonals, a cage with its sum, a
    // thermometer, both kinds of Kropki dot, an even and an odd cell; anti-knight named below.
    let variant = json!({
        "board": "1.....".to_owned() + &".".repeat(30),
        "constraints": {
            "diagonals": "both",
            "extra_regions": [[[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3]]],
            "cages": [{ "cells": [[3, 0], [4, 0], [4, 1]], "sum": 10 }],
            "thermometers": [[[5, 2], [5, 3], [4, 4]]],
            "kropki": { "white": [[[0, 4], [0, 5]]], "black": [[[1, 5], [2, 5]]] },
            "even": [[3, 3]],
            "odd": [[3, 5]],
            "anti_knight": true
        },
        "title": "Every mark"
    });
    assert_golden("six-variant.svg", &drawn("/v1/render", variant, "image/svg+xml").await);
    // Little killers' clues outside the grid, on every side and a corner.
    let clues = json!({
        "board": ".".repeat(16),
        "constraints": { "little_killers": [
            { "sum": 10, "start": [0, 0], "direction": "down_right" },
            { "sum": 7, "start": [0, 2], "direction": "down_left" },
            { "sum": 5, "start": [2, 3], "direction": "up_left" },
            { "sum": 3, "start": [3, 1], "direction": "up_right" },
            { "sum": 4, "start": [1, 0], "direction": "down_right" }
        ] },
        "title": "Little killers"
    });
    assert_golden("four-little-killers.svg", &drawn("/v1/render", clues, "image/svg+xml").await);
    // Between lines: grey through their cells, a ringed circle at each end.
    let lines = json!({
        "board": "1.......2.......",
        "constraints": { "between_lines": [[[0, 0], [1, 1], [2, 1], [3, 2]], [[0, 3], [1, 3], [2, 3]]] },
        "title": "Between lines"
    });
    assert_golden("four-between-lines.svg", &drawn("/v1/render", lines, "image/svg+xml").await);
    // Lockout lines: grey through their cells, a ringed diamond at each end.
    let lines = json!({
        "board": "1.......2.......",
        "constraints": { "lockout_lines": [{ "line": [[0, 0], [1, 1], [2, 1], [3, 2]] }, { "line": [[0, 3], [1, 3]], "difference": 3 }] },
        "title": "Lockout lines"
    });
    assert_golden("four-lockout-lines.svg", &drawn("/v1/render", lines, "image/svg+xml").await);
    // Custom relations: a thin line through their cells, a small circle at each, hollow between
    // each cell and the next, filled between every two, the name at the first cell.
    let relations = json!({
        "board": "1.......2.......",
        "constraints": { "relations": [
            { "cells": [[0, 1], [1, 1], [1, 2]], "between": "neighbours", "allowed": [[1, 2], [2, 3], [3, 4]], "name": "up" },
            { "cells": [[3, 0], [2, 2], [3, 3]], "between": "every_two", "allowed": [[1, 3], [3, 1], [2, 4], [4, 2]] }
        ] },
        "title": "Custom relations"
    });
    assert_golden("four-relations.svg", &drawn("/v1/render", relations, "image/svg+xml").await);
    // Modular lines teal blue, entropic lines orange, through their cells' middles.
    let lines = json!({
        "board": "1...........2.......................",
        "constraints": {
            "modular_lines": [[[0, 0], [1, 1], [2, 1], [3, 2]]],
            "entropic_lines": [[[0, 3], [1, 3], [2, 3], [2, 4]], [[5, 0], [5, 1]]]
        },
        "title": "Modular and entropic lines"
    });
    assert_golden("six-modular-entropic-lines.svg", &drawn("/v1/render", lines, "image/svg+xml").await);
    // Global entropy and global mod: no mark in the cells, both named under the grid.
    let globals = json!({
        "board": "1.....".to_owned() + &".".repeat(30),
        "constraints": { "global_entropy": true, "global_mod": true },
        "title": "Global entropy and mod"
    });
    assert_golden("six-global-entropy-mod.svg", &drawn("/v1/render", globals, "image/svg+xml").await);
    // Disjoint groups, named under the grid as the rules they are, beside a mark that is drawn;
    // quadruples' circles of one to four digits on their corners.
    let groups = json!({
        "board": "1....2..........",
        "constraints": { "disjoint_groups": true, "diagonals": "main", "quadruples": [
            { "top_left": [0, 0], "digits": [1, 2, 3, 4] },
            { "top_left": [2, 2], "digits": [3] },
            { "top_left": [0, 2], "digits": [2, 4, 1] }
        ] },
        "title": "Disjoint groups and quadruples"
    });
    assert_golden("disjoint-groups-quadruples.svg", &drawn("/v1/render", groups, "image/svg+xml").await);
    // Sandwiches beside each end of rows and columns, sharing the band with a little killer.
    let sandwiches = json!({
        "board": ".".repeat(16),
        "constraints": {
            "sandwiches": [
                { "sum": 5, "column": 0 },
                { "sum": 0, "column": 3, "from": "end" },
                { "sum": 2, "row": 1 },
                { "sum": 3, "row": 2, "from": "end" }
            ],
            "little_killers": [{ "sum": 10, "start": [0, 0], "direction": "down_right" }]
        },
        "title": "Sandwiches"
    });
    assert_golden("four-sandwiches.svg", &drawn("/v1/render", sandwiches, "image/svg+xml").await);
    // X-sums at both ends of a column and beside a row.
    let x_sums = json!({
        "board": "1...............",
        "constraints": {
            "x_sums": [{ "sum": 10, "column": 1 }, { "sum": 5, "column": 1, "from": "end" }, { "sum": 1, "row": 0 }]
        },
        "title": "X-sums"
    });
    assert_golden("four-x-sums.svg", &drawn("/v1/render", x_sums, "image/svg+xml").await);
    // Anti-taxicab, named under the grid as anti-knight is, beside the diagonals drawn.
    let taxicab = json!({
        "board": "1.........1.....",
        "constraints": { "anti_taxicab": true, "diagonals": "both" },
        "title": "Anti-taxicab"
    });
    assert_golden("four-anti-taxicab.svg", &drawn("/v1/render", taxicab, "image/svg+xml").await);
}

/// A decoded PNG's pixel as red, green and blue.
fn rgb(image: &Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let pixel = image.pixel(x, y).unwrap();
    (pixel.red(), pixel.green(), pixel.blue())
}

fn is_dark((red, green, blue): (u8, u8, u8)) -> bool {
    red < 96 && green < 96 && blue < 96
}

fn is_red((red, green, blue): (u8, u8, u8)) -> bool {
    red > 150 && green < 90 && blue < 90
}

/// The pixels of the middle of each cell (its centre half, clear of the grid's lines), of a
/// drawing with no title: the grid sits within a margin of 4 % of the width.
fn cell_middles(image: &Pixmap, size: u32) -> Vec<Vec<(u8, u8, u8)>> {
    let margin = (0.04 * image.width() as f32).round() as u32;
    let cell = (image.width() - 2 * margin) as f32 / size as f32;
    (0..size * size)
        .map(|index| {
            let (left, top) =
                (margin as f32 + (index % size) as f32 * cell, margin as f32 + (index / size) as f32 * cell);
            let span = (cell * 0.25) as u32..(cell * 0.75) as u32;
            span.clone()
                .flat_map(|dy| span.clone().map(move |dx| (dx, dy)))
                .map(|(dx, dy)| rgb(image, left as u32 + dx, top as u32 + dy))
                .collect()
        })
        .collect()
}

/// X and V marks: a letter on a white square where the two cells meet, hiding the grid line
/// there, where an edge without a mark shows the line; an X has ink in its lower corners, a V
/// only in its middle.
#[tokio::test]
async fn x_and_v_letters_sit_on_their_edges() {
    let body = json!({
        "board": ".".repeat(36),
        "constraints": { "xv": { "x": [[[0, 0], [0, 1]]], "v": [[[2, 2], [3, 2]]] } },
        "format": "png",
        "width": 600
    });
    let image = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    // The grid sits within a margin of 4 % of the width; 6 cells of 92 pixels.
    let (margin, cell) = (24.0, 92.0);
    let at = |row: f32, col: f32, dx: f32, dy: f32| {
        let (x, y) = (margin + col * cell + dx * cell, margin + row * cell + dy * cell);
        is_dark(rgb(&image, x.round() as u32, y.round() as u32))
    };
    // The ink in the square from (dx0, dy0) to (dx1, dy1) around an edge's middle, in cells.
    let ink = |row: f32, col: f32, (dx0, dy0): (f32, f32), (dx1, dy1): (f32, f32)| {
        let steps = |from: f32, to: f32| (0..=10).map(move |step| from + (to - from) * step as f32 / 10.0);
        steps(dy0, dy1)
            .flat_map(|dy| steps(dx0, dx1).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| at(row, col, dx, dy))
            .count()
    };
    // The X between r1c1 and r1c2 (its middle at row 0.5, col 1), the V between r3c3 and r4c3.
    let (x, v) = ((0.5, 1.0), (3.0, 2.5));
    // The vertical line between r2c1 and r2c2 shows above and below the middle; the X's hides it.
    assert!(at(1.5, 1.0, 0.0, -0.135) && at(1.5, 1.0, 0.0, 0.135), "an edge without a mark shows its line");
    assert!(!at(x.0, x.1, 0.0, -0.135) && !at(x.0, x.1, 0.0, 0.135), "the X's square hides the line");
    assert!(!at(v.0, v.1, -0.135, 0.0) && !at(v.0, v.1, 0.135, 0.0), "the V's square hides the line");
    let lower_left = ((-0.11, 0.06), (-0.05, 0.11));
    let upper_left = ((-0.11, -0.11), (-0.05, -0.06));
    assert!(ink(x.0, x.1, lower_left.0, lower_left.1) > 0, "an X reaches its lower left corner");
    assert_eq!(ink(v.0, v.1, lower_left.0, lower_left.1), 0, "a V does not");
    assert!(ink(x.0, x.1, upper_left.0, upper_left.1) > 0 && ink(v.0, v.1, upper_left.0, upper_left.1) > 0);
}

/// Greater-than signs: a chevron across the edge between the two cells, its point on the smaller
/// cell's side of the line and its arms on the greater's, one either way round and one
/// vertical.
#[tokio::test]
async fn greater_than_signs_point_at_the_smaller_cell() {
    let body = json!({
        "board": ".".repeat(36),
        "constraints": { "greater_than": [
            { "greater": [0, 0], "less": [0, 1] },
            { "greater": [2, 4], "less": [2, 3] },
            { "greater": [1, 3], "less": [0, 3] }
        ] },
        "format": "png",
        "width": 600
    });
    let image = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    // The grid sits within a margin of 4 % of the width; 6 cells of 92 pixels.
    let (margin, cell) = (24.0, 92.0);
    // Whether there is ink within 2 pixels of a point, given from an edge's middle in cells.
    let at = |(row, col): (f32, f32), (dx, dy): (f32, f32)| {
        let (x, y) = (margin + col * cell + dx * cell, margin + row * cell + dy * cell);
        let near = |centre: f32| (centre.round() as u32 - 2)..=(centre.round() as u32 + 2);
        near(y).any(|y| near(x).any(|x| is_dark(rgb(&image, x, y))))
    };
    // Each sign's edge middle (thin lines, clear of the boxes'), and a cell's step from its
    // greater cell to its smaller.
    for (middle, (right, down)) in [((0.5, 1.0), (1.0, 0.0)), ((2.5, 4.0), (-1.0, 0.0)), ((1.0, 3.5), (0.0, -1.0))] {
        let step = |along: f32, across: f32| (right * along - down * across, down * along + right * across);
        assert!(at(middle, step(0.06, 0.0)), "{middle:?}: the point, on the smaller cell's side");
        assert!(!at(middle, step(-0.06, 0.0)), "{middle:?}: nothing on the greater's side of the point");
        for across in [-0.13, 0.13] {
            assert!(at(middle, step(-0.06, across)), "{middle:?}: an arm's end, on the greater's side");
            assert!(!at(middle, step(0.06, across)), "{middle:?}: nothing beside the point");
        }
    }
    assert!(!at((1.5, 1.0), (0.06, 0.0)), "an edge without a sign has its line alone");
}

/// A whispers line: green through the middles of its cells (a diagonal step too), nowhere
/// else; a difference the line gives is written in its first cell's lower right corner. A
/// palindrome: grey, the same way; a renban line purple; an arrow a grey outlined bulb and a
/// thin grey shaft.
#[tokio::test]
async fn whispers_lines_are_green_palindromes_grey_renban_lines_purple_and_arrows_grey_through_their_cells() {
    let body = json!({
        "board": ".".repeat(36),
        "constraints": {
            "whispers": [{ "line": [[0, 0], [1, 1], [1, 2]] }, { "line": [[4, 0], [4, 1]], "difference": 4 }],
            "palindromes": [[[2, 3], [3, 4], [4, 5], [5, 4]]],
            "renbans": [[[5, 1], [5, 2]]],
            "arrows": [{ "bulb": [[2, 0]], "line": [[2, 1], [2, 2]] }]
        },
        "format": "png",
        "width": 600
    });
    let image = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    let (margin, cell) = (24.0, 92.0);
    let pixel =
        |row: f32, col: f32| rgb(&image, (margin + col * cell).round() as u32, (margin + row * cell).round() as u32);
    let green = |(red, green, blue): (u8, u8, u8)| green > 200 && red < 150 && blue < 150;
    // On the line: the first cell's middle, the diagonal step's three quarters, the last step.
    for (row, col) in [(0.5, 0.5), (0.75, 0.75), (1.5, 2.2), (4.5, 0.8)] {
        assert!(green(pixel(row, col)), "({row}, {col}) is on a line: {:?}", pixel(row, col));
    }
    // Off it: beside the diagonal step, and a cell no line passes.
    for (row, col) in [(0.25, 0.75), (3.5, 3.5), (1.5, 0.5)] {
        assert!(!green(pixel(row, col)), "({row}, {col}) is off the lines");
    }
    // The 4 of the second line, dark green, in r5c1's lower right corner; none in r1c1's.
    let ink = |row: f32, col: f32| {
        (0..20)
            .flat_map(|dy| (0..20).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| {
                let (red, green, blue) = pixel(row + 0.7 + dy as f32 * 0.01, col + 0.7 + dx as f32 * 0.01);
                i32::from(green) > i32::from(red) + 40 && i32::from(green) > i32::from(blue) + 40 && green < 160
            })
            .count()
    };
    assert!(ink(4.0, 0.0) > 0, "the difference is written");
    // The palindrome: grey through its cells, not green.
    let grey = |(red, green, blue): (u8, u8, u8)| red == green && green == blue && (0x80..0xc0).contains(&red);
    for (row, col) in [(2.5, 3.5), (2.75, 3.75), (3.5, 4.5), (5.5, 4.5)] {
        assert!(grey(pixel(row, col)), "({row}, {col}) is on the palindrome: {:?}", pixel(row, col));
    }
    assert!(!grey(pixel(3.5, 3.5)), "the palindrome's cells only");
    let purple = |(red, green, blue): (u8, u8, u8)| red > 200 && blue > 200 && green < 150;
    for (row, col) in [(5.5, 1.5), (5.5, 2.2)] {
        assert!(purple(pixel(row, col)), "({row}, {col}) is on the renban line: {:?}", pixel(row, col));
    }
    for (row, col) in [(5.5, 0.5), (4.5, 0.8), (3.5, 3.5)] {
        assert!(!purple(pixel(row, col)), "({row}, {col}) is off the renban line");
    }
    // The arrow: a white bulb in a grey ring, a grey shaft, nothing beside it.
    assert_eq!(pixel(2.5, 0.5), (255, 255, 255), "inside the bulb");
    for (row, col) in [(2.5, 0.87), (2.13, 0.5), (2.5, 1.5), (2.5, 2.3)] {
        assert!(grey(pixel(row, col)), "({row}, {col}) is on the arrow: {:?}", pixel(row, col));
    }
    assert!(!grey(pixel(2.2, 1.5)), "beside the shaft");
    assert_eq!(ink(0.0, 0.0), 0, "a line without a difference has no label");
}

/// Little killers: the grid leaves a band of three quarters of a cell on every side for the clues
/// outside it, each sum written beside the cell before its diagonal's first with an arrow at
/// that cell's corner; without clues, the grid fills the width as ever.
#[tokio::test]
async fn little_killer_clues_sit_in_a_band_outside_the_grid() {
    let board = "1".to_owned() + &".".repeat(35);
    let clue = json!({ "sum": 17, "start": [0, 2], "direction": "down_left" });
    let body = json!({ "board": board, "constraints": { "little_killers": [clue] }, "format": "png", "width": 600 });
    let image = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    assert_eq!((image.width(), image.height()), (600, 600));
    // Within the 4 % margin, 7.5 cells across: the grid from 79.2 to 520.8, cells of 73.6.
    let (left, cell) = (24.0 + 0.75 * 73.6, 73.6);
    let dark = |row: f32, col: f32| {
        is_dark(rgb(&image, (left + col * cell).round() as u32, (left + row * cell).round() as u32))
    };
    let ink = |(row0, col0): (f32, f32), (row1, col1): (f32, f32)| {
        let steps = |from: f32, to: f32| (0..=20).map(move |step| from + (to - from) * step as f32 / 20.0);
        steps(row0, row1)
            .flat_map(|row| steps(col0, col1).map(move |col| (row, col)))
            .filter(|&(row, col)| dark(row, col))
            .count()
    };
    assert!(dark(0.5, 0.0) && dark(0.0, 0.5) && dark(6.0, 3.5), "the grid's frame, inside the band");
    assert!(ink((0.3, 0.3), (0.7, 0.7)) > 0, "r1c1's given, where the grid now is");
    // The 17 above r1c4, right of its middle, away from the arrow that points down and to the
    // left at r1c3's top right corner.
    assert!(ink((-0.6, 3.5), (-0.3, 3.9)) > 10, "the sum above the grid");
    assert_eq!(ink((-0.6, 3.0), (-0.35, 3.35)), 0, "the sum clear of the arrow");
    assert!(ink((-0.3, 3.03), (-0.03, 3.3)) > 5, "the arrow up to the corner");
    assert_eq!(ink((-0.7, 0.5), (-0.1, 2.5)), 0, "nothing else above the grid");
    // The same grid without clues is drawn as before: the frame at the 4 % margin.
    let body = json!({ "board": ".".repeat(36), "format": "png", "width": 600 });
    let plain = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    assert!(is_dark(rgb(&plain, 24, 300)) && !is_dark(rgb(&image, 24, 300)));
}

#[tokio::test]
async fn a_png_has_the_width_asked_and_dark_givens_where_the_board_has_them() {
    let png = drawn("/v1/render", json!({ "board": PUZZLE, "format": "png", "width": 450 }), "image/png").await;
    let image = Pixmap::decode_png(&png).unwrap();
    assert_eq!((image.width(), image.height()), (450, 450));
    for (index, middle) in cell_middles(&image, 9).iter().enumerate() {
        let given = PUZZLE.as_bytes()[index] != b'.';
        assert_eq!(middle.iter().any(|&pixel| is_dark(pixel)), given, "cell {index}");
        assert!(!middle.iter().any(|&pixel| is_red(pixel)), "cell {index}");
    }
    // With the solution, every blank cell holds red, and no given does.
    let body = json!({ "board": PUZZLE, "format": "png", "width": 450, "solution": true });
    let image = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    for (index, middle) in cell_middles(&image, 9).iter().enumerate() {
        let given = PUZZLE.as_bytes()[index] != b'.';
        assert_eq!(middle.iter().any(|&pixel| is_red(pixel)), !given, "cell {index}");
    }
    // The caller's solution draws the same.
    let body = json!({ "board": PUZZLE, "format": "png", "width": 450, "solution": SOLUTION });
    assert_eq!(Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap(), image);
}

#[tokio::test]
async fn the_players_pencil_marks_are_drawn_in_the_cells_they_are_in() {
    // A 4x4 board with marks only in r1c1 (2 and 3): every other blank cell stays white.
    let board = "1...............";
    let mut marks = vec![vec![Vec::<u8>::new(); 4]; 4];
    marks[0][1] = vec![2, 3];
    let body = json!({ "board": board, "format": "png", "width": 400, "candidates": marks });
    let image = Pixmap::decode_png(&drawn("/v1/render", body, "image/png").await).unwrap();
    let middles = cell_middles(&image, 4);
    let inked: Vec<usize> =
        (0..16).filter(|&index| middles[index].iter().any(|&pixel| pixel != (255, 255, 255))).collect();
    assert_eq!(inked, vec![0, 1]);
}

/// The pages of a PDF as read by `pdftoppm` at 36 dots per inch, or `None` when it is not
/// installed and `SUDOKUD_REQUIRE_PDFTOPPM` is unset (CI sets it, so there the check always runs).
fn pdf_pages(pdf: &[u8]) -> Option<Vec<Pixmap>> {
    let dir = std::env::temp_dir().join(format!(
        "sudokud-pdf-{}-{:x}",
        std::process::id(),
        pdf.len() ^ pdf[pdf.len() / 2] as usize
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("drawing.pdf");
    std::fs::write(&file, pdf).unwrap();
    let run = Command::new("pdftoppm").args(["-r", "36", "-png"]).arg(&file).arg(dir.join("page")).output();
    let output = match run {
        Ok(output) => output,
        Err(error) if std::env::var_os("SUDOKUD_REQUIRE_PDFTOPPM").is_none() => {
            eprintln!("pdftoppm not run ({error}): install poppler-utils to check PDFs with a real reader");
            return None;
        }
        Err(error) => panic!("pdftoppm: {error}"),
    };
    assert!(output.status.success(), "pdftoppm: {}", String::from_utf8_lossy(&output.stderr));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "png"))
        .collect();
    pages.sort();
    let images = pages.iter().map(|page| Pixmap::decode_png(&std::fs::read(page).unwrap()).unwrap()).collect();
    std::fs::remove_dir_all(&dir).unwrap();
    Some(images)
}

fn count(image: &Pixmap, test: fn((u8, u8, u8)) -> bool) -> usize {
    (0..image.height())
        .flat_map(|y| (0..image.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| test(rgb(image, x, y)))
        .count()
}

#[tokio::test]
async fn a_booklet_has_its_puzzle_and_answer_pages_and_is_the_same_for_the_same_seed() {
    let body = json!({ "count": 8, "difficulty": "hard", "seed": 7, "title": "Hard puzzles" });
    let pdf = drawn("/v1/booklet", body.clone(), "application/pdf").await;
    assert_eq!(pdf, drawn("/v1/booklet", body, "application/pdf").await, "the same seed, the same bytes");
    let other = drawn("/v1/booklet", json!({ "count": 8, "difficulty": "hard", "seed": 8 }), "application/pdf").await;
    assert_ne!(pdf, other);
    let Some(pages) = pdf_pages(&pdf) else { return };
    // Four puzzles to a page, then the eight answers on one page.
    assert_eq!(pages.len(), 3);
    for (number, page) in pages.iter().enumerate() {
        // A4 at 36 dpi.
        assert_eq!((page.width(), page.height()), (298, 421), "page {}", number + 1);
        assert!(count(page, is_dark) > 2_000, "page {} is nearly blank", number + 1);
        let answers = number == 2;
        assert_eq!(count(page, is_red) > 100, answers, "page {}: red only on the answer page", number + 1);
    }
    let without = drawn(
        "/v1/booklet",
        json!({ "count": 8, "seed": 7, "answers": false, "paper": "letter", "per_page": 2 }),
        "application/pdf",
    )
    .await;
    let pages = pdf_pages(&without).unwrap();
    assert_eq!(pages.len(), 4);
    assert_eq!((pages[0].width(), pages[0].height()), (306, 396), "Letter at 36 dpi");
}

#[tokio::test]
async fn a_pdf_render_is_one_page_of_the_paper_asked() {
    let pdf =
        drawn("/v1/render", json!({ "board": PUZZLE, "format": "pdf", "paper": "letter" }), "application/pdf").await;
    let Some(pages) = pdf_pages(&pdf) else { return };
    assert_eq!(pages.len(), 1);
    assert_eq!((pages[0].width(), pages[0].height()), (306, 396));
    assert!(count(&pages[0], is_dark) > 1_000);
}

#[tokio::test]
async fn a_booklet_of_given_puzzles_keeps_their_order() {
    let puzzles = json!([PUZZLE, "...............1"]);
    // The 4x4 one has many solutions: refused, naming it.
    let reply = send(router(&config()), post_json("/v1/booklet", json!({ "puzzles": puzzles }).to_string())).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert!(problem["detail"].as_str().unwrap().starts_with("`puzzles[1]`: "), "{problem}");
    let pdf = drawn("/v1/booklet", json!({ "puzzles": [PUZZLE, PUZZLE], "per_page": 1 }), "application/pdf").await;
    let Some(pages) = pdf_pages(&pdf) else { return };
    // Two puzzle pages and one of answers.
    assert_eq!(pages.len(), 3);
}

#[tokio::test]
async fn every_bad_request_is_a_problem_naming_its_member() {
    let cases = [
        (
            "/v1/render",
            json!({ "board": PUZZLE, "width": 99 }),
            "invalid-request",
            "`width`: 99 pixels; expected 100 to 2048",
        ),
        ("/v1/render", json!({ "board": PUZZLE, "format": "gif" }), "invalid-request", "`format`"),
        ("/v1/render", json!({ "board": PUZZLE, "paper": "a3" }), "invalid-request", "`paper`"),
        (
            "/v1/render",
            json!({ "board": PUZZLE, "title": "x".repeat(201) }),
            "invalid-request",
            "`title`: 201 characters; at most 200",
        ),
        (
            "/v1/render",
            json!({ "board": PUZZLE, "title": "Sudoku ☺" }),
            "invalid-request",
            "`title`: '☺' (U+263A) cannot be drawn",
        ),
        (
            "/v1/render",
            json!({ "board": PUZZLE, "solution": PUZZLE }),
            "invalid-request",
            "`solution`: it has blank cells",
        ),
        ("/v1/render", json!({ "board": PUZZLE, "solution": "2".repeat(81) }), "invalid-request", "`solution`: "),
        ("/v1/render", json!({ "board": PUZZLE, "candidates": "12" }), "invalid-request", "`candidates`: "),
        ("/v1/render", json!({ "board": "55" }), "invalid-board", ""),
        ("/v1/booklet", json!({ "count": 0 }), "invalid-request", "`count`: expected 1 to 100 puzzles"),
        ("/v1/booklet", json!({ "count": 101 }), "invalid-request", "`count`: expected 1 to 100 puzzles"),
        ("/v1/booklet", json!({}), "invalid-request", "`count`: how many puzzles to make is missing"),
        (
            "/v1/booklet",
            json!({ "count": 1, "puzzles": [PUZZLE] }),
            "invalid-request",
            "give `count` or `puzzles`, not both",
        ),
        (
            "/v1/booklet",
            json!({ "count": 1, "per_page": 5 }),
            "invalid-request",
            "`per_page`: 5; expected one of [1, 2, 4, 6, 9]",
        ),
        ("/v1/booklet", json!({ "count": 1, "size": 4, "difficulty": "hard" }), "invalid-request", "`difficulty`: "),
        ("/v1/booklet", json!({ "count": 1, "size": 7 }), "invalid-request", "`size`: "),
        ("/v1/booklet", json!({ "puzzles": [] }), "invalid-request", "`puzzles`: 0 puzzles; expected 1 to 100"),
        ("/v1/booklet", json!({ "puzzles": ["12"] }), "invalid-request", "`puzzles[0]`: "),
    ];
    for (path, body, kind, detail) in cases {
        let reply = send(router(&config()), post_json(path, body.to_string())).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, kind);
        assert!(problem["detail"].as_str().unwrap().contains(detail), "{path} {body}: {problem}");
    }
}

/// Issue 51's smaller points: a refusal says what is wrong in the caller's words, not the
/// parser's or another rule's.
#[tokio::test]
async fn a_refused_solution_or_title_says_what_is_wrong() {
    let four = "................";
    let cages: Value = serde_json::from_str(
        r#"[{"cells":[[0,0],[0,1]],"sum":3},{"cells":[[0,2],[0,3]],"sum":7},{"cells":[[1,0],[2,0]],"sum":5},{"cells":[[1,1],[1,2],[1,3]],"sum":7},{"cells":[[2,1],[2,2]],"sum":5},{"cells":[[2,3],[3,3]],"sum":4},{"cells":[[3,0],[3,1],[3,2]],"sum":9}]"#,
    )
    .unwrap();
    // A grid that keeps every row, column and box, but not the other rule.
    let relabelled = "2134342112434312";
    let cases = [
        (
            json!({ "board": four, "variant": "killer", "constraints": { "cages": cages } }),
            relabelled,
            "breaks its cage's sum",
        ),
        (
            json!({ "board": four, "constraints": { "thermometers": [[[0, 0], [0, 1]]] } }),
            "2143341212344321",
            "`solution`: it breaks the rules: r1c1 = 2 does not rise along its thermometer",
        ),
        (
            json!({ "board": four, "constraints": { "even": [[0, 0]] } }),
            "1234341221434321",
            "r1c1 = 1 is odd in an even cell",
        ),
        (json!({ "board": four }), "1234341221434312", "r2c3 = 1 repeats in its column"),
        (json!({ "board": PUZZLE }), "1234341221434321", "`solution`: a 4x4 grid, but the board is a 9x9 one"),
    ];
    for (mut body, solution, detail) in cases {
        body["solution"] = json!(solution);
        let reply = send(router(&config()), post_json("/v1/render", body.to_string())).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert!(problem["detail"].as_str().unwrap().contains(detail), "{body}: {problem}");
    }
    let body = format!(r#"{{"board":"{four}","title":"Sudoku \ud800"}}"#);
    let problem = assert_problem(
        &send(router(&config()), post_json("/v1/render", body)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid-request",
    );
    assert_eq!(problem["detail"], r"`title`: a lone UTF-16 surrogate (\uD800) is not a character");
}
