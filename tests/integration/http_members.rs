//! Every request body is read strictly: a member a route does not have, or one in the wrong
//! place, is a 422 `invalid-request` naming it (and, for a member of another object, where it
//! belongs), never ignored; `constraints` (and a cage, and the Kropki dots) must be objects. The
//! reproducers of issue 51's fourth item, each of which was answered 200 with a wrong answer.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::http::*;

async fn post(path: &str, body: Value) -> Reply {
    send(router(&config()), post_json(path, body.to_string())).await
}

/// The detail of the `invalid-request` problem `body` gets at `path`.
async fn refused(path: &str, body: Value) -> String {
    let reply = post(path, body.clone()).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert!(problem.get("pointer").is_none(), "{path} {body}: {problem}");
    problem["detail"].as_str().unwrap().to_owned()
}

const KILLER_CAGES: &str = r#"[{"cells":[[0,0],[0,1]],"sum":3},{"cells":[[0,2],[0,3]],"sum":7},{"cells":[[1,0],[2,0]],"sum":5},{"cells":[[1,1],[1,2],[1,3]],"sum":7},{"cells":[[2,1],[2,2]],"sum":5},{"cells":[[2,3],[3,3]],"sum":4},{"cells":[[3,0],[3,1],[3,2]],"sum":9}]"#;

fn cages() -> Value {
    serde_json::from_str(KILLER_CAGES).unwrap()
}

#[tokio::test]
async fn a_constraint_at_the_top_level_is_refused_saying_it_belongs_inside_constraints() {
    let body = json!({ "board": "................", "cages": cages() });
    assert_eq!(refused("/v1/solve", body).await, "`cages` belongs inside `constraints`, not here");
    let body = json!({ "board": "1234............", "diagonals": "both" });
    assert_eq!(refused("/v1/count", body).await, "`diagonals` belongs inside `constraints`, not here");
    let body = json!({ "board": "1234............", "thermometers": [[[0, 0], [0, 1]]] });
    assert_eq!(refused("/v1/validate", body).await, "`thermometers` belongs inside `constraints`, not here");
    let body = json!({ "board": "1234............", "constraints": {}, "all_given": true });
    let home = "`all_given` belongs inside `constraints.kropki` or `constraints.xv`, not here";
    assert_eq!(refused("/v1/candidates", body).await, home);
    let body = json!({ "board": "1234............", "v": [[[0, 0], [0, 1]]] });
    assert_eq!(refused("/v1/validate", body).await, "`v` belongs inside `constraints.xv`, not here");
    let body = json!({ "board": "1234............", "sum": 3 });
    let home = "`sum` belongs inside each cage of `constraints.cages` or each clue of `constraints.little_killers` or each clue of `constraints.sandwiches` or each clue of `constraints.x_sums`, not here";
    assert_eq!(refused("/v1/solve", body).await, home);
    // Inside `constraints`, a member of the request's top level.
    let body = json!({ "board": "1234............", "constraints": { "variant": "x" } });
    assert_eq!(
        refused("/v1/count", body).await,
        "`constraints`: `variant` belongs beside `constraints`, at the top level of the request, not here"
    );
    // Where they belong, the same members are the rules: the killer solves, X counts 2.
    let body = json!({ "board": "................", "variant": "killer", "constraints": { "cages": cages() } });
    assert_eq!(post("/v1/solve", body).await.body["solution"], "1234341221434321");
    let body = json!({ "board": "1234............", "constraints": { "diagonals": "both" } });
    assert_eq!(post("/v1/count", body).await.body["solutions"], 2);
}

