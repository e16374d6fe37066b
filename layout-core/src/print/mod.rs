//! Pictures of layouts: CuTe's `print_layout` console table, CuTe's `print_latex` TikZ, and SVG.
//!
//! All three take a [`LayoutFn`]: a layout or a composed (swizzled) layout, drawn as the 2-D grid
//! `(m, n) -> L(m, n)` over `size<0>(L) x size<1>(L)` (hierarchical modes are indexed by their
//! 1-D coordinate, as CuTe does).
//!
//! ```
//! use cute_layout_core::{print::print_layout, LayoutFn, Layout};
//! let l: Layout = "(_2,_3):(_3,_1)".parse().unwrap();
//! let t = print_layout(&LayoutFn::Layout(l)).unwrap();
//! assert_eq!(t.lines().collect::<Vec<_>>(), [
//!     "(_2,_3):(_3,_1)",
//!     "      0   1   2 ",
//!     "    +---+---+---+",
//!     " 0  | 0 | 1 | 2 |",
//!     "    +---+---+---+",
//!     " 1  | 3 | 4 | 5 |",
//!     "    +---+---+---+",
//! ]);
//! ```

mod escape;
mod latex;
mod svg;

pub use escape::{escape_controls, escape_xml};
pub use latex::print_latex;
pub use svg::{SvgOptions, print_svg};

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::{ComposedLayout, LayoutFn, composition3};
use crate::tuple_ops::product;
use std::fmt::Write;

/// The most cells a text table may have, and the most rows or columns (a guard against drawing a
/// huge layout by mistake).
///
/// ```
/// use cute_layout_core::{Layout, LayoutFn, print::print_layout};
/// let huge = LayoutFn::Layout("(_2048,_1024):(_1,_2048)".parse::<Layout>().unwrap()); // 2^21 cells
/// assert!(print_layout(&huge).is_err());
/// ```
pub const MAX_CELLS: i64 = 1 << 20;
/// The most cells an SVG or LaTeX figure may have (each cell is some 100-250 bytes of text).
///
/// ```
/// use cute_layout_core::print::{MAX_FIGURE_CELLS, check_picture};
/// assert!(check_picture("a figure", 256, 256, MAX_FIGURE_CELLS).is_ok());
/// assert!(check_picture("a figure", 256, 257, MAX_FIGURE_CELLS).is_err());
/// ```
pub const MAX_FIGURE_CELLS: i64 = 1 << 16;

/// An error unless a `rows x cols` picture is non-negative and has at most `limit` cells, rows and
/// columns (checked before anything is evaluated or drawn).
///
/// ```
/// use cute_layout_core::print::check_picture;
/// assert!(check_picture("L", 8, 8, 64).is_ok());
/// assert!(check_picture("L", 8, 9, 64).is_err()); // 72 cells
/// assert!(check_picture("L", -1, 8, 64).is_err());
/// ```
pub fn check_picture(what: &str, rows: i64, cols: i64, limit: i64) -> Result<()> {
    if rows < 0 || cols < 0 {
        return Err(LayoutError::invalid(format!(
            "cannot draw {what}: {rows} x {cols} cells (a negative extent)"
        )));
    }
    let counts = [
        ("rows", rows),
        ("columns", cols),
        ("cells", rows.saturating_mul(cols)),
    ];
    match counts.iter().find(|(_, n)| *n > limit) {
        Some((name, n)) => Err(crate::limits::too_large(
            format!("cannot draw {what} of {rows} x {cols}: the number of {name}"),
            usize::try_from(*n).unwrap_or(usize::MAX),
            usize::try_from(limit).unwrap_or(usize::MAX),
        )),
        None => Ok(()),
    }
}

/// A layout evaluated on its 2-D grid.
///
/// ```
/// use cute_layout_core::{LayoutFn, print::grid};
/// let g = grid(&LayoutFn::Layout("(2,3):(3,1)".parse().unwrap()), false).unwrap();
/// assert_eq!((g.rows, g.cols, g.cosize), (2, 3, 6));
/// assert_eq!(g.cells, vec![0, 1, 2, 3, 4, 5]); // row by row: L(m,n) at m * cols + n
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The layout as CuTe prints it (after the rank-1 -> rank-2 padding, where that was done).
    pub title: String,
    /// `size<0>`.
    pub rows: usize,
    /// `size<1>`.
    pub cols: usize,
    /// `L(m, n)` at `cells[m * cols + n]`.
    pub cells: Vec<i64>,
    /// `cosize(L)` (of the inner layout for a composed layout, as CuTe computes it).
    pub cosize: i64,
}

