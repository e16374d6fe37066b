//! SVG pictures of layouts: a grid of cells, each labelled with its index and coloured by it.

use super::grid;
use crate::error::Result;
use crate::swizzle::LayoutFn;
use std::fmt::Write;

/// How to draw an SVG picture.
///
/// ```
/// use cute_layout_core::{notation::eval_str, LayoutFn, print::{print_svg, SvgOptions}};
/// let f = LayoutFn::from_value(&eval_str("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap()).unwrap();
/// let svg = print_svg(&f, SvgOptions { color_block: 8 }).unwrap(); // colour by 16-byte vector of f16
/// assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Cells whose indices agree in `(idx / color_block) % 8` share a colour. `1` (the default)
    /// colours by `idx % 8`, as CuTe's `print_latex` does; for a swizzled shared-memory layout of
    /// 16-bit elements, `8` (16 bytes, one vector) shows how the swizzle permutes the vectors.
    pub color_block: i64,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions { color_block: 1 }
    }
}

/// Eight light colours that black text reads well on (CuTe's TV palette, then lighter variants).
const PALETTE: [&str; 8] = [
    "#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
];

use super::escape_xml as escape;

/// An SVG picture of `f` (rank 1 or 2): the layout's notation as a caption, column numbers on top,
/// row numbers on the left, and one cell per coordinate `(m, n)` showing `L(m, n)`.
/// Cell widths follow the widest index, so 8x8 and 128x64 layouts are both readable when zoomed.
///
/// ```
/// use cute_layout_core::{print::{print_svg, SvgOptions}, notation::eval_str, LayoutFn};
/// let f = LayoutFn::from_value(&eval_str("composition(Sw<1,0,1>,(_2,_2):(_2,_1))").unwrap()).unwrap();
/// let svg = print_svg(&f, SvgOptions::default()).unwrap();
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(svg.contains("Sw&lt;1,0,1&gt; o _0 o (_2,_2):(_2,_1)"));
/// assert!(svg.contains(">3</text>"));
/// ```
pub fn print_svg(f: &LayoutFn, opts: SvgOptions) -> Result<String> {
    let g = grid(f, true)?;
    super::check_picture(
        "an SVG figure",
        g.rows as i64,
        g.cols as i64,
        super::MAX_FIGURE_CELLS,
    )?;
    let block = opts.color_block.max(1);
    let max_val = g.cells.iter().copied().max().unwrap_or(0).max(g.cosize);
    let min_val = g.cells.iter().copied().min().unwrap_or(0);
    let digits = super::num_digits(max_val)
        .max(super::num_digits(-min_val) + usize::from(min_val < 0))
        .max(super::num_digits(g.cols.max(g.rows) as i64));
    let font = 12usize;
    let cw = (digits * 8 + 10).max(24);
    let ch = 22usize;
    let left = super::num_digits(g.rows as i64) * 8 + 14;
    let top = 44usize;
    // the caption is monospace at font + 1 px: about 0.62em a character
    let caption = (g.title.chars().count() * (font + 1) * 62).div_ceil(100);
    let width = (left + g.cols * cw).max(left + caption) + 10;
    let height = top + g.rows * ch + 10;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"{font}\">"
    );
    let _ = writeln!(o, "<title>{}</title>", escape(&g.title));
    let _ = writeln!(
        o,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        o,
        "<text x=\"{left}\" y=\"16\" font-size=\"{}\">{}</text>",
        font + 1,
        escape(&g.title)
    );
    // Column and row numbers.
    let _ = writeln!(o, "<g text-anchor=\"middle\" fill=\"#555\">");
    for n in 0..g.cols {
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\">{n}</text>",
            left + n * cw + cw / 2,
            top - 6
        );
    }
    o.push_str("</g>\n<g text-anchor=\"end\" fill=\"#555\">\n");
    for m in 0..g.rows {
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\">{m}</text>",
            left - 6,
            top + m * ch + ch / 2 + font / 3
        );
    }
    o.push_str("</g>\n");
    // Cells.
    let _ = writeln!(o, "<g stroke=\"#333\" stroke-width=\"0.5\">");
    for m in 0..g.rows {
        for n in 0..g.cols {
            let idx = g.cells[m * g.cols + n];
            let color = PALETTE[idx.div_euclid(block).rem_euclid(8) as usize];
            let _ = writeln!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{cw}\" height=\"{ch}\" fill=\"{color}\"/>",
                left + n * cw,
                top + m * ch
            );
        }
    }
    o.push_str("</g>\n<g text-anchor=\"middle\">\n");
    for m in 0..g.rows {
        for n in 0..g.cols {
            let _ = writeln!(
                o,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                left + n * cw + cw / 2,
                top + m * ch + ch / 2 + font / 3,
                g.cells[m * g.cols + n]
            );
        }
    }
    o.push_str("</g>\n</svg>\n");
    Ok(o)
}
