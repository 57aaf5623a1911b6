//! The `sudokud` binary end to end: batch solving, exit codes and the health probe.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sudokud");
use sudokud::board::{EXAMPLE_PUZZLE as PUZZLE, EXAMPLE_SOLUTION as SOLUTION};

use crate::docs;

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("SUDOKUD_ADDR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A process that refuses its arguments exits without reading: its closed pipe is no error.
    if let Err(error) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    child.wait_with_output().unwrap()
}

/// `sudokud FIRST | sudokud SECOND`, through a real pipe between the two processes.
fn pipe(first: &[&str], second: &[&str]) -> Output {
    let mut upstream = Command::new(BIN).args(first).stdin(Stdio::null()).stdout(Stdio::piped()).spawn().unwrap();
    let downstream = Command::new(BIN)
        .args(second)
        .stdin(upstream.stdout.take().unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = downstream.wait_with_output().unwrap();
    assert!(upstream.wait().unwrap().success(), "sudokud {}", first.join(" "));
    output
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn solve_reads_stdin_and_answers_every_line_in_order() {
    let conflicting = format!("55{}", &PUZZLE[2..]);
    let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let input = format!("# comment\n{PUZZLE}\n\n{}\n{conflicting}\n{unsolvable}\nnot a board\n", ".".repeat(81));
    let output = run(&["solve"], &input);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], SOLUTION);
    let (solution, flag) = lines[1].split_once('\t').unwrap();
    assert_eq!((solution.len(), flag), (81, "multiple"));
    assert_eq!(lines[2], "error\tconflicting-givens: r0c0=5 r0c1=5\tline 5");
    assert!(lines[3].starts_with("error\tunsolvable: the givens do not conflict"), "{}", lines[3]);
    assert!(lines[4].starts_with("error\tinvalid-board: "), "{}", lines[4]);
}

#[test]
fn solve_reads_files_in_turn_and_threads_keep_the_order() {
    let easy = data("kaggle_style_easy_10k.txt");
    let unsolvable = data("unsolvable.txt");
    let one = run(&["solve", "--threads", "1", &easy, &unsolvable], "");
    let two = run(&["solve", "--threads", "2", &easy, &unsolvable], "");
    assert!(one.status.success() && two.status.success());
    assert_eq!(one.stdout, two.stdout);
    let lines = stdout_lines(&one);
    assert_eq!(lines.len(), 10_000 + 104);
    assert!(lines[..10_000].iter().all(|line| line.len() == 81 && !line.contains('\t')));
    assert!(lines[10_000..].iter().all(|line| line.starts_with("error\tunsolvable: the givens do not conflict")));
}

#[test]
fn solve_fails_on_a_missing_file() {
    let output = run(&["solve", "/definitely/not/here.txt"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/definitely/not/here.txt"));
}

#[test]
fn healthcheck_fails_when_nothing_listens() {
    // Bind and drop a listener to find a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let output = run(&["healthcheck", "--addr", &format!("127.0.0.1:{port}"), "--timeout-ms", "500"], "");
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn serve_then_healthcheck_then_sigterm_exits_cleanly() {
    // With no subcommand and with `serve`, whose arguments clap adds only when it runs.
    for subcommand in [None, Some("serve")] {
        serve_check_and_stop(subcommand);
    }
}

fn serve_check_and_stop(subcommand: Option<&str>) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let server = Command::new(BIN)
        .args(subcommand)
        .args(["--addr", &addr, "--log-format", "json"])
        // Empty variables mean "unset", as `VAR: ${VAR:-}` in a compose file produces.
        .env("SUDOKUD_MAX_CONCURRENT_SOLVES", "")
        .env("SUDOKUD_CORS_ORIGINS", "")
        .env("SUDOKUD_SHUTDOWN_TIMEOUT_MS", "")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let healthy = (0..100).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        run(&["healthcheck", "--addr", &addr], "").status.success()
    });
    assert!(healthy, "the server never became healthy");
    // std has no way to send SIGTERM; the kill(1) command does, without unsafe code.
    let killed = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let started = std::time::Instant::now();
    let output = server.wait_with_output().unwrap();
    assert!(output.status.success(), "exit status {:?}", output.status);
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    let logs = String::from_utf8_lossy(&output.stdout);
    assert!(logs.lines().all(|line| serde_json::from_str::<serde_json::Value>(line).is_ok()), "{logs}");
    assert!(logs.contains("received SIGTERM") && logs.contains("sudokud stopped"), "{logs}");
    // Nothing to warn of in a clean start and stop: the allocator took its setting, too.
    assert!(!logs.contains("\"level\":\"WARN\""), "{logs}");
}