/// Evaluate `f` on its grid. `pad_rank1`: a rank-1 layout becomes `(L, _1:_0)` (CuTe's
/// `append<2>(L, Layout<_1,_0>{})` in `print_latex`); otherwise the rank must be exactly 2.
///
/// ```
/// use cute_layout_core::{LayoutFn, print::grid};
/// let f = LayoutFn::Layout("4:2".parse().unwrap());
/// assert!(grid(&f, false).is_err()); // rank 1
/// let g = grid(&f, true).unwrap(); // padded to (4,_1):(2,_0)
/// assert_eq!((g.title.as_str(), g.cells.as_slice()), ("(4,_1):(2,_0)", &[0, 2, 4, 6][..]));
/// ```
pub fn grid(f: &LayoutFn, pad_rank1: bool) -> Result<Grid> {
    let f = match (domain(f)?.rank(), pad_rank1) {
        (2, _) => f.clone(),
        (1, true) => append_unit_mode(f)?,
        (r, _) => {
            let want = if pad_rank1 { "rank 1 or 2" } else { "rank 2" };
            return Err(LayoutError::invalid(format!(
                "cannot draw {f}: the picture needs a layout of {want}, this one has rank {r}"
            )));
        }
    };
    let l = domain(&f)?;
    let rows = product(&l.shape().get(0)?)?.value;
    let cols = product(&l.shape().get(1)?)?.value;
    check_picture(&format!("{f}"), rows, cols, MAX_CELLS)?;
    let mut cells = Vec::with_capacity((rows * cols) as usize);
    for m in 0..rows {
        for n in 0..cols {
            let c = IntTuple::Tuple(vec![IntTuple::d(m), IntTuple::d(n)]);
            cells.push(f.eval(&c)?.expect_int("layout value")?.value);
        }
    }
    let cosize = crate::query::cosize(l)?.value;
    Ok(Grid {
        title: f.to_string(),
        rows: rows as usize,
        cols: cols as usize,
        cells,
        cosize,
    })
}

/// The layout that gives a function its domain (a layout is its own; a composed layout's inner one).
fn domain(f: &LayoutFn) -> Result<&Layout> {
    match f {
        LayoutFn::Layout(l) => Ok(l),
        LayoutFn::Composed(c) => c.domain_layout(),
        LayoutFn::Swizzle(s) => Err(LayoutError::invalid(format!(
            "cannot draw the swizzle {s} alone: compose it with a layout, e.g. composition({s},(_8,_8):(_8,_1))"
        ))),
    }
}

/// `append<2>(f, _1:_0)`, through composed layouts to the inner layout.
fn append_unit_mode(f: &LayoutFn) -> Result<LayoutFn> {
    match f {
        LayoutFn::Layout(l) => {
            let (mut s, mut d) = (l.shape().elems(), l.stride().elems());
            if !l.is_tuple() {
                s = vec![l.shape().clone()];
                d = vec![l.stride().clone()];
            }
            s.push(IntTuple::s(1));
            d.push(IntTuple::s(0));
            Ok(LayoutFn::Layout(Layout::new(
                IntTuple::Tuple(s),
                IntTuple::Tuple(d),
            )?))
        }
        LayoutFn::Composed(c) => {
            let ComposedLayout {
                layout_a,
                offset,
                layout_b,
                ..
            } = (**c).clone();
            Ok(composition3(layout_a, offset, append_unit_mode(&layout_b)?))
        }
        LayoutFn::Swizzle(_) => domain(f).map(|_| f.clone()),
    }
}

/// CuTe's `num_digits` (for non-negative values; a negative value counts as one digit, as in CuTe).
pub(crate) fn num_digits(x: i64) -> usize {
    let mut d = 1;
    let mut p = 10i64;
    while x >= p && d < 19 {
        d += 1;
        p = p.saturating_mul(10);
    }
    d
}

/// CuTe's `print_layout`: the layout, then a table of `L(m, n)` with row and column numbers.
/// Exactly CuTe's text (including its trailing newline). Precondition: rank 2.
///
/// ```
/// use cute_layout_core::{LayoutFn, print::print_layout};
/// let s = print_layout(&LayoutFn::Layout("(2,3):(3,1)".parse().unwrap())).unwrap();
/// let lines: Vec<&str> = s.lines().collect();
/// assert_eq!(lines, [
///     "(2,3):(3,1)",
///     "      0   1   2 ",
///     "    +---+---+---+",
///     " 0  | 0 | 1 | 2 |",
///     "    +---+---+---+",
///     " 1  | 3 | 4 | 5 |",
///     "    +---+---+---+",
/// ]);
/// ```
pub fn print_layout(f: &LayoutFn) -> Result<String> {
    let g = grid(f, false)?;
    let w = num_digits(g.cosize) + 2;
    let delim = "+-----------------------";
    let sep: String = delim.chars().take(w + 1).collect();
    let mut out = String::new();
    let _ = writeln!(out, "{}", g.title);
    out.push_str("    ");
    for n in 0..g.cols {
        let _ = write!(out, "  {:>width$} ", n, width = w - 2);
    }
    out.push('\n');
    let rule = |out: &mut String| {
        out.push_str("    ");
        for _ in 0..g.cols {
            out.push_str(&sep);
        }
        out.push_str("+\n");
    };
    for m in 0..g.rows {
        rule(&mut out);
        let _ = write!(out, "{m:>2}  ");
        for n in 0..g.cols {
            let _ = write!(out, "| {:>width$} ", g.cells[m * g.cols + n], width = w - 2);
        }
        out.push_str("|\n");
    }
    rule(&mut out);
    Ok(out)
}
