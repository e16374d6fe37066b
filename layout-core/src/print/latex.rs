//! CuTe's `print_latex`: a standalone TikZ picture of a layout, one node per cell, greyscale by index.

use super::grid;
use crate::error::Result;
use crate::swizzle::LayoutFn;
use std::fmt::Write;

/// CuTe's `TikzColor_BWx8`: eight shades of grey, by `idx % 8`.
fn bw8(idx: i64) -> &'static str {
    const MAP: [&str; 8] = [
        "black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30",
        "black!70",
    ];
    MAP[idx.rem_euclid(8) as usize]
}

/// CuTe's `print_latex(layout)`: a LaTeX document (`standalone` class, TikZ) drawing the
/// `(m, n) -> L(m, n)` table. Rank 1 or 2 (a rank-1 layout is drawn as one column, as CuTe's
/// `append<2>(L, _1:_0)` does). Compiles with `pdflatex` (it needs the `standalone` and `tikz` packages).
///
/// ```
/// use cute_layout_core::{print::print_latex, LayoutFn};
/// let t = print_latex(&LayoutFn::Layout("_2:_1".parse().unwrap())).unwrap();
/// assert!(t.starts_with("% Layout: (_2,_1):(_1,_0)\n\\documentclass[convert]{standalone}"));
/// assert!(t.contains("\\node[fill=black!40] at (1,0) {1};"));
/// ```
pub fn print_latex(f: &LayoutFn) -> Result<String> {
    let g = grid(f, true)?;
    super::check_picture(
        "a LaTeX figure",
        g.rows as i64,
        g.cols as i64,
        super::MAX_FIGURE_CELLS,
    )?;
    let mut o = String::new();
    let _ = writeln!(o, "% Layout: {}", g.title);
    o.push_str(concat!(
        "\\documentclass[convert]{standalone}\n",
        "\\usepackage{tikz}\n\n",
        "\\begin{document}\n",
        "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n"
    ));
    for m in 0..g.rows {
        for n in 0..g.cols {
            let idx = g.cells[m * g.cols + n];
            let _ = writeln!(o, "\\node[fill={}] at ({m},{n}) {{{idx}}};", bw8(idx));
        }
    }
    let _ = writeln!(
        o,
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({},{});\n",
        g.rows, g.cols
    );
    for m in 0..g.rows {
        let _ = writeln!(o, "\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};");
    }
    for n in 0..g.cols {
        let _ = writeln!(o, "\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};");
    }
    o.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(o)
}