#[test]
fn help_describes_every_subcommand() {
    let output = run(&["--help"], "");
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for subcommand in ["serve", "solve", "rate", "explain", "candidates", "export", "generate", "healthcheck"] {
        assert!(help.contains(subcommand), "{help}");
    }
}

#[test]
fn the_readme_batch_example_prints_what_the_binary_prints() {
    let input = format!("{PUZZLE}\n{}\n55{}\n", ".".repeat(81), &PUZZLE[2..]);
    let output = run(&["solve"], &input);
    let printed = String::from_utf8(output.stdout).unwrap();
    assert!(docs::page("README.md").contains(&printed), "README's `sudokud solve` example should show:\n{printed}");
}

#[test]
fn rate_and_explain_read_like_solve() {
    let two = ".8.7..6..75..6..9...6..9...4..........8.9.5.....3...2..1...4.3...7.5.8.....2....1";
    let output = run(&["rate", "--threads", "2"], &format!("# comment\n{PUZZLE}\n{two}\nxyz\n"));
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "1.2\teasy\tlogic\tfull-house=21,hidden-single-box=30");
    assert!(lines[1].starts_with("error\tmultiple-solutions: ") && lines[2].starts_with("error\tinvalid-board: "));
    assert!(output.stderr.is_empty(), "no progress bar when stderr is not a terminal");

    // The hardest puzzles take dynamic forcing chains with others nested inside, and no guess.
    let hardest: String =
        crate::common::load("forum_hardest_1106.txt")[..2].iter().map(|puzzle| format!("{puzzle}\n")).collect();
    let output = run(&["explain"], &hardest);
    let text = String::from_utf8(output.stdout).unwrap();
    let paragraphs: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(paragraphs.len(), 2);
    for paragraph in paragraphs {
        let last = paragraph.lines().last().unwrap();
        let fields: Vec<&str> = last.split('\t').collect();
        assert_eq!(fields.len(), 4, "{last}");
        assert_eq!((fields[2], fields[3]), ("extreme", "logic"), "the hardest need no guess");
        assert!(paragraph.lines().any(|line| line.starts_with("nested-")), "{paragraph}");
        assert!(!paragraph.lines().any(|line| line.starts_with("brute-force\t")));
    }
}

#[test]
fn generate_makes_count_puzzles_from_consecutive_seeds() {
    let output = run(&["generate", "--difficulty", "hard", "--count", "3", "--seed", "7"], "");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3);
    let again = run(&["generate", "--difficulty", "hard", "--seed", "8", "--threads", "1"], "");
    assert_eq!(stdout_lines(&again), [lines[1].clone()], "line i comes from seed SEED + i");
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[3], "hard");
        let solved = stdout_lines(&run(&["solve"], &format!("{}\n", fields[0])));
        assert_eq!(solved, [fields[1]], "the puzzle has exactly that one solution");
    }
    let bad = run(&["generate", "--difficulty", "insane"], "");
    assert!(!bad.status.success());
    let refusal = String::from_utf8_lossy(&bad.stderr);
    assert!(refusal.contains("[possible values: easy, medium, hard, expert, extreme]"), "{refusal}");
}

