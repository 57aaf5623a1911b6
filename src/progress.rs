//! A progress bar on stderr for the batch commands, shown only to a person watching a terminal:
//! when stderr is a file, a pipe or a CI log, nothing is drawn, so output stays clean.

use std::fs::File;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Counts puzzles done; a bar with ETA when the total is known, a spinner with the rate when not.
#[derive(Debug)]
pub(crate) struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar for `total()` puzzles (when known), drawn only if stderr is a terminal; `total` is
    /// not called otherwise, so counting the input costs nothing when no one watches.
    pub(crate) fn on_stderr(total: impl FnOnce() -> Option<u64>) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let (bar, template) = match total() {
            Some(total) => (
                ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
                "{bar:40} {human_pos}/{human_len} puzzles  {per_sec}  ETA {eta}",
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                "{spinner} {human_pos} puzzles  {per_sec}",
            ),
        };
        bar.set_style(ProgressStyle::with_template(template).expect("the templates are valid"));
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    /// Draws nothing.
    pub(crate) fn hidden() -> Progress {
        Progress(None)
    }

    /// `done` more puzzles are done. Cheap and callable from any thread.
    pub(crate) fn advance(&self, done: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(done as u64);
        }
    }

    /// Clears the bar, so the terminal holds only the command's output.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// The lines of `paths`, read once ahead to give the bar its length; `None` for stdin (no paths)
/// or when a file cannot be read (the command reports that itself).
pub(crate) fn count_lines(paths: &[PathBuf]) -> Option<u64> {
    if paths.is_empty() {
        return None;
    }
    let mut lines = 0;
    for path in paths {
        let mut file = File::open(path).ok()?;
        let mut buffer = vec![0u8; 1 << 16];
        loop {
            let read = file.read(&mut buffer).ok()?;
            if read == 0 {
                break;
            }
            lines += buffer[..read].iter().filter(|&&byte| byte == b'\n').count() as u64;
        }
    }
    Some(lines)
}
