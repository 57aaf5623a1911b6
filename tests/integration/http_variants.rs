//! Variants through the HTTP API: `variant` and `constraints` beside a board on solve,
//! validate, count and batch, answers checked against the published solutions of the CC BY set
//! (`tests/data/variants`), and every error a variant request can meet.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::data_dir;
use crate::common::http::*;

/// The CC BY variant puzzles: request members `board` and `constraints`, and `solution`.
fn puzzles() -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join("variants").join("mixed_ccby.jsonl")).unwrap();
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

async fn post(path: &str, body: Value) -> Reply {
    send(router(&config()), post_json(path, body.to_string())).await
}

#[tokio::test]
async fn every_public_variant_puzzle_is_solved_to_its_published_solution() {
    for puzzle in puzzles() {
        let body = json!({ "board": puzzle["board"], "constraints": puzzle["constraints"] });
        let reply = post("/v1/solve", body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}: {}", puzzle["id"], reply.body);
        assert_eq!(reply.body["solution"], puzzle["solution"], "{}", puzzle["id"]);
        assert_eq!(reply.body["unique"], true, "{}", puzzle["id"]);
    }
}

#[tokio::test]
async fn a_preset_stands_for_its_constraints() {
    let x = puzzles().into_iter().find(|puzzle| puzzle["id"] == "svjs-20").unwrap();
    let reply = post("/v1/solve", json!({ "board": x["board"], "variant": "x" })).await;
    assert_eq!(reply.body["solution"], x["solution"], "{}", reply.body);
    // Without the diagonals the puzzle has other solutions.
    let reply = post("/v1/solve", json!({ "board": x["board"] })).await;
    assert_eq!(reply.body["unique"], false, "{}", reply.body);
    // The answer keeps the board's representation.
    let rows = rows_of_numbers(x["board"].as_str().unwrap());
    let reply = post("/v1/solve", json!({ "board": rows, "variant": "x" })).await;
    assert_eq!(reply.body["solution"], rows_of_numbers(x["solution"].as_str().unwrap()));
}

#[tokio::test]
async fn validate_names_the_rule_each_cell_breaks_and_count_counts_by_the_variant() {
    let board = format!("12{}", ".".repeat(79));
    let reply = post("/v1/validate", json!({ "board": board, "variant": "non-consecutive" })).await;
    assert_eq!(reply.status, StatusCode::OK);
    let expected = json!({ "valid": false, "complete": false, "conflicts": [
        { "row": 0, "col": 0, "digit": 1, "units": ["non_consecutive"] },
        { "row": 0, "col": 1, "digit": 2, "units": ["non_consecutive"] },
    ]});
    assert_eq!(reply.body, expected);
    let reply = post("/v1/count", json!({ "board": board, "variant": "non-consecutive" })).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "conflicting-givens");
    assert_eq!(problem["conflicts"], expected["conflicts"]);
    // A 4x4 grid with 1 2 3 4 along its first row has 12 completions, 2 of them with both
    // diagonals distinct (counted by brute force over every choice of the other three rows).
    let four = "1234............";
    let reply = post("/v1/count", json!({ "board": four, "constraints": { "diagonals": "both" } })).await;
    assert_eq!(reply.body["solutions"], 2, "{}", reply.body);
    let reply = post("/v1/count", json!({ "board": four })).await;
    assert_eq!(reply.body["solutions"], 12, "{}", reply.body);
    // An X whose cells do not sum to 10, and with every mark given, a pair without one that sums
    // to 5: `xv` names the rule.
    let board = format!("36.{}1{}4{}", ".".repeat(7), ".".repeat(8), ".".repeat(61));
    let xv = json!({ "x": [[[0, 0], [0, 1]]], "all_given": true });
    let reply = post("/v1/validate", json!({ "board": board, "constraints": { "xv": xv } })).await;
    let expected = json!([
        { "row": 0, "col": 0, "digit": 3, "units": ["xv"] },
        { "row": 0, "col": 1, "digit": 6, "units": ["xv"] },
        { "row": 1, "col": 1, "digit": 1, "units": ["xv"] },
        { "row": 2, "col": 1, "digit": 4, "units": ["xv"] },
    ]);
    assert_eq!(reply.body["conflicts"], expected, "{}", reply.body);
}

