//! Scenes as the pages of one PDF, a drawing unit a point (1/72 inch). Each glyph's outline is a
//! form defined once for the whole document and placed where it is used, so the file needs no
//! font; content streams are deflated. Nothing in the file depends on the time or the machine:
//! the same pages give the same bytes.

use std::collections::BTreeMap;

use miniz_oxide::deflate::compress_to_vec_zlib;
use pdf_writer::types::{LineCapStyle, LineJoinStyle};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, TextStr};

use super::font::Font;
use super::scene::{Color, Item, Path, Scene, Segment};

/// How hard content streams are deflated: 6 is zlib's default, near the smallest for the time.
const DEFLATE_LEVEL: u8 = 6;

/// `pages` as a PDF document titled `title`.
pub(super) fn write(pages: &[Scene], title: &str) -> Vec<u8> {
    let mut next = Ref::new(1);
    let (catalog, tree, info) = (next.bump(), next.bump(), next.bump());
    let font = Font::get();
    let mut glyphs: BTreeMap<char, (Ref, String)> = BTreeMap::new();
    for ch in pages.iter().flat_map(Scene::glyphs_used) {
        glyphs.entry(ch).or_insert_with(|| (next.bump(), format!("G{:x}", u32::from(ch))));
    }
    let page_refs: Vec<(Ref, Ref)> = pages.iter().map(|_| (next.bump(), next.bump())).collect();

    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids(page_refs.iter().map(|&(page, _)| page)).count(pages.len() as i32);
    pdf.document_info(info).title(TextStr(title)).producer(TextStr("sudokud"));
    let em = font.units_per_em;
    for (&ch, (id, _)) in &glyphs {
        let mut content = Content::new();
        path(&mut content, &font.glyph(ch).expect("scenes hold only glyphs the font has").outline);
        content.fill_nonzero();
        let data = compress_to_vec_zlib(&content.finish(), DEFLATE_LEVEL);
        pdf.form_xobject(*id, &data).bbox(Rect::new(-em, -em, 2.0 * em, 2.0 * em)).filter(Filter::FlateDecode);
    }
    for (scene, &(page_id, content_id)) in pages.iter().zip(&page_refs) {
        let mut page = pdf.page(page_id);
        page.parent(tree).media_box(Rect::new(0.0, 0.0, scene.width, scene.height)).contents(content_id);
        let mut resources = page.resources();
        let mut forms = resources.x_objects();
        for ch in scene.glyphs_used() {
            let (id, name) = &glyphs[&ch];
            forms.pair(Name(name.as_bytes()), *id);
        }
        forms.finish();
        resources.finish();
        page.finish();
        let data = compress_to_vec_zlib(&page_content(scene, &glyphs), DEFLATE_LEVEL);
        pdf.stream(content_id, &data).filter(Filter::FlateDecode);
    }
    pdf.finish()
}

/// A page's drawing operators, the scene's y-down units turned into PDF's y-up ones first.
fn page_content(scene: &Scene, glyphs: &BTreeMap<char, (Ref, String)>) -> Vec<u8> {
    let font = Font::get();
    let mut content = Content::new();
    content.transform([1.0, 0.0, 0.0, -1.0, 0.0, scene.height]);
    for item in &scene.items {
        match item {
            Item::Fill { path: shape, color } => {
                let (red, green, blue) = rgb(*color);
                content.set_fill_rgb(red, green, blue);
                path(&mut content, shape);
                content.fill_nonzero();
            }
            Item::Stroke { path: shape, stroke } => {
                let (red, green, blue) = rgb(stroke.color);
                content.set_stroke_rgb(red, green, blue).set_line_width(stroke.width);
                if stroke.round {
                    content.set_line_cap(LineCapStyle::RoundCap).set_line_join(LineJoinStyle::RoundJoin);
                } else {
                    content.set_line_cap(LineCapStyle::ProjectingSquareCap).set_line_join(LineJoinStyle::MiterJoin);
                }
                match stroke.dash {
                    Some(dash) => content.set_dash_pattern([dash, dash], 0.0),
                    None => content.set_dash_pattern([], 0.0),
                };
                path(&mut content, shape);
                content.stroke();
            }
            Item::Glyph { ch, at, size, color } => {
                let (red, green, blue) = rgb(*color);
                let scale = size / font.units_per_em;
                content.save_state().set_fill_rgb(red, green, blue);
                // The outline is y-up in font units; the page is y-down here, hence the flip.
                content.transform([scale, 0.0, 0.0, -scale, at.0, at.1]);
                content.x_object(Name(glyphs[ch].1.as_bytes())).restore_state();
            }
        }
    }
    content.finish().to_vec()
}

fn path(content: &mut Content, path: &Path) {
    for segment in &path.segments {
        match *segment {
            Segment::Move(to) => content.move_to(to.0, to.1),
            Segment::Line(to) => content.line_to(to.0, to.1),
            Segment::Cubic(first, second, to) => content.cubic_to(first.0, first.1, second.0, second.1, to.0, to.1),
            Segment::Close => content.close_path(),
        };
    }
}

fn rgb(Color(red, green, blue): Color) -> (f32, f32, f32) {
    (f32::from(red) / 255.0, f32::from(green) / 255.0, f32::from(blue) / 255.0)
}

#[cfg(test)]
mod tests {
    use super::super::scene::Point;
    use super::*;

    #[test]
    fn pages_share_their_glyphs_and_the_same_pages_give_the_same_bytes() {
        let page = |text: &str| {
            let mut scene = Scene::new(595.0, 842.0);
            scene.text(text, Point(10.0, 20.0), 12.0, Color::BLACK);
            scene
        };
        let pages = [page("12"), page("23")];
        let pdf = write(&pages, "test");
        assert!(pdf.starts_with(b"%PDF-"));
        assert_eq!(pdf, write(&pages, "test"));
        let text = String::from_utf8_lossy(&pdf);
        // One form per character across both pages: 1, 2 and 3.
        assert_eq!(text.matches("/Subtype /Form").count(), 3);
        assert_eq!(text.matches("/MediaBox [0 0 595 842]").count(), 2);
    }
}
