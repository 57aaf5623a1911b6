//! The 9x9 board model shared by every layer (the model's [`sudokud_model::board`], re-exported),
//! and what the core adds to it: the JSON representations of boards of every size, relabelings,
//! and the solver's bitboards.

pub(crate) mod bitboards;
mod json;
mod shuffle;

pub use json::{FormattedGrid, JsonBoard};
pub use shuffle::Shuffle;
pub use sudokud_model::board::*;