#[test]
fn the_readme_rate_explain_and_generate_examples_print_what_the_binary_prints() {
    let readme = docs::page("README.md");
    let nearly = format!("{}..", &SOLUTION[..79]);
    for (args, input) in [
        (vec!["rate"], format!("{PUZZLE}\n")),
        (vec!["explain"], format!("{nearly}\n")),
        (vec!["generate", "--difficulty", "hard", "--count", "2", "--seed", "7"], String::new()),
    ] {
        let printed = String::from_utf8(run(&args, &input).stdout).unwrap();
        // The explain paragraph's closing empty line ends the README's code block instead.
        let printed = printed.trim_end();
        assert!(
            readme.contains(&format!("{}\n{printed}\n", args.join(" "))),
            "README's `sudokud {}` example should show:\n{printed}",
            args.join(" ")
        );
    }
}

#[test]
fn the_batch_commands_compose_through_pipes() {
    let generate = ["generate", "--difficulty", "hard", "--count", "3", "--seed", "7"];
    let generated = stdout_lines(&run(&generate, ""));
    let fields: Vec<Vec<&str>> = generated.iter().map(|line| line.split('\t').collect()).collect();
    assert_eq!(fields.len(), 3);

    // generate | rate: each puzzle rated as generate rated it.
    let rated = pipe(&generate, &["rate"]);
    assert!(rated.status.success(), "{}", String::from_utf8_lossy(&rated.stderr));
    for (rating, generated) in stdout_lines(&rated).iter().zip(&fields) {
        let rating: Vec<&str> = rating.split('\t').collect();
        assert_eq!(rating[..3], [generated[2], generated[3], "logic"], "{rating:?} for {generated:?}");
    }

    // generate | solve: each puzzle's one solution, the one generate wrote.
    let solved = stdout_lines(&pipe(&generate, &["solve"]));
    assert_eq!(solved, fields.iter().map(|fields| fields[1]).collect::<Vec<_>>());

    // generate | explain: each paragraph ends in that solution.
    let explained = String::from_utf8(pipe(&generate, &["explain"]).stdout).unwrap();
    let last_lines: Vec<&str> = explained.split_terminator("\n\n").map(|p| p.lines().last().unwrap()).collect();
    for (last, generated) in last_lines.iter().zip(&fields) {
        assert_eq!(last.split('\t').collect::<Vec<_>>()[..3], [generated[1], generated[2], generated[3]]);
    }
    assert_eq!(last_lines.len(), 3);

    // solve | rate and solve | solve: a solution, `multiple` flag or not, is a full board.
    let input = format!("{PUZZLE}\n{}\n", ".".repeat(81));
    let solved = run(&["solve"], &input).stdout;
    let solved = String::from_utf8(solved).unwrap();
    assert!(solved.lines().nth(1).unwrap().ends_with("\tmultiple"), "{solved}");
    assert_eq!(stdout_lines(&run(&["rate"], &solved)), ["0.0\teasy\tlogic", "0.0\teasy\tlogic"]);
    let again = stdout_lines(&run(&["solve"], &solved));
    assert_eq!(again, solved.lines().map(|line| &line[..81]).collect::<Vec<_>>());
}

