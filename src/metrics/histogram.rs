//! Histograms counted into their buckets as they are recorded, beside the Prometheus exporter,
//! which keeps the counters and gauges.
//!
//! The exporter keeps every sample of a histogram, with a clock reading, in blocks it allocates,
//! until its upkeep sorts them into buckets. A solve records three samples, so at 100,000
//! requests a second a server held some 5 MB more for every second between two upkeeps, took
//! those blocks from the allocator (growing its heaps under load) and read the clock three more
//! times a request. Counting a sample into its bucket when it arrives costs two atomic additions
//! and no memory; the buckets are the same for every histogram ([`BUCKETS`]), since all of them
//! are durations, and a scrape renders them as the exporter did.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use ::metrics::{Counter, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, SharedString, Unit};
use metrics_exporter_prometheus::PrometheusRecorder;
use metrics_exporter_prometheus::formatting::{sanitize_label_key, sanitize_label_value};

/// Upper bounds of the buckets, in seconds: from an easy solve (a few µs) to the longest
/// deadlines. A sample falls in the first bucket whose bound it does not exceed, or in `+Inf`.
const BUCKETS: [f64; 18] = [
    0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
    0.5, 1.0, 2.5, 5.0,
];

/// One histogram series: per bucket (and `+Inf` last) the samples that fell in it, not
/// cumulative, and the sum of all samples in nanoseconds.
#[derive(Debug, Default)]
pub(super) struct Buckets {
    counts: [AtomicU64; BUCKETS.len() + 1],
    sum_nanos: AtomicU64,
}

impl HistogramFn for Buckets {
    /// Records a duration in seconds. A negative one counts in the first bucket, a NaN in `+Inf`;
    /// neither adds to the sum (the cast saturates to 0).
    fn record(&self, seconds: f64) {
        // Linear: most samples are requests of microseconds, in the first buckets.
        let bucket = BUCKETS.iter().position(|&bound| seconds <= bound).unwrap_or(BUCKETS.len());
        self.counts[bucket].fetch_add(1, Ordering::Relaxed);
        self.sum_nanos.fetch_add((seconds * 1e9).round() as u64, Ordering::Relaxed);
    }
}

impl Buckets {
    /// The series' lines in the Prometheus text format: cumulative buckets, sum and count.
    /// `labels` is the series' labels, written and joined (empty for none).
    fn render(&self, name: &str, labels: &str, out: &mut String) {
        use std::fmt::Write;
        let separator = if labels.is_empty() { "" } else { "," };
        let mut total = 0;
        for (bound, count) in BUCKETS.iter().map(Some).chain([None]).zip(&self.counts) {
            total += count.load(Ordering::Relaxed);
            let bound = bound.map_or_else(|| "+Inf".to_owned(), f64::to_string);
            let _ = writeln!(out, "{name}_bucket{{{labels}{separator}le=\"{bound}\"}} {total}");
        }
        let braced = if labels.is_empty() { String::new() } else { format!("{{{labels}}}") };
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "{name}_sum{braced} {sum}");
        let _ = writeln!(out, "{name}_count{braced} {total}");
    }
}

/// Every histogram series recorded, in the order they were first registered.
#[derive(Debug, Default)]
pub(super) struct Histograms {
    series: Mutex<Vec<Series>>,
}

#[derive(Debug)]
struct Series {
    name: String,
    /// The labels as the text format writes them: `key="value",...`.
    labels: String,
    buckets: Arc<Buckets>,
}

impl Histograms {
    /// The series of `key`: its name and labels always get the same one.
    fn register(&self, key: &Key) -> Arc<Buckets> {
        let labels = key
            .labels()
            .map(|label| format!("{}=\"{}\"", sanitize_label_key(label.key()), sanitize_label_value(label.value())))
            .collect::<Vec<_>>()
            .join(",");
        let mut series = self.series.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = series.iter().find(|series| series.name == key.name() && series.labels == labels) {
            return Arc::clone(&known.buckets);
        }
        let buckets = Arc::new(Buckets::default());
        series.push(Series { name: key.name().to_owned(), labels, buckets: Arc::clone(&buckets) });
        buckets
    }