#[tokio::test]
async fn an_unknown_member_is_refused_by_name_on_every_route() {
    let board = "1234............";
    let expected_board = "`board`, `box`, `variant`, `constraints`, `puzzle`";
    let cases = [
        (
            "/v1/solve",
            json!({ "board": board, "varient": "x" }),
            format!("unknown member `varient`; expected {expected_board}"),
        ),
        (
            "/v1/validate",
            json!({ "board": board, "varient": "x" }),
            format!("unknown member `varient`; expected {expected_board}"),
        ),
        (
            "/v1/candidates",
            json!({ "board": board, "varient": "x" }),
            format!("unknown member `varient`; expected {expected_board}"),
        ),
        (
            "/v1/count",
            json!({ "board": board, "varient": "x" }),
            format!("unknown member `varient`; expected {expected_board}, `limit`"),
        ),
        (
            "/v1/rate",
            json!({ "board": PUZZLE, "varient": "x" }),
            format!("unknown member `varient`; expected {expected_board}, `candidates`, `givens`"),
        ),
        (
            "/v1/hint",
            json!({ "board": PUZZLE, "hints": 2 }),
            format!("unknown member `hints`; expected {expected_board}, `candidates`, `givens`"),
        ),
        (
            "/v1/explain",
            json!({ "board": PUZZLE, "verbose": true }),
            format!("unknown member `verbose`; expected {expected_board}, `candidates`, `givens`"),
        ),
    ];
    for (path, body, detail) in cases {
        assert_eq!(refused(path, body).await, detail, "{path}");
    }
    for (path, body) in [
        ("/v1/generate", json!({ "difficulty": "easy", "varient": "x" })),
        ("/v1/generate/batch", json!({ "difficulty": "easy", "count": 2, "varient": "x" })),
        ("/v1/render", json!({ "board": board, "colour": "red" })),
        ("/v1/booklet", json!({ "count": 2, "difficulty": "easy", "colour": "red" })),
    ] {
        let detail = refused(path, body).await;
        assert!(detail.starts_with("unknown member `"), "{path}: {detail}");
        assert!(detail.contains("; expected `"), "{path}: {detail}");
    }
    // A member only rate, hint and explain read is not silently dropped by the others.
    let body = json!({ "board": board, "givens": board });
    assert_eq!(
        refused("/v1/solve", body).await,
        "`givens` belongs in a body of `/v1/rate`, `/v1/hint` or `/v1/explain`, which read it, not here"
    );
    // A preset misspelt as a member name, and a member inside the constraints misspelt.
    let body = json!({ "board": board, "constraints": { "diagonal": "both" } });
    let detail = refused("/v1/count", body).await;
    assert!(detail.starts_with("`constraints`: unknown member `diagonal`; expected `diagonals`, "), "{detail}");
    let body = json!({ "board": board, "constraints": { "cages": [{ "cells": [[0, 0]], "total": 1 }] } });
    assert_eq!(
        refused("/v1/solve", body).await,
        "`constraints.cages[0]`: unknown member `total`; expected `cells`, `sum`"
    );
}

#[tokio::test]
async fn constraints_must_be_an_object() {
    let body = json!({ "board": "1234............", "constraints": ["both"] });
    assert_eq!(refused("/v1/count", body).await, "`constraints`: found an array; expected an object");
    let body = json!({ "board": "1234............", "constraints": { "cages": [[[[0, 0], [0, 1]], 3]] } });
    assert_eq!(refused("/v1/solve", body).await, "`constraints.cages[0]`: found an array; expected an object");
    let body = json!({ "board": "1234............", "constraints": { "kropki": [] } });
    assert_eq!(refused("/v1/validate", body).await, "`constraints.kropki`: found an array; expected an object");
    // `null` is still no constraints.
    let reply = post("/v1/count", json!({ "board": "1234............", "constraints": null })).await;
    assert_eq!(reply.body["solutions"], 12, "{}", reply.body);
}

