//! Pictures of layouts: CuTe's `print_layout` table (insta snapshots), `print_latex`, and SVG
//! (parsed as XML, checked cell by cell, and snapshot-tested).

use cute_layout_core::LayoutFn;
use cute_layout_core::notation::eval_str;
use cute_layout_core::print::{SvgOptions, print_latex, print_layout, print_svg};

fn f(expr: &str) -> LayoutFn {
    LayoutFn::from_value(&eval_str(expr).unwrap()).unwrap()
}

#[test]
fn table_row_major() {
    insta::assert_snapshot!(print_layout(&f("(_4,_8):(_8,_1)")).unwrap());
}

#[test]
fn table_hierarchical_dynamic() {
    insta::assert_snapshot!(print_layout(&f("((2,2),(2,4)):((1,4),(2,8))")).unwrap());
}

#[test]
fn table_swizzled_8x8() {
    insta::assert_snapshot!(print_layout(&f("composition(Sw<3,0,3>,(_8,_8):(_8,_1))")).unwrap());
}

#[test]
fn table_wide_indices() {
    // three-digit cells: a wider rule
    insta::assert_snapshot!(print_layout(&f("composition(Sw<3,4,3>,(_4,_8):(_256,_1))")).unwrap());
}

#[test]
fn table_needs_rank_2() {
    assert!(print_layout(&f("_8:_1")).is_err());
    assert!(print_layout(&f("(_2,_2,_2):(_1,_2,_4)")).is_err());
    assert!(print_layout(&LayoutFn::Swizzle("Sw<3,4,3>".parse().unwrap())).is_err());
}

#[test]
fn latex_document() {
    insta::assert_snapshot!(print_latex(&f("composition(Sw<1,0,1>,(_2,_4):(_4,_1))")).unwrap());
}

#[test]
fn latex_rank1_gets_a_unit_mode() {
    let t = print_latex(&f("composition(Sw<1,0,1>,_4:_1)")).unwrap();
    assert!(t.starts_with("% Layout: Sw<1,0,1> o _0 o (_4,_1):(_1,_0)\n"));
    assert!(t.contains("\\node[fill=black!60] at (2,0) {3};"));
    assert!(t.contains("grid (4,1);"));
}

/// Parse the SVG; return the (label, fill) of every cell, row by row.
fn svg_cells(svg: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let groups: Vec<_> = root.children().filter(|n| n.has_tag_name("g")).collect();
    let rects: Vec<_> = groups[2]
        .children()
        .filter(|n| n.has_tag_name("rect"))
        .map(|r| r.attribute("fill").unwrap().to_string())
        .collect();
    let labels: Vec<_> = groups[3]
        .children()
        .filter(|n| n.has_tag_name("text"))
        .map(|t| t.text().unwrap().to_string())
        .collect();
    assert_eq!(rects.len(), labels.len());
    labels.into_iter().zip(rects).collect()
}

#[test]
fn svg_8x8_swizzle_is_well_formed_and_labelled() {
    let l = f("composition(Sw<3,0,3>,(_8,_8):(_8,_1))");
    let svg = print_svg(&l, SvgOptions::default()).unwrap();
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 64);
    for (k, (label, _)) in cells.iter().enumerate() {
        let (m, n) = (k / 8, k % 8);
        assert_eq!(label.parse::<i64>().unwrap(), (m * 8 + (n ^ m)) as i64);
    }
    // each row of this swizzle holds all eight colours (idx % 8): bank-conflict free
    for row in cells.chunks(8) {
        let mut fills: Vec<_> = row.iter().map(|c| c.1.clone()).collect();
        fills.sort();
        fills.dedup();
        assert_eq!(fills.len(), 8);
    }
    insta::assert_snapshot!(svg);
}

#[test]
fn svg_128x64_is_well_formed() {
    let l = f("composition(Sw<3,3,3>,(_128,_64):(_64,_1))");
    let svg = print_svg(&l, SvgOptions { color_block: 8 }).unwrap();
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 128 * 64);
    let mut labels: Vec<i64> = cells.iter().map(|c| c.0.parse().unwrap()).collect();
    labels.sort();
    assert_eq!(
        labels,
        (0..8192).collect::<Vec<_>>(),
        "a swizzle permutes the indices"
    );
}

#[test]
fn svg_rank1_and_plain_layouts() {
    let svg = print_svg(&f("(_3):(_2)"), SvgOptions::default()).unwrap();
    let cells = svg_cells(&svg);
    assert_eq!(
        cells.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["0", "2", "4"]
    );
    insta::assert_snapshot!(print_svg(&f("(2,3):(3,1)"), SvgOptions::default()).unwrap());
}

/// The TikZ document compiles with pdflatex, where pdflatex is installed (CI: texlive-latex-base,
/// texlive-pictures, texlive-latex-extra for `standalone`); skipped otherwise.
#[test]
fn latex_compiles_with_pdflatex() {
    if std::process::Command::new("pdflatex")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("pdflatex not installed: skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("cute-latex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tex = dir.join("layout.tex");
    std::fs::write(
        &tex,
        print_latex(&f("composition(Sw<2,0,2>,(_4,_4):(_4,_1))")).unwrap(),
    )
    .unwrap();
    let out = std::process::Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error"])
        .arg(&tex)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(dir.join("layout.pdf").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