    /// Every series in the Prometheus text format, grouped by name under its `# TYPE` line, each
    /// group followed by a blank line, as the exporter writes its own.
    pub(super) fn render(&self, out: &mut String) {
        let series = self.series.lock().unwrap_or_else(PoisonError::into_inner);
        let mut names: Vec<&str> = series.iter().map(|series| series.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            out.push_str(&format!("# TYPE {name} histogram\n"));
            for series in series.iter().filter(|series| series.name == name) {
                series.buckets.render(name, &series.labels, out);
            }
            out.push('\n');
        }
    }
}

/// The process's recorder: the exporter's for counters and gauges, [`Histograms`] for
/// histograms.
pub(super) struct Recorder {
    pub(super) exporter: PrometheusRecorder,
    pub(super) histograms: Arc<Histograms>,
}

impl ::metrics::Recorder for Recorder {
    fn describe_counter(&self, key: KeyName, unit: Option<Unit>, description: SharedString) {
        self.exporter.describe_counter(key, unit, description);
    }

    fn describe_gauge(&self, key: KeyName, unit: Option<Unit>, description: SharedString) {
        self.exporter.describe_gauge(key, unit, description);
    }

    /// Histograms are not described: their `# TYPE` line is all the format needs.
    fn describe_histogram(&self, _key: KeyName, _unit: Option<Unit>, _description: SharedString) {}

    fn register_counter(&self, key: &Key, metadata: &Metadata<'_>) -> Counter {
        self.exporter.register_counter(key, metadata)
    }

    fn register_gauge(&self, key: &Key, metadata: &Metadata<'_>) -> Gauge {
        self.exporter.register_gauge(key, metadata)
    }