#[tokio::test]
async fn batches_refuse_unknown_members_of_the_body_of_an_entry_and_of_a_line() {
    let body = json!({ "boards": [PUZZLE], "variant": "x" });
    assert_eq!(
        refused("/v1/solve/batch", body).await,
        "`variant` belongs inside each entry of `boards`, an object as a `/v1/solve` body is, not here"
    );
    let body = json!({ "boards": [PUZZLE], "limit": 3 });
    assert_eq!(refused("/v1/solve/batch", body).await, "unknown member `limit`; expected `boards`");
    // An entry's unknown member fails that entry alone.
    let body = json!({ "boards": [{ "board": PUZZLE, "diagonals": "both" }, PUZZLE] });
    let reply = post("/v1/solve/batch", body).await;
    assert_eq!(reply.status, StatusCode::OK);
    let results = reply.body["results"].as_array().unwrap();
    assert_eq!(results[0]["type"], "https://sudokud.dev/problems/invalid-request", "{}", results[0]);
    assert_eq!(results[0]["detail"], "`diagonals` belongs inside `constraints`, not here");
    assert_eq!(results[1]["solution"], SOLUTION);
    // And a line's.
    let lines = format!("{}\n{}\n", json!({ "board": PUZZLE, "varient": "x" }), json!({ "board": PUZZLE }));
    let (status, items) = ndjson_reply(router(&config()), ndjson(lines)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(items[0]["type"], "https://sudokud.dev/problems/invalid-request", "{}", items[0]);
    assert_eq!(
        items[0]["detail"],
        "unknown member `varient`; expected `board`, `box`, `variant`, `constraints`, `puzzle`"
    );
    assert_eq!(items[1]["solution"], SOLUTION);
}

#[tokio::test]
async fn booklets_take_variants_made_and_given() {
    let made = post("/v1/booklet", json!({ "count": 4, "difficulty": "easy", "variant": "killer", "seed": 3 })).await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    assert_eq!(made.headers["content-type"], "application/pdf");
    let x = ".....856.1.......2.23.....7...4......7..5..3......6...5.....78.8.......9.342.....";
    // Without X's rules this puzzle has several solutions; with them, one.
    let reply = post("/v1/booklet", json!({ "puzzles": [x], "variant": "x" })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let detail = refused("/v1/booklet", json!({ "puzzles": [x] })).await;
    assert!(detail.starts_with("`puzzles[0]`: "), "{detail}");
    // An entry may carry rules of its own, as a /v1/solve body does.
    let killer = json!({ "board": "................", "variant": "killer", "constraints": { "cages": cages() } });
    let reply = post("/v1/booklet", json!({ "puzzles": [{ "board": x, "variant": "x" }] })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let detail = refused("/v1/booklet", json!({ "puzzles": [killer.clone()], "variant": "x" })).await;
    assert!(detail.starts_with("`puzzles[0]`: it has rules of its own"), "{detail}");
    let mut bad = killer.clone();
    bad["cagez"] = json!([]);
    let detail = refused("/v1/booklet", json!({ "puzzles": [bad] })).await;
    assert!(detail.starts_with("`puzzles[0]`: unknown member `cagez`"), "{detail}");
    // A level not made for the variant is refused as /v1/generate refuses it.
    let detail = refused("/v1/booklet", json!({ "count": 2, "difficulty": "expert", "variant": "killer" })).await;
    assert!(detail.starts_with("`difficulty`: expert puzzles are not offered for killer"), "{detail}");
}

#[tokio::test]
async fn a_booklet_s_puzzles_are_of_one_size() {
    let four = ".14.........2..3";
    let detail = refused("/v1/booklet", json!({ "puzzles": [PUZZLE, four] })).await;
    assert_eq!(
        detail,
        "`puzzles[1]`: a 4x4 grid of 2x2 boxes, but puzzles[0] is a 9x9 grid of 3x3 boxes: a booklet's puzzles \
         are of one size and box"
    );
    let six = "1.3...4.6..3.3.2...5.6.1..2.5.....1.";
    let entries = json!([{ "board": six, "box": "2x3" }, { "board": six, "box": "3x2" }]);
    let detail = refused("/v1/booklet", json!({ "puzzles": entries })).await;
    assert!(detail.starts_with("`puzzles[1]`: "), "{detail}");
}
