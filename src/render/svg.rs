//! A scene as SVG text: each glyph's outline defined once and placed where it is used, so the
//! file needs no font, and the same scene always gives the same bytes.

use std::fmt::Write;

use super::font::Font;
use super::scene::{Color, Item, Path, Scene, Segment, Stroke};

/// `scene` as an SVG document, `scene.width` by `scene.height` pixels.
pub(super) fn write(scene: &Scene) -> String {
    let (width, height) = (number(scene.width), number(scene.height));
    let mut svg = String::with_capacity(4096 + 64 * scene.items.len());
    svg.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"");
    let _ = writeln!(svg, " width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">");
    let font = Font::get();
    let used = scene.glyphs_used();
    if !used.is_empty() {
        svg.push_str("<defs>\n");
        for ch in used {
            let glyph = font.glyph(ch).expect("scenes hold only glyphs the font has");
            let _ = writeln!(svg, "<path id=\"{}\" d=\"{}\"/>", glyph_id(ch), path_data(&glyph.outline));
        }
        svg.push_str("</defs>\n");
    }
    let _ = writeln!(svg, "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>");
    for item in &scene.items {
        match item {
            Item::Fill { path, color } => {
                let _ = writeln!(svg, "<path d=\"{}\" fill=\"{}\"/>", path_data(path), hex(*color));
            }
            Item::Stroke { path, stroke } => {
                let _ = writeln!(svg, "<path d=\"{}\" fill=\"none\"{}/>", path_data(path), stroke_attributes(stroke));
            }
            Item::Glyph { ch, at, size, color } => {
                let scale = number(size / font.units_per_em);
                let _ = writeln!(
                    svg,
                    "<use xlink:href=\"#{}\" transform=\"matrix({scale} 0 0 -{scale} {} {})\" fill=\"{}\"/>",
                    glyph_id(*ch),
                    number(at.0),
                    number(at.1),
                    hex(*color)
                );
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A glyph's id in the document: its code point, since characters such as `#` cannot be in one.
fn glyph_id(ch: char) -> String {
    format!("g{:x}", u32::from(ch))
}

fn stroke_attributes(stroke: &Stroke) -> String {
    let mut attributes = format!(" stroke=\"{}\" stroke-width=\"{}\"", hex(stroke.color), number(stroke.width));
    attributes.push_str(if stroke.round {
        " stroke-linecap=\"round\" stroke-linejoin=\"round\""
    } else {
        " stroke-linecap=\"square\""
    });
    if let Some(dash) = stroke.dash {
        let _ = write!(attributes, " stroke-dasharray=\"{}\"", number(dash));
    }
    attributes
}

fn path_data(path: &Path) -> String {
    let mut data = String::with_capacity(16 * path.segments.len());
    for segment in &path.segments {
        if !data.is_empty() {
            data.push(' ');
        }
        let _ = match segment {
            Segment::Move(to) => write!(data, "M{} {}", number(to.0), number(to.1)),
            Segment::Line(to) => write!(data, "L{} {}", number(to.0), number(to.1)),
            Segment::Cubic(first, second, to) => write!(
                data,
                "C{} {} {} {} {} {}",
                number(first.0),
                number(first.1),
                number(second.0),
                number(second.1),
                number(to.0),
                number(to.1)
            ),
            Segment::Close => write!(data, "Z"),
        };
    }
    data
}

fn hex(Color(red, green, blue): Color) -> String {
    format!("#{red:02x}{green:02x}{blue:02x}")
}

/// A coordinate with at most three decimals, without trailing zeros: short, and the same on
/// every machine.
fn number(value: f32) -> String {
    let rounded = (value * 1000.0).round() / 1000.0;
    let text = format!("{rounded:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_owned() } else { text.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::super::scene::Point;
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(0.12345), "0.123");
        assert_eq!(number(-0.0001), "0");
        assert_eq!(number(2.5), "2.5");
        assert_eq!(number(-3.25), "-3.25");
    }

    #[test]
    fn a_scene_writes_its_paths_and_defines_each_glyph_once() {
        let mut scene = Scene::new(10.0, 20.0);
        scene.fill(Path::rect(1.0, 2.0, 3.0, 4.0), Color(255, 0, 16));
        scene.stroke(
            Path::line(Point(0.0, 0.0), Point(5.0, 5.5)),
            Stroke { color: Color::BLACK, width: 0.5, dash: Some(2.0), round: false },
        );
        scene.text("11", Point(0.0, 10.0), 10.0, Color::BLACK);
        let svg = write(&scene);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("width=\"10\" height=\"20\" viewBox=\"0 0 10 20\""));
        assert!(svg.contains("<path d=\"M1 2 L4 2 L4 6 L1 6 Z\" fill=\"#ff0010\"/>"));
        assert!(svg.contains(
            "<path d=\"M0 0 L5 5.5\" fill=\"none\" stroke=\"#000000\" stroke-width=\"0.5\" \
             stroke-linecap=\"square\" stroke-dasharray=\"2\"/>"
        ));
        assert_eq!(svg.matches("<path id=\"g31\"").count(), 1);
        assert_eq!(svg.matches("xlink:href=\"#g31\"").count(), 2);
        assert!(svg.ends_with("</svg>\n"));
    }
}
