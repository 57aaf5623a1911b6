//! The solver allocates nothing: a counting global allocator proves it over whole data sets.
//!
//! Counting is per thread, so allocations by the test harness's other threads do not count.
//!
//! Its own test binary: the counting `#[global_allocator]` would otherwise serve every other test.
// The counting allocator: `GlobalAlloc` is an unsafe trait.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

use sudokud_core::board::Board;
use sudokud_core::solver::{self, Never};

struct CountingAllocator;

thread_local! {
    // Const-initialised and without a destructor, so reading it never allocates itself.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator, which upholds the
// GlobalAlloc contract; the counter only observes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: forwarded with the caller's layout, as the contract requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (see `alloc`).
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn allocations_during(work: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    work();
    ALLOCATIONS.with(Cell::get) - before
}

/// Every puzzle of the workspace's `tests/data/<name>`, skipping empty lines.
fn load(name: &str) -> Vec<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| line.parse().unwrap_or_else(|error| panic!("{}:{}: {error}", path.display(), index + 1)))
        .collect()
}

#[test]
fn the_allocator_counts() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 10]))) >= 1);
}

#[test]
fn solving_and_counting_allocate_nothing() {
    let sets = ["kaggle_style_easy_10k.txt", "forum_hardest_1106.txt", "multiple_solutions.txt", "unsolvable.txt"];
    let puzzles: Vec<_> = sets.iter().flat_map(|set| load(set)).collect();
    let allocations = allocations_during(|| {
        for puzzle in &puzzles {
            std::hint::black_box(solver::solve(puzzle));
            std::hint::black_box(solver::count_solutions(puzzle, 100, &mut Never).unwrap());
        }
    });
    assert_eq!(allocations, 0);
}

#[test]
fn the_sizes_solver_allocates_only_the_solution_it_returns() {
    use sudokud_core::generate::Symmetry;
    use sudokud_core::generate::sizes as generate;
    use sudokud_core::search::count_grid;
    use sudokud_core::sizes::Shape;
    for shape in Shape::all().filter(|shape| shape.size() <= 12) {
        let (puzzle, _) = generate::unique(shape, Symmetry::None, 0, 3, &mut Never).unwrap();
        // The first search of a thread grows its buffer of saved states; later ones reuse it.
        count_grid(&puzzle, 2, &mut Never).unwrap();
        let allocations = allocations_during(|| {
            std::hint::black_box(count_grid(&puzzle, 2, &mut Never).unwrap());
        });
        assert_eq!(allocations, 1, "{shape}: only the solution's cells");
    }
}