#[tokio::test]
async fn batches_take_rules_per_board() {
    let killer = puzzles().into_iter().find(|puzzle| puzzle["id"] == "svjs-13").unwrap();
    let entry = json!({ "board": killer["board"], "constraints": killer["constraints"] });
    let body = json!({ "boards": [entry, PUZZLE] });
    let reply = post("/v1/solve/batch", body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["results"][0]["solution"], killer["solution"]);
    assert_eq!(reply.body["results"][1]["solution"], SOLUTION);
    let lines = format!("{entry}\n{}\n", json!({ "board": PUZZLE, "variant": "jigsaw" }));
    let (status, items) = ndjson_reply(router(&config()), ndjson(lines)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(items[0]["solution"], killer["solution"]);
    assert_item_problem(&items[1], 422, "invalid-request");
    assert_eq!(items[1]["detail"], "`variant`: jigsaw needs its regions in `constraints.regions`");
}

#[tokio::test]
async fn constraints_that_do_not_fit_get_a_422_naming_the_member_and_cell() {
    // A jigsaw whose regions are the rows: no boxes to group by.
    let rows_as_regions: String = (0..9).map(|row: u32| row.to_string().repeat(9)).collect();
    for (rules, detail) in [
        (
            json!({ "constraints": { "cages": [{ "cells": [[0, 0], [9, 0]], "sum": 5 }] } }),
            "`constraints.cages[0].cells`: cell [9, 0] is outside the 9x9 grid (rows and columns 0 to 8)",
        ),
        (
            json!({ "constraints": { "cages": [{ "cells": [[0, 0], [0, 1]], "sum": 2 }] } }),
            "`constraints.cages[0].sum`: no 2 different digits from 1 to 9 add up to 2 (their sums run from 3 to 17)",
        ),
        (json!({ "constraints": { "regions": "0011" } }), "`constraints.regions`: has 4 cells; the 9x9 grid has 81"),
        (
            json!({ "constraints": { "diagonal": "both" } }),
            "`constraints`: unknown member `diagonal`; expected `diagonals`, `extra_regions`, `regions`, `disjoint_groups`, `cages`, `anti_knight`, `anti_king`, `non_consecutive`, `thermometers`, `kropki`, `xv`, `greater_than`, `whispers`, `palindromes`, `renbans`, `arrows`, `little_killers`, `between_lines`, `quadruples`, `sandwiches`, `x_sums`, `even`, `odd`, `lockout_lines`, `modular_lines`, `entropic_lines`, `global_entropy`, `global_mod`, `anti_taxicab`, `relations`",
        ),
        (
            json!({ "constraints": { "xv": { "v": [[[4, 4], [4, 6]]] } } }),
            "`constraints.xv.v[0]`: r5c5 and r5c7 are not side by side",
        ),
        (
            json!({ "constraints": { "kropki": { "black": [[[0, 0], [1, 0]]] }, "xv": { "x": [[[1, 0], [0, 0]]] } } }),
            "`constraints.xv.x[0]`: no two digits of r2c1 and r1c1 sum to 10 and keep the kropki rule between them too",
        ),
        (
            json!({ "constraints": { "little_killers": [{ "sum": 10, "start": [4, 4], "direction": "up_left" }] } }),
            "`constraints.little_killers[0].start`: r5c5 is not on the grid's edge for an arrow up and to the left (the bottom row or the right column): the clue before it would be r6c6, inside the grid",
        ),
        (
            json!({ "constraints": { "little_killers": [{ "sum": 10, "start": [0, 4], "direction": "left" }] } }),
            r#"`constraints.little_killers[0].direction`: found "left"; expected one of "down_right", "down_left", "up_right", "up_left""#,
        ),
        (
            json!({ "constraints": { "disjoint_groups": true, "regions": rows_as_regions } }),
            "`constraints.disjoint_groups`: needs the boxes: a jigsaw's regions have no same place in each to group",
        ),
        (
            json!({ "constraints": { "greater_than": [{ "greater": [0, 0], "less": [0, 2] }] } }),
            "`constraints.greater_than[0]`: r1c1 and r1c3 are not side by side",
        ),
        (
            json!({ "constraints": { "greater_than": [{ "greater": [0, 0], "smaller": [0, 1] }] } }),
            "`constraints.greater_than[0]`: unknown member `smaller`; expected `greater`, `less`",
        ),
        (
            json!({ "constraints": { "sandwiches": [{ "sum": 34, "column": 4 }] } }),
            "`constraints.sandwiches[0].sum`: no different digits from 2 to 8 add up to 34",
        ),
        (
            json!({ "constraints": { "sandwiches": [{ "sum": 10, "row": 2, "column": 4 }] } }),
            "`constraints.sandwiches[0]`: names a row and a column: a clue sits beside one line, give `row` or `column`",
        ),
        (
            json!({ "constraints": { "sandwiches": [{ "sum": 10, "row": 2, "from": "left" }] } }),
            r#"`constraints.sandwiches[0].from`: found "left"; expected one of "start", "end""#,
        ),
        (
            json!({ "constraints": { "diagonals": "left" } }),
            r#"`constraints.diagonals`: found "left"; expected one of "main", "anti", "both""#,
        ),
        (
            json!({ "variant": "samurai" }),
            r#"`variant`: found "samurai"; expected one of "x", "windoku", "jigsaw", "killer", "anti-knight", "anti-king", "non-consecutive", "xv""#,
        ),
        (
            json!({ "constraints": { "thermometers": [[[0, 0], [0, 1.5]]] } }),
            "`constraints.thermometers[0][1][1]`: found 1.5; expected an integer from 0 to 18446744073709551615",
        ),
    ] {
        let mut body = rules.clone();
        body["board"] = json!(PUZZLE);
        for path in ["/v1/solve", "/v1/validate", "/v1/count"] {
            let reply = post(path, body.clone()).await;
            let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
            assert_eq!(problem["detail"], detail, "{path} {rules}");
        }
    }
}

#[tokio::test]
async fn rate_hint_and_explain_follow_the_variant() {
    let killer = json!({ "board": "................", "variant": "killer", "constraints": { "cages": [
        { "cells": [[0, 0], [0, 1]], "sum": 3 }, { "cells": [[0, 2], [0, 3]], "sum": 7 },
        { "cells": [[1, 0], [2, 0]], "sum": 5 }, { "cells": [[1, 1], [1, 2], [1, 3]], "sum": 7 },
        { "cells": [[2, 1], [2, 2]], "sum": 5 }, { "cells": [[2, 3], [3, 3]], "sum": 4 },
        { "cells": [[3, 0], [3, 1], [3, 2]], "sum": 9 },
    ]}});
    let explained = post("/v1/explain", killer.clone()).await;
    assert_eq!(explained.status, StatusCode::OK, "{}", explained.body);
    assert_eq!(explained.body["solution"], "1234341221434321");
    let steps = explained.body["steps"].as_array().unwrap();
    // Without givens, the first step can only come from a cage: 3 is only 1 + 2.
    assert_eq!(steps[0]["technique"], "cage-sum");
    assert_eq!(
        steps[0]["explanation"],
        "The cage of r1c1 and r1c2 adds up to 3, so its open cells can only hold 1 or 2: r1c1 and r1c2 can't be 3 or 4."
    );
    let hint = post("/v1/hint", killer.clone()).await;
    assert_eq!(hint.body["steps"][0], steps[0], "{}", hint.body);
    let rating = post("/v1/rate", killer).await;
    assert_eq!(rating.body, explained.body["rating"]);
    // An empty constraints object is no variant at all.
    let reply = post("/v1/rate", json!({ "board": PUZZLE, "constraints": {} })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

#[tokio::test]
async fn generate_makes_a_variant_puzzle_its_rules_solve_uniquely() {
    for (request, level) in [
        (json!({ "difficulty": "medium", "variant": "x", "seed": 4 }), "medium"),
        (json!({ "difficulty": "easy", "variant": "jigsaw", "seed": 4, "size": 6 }), "easy"),
        (json!({ "difficulty": "medium", "variant": "killer", "seed": 4 }), "medium"),
        (json!({ "difficulty": "easy", "constraints": { "anti_king": true, "even": [[0, 0]] }, "seed": 4 }), "easy"),
    ] {
        let reply = post("/v1/generate", request.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{request}: {}", reply.body);
        let made = &reply.body;
        assert_eq!(made["rating"]["level"], level, "{request}");
        assert_eq!(made["seed"], 4);
        // The answer's constraints alone, sent back with the puzzle, solve it to its solution.
        let solved = post("/v1/solve", json!({ "board": made["puzzle"], "constraints": made["constraints"] })).await;
        assert_eq!(solved.body["solution"], made["solution"], "{request}: {}", solved.body);
        assert_eq!(solved.body["unique"], true, "{request}");
        let again = post("/v1/generate", request.clone()).await;
        assert_eq!(again.body, reply.body, "the same seed makes the same puzzle");
    }
    let made = post("/v1/generate", json!({ "difficulty": "easy", "variant": "killer", "seed": 1 })).await;
    assert!(!made.body["constraints"]["cages"].as_array().unwrap().is_empty());
    assert_eq!(made.body["variant"], "killer");
    // Medium killers take the 45 rule on their way, said in a sentence.
    let mut sentences = Vec::new();
    for seed in 1..=3 {
        let made = post("/v1/generate", json!({ "difficulty": "medium", "variant": "killer", "seed": seed })).await;
        let board = json!({ "board": made.body["puzzle"], "constraints": made.body["constraints"] });
        let explained = post("/v1/explain", board).await;
        let steps = explained.body["steps"].as_array().unwrap().iter();
        let innies = steps.filter(|step| step["technique"] == "innies-outies");
        sentences.extend(innies.map(|step| step["explanation"].as_str().unwrap().to_owned()));
    }
    assert!(!sentences.is_empty(), "no innies-outies step");
    for sentence in sentences {
        assert!(sentence.contains(" add up to ") || sentence.contains(" adds up to "), "{sentence}");
    }
}

#[tokio::test]
async fn generate_refuses_levels_a_variant_does_not_offer_and_rules_that_do_not_fit() {
    let reply = post("/v1/generate", json!({ "difficulty": "expert", "variant": "killer" })).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert_eq!(
        problem["detail"],
        "`difficulty`: expert puzzles are not offered for killer at 9x9; its levels are easy, medium, hard, extreme"
    );
    let reply = post("/v1/generate", json!({ "difficulty": "easy", "constraints": { "odd": [[9, 9]] } })).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert_eq!(
        problem["detail"],
        "`constraints.odd[0]`: cell [9, 9] is outside the 9x9 grid (rows and columns 0 to 8)"
    );
}