#[test]
fn a_reader_that_stops_early_is_no_failure() {
    // `sudokud solve big.txt | head -n 1`: the reader closes the pipe after one line.
    let mut child = Command::new(BIN)
        .args(["solve", &data("kaggle_style_easy_10k.txt")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert_eq!(first.trim_end().len(), 81, "{first}");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "exit status {:?}", output.status);
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn solve_plays_every_line_by_a_variant_s_rules() {
    let text = std::fs::read_to_string(data("variants/mixed_ccby.jsonl")).unwrap();
    let puzzles: Vec<serde_json::Value> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let x = puzzles.iter().find(|puzzle| puzzle["id"] == "svjs-20").unwrap();
    let (board, solution) = (x["board"].as_str().unwrap(), x["solution"].as_str().unwrap());
    let output = run(&["solve", "--variant", "x"], &format!("{board}\n"));
    assert_eq!(stdout_lines(&output), [solution]);
    // Without the diagonals the same line has several solutions.
    assert!(stdout_lines(&run(&["solve"], &format!("{board}\n")))[0].ends_with("\tmultiple"));
    // rate and explain follow the variant too: the explanation ends on the solution.
    let explained = stdout_lines(&run(&["explain", "--variant", "x"], &format!("{board}\n")));
    assert!(explained[explained.len() - 2].starts_with(&format!("{solution}\t")), "{explained:?}");
    let rated = stdout_lines(&run(&["rate", "--variant", "x"], &format!("{board}\n")));
    assert!(!rated[0].starts_with("error"), "{rated:?}");
    let killer = puzzles.iter().find(|puzzle| puzzle["id"] == "svjs-13").unwrap();
    let file = std::env::temp_dir().join(format!("sudokud-cli-killer-{}.json", std::process::id()));
    std::fs::write(&file, killer["constraints"].to_string()).unwrap();
    let output = run(
        &["solve", "--constraints", &format!("@{}", file.display())],
        &format!("{}\n", killer["board"].as_str().unwrap()),
    );
    std::fs::remove_file(&file).unwrap();
    assert_eq!(stdout_lines(&output), [killer["solution"].as_str().unwrap()]);
    // Constraints that do not fit a line's grid answer that line with an error.
    let output = run(&["solve", "--constraints", r#"{"even":[[5,5]]}"#], "1234............\n");
    assert_eq!(
        stdout_lines(&output),
        [
            "error\tinvalid-request: `constraints.even[0]`: cell [5, 5] is outside the 4x4 grid (rows and columns 0 to 3)\tline 1"
        ]
    );
    let output = run(&["solve", "--constraints", "{\"diagonal\":1}"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).starts_with("sudokud solve: --constraints: unknown member `diagonal`")
    );
    // As strict as the HTTP API: an object, each member where it belongs.
    for (constraints, refused) in [
        (r#"["both"]"#, "sudokud solve: --constraints: found an array; expected an object"),
        (r#"{"variant":"x"}"#, "sudokud solve: --constraints: `variant` belongs beside `constraints`"),
        (r#"{"cages":[[[[0,0],[0,1]],3]]}"#, "sudokud solve: --constraints: found an array; expected an object"),
    ] {
        let output = run(&["solve", "--constraints", constraints], "");
        assert_eq!(output.status.code(), Some(2), "{constraints}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with(refused), "{constraints}: {stderr}");
    }
}

#[test]
fn generate_makes_variant_puzzles_with_their_constraints_on_each_line() {
    let output = run(&["generate", "--difficulty", "easy", "--variant", "killer", "--count", "2", "--seed", "3"], "");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "{line}");
        let constraints: serde_json::Value = serde_json::from_str(fields[5]).unwrap();
        assert!(!constraints["cages"].as_array().unwrap().is_empty());
        // The line's own constraints solve its puzzle to its solution.
        let solved = run(&["solve", "--constraints", fields[5]], &format!("{}\n", fields[0]));
        assert_eq!(stdout_lines(&solved), [fields[1]]);
    }
    let refused = run(&["generate", "--difficulty", "hard", "--variant", "non-consecutive", "--size", "6"], "");
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("hard puzzles are not offered for non-consecutive at 6x6; its levels are easy"),
        "{message}"
    );
    let refused = run(&["generate", "--difficulty", "easy", "--variant", "windoku", "--size", "16"], "");
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("windoku puzzles are not generated at 16x16"), "{message}");
}

#[test]
fn candidates_writes_the_pencil_mark_line_of_each_puzzle() {
    let input = format!("{PUZZLE}\n1234\n# a comment\n{}\n", "1".to_owned() + &".".repeat(15));
    let output = run(&["candidates"], &input);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3, "{lines:?}");
    // The same line POST /v1/candidates answers, checked here cell by cell against the board.
    assert_eq!(lines[0].len(), 729);
    for (cell, places) in lines[0].as_bytes().chunks(9).enumerate() {
        let given = PUZZLE.as_bytes()[cell];
        if given != b'.' {
            let shown: Vec<u8> = places.iter().copied().filter(|&place| place != b'.').collect();
            assert_eq!(shown, [given], "cell {cell}");
        }
    }
    assert_eq!(&lines[0][18..27], "12.4.....");
    assert!(lines[1].starts_with("error\tinvalid-board: the board has 4 cells"), "{}", lines[1]);
    assert_eq!(lines[2], "1....234.234.234.234.23412341234.234123412341234.234123412341234");
    // Under the X rules the centre's diagonal loses the 1.
    let x = run(&["candidates", "--variant", "x"], &format!("{}\n", "1".to_owned() + &".".repeat(15)));
    assert_eq!(stdout_lines(&x), ["1....234.234.234.234.23412341234.2341234.2341234.23412341234.234"]);
}

/// The one solution of a 9x9 puzzle, by the independent oracle.
fn oracle_solution(puzzle: &str) -> String {
    let count = crate::common::oracle::count(&puzzle.replace('0', ".").parse().unwrap(), 2);
    assert_eq!(count.solutions, 1, "{puzzle}");
    count.first.unwrap().to_string()
}

#[test]
fn solve_reads_sadman_hodoku_and_simple_sudoku_files() {
    // SadMan .sdm: 81 digits a line, 0 for a blank.
    let sdm = std::fs::read_to_string(data("formats/hard_3.sdm")).unwrap();
    let expected: Vec<String> = sdm.lines().map(oracle_solution).collect();
    assert_eq!(stdout_lines(&run(&["solve", &data("formats/hard_3.sdm")], "")), expected);
    // A collection with a comment line and what follows each puzzle: `#1 medium (2.6)`, `:hard:4.2`, CSV.
    let collection = std::fs::read_to_string(data("formats/collection.txt")).unwrap();
    let expected: Vec<String> = collection.lines().skip(1).map(|line| oracle_solution(&line[..81])).collect();
    assert_eq!(stdout_lines(&run(&["solve", &data("formats/collection.txt")], "")), expected);
    // One grid of nine lines: SadMan .sdk with its header and comment lines, Simple Sudoku .ss
    // with its bars and borders. Files of every form in one run, each read as its own.
    let ss = "8..1.......74.2...2..9..1.5.5...7..2......4...3.8.1...7......6..2..9..13..3......";
    let files = [data("formats/example.sdk"), data("formats/hard.ss"), data("formats/hard_3.sdm")];
    let output = run(&["solve", "--threads", "2", &files[0], &files[1], &files[2]], "");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = stdout_lines(&output);
    assert_eq!(lines[..2], [SOLUTION.to_owned(), oracle_solution(ss)]);
    assert_eq!(lines[2..], stdout_lines(&run(&["solve", &files[2]], ""))[..]);
    // rate and explain read the same files.
    let rated = stdout_lines(&run(&["rate", &files[0], &files[1]], ""));
    assert_eq!(rated[0], "1.2\teasy\tlogic\tfull-house=21,hidden-single-box=30");
    assert_eq!(rated[1], stdout_lines(&run(&["rate"], &format!("{ss}\n")))[0]);
}

#[test]
fn the_input_format_flag_overrides_what_the_first_line_tells() {
    // Read as lines, a grid file is a puzzle per row: every row, and the header, is no board.
    let output = run(&["solve", "--input-format", "line", &data("formats/example.sdk")], "");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 10, "{lines:?}");
    assert!(lines[0].starts_with("error\tinvalid-board: the board has 8 cells") && lines[0].ends_with("\tline 1"));
    assert!(lines[9].starts_with("error\tinvalid-board: the board has 9 cells") && lines[9].ends_with("\tline 12"));
    // Rows of 16 cells are whole 4x4 puzzles unless the flag says they make a 16x16 grid.
    let empty = format!("{}\n", ".".repeat(16)).repeat(16);
    assert_eq!(stdout_lines(&run(&["solve"], &empty)).len(), 16);
    let grid = stdout_lines(&run(&["solve", "--input-format", "grid"], &empty));
    assert_eq!(grid.len(), 1);
    assert!(grid[0].len() == 256 + "\tmultiple".len() && grid[0].ends_with("\tmultiple"), "{grid:?}");
    let bad = run(&["solve", "--input-format", "sdk"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("[possible values: line, grid, shared]"));
}

#[test]
fn shared_puzzles_are_read_a_line_each_with_their_rules() {
    let killer = ".Shape~4x4.~R1C1_1~R4C1_3.Cage~5~R1C1~R1C2.Cage~6~R2C3~R3C3";
    let input = format!(
        "{killer}\n# a comment\n\n  https://sigh.github.io/Interactive-Sudoku-Solver/?q={killer}  \n.Zipper~R1C1~R1C2\n"
    );
    let solved = stdout_lines(&run(&["solve", "--input-format", "shared"], &input));
    let refused = "error\tinvalid-request: the ISS rule `Zipper` (zipper lines) is not one sudokud has\tline 5";
    assert_eq!(solved, ["1432234141233214", "1432234141233214", refused]);
    let rated = stdout_lines(&run(&["rate", "--input-format", "shared"], &input));
    assert!(
        rated[0].starts_with("1.5\teasy\tlogic\t") && rated[0].contains("cage-sum") && rated[2] == refused,
        "{rated:?}"
    );
    let both = run(&["solve", "--input-format", "shared", "--variant", "x"], "");
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("each line carries its rules; leave out --box"));
}

/// What `export` writes, either field of its line, `--input-format shared` reads back as the same
/// puzzle under the same rules: solved to the same solutions.
#[test]
fn exported_puzzles_read_back_with_their_rules() {
    let made = stdout_lines(&run(&["generate", "--variant", "x", "--difficulty", "hard", "--count", "3"], ""));
    let puzzles: String = made.iter().map(|line| format!("{}\n", line.split('\t').next().unwrap())).collect();
    let solutions = stdout_lines(&run(&["solve", "--variant", "x"], &puzzles));
    assert_eq!(solutions.len(), 3);
    for format in ["f-puzzles", "sudokupad", "iss"] {
        let exported = stdout_lines(&run(&["export", "--variant", "x", "--format", format], &puzzles));
        assert_eq!(exported.len(), 3, "{format}: {exported:?}");
        for field in 0..2 {
            let shared: String =
                exported.iter().map(|line| format!("{}\n", line.split('\t').nth(field).unwrap())).collect();
            assert_eq!(
                stdout_lines(&run(&["solve", "--input-format", "shared"], &shared)),
                solutions,
                "{format} {field}"
            );
        }
    }
    let killer = ".Shape~4x4.~R1C1_1~R4C1_3.Cage~5~R1C1~R1C2";
    let again = stdout_lines(&run(&["export", "--input-format", "shared", "--format", "iss"], killer));
    assert_eq!(again, [format!("{killer}\thttps://sigh.github.io/Interactive-Sudoku-Solver/?q={killer}")]);
}

#[test]
fn export_refuses_what_its_format_cannot_hold_line_by_line() {
    let input = format!("{}\n{PUZZLE}\n", ".".repeat(625));
    let lines = stdout_lines(&run(&["export", "--format", "sudokupad"], &input));
    assert_eq!(lines[0], "error\tinvalid-request: f-puzzles data cannot hold a 25x25 grid: it reaches 16x16\tline 1");
    assert!(lines[1].starts_with("N4Ig") && lines[1].contains("\thttps://sudokupad.app/fpuzzles"), "{lines:?}");
    let marks = stdout_lines(&run(&["export", "--format", "iss", &data("formats/positions.txt")], ""));
    assert!(
        marks.iter().all(|line| line.starts_with("error\tinvalid-request: a shared puzzle cannot hold a player's"))
    );
    let missing = run(&["export"], PUZZLE);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--format <FORMAT>"));
}

#[test]
fn pencil_mark_lines_are_positions_with_the_player_s_marks() {
    let file = data("formats/positions.txt");
    let solution = oracle_solution("8..1.......74.2...2..9..1.5.5...7..2......4...3.8.1...7......6..2..9..13..3......");
    let refused = "error\twrong-candidates: the pencil marks contradict the solution: r1c2: 9 was crossed out, but \
                   the solution has it there\tline 3";
    let solved = stdout_lines(&run(&["solve", &file], ""));
    assert_eq!(solved, [solution.as_str(), refused, "123456456123234561561234345612612345"]);
    let rated = stdout_lines(&run(&["rate", &file], ""));
    assert!(rated[0].starts_with("4.2\thard\tlogic\t") && rated[1] == refused, "{rated:?}");
    let explained = String::from_utf8(run(&["explain", &file], "").stdout).unwrap();
    let paragraphs: Vec<&str> = explained.split_terminator("\n\n").collect();
    assert_eq!(paragraphs.len(), 3);
    assert!(paragraphs[0].ends_with(&format!("{solution}\t4.2\thard\tlogic")), "{}", paragraphs[0]);
    assert_eq!(paragraphs[1], refused);
    // candidates: what the marks keep of the basic candidates; r1c2 keeps 4 and 6 only.
    let marks = stdout_lines(&run(&["candidates", &file], ""));
    let text = std::fs::read_to_string(&file).unwrap();
    let given: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(marks[0], given[0], "the basic candidates are their own candidates");
    assert_eq!(&marks[1][9..18], "...4.6...");
}

#[test]
fn every_error_names_the_line_its_puzzle_starts_on() {
    let input = format!("# comment\n{PUZZLE}\n\n12345\n{PUZZLE} # fine\n55{}\n", &PUZZLE[2..]);
    let lines = stdout_lines(&run(&["solve"], &input));
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("error\tinvalid-board: ") && lines[1].ends_with("\tline 4"), "{}", lines[1]);
    assert!(lines[3].starts_with("error\tconflicting-givens: ") && lines[3].ends_with("\tline 6"), "{}", lines[3]);
    let rows: Vec<&str> = (0..9).map(|row| &PUZZLE[row * 9..row * 9 + 9]).collect();
    let grids = format!("[Puzzle]\n{}\n\n[Puzzle]\n{}\n", rows[..8].join("\n"), rows.join("\n"));
    assert_eq!(
        stdout_lines(&run(&["solve"], &grids)),
        ["error\tinvalid-board: the grid ends after 8 of its 9 rows\tline 2", SOLUTION]
    );
}

/// `--timeout-ms` bounds each puzzle of `solve`, `rate` and `explain` (and `render --solution`):
/// one that runs out of time gets an error line saying so, and the next ones follow. The empty
/// non-consecutive grid takes its solver hundreds of milliseconds; its solution, given, none.
#[test]
fn a_puzzle_that_runs_out_of_time_says_so_and_the_next_ones_follow() {
    let empty = ".".repeat(81);
    let solved = "516482793384957261729631584472815936158369472693724158847296315261573849935148627";
    let output = run(&["solve", "--variant", "non-consecutive", "--timeout-ms", "5"], &format!("{empty}\n{solved}\n"));
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        stdout_lines(&output),
        ["error\tsolve-timeout: the puzzle ran out of time: no answer within --timeout-ms 5\tline 1", solved,]
    );
    // An SE 9.0 puzzle's rating and explanation take far longer than a millisecond: the
    // explanation is an error line, the rating the least it can be.
    let hardest = ".4.7.6.9.5..2.4..6....5....2.......8..4...3...7..6..1.4.8...1.2.5.1.7.8...7...6..";
    let output = run(&["explain", "--timeout-ms", "1"], &format!("{hardest}\n{SOLUTION}\n"));
    let lines = stdout_lines(&output);
    assert_eq!(lines[0], "error\tsolve-timeout: the puzzle ran out of time: no answer within --timeout-ms 1\tline 1");
    assert!(lines.iter().any(|line| line.contains("easy\tlogic")), "{lines:?}");
    // A puzzle whose rating takes about ten seconds and whose solution a millisecond: 200 ms finds the
    // solution whatever the machine's load, and cuts the rating.
    let seconds = &crate::common::load("forum_hardest_1106.txt")[10];
    let output = run(&["rate", "--timeout-ms", "200"], &format!("{seconds}\n{SOLUTION}\n"));
    let lines = stdout_lines(&output);
    let fields: Vec<&str> = lines[0].split('\t').collect();
    let bound: f32 = fields[0].strip_prefix(">=").unwrap_or_else(|| panic!("{lines:?}")).parse().unwrap();
    assert!(bound <= 12.0 && fields[2] == "partial", "{lines:?}");
    assert_eq!(lines[1], "0.0\teasy\tlogic", "the next puzzle is rated whole");
    let output = run(&["render", &empty, "--variant", "non-consecutive", "--solution", "--timeout-ms", "5"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sudokud render: --solution: the puzzle ran out of time: no solution within --timeout-ms 5\n"
    );
    // Off by default: the same grid is solved.
    let output = run(&["solve", "--variant", "non-consecutive"], &format!("{empty}\n"));
    let lines = stdout_lines(&output);
    let grid = lines[0].strip_suffix("\tmultiple").unwrap_or_else(|| panic!("{lines:?}"));
    assert!(lines.len() == 1 && non_consecutive_solution(grid), "{lines:?}");
}

/// Whether `grid` is a whole 9x9 Sudoku whose orthogonal neighbours never hold consecutive digits.
fn non_consecutive_solution(grid: &str) -> bool {
    let digits: Vec<u32> = grid.chars().filter_map(|symbol| symbol.to_digit(10)).filter(|&digit| digit > 0).collect();
    let at = |row: usize, col: usize| digits[row * 9 + col];
    let all_nine = |cells: Vec<u32>| (1..=9).all(|digit| cells.contains(&digit));
    digits.len() == 81
        && (0..9).all(|line| {
            let boxed = (0..9).map(|i| at(line / 3 * 3 + i / 3, line % 3 * 3 + i % 3)).collect();
            all_nine((0..9).map(|i| at(line, i)).collect())
                && all_nine((0..9).map(|i| at(i, line)).collect())
                && all_nine(boxed)
        })
        && (0..9).all(|row| (0..8).all(|col| at(row, col).abs_diff(at(row, col + 1)) != 1))
        && (0..8).all(|row| (0..9).all(|col| at(row, col).abs_diff(at(row + 1, col)) != 1))
}

/// A line far longer than any puzzle's (here 50 MB) gets an error line and is not held.
#[test]
fn an_overlong_line_gets_an_error_line() {
    let input = format!("{PUZZLE}\n{}\n{PUZZLE}\n", "1".repeat(50 << 20));
    let output = run(&["solve"], &input);
    assert!(output.status.success(), "{output:?}");
    let too_long =
        "error\tinvalid-board: the line is longer than 65536 bytes, longer than any puzzle's; it is not read\tline 2";
    assert_eq!(stdout_lines(&output), [SOLUTION, too_long, SOLUTION]);
}
