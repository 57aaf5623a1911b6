//! A scene as a PNG, one pixel per drawing unit, rasterised with anti-aliasing by `tiny-skia`.

use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, StrokeDash, Transform};

use super::font::Font;
use super::scene::{Color, Item, Path, Scene, Segment};

/// The largest side, in pixels, an image may have: 4096 x 4096 pixels take 64 MiB to draw.
pub(super) const MAX_SIDE: u32 = 4096;

/// `scene` as a PNG file, `scene.width` by `scene.height` pixels (rounded up).
pub(super) fn write(scene: &Scene) -> Vec<u8> {
    let (width, height) = (scene.width.ceil() as u32, scene.height.ceil() as u32);
    let mut pixmap = Pixmap::new(width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE)).expect("a size within bounds");
    pixmap.fill(tiny_skia::Color::WHITE);
    let font = Font::get();
    for item in &scene.items {
        match item {
            Item::Fill { path, color } => {
                if let Some(path) = skia_path(path) {
                    pixmap.fill_path(&path, &paint(*color), FillRule::Winding, Transform::identity(), None);
                }
            }
            Item::Stroke { path, stroke } => {
                let Some(path) = skia_path(path) else { continue };
                let (line_cap, line_join) =
                    if stroke.round { (LineCap::Round, LineJoin::Round) } else { (LineCap::Square, LineJoin::Miter) };
                let dash = stroke.dash.and_then(|dash| StrokeDash::new(vec![dash, dash], 0.0));
                let style = tiny_skia::Stroke { width: stroke.width, line_cap, line_join, dash, ..Default::default() };
                pixmap.stroke_path(&path, &paint(stroke.color), &style, Transform::identity(), None);
            }
            Item::Glyph { ch, at, size, color } => {
                let glyph = font.glyph(*ch).expect("scenes hold only glyphs the font has");
                let Some(outline) = skia_path(&glyph.outline) else { continue };
                let scale = size / font.units_per_em;
                let place = Transform::from_row(scale, 0.0, 0.0, -scale, at.0, at.1);
                pixmap.fill_path(&outline, &paint(*color), FillRule::Winding, place, None);
            }
        }
    }
    encode(&pixmap)
}

/// The pixmap as an RGB PNG: the drawing is opaque, so alpha would be a quarter of the pixels'
/// bytes for nothing. Deflate level 1: for a 600-pixel 9x9 drawing, 4.2 ms in all and 51 KB,
/// against 9 ms and 38 KB at the default level 6, 6.2 ms and 39 KB at 3, and 3.6 ms but 74 KB
/// with `png`'s fastest (`cargo bench --bench render`); the rasterising itself is about 3 ms.
fn encode(pixmap: &Pixmap) -> Vec<u8> {
    let rgb: Vec<u8> = pixmap.data().chunks_exact(4).flat_map(|pixel| [pixel[0], pixel[1], pixel[2]]).collect();
    let mut file = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = png::Encoder::new(&mut file, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    let mut writer = encoder.write_header().expect("an in-memory PNG always encodes");
    writer.write_image_data(&rgb).expect("an in-memory PNG always encodes");
    writer.finish().expect("an in-memory PNG always encodes");
    file
}

fn paint(Color(red, green, blue): Color) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(red, green, blue, 255);
    paint.anti_alias = true;
    paint
}

/// The path for `tiny-skia`; `None` when it draws nothing (no segment, or no area).
fn skia_path(path: &Path) -> Option<tiny_skia::Path> {
    let mut builder = PathBuilder::with_capacity(path.segments.len(), 2 * path.segments.len());
    for segment in &path.segments {
        match *segment {
            Segment::Move(to) => builder.move_to(to.0, to.1),
            Segment::Line(to) => builder.line_to(to.0, to.1),
            Segment::Cubic(first, second, to) => builder.cubic_to(first.0, first.1, second.0, second.1, to.0, to.1),
            Segment::Close => builder.close(),
        }
    }
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::super::scene::{Point, Stroke};
    use super::*;

    #[test]
    fn a_scene_rasterises_where_it_draws() {
        let mut scene = Scene::new(40.0, 20.0);
        scene.fill(Path::rect(0.0, 0.0, 10.0, 20.0), Color(255, 0, 0));
        scene.stroke(
            Path::line(Point(20.0, 10.0), Point(40.0, 10.0)),
            Stroke { color: Color::BLACK, width: 4.0, dash: None, round: false },
        );
        let image = Pixmap::decode_png(&write(&scene)).unwrap();
        assert_eq!((image.width(), image.height()), (40, 20));
        let pixel = |x, y| {
            let pixel = image.pixel(x, y).unwrap();
            (pixel.red(), pixel.green(), pixel.blue())
        };
        assert_eq!(pixel(5, 5), (255, 0, 0));
        assert_eq!(pixel(30, 10), (0, 0, 0));
        assert_eq!(pixel(15, 2), (255, 255, 255));
    }
}
