//! Per-item timing for the benchmarks that time sets of puzzles.

use std::time::Instant;

/// For each item, the median time of `passes` runs of `run` on it, in microseconds.
pub(crate) fn median_times<T>(items: &[T], passes: usize, run: impl Fn(&T)) -> Vec<f64> {
    items
        .iter()
        .map(|item| {
            let mut runs: Vec<f64> = (0..passes)
                .map(|_| {
                    let start = Instant::now();
                    run(item);
                    start.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            runs.sort_by(f64::total_cmp);
            runs[runs.len() / 2]
        })
        .collect()
}

/// The median, 99th percentile and maximum of `times`.
pub(crate) fn spread(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    (times[n / 2], times[(n * 99 / 100).min(n - 1)], times[n - 1])
}
