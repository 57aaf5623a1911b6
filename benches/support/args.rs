//! The arguments of the benchmarks that time data sets: `[--passes N] [FILTER]`.

/// The name of the generation tables, and the filter that runs them alone.
const GENERATION: &str = "generate";

/// How many passes to time and which sets to run.
pub(crate) struct Args {
    /// Passes per measurement.
    pub passes: usize,
    /// Runs only the sets whose name contains it.
    filter: Option<String>,
}

impl Args {
    /// Reads the process's arguments. `cargo bench` passes `--bench`; other options are
    /// ignored, and anything else filters set names.
    pub(crate) fn from_env(default_passes: usize) -> Args {
        let mut parsed = Args { passes: default_passes, filter: None };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--passes" => {
                    parsed.passes = args
                        .next()
                        .and_then(|n| n.parse().ok())
                        .filter(|&n| n > 0)
                        .expect("--passes needs a number > 0");
                }
                _ if arg.starts_with("--") => {}
                _ => parsed.filter = Some(arg),
            }
        }
        parsed
    }

    /// Whether the set called `name` is to run: every set without a filter; with the filter
    /// `generate`, only the generation table (the solve sets' names say `generated` too);
    /// otherwise the sets whose name contains the filter.
    pub(crate) fn selected(&self, name: &str) -> bool {
        self.filter.as_deref().is_none_or(|filter| match filter {
            GENERATION => name == GENERATION,
            _ => name.contains(filter),
        })
    }
}
