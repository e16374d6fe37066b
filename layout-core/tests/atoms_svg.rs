//! SVG pictures of TV layouts, TiledMMAs and TiledCopies: snapshots, well-formed XML, and cell contents.

use cute_layout_core::Layout;
use cute_layout_core::atom::svg::{SvgOptions, tiled_copy_svg, tiled_mma_svg, tv_layout_svg};
use cute_layout_core::atom::{CopyAtom, MmaTraits, TiledCopy, TiledMma};

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

/// Parse as XML and return the `<title>` texts of the cells (`(m,n): T# V#...`).
fn cell_titles(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg)
        .unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(
        doc.root_element().tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc.descendants()
        .filter(|n| n.has_tag_name("title"))
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect()
}

fn sm80_16x8x16_2x2() -> TiledMma {
    let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    TiledMma::new(atom, &layout("(_2,_2,_1):(_1,_2,_0)"), None).unwrap()
}

#[test]
fn seed_sm70_a_picture() {
    // The seed's example: SM70 8x8x4, A column-major: thread layout (4,2):(8,4), value layout 4:1.
    let atom = MmaTraits::from_name("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    let svg = tv_layout_svg(&atom.layout_a, 8, 4, &SvgOptions::default()).unwrap();
    let titles = cell_titles(&svg);
    assert_eq!(titles.len(), 32);
    // (T1,V0) -> 8 -> (m,k) = (0,1); (T4,V0) -> 4 -> (4,0); (T0,V3) -> 3 -> (3,0)
    assert!(titles.contains(&"(0,1): T1 V0".to_string()));
    assert!(titles.contains(&"(4,0): T4 V0".to_string()));
    assert!(titles.contains(&"(3,0): T0 V3".to_string()));
    insta::assert_snapshot!("sm70_8x8x4_nt_a", svg);
}

#[test]
fn tiled_mma_picture_sm80_2x2() {
    let mma = sm80_16x8x16_2x2();
    let svg = tiled_mma_svg(
        &mma,
        &SvgOptions {
            highlight: None,
            title: Some("SM80_16x8x16 tiled 2x2".into()),
        },
    )
    .unwrap();
    let titles = cell_titles(&svg);
    // A 32x16, B 16x16, C 32x16: one cell each
    assert_eq!(titles.len(), 32 * 16 + 16 * 16 + 32 * 16);
    // C(0,0) is thread 0 value 0; A is held by the two N-warps of each M-warp
    assert!(titles.contains(&"(0,0): T0 V0".to_string()));
    assert!(titles.iter().filter(|t| t.contains("held by 2")).count() >= 32 * 16);
    insta::assert_snapshot!("sm80_16x8x16_2x2", svg);
}

#[test]
fn highlight_keeps_one_thread_in_colour() {
    let mma = sm80_16x8x16_2x2();
    let svg = tiled_mma_svg(
        &mma,
        &SvgOptions {
            highlight: Some(37),
            title: None,
        },
    )
    .unwrap();
    cell_titles(&svg);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let highlighted: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("cell hl"))
        .collect();
    // thread 37 holds 8 values of A, 4 of B and 4 of C
    assert_eq!(highlighted.len(), 8 + 4 + 4);
    for g in highlighted {
        let title = g
            .descendants()
            .find(|n| n.has_tag_name("title"))
            .unwrap()
            .text()
            .unwrap()
            .to_string();
        assert!(title.contains(": T37 V"), "{title}");
    }
}

#[test]
fn tiled_copy_picture() {
    let atom = CopyAtom::from_name("UniversalCopy<uint32_t>", 16).unwrap();
    let tc = TiledCopy::new(atom, &layout("(_4,_2):(_2,_1)"), &layout("(_1,_2):(_0,_1)")).unwrap();
    let svg = tiled_copy_svg(&tc, &SvgOptions::default()).unwrap();
    let titles = cell_titles(&svg);
    assert_eq!(titles.len(), 2 * 4 * 4);
    insta::assert_snapshot!("universal_copy_4x2_threads_1x2_values", svg);
}

#[test]
fn title_is_escaped() {
    let svg = tv_layout_svg(
        &layout("(_2,_1):(_1,_0)"),
        2,
        1,
        &SvgOptions {
            highlight: None,
            title: Some("a<b> & \"c\"".into()),
        },
    )
    .unwrap();
    cell_titles(&svg);
    assert!(svg.contains("a&lt;b&gt; &amp; &quot;c&quot;"));
}

#[test]
fn out_of_tile_is_an_error() {
    let err = tv_layout_svg(&layout("(_2,_2):(_1,_2)"), 2, 1, &SvgOptions::default()).unwrap_err();
    assert!(err.to_string().contains("outside the 2 x 1 tile"), "{err}");
}