    fn register_histogram(&self, key: &Key, _metadata: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(self.histograms.register(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &'static str, labels: &[(&'static str, &'static str)]) -> Key {
        let labels: Vec<::metrics::Label> =
            labels.iter().map(|&(key, value)| ::metrics::Label::new(key, value)).collect();
        Key::from_parts(name, labels)
    }

    /// The counts a naive reading of the rule gives: per bound, the samples not above it.
    fn cumulative(samples: &[f64]) -> Vec<usize> {
        BUCKETS.iter().map(|&bound| samples.iter().filter(|&&sample| sample <= bound).count()).collect()
    }

    #[test]
    fn samples_land_in_cumulative_buckets_with_their_sum_and_count() {
        let histograms = Histograms::default();
        let buckets = histograms.register(&key("wait_seconds", &[("work", "solve")]));
        // Below, on and above bounds, past the last, and a sample of none at all.
        let samples = [0.0, 0.000_004, 0.000_01, 0.000_010_5, 0.003, 0.25, 5.0, 7.5, 120.0];
        for &sample in &samples {
            buckets.record(sample);
        }
        let mut text = String::new();
        histograms.render(&mut text);
        let mut expected = String::from("# TYPE wait_seconds histogram\n");
        for (bound, count) in BUCKETS.iter().zip(cumulative(&samples)) {
            expected += &format!("wait_seconds_bucket{{work=\"solve\",le=\"{bound}\"}} {count}\n");
        }
        expected += "wait_seconds_bucket{work=\"solve\",le=\"+Inf\"} 9\n";
        // The sum of the samples in whole nanoseconds: 132,753,024,500.
        expected += "wait_seconds_sum{work=\"solve\"} 132.7530245\nwait_seconds_count{work=\"solve\"} 9\n\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn the_bounds_are_written_as_prometheus_reads_them() {
        let histograms = Histograms::default();
        histograms.register(&key("latency_seconds", &[]));
        let mut text = String::new();
        histograms.render(&mut text);
        let bounds: Vec<&str> = text.lines().filter_map(|line| line.split("le=\"").nth(1)?.split('"').next()).collect();
        assert_eq!(bounds.first(), Some(&"0.00001"));
        assert_eq!(&bounds[14..], ["0.5", "1", "2.5", "5", "+Inf"]);
        assert!(
            text.contains("latency_seconds_bucket{le=\"+Inf\"} 0\nlatency_seconds_sum 0\nlatency_seconds_count 0\n")
        );
    }

    #[test]
    fn a_name_and_labels_always_get_the_same_series_and_families_are_grouped() {
        let histograms = Histograms::default();
        let solve = key("b_seconds", &[("work", "solve")]);
        histograms.register(&solve).record(0.001);
        histograms.register(&key("a_seconds", &[])).record(0.001);
        histograms.register(&key("b_seconds", &[("work", "rate")])).record(0.001);
        histograms.register(&solve).record(0.002);
        let mut text = String::new();
        histograms.render(&mut text);
        let types: Vec<&str> = text.lines().filter(|line| line.starts_with('#')).collect();
        assert_eq!(types, ["# TYPE a_seconds histogram", "# TYPE b_seconds histogram"]);
        assert!(text.contains("b_seconds_count{work=\"solve\"} 2\n"), "{text}");
        assert!(text.contains("b_seconds_count{work=\"rate\"} 1\n"), "{text}");
        let solve_at = text.find("work=\"solve\"").unwrap();
        assert!(solve_at < text.find("work=\"rate\"").unwrap(), "series keep the order they came in: {text}");
    }

    /// Threads recording into one series at once lose nothing: a sample is two atomic additions,
    /// not a load and a store that another thread's could come between.
    #[test]
    fn concurrent_samples_are_all_counted() {
        let histograms = Histograms::default();
        let series = key("busy_seconds", &[]);
        std::thread::scope(|scope| {
            for thread in 0..4u32 {
                let buckets = histograms.register(&series);
                scope.spawn(move || {
                    for i in 0..10_000u32 {
                        // 1-4 µs, 10-40 ms and 1-4 s: three buckets, sums exact in nanoseconds.
                        let scale = [1e-6, 1e-2, 1.0][(i % 3) as usize];
                        buckets.record(f64::from(thread + 1) * scale);
                    }
                });
            }
        });
        let mut text = String::new();
        histograms.render(&mut text);
        assert!(text.contains("busy_seconds_count 40000\n"), "{text}");
        assert!(text.contains("busy_seconds_bucket{le=\"0.00001\"} 13336\n"), "{text}");
        // Per thread t: 3,334 samples of t µs, 3,333 of 10t ms and 3,333 of t s.
        let nanos: u64 = (1..=4).map(|t| 3_334 * t * 1_000 + 3_333 * t * 10_000_000 + 3_333 * t * 1_000_000_000).sum();
        assert!(text.contains(&format!("busy_seconds_sum {}\n", nanos as f64 / 1e9)), "{text}");
    }

    #[test]
    fn label_values_are_escaped() {
        let histograms = Histograms::default();
        histograms.register(&key("odd_seconds", &[("route", "a\"b\\c\nd")]));
        let mut text = String::new();
        histograms.render(&mut text);
        assert!(text.contains(r#"odd_seconds_count{route="a\"b\\c\nd"} 0"#), "{text}");
    }

    #[test]
    fn a_negative_sample_counts_in_the_first_bucket_a_nan_in_the_last_and_neither_in_the_sum() {
        let buckets = Buckets::default();
        buckets.record(-1.0);
        buckets.record(f64::NAN);
        assert_eq!(buckets.counts[0].load(Ordering::Relaxed), 1);
        assert_eq!(buckets.counts[BUCKETS.len()].load(Ordering::Relaxed), 1);
        assert_eq!(buckets.sum_nanos.load(Ordering::Relaxed), 0);
    }
}
