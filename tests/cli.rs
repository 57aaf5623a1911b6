//! The `sudokud` binary end to end: batch solving, exit codes and the health probe.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sudokud");
const PUZZLE: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

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
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
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
    assert!(lines[2].starts_with("error\tconflicting givens"), "{}", lines[2]);
    assert!(lines[3].starts_with("error\tunsolvable"), "{}", lines[3]);
    assert!(lines[4].starts_with("error\tinvalid board"), "{}", lines[4]);
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
    assert!(lines[10_000..].iter().all(|line| line.starts_with("error\tunsolvable")));
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
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let server = Command::new(BIN)
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
}

#[test]
fn help_describes_every_subcommand() {
    let output = run(&["--help"], "");
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for subcommand in ["serve", "solve", "healthcheck"] {
        assert!(help.contains(subcommand), "{help}");
    }
}

#[test]
fn the_readme_batch_example_prints_what_the_binary_prints() {
    let input = format!("{PUZZLE}\n{}\n55{}\n", ".".repeat(81), &PUZZLE[2..]);
    let output = run(&["solve"], &input);
    let printed = String::from_utf8(output.stdout).unwrap();
    assert!(
        include_str!("../README.md").contains(&printed),
        "README's `sudokud solve` example should show:\n{printed}"
    );
}
