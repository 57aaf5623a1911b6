//! Puzzles drawn for screens and paper: one puzzle as SVG, PNG or PDF, and booklets of many as
//! one PDF with answer pages.
//!
//! A drawing is laid out once, as a [`scene::Scene`] of paths and glyphs ([`figure`] for one
//! puzzle, [`booklet`] for pages of them), and each format writes that scene: SVG as text we
//! write (`svg.rs`), PNG rasterised by `tiny-skia` (`png.rs`), PDF by `pdf-writer` (`pdf.rs`). The
//! text is drawn as outlines of the one built-in font (`font.rs`), so every format shows the same thing
//! everywhere. Like the core, this module does no I/O; the service runs it on its blocking pool.

pub mod booklet;
pub mod figure;
mod font;
mod pdf;
mod png;
pub mod scene;
mod svg;

use crate::member::{Choice, choice_traits};

pub use booklet::{Booklet, BookletPuzzle, PerPage};
pub use figure::Figure;
use scene::{Point, Scene};

/// The narrowest and widest image, in pixels.
pub const WIDTHS: std::ops::RangeInclusive<u32> = 100..=png::MAX_SIDE / 2;

/// The width an image has when none is asked for, in pixels.
pub const DEFAULT_WIDTH: u32 = 600;

/// The most characters a title may have.
pub const MAX_TITLE_CHARS: usize = 200;

/// What a drawing is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// Scalable vector graphics, text.
    Svg,
    /// A bitmap, `width` pixels wide.
    Png,
    /// A page to print.
    Pdf,
}

impl Choice for ImageFormat {
    const KIND: &'static str = "format";
    const ALL: &'static [ImageFormat] = &[ImageFormat::Svg, ImageFormat::Png, ImageFormat::Pdf];

    fn name(self) -> &'static str {
        match self {
            ImageFormat::Svg => "svg",
            ImageFormat::Png => "png",
            ImageFormat::Pdf => "pdf",
        }
    }
}

choice_traits!(ImageFormat);

impl ImageFormat {
    /// The media type of a file in this format.
    pub const fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Svg => "image/svg+xml",
            ImageFormat::Png => "image/png",
            ImageFormat::Pdf => "application/pdf",
        }
    }
}

/// A sheet of paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 inches.
    Letter,
}

impl Choice for Paper {
    const KIND: &'static str = "page size";
    const ALL: &'static [Paper] = &[Paper::A4, Paper::Letter];

    fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }
}

choice_traits!(Paper);

impl Paper {
    /// Width and height in points (1/72 inch).
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// Half an inch: the margin of every page.
const PAGE_MARGIN: f32 = 36.0;

/// A title a drawing can show, or why not: too long, or a character the font cannot draw.
pub fn check_title(title: &str) -> Result<(), String> {
    let count = title.chars().count();
    if count > MAX_TITLE_CHARS {
        return Err(format!("{count} characters; at most {MAX_TITLE_CHARS}"));
    }
    match font::Font::get().missing(title) {
        Some(ch) => Err(format!(
            "{ch:?} (U+{:04X}) cannot be drawn: the built-in font has Latin letters, digits and punctuation",
            u32::from(ch)
        )),
        None => Ok(()),
    }
}

/// `figure` as an image `width` pixels wide (SVG, PNG), or on a page of `paper` (PDF).
pub fn render(figure: &Figure, format: ImageFormat, width: u32, paper: Paper) -> Vec<u8> {
    match format {
        ImageFormat::Svg => svg::write(&image_scene(figure, width)).into_bytes(),
        ImageFormat::Png => png::write(&image_scene(figure, width)),
        ImageFormat::Pdf => {
            let (page_width, page_height) = paper.size();
            let mut page = Scene::new(page_width, page_height);
            let room = (page_width - 2.0 * PAGE_MARGIN, page_height - 2.0 * PAGE_MARGIN);
            let side = room.0.min(room.1 / figure.aspect());
            figure.draw(&mut page, Point((page_width - side) / 2.0, PAGE_MARGIN), side);
            pdf::write(&[page], figure.title.unwrap_or("Sudoku"))
        }
    }
}

/// An image `width` units wide holding the figure within a margin.
fn image_scene(figure: &Figure, width: u32) -> Scene {
    let width = width as f32;
    let margin = (0.04 * width).round();
    let side = width - 2.0 * margin;
    let height = (figure.aspect() * side + 2.0 * margin).ceil();
    let mut scene = Scene::new(width, height);
    figure.draw(&mut scene, Point(margin, margin), side);
    scene
}
