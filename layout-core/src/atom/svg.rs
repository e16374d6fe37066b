//! SVG pictures of thread-value layouts, in the spirit of CuTe's `print_latex` for TV layouts: one cell per
//! element of the tile, labelled with the thread (`T#`) and value (`V#`) that hold it, coloured by thread.
//!
//! * [`tv_layout_svg`]: any TV layout `(thr,val) -> column-major offset` over a `rows x cols` tile;
//! * [`tiled_mma_svg`]: A (`M x K`, left), B (drawn `K x N`, top) and C (`M x N`) of a TiledMMA, laid out as
//!   CuTe draws them, so that row `m` of A and column `n` of B meet at `C(m,n)`;
//! * [`tiled_copy_svg`]: the source and destination TV layouts of a TiledCopy, side by side.
//!
//! Where several threads hold the same element (A is replicated over the N-threads, a GMMA `_SS` operand
//! over all 128 threads) the cell names the lowest thread and its tooltip says how many hold it. With
//! [`SvgOptions::highlight`] one thread keeps its colour (and its own value index) and the others fade.
//!
//! ```
//! use cute_layout_core::atom::svg::{tv_layout_svg, SvgOptions};
//! let tv = "((_4,_2),_4):((_8,_4),_1)".parse().unwrap(); // SM70 8x4 A, column-major
//! let svg = tv_layout_svg(&tv, 8, 4, &SvgOptions::default()).unwrap();
//! assert!(svg.starts_with("<svg"));
//! assert!(svg.contains(">T4</tspan>"));
//! ```

use super::alg;
use super::tiled_copy::TiledCopy;
use super::tiled_mma::{Operand, TiledMma};
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use std::fmt::Write;

/// Drawing options.
///
/// ```
/// use cute_layout_core::atom::svg::{tv_layout_svg, SvgOptions};
/// let c = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))".parse().unwrap(); // SM80 16x8 accumulator
/// let opts = SvgOptions { highlight: Some(0), title: Some("SM80 C".into()) };
/// let svg = tv_layout_svg(&c, 16, 8, &opts).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("SM80 C"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Draw this thread in colour and every other thread faded.
    pub highlight: Option<i64>,
    /// A caption above the picture.
    pub title: Option<String>,
}

/// Which thread and value hold one element of a tile.
///
/// ```
/// use cute_layout_core::atom::svg::TvGrid;
/// let g = TvGrid::new(&"((_4,_8),(_2,_2)):((_32,_1),(_16,_8))".parse().unwrap(), 16, 8, Some(1)).unwrap();
/// let c = g.cell(0, 2).unwrap(); // C(0,2) is held by thread 1, value 0
/// assert_eq!((c.thread, c.value, c.holders, c.highlighted_value), (1, 0, 1, Some(0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The lowest thread holding the element.
    pub thread: i64,
    /// That thread's value index.
    pub value: i64,
    /// How many `(thread, value)` pairs hold the element.
    pub holders: i64,
    /// The highlighted thread's value index, if it holds the element.
    pub highlighted_value: Option<i64>,
}

/// The tile of a TV layout as a grid: `cells[m + rows * n]` for element `(m, n)`, `None` where no
/// thread holds the element.
///
/// ```
/// use cute_layout_core::atom::svg::TvGrid;
/// let g = TvGrid::new(&"((_4,_8),(_2,_2)):((_32,_1),(_16,_8))".parse().unwrap(), 16, 8, None).unwrap();
/// assert_eq!((g.rows, g.cols, g.threads, g.cells.len()), (16, 8, 32, 128));
/// assert!(g.cells.iter().all(|c| c.is_some())); // every element has an owner
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TvGrid {
    /// Rows of the tile.
    pub rows: i64,
    /// Columns of the tile.
    pub cols: i64,
    /// One entry per element, column-major.
    pub cells: Vec<Option<Cell>>,
    /// Number of threads of the layout (`size<0>`).
    pub threads: i64,
}

impl TvGrid {
    /// Evaluate the TV layout at every `(thread, value)` and record who holds each element. Every offset
    /// must fall inside the `rows x cols` tile.
    ///
    /// ```
    /// use cute_layout_core::atom::svg::TvGrid;
    /// let g = TvGrid::new(&"(_2,_2):(_0,_1)".parse().unwrap(), 2, 1, None).unwrap();
    /// let c = g.cell(1, 0).unwrap();
    /// assert_eq!((c.thread, c.value, c.holders), (0, 1, 2));
    /// ```
    pub fn new(tv: &Layout, rows: i64, cols: i64, highlight: Option<i64>) -> Result<TvGrid> {
        if tv.rank() != 2 {
            return Err(LayoutError::invalid(format!(
                "a TV layout has two modes (thread, value), got {tv}"
            )));
        }
        let threads = alg::size_of_mode(tv, 0)?.value;
        let values = alg::size_of_mode(tv, 1)?.value;
        crate::print::check_picture("a TV layout", rows, cols, crate::print::MAX_FIGURE_CELLS)?;
        let n = rows.saturating_mul(cols);
        if n == 0 {
            return Err(LayoutError::invalid(format!(
                "a {rows} x {cols} tile is empty: nothing to draw"
            )));
        }
        let mut cells: Vec<Option<Cell>> = vec![None; n as usize];
        let offsets = alg::eval_all(tv)?;
        for (i, &pos) in offsets.iter().enumerate() {
            let (t, v) = (i as i64 % threads, i as i64 / threads);
            if !(0..n).contains(&pos) {
                return Err(LayoutError::IndexOutOfRange {
                    what: format!("TV layout {tv} at (T{t},V{v}) outside the {rows} x {cols} tile"),
                    index: pos,
                    bound: n,
                });
            }
            let mine = (highlight == Some(t)).then_some(v);
            let slot = &mut cells[pos as usize];
            match slot {
                None => {
                    *slot = Some(Cell {
                        thread: t,
                        value: v,
                        holders: 1,
                        highlighted_value: mine,
                    })
                }
                Some(c) => {
                    c.holders += 1;
                    if t < c.thread {
                        (c.thread, c.value) = (t, v);
                    }
                    c.highlighted_value = c.highlighted_value.or(mine);
                }
            }
        }
        debug_assert_eq!(offsets.len() as i64, threads * values);
        Ok(TvGrid {
            rows,
            cols,
            cells,
            threads,
        })
    }

    /// The cell of element `(m, n)`.
    ///
    /// ```
    /// use cute_layout_core::atom::svg::TvGrid;
    /// let g = TvGrid::new(&"((_4,_8),(_2,_2)):((_32,_1),(_16,_8))".parse().unwrap(), 16, 8, None).unwrap();
    /// assert_eq!(g.cell(9, 3).map(|c| (c.thread, c.value)), Some((37 % 32, 3)));
    /// assert_eq!(g.cell(16, 0), None); // outside the tile
    /// ```
    pub fn cell(&self, m: i64, n: i64) -> Option<Cell> {
        if (0..self.rows).contains(&m) && (0..self.cols).contains(&n) {
            self.cells[(m + self.rows * n) as usize]
        } else {
            None
        }
    }
}

const CELL_W: i64 = 36;
const CELL_H: i64 = 30;
const MARGIN: i64 = 24;

/// A thread's fill colour: CuTe's eight pastels, cycled.
fn thread_colour(t: i64) -> &'static str {
    const PALETTE: [&str; 8] = [
        "#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
    ];
    PALETTE[t.rem_euclid(8) as usize]
}

use crate::print::escape_xml as escape;

/// Draw one grid at `(x0, y0)`. `transpose` draws element `(m, n)` at row `n`, column `m`.
fn draw_grid(
    out: &mut String,
    grid: &TvGrid,
    x0: i64,
    y0: i64,
    transpose: bool,
    caption: &str,
    highlight: Option<i64>,
) {
    let (rows, cols) = if transpose {
        (grid.cols, grid.rows)
    } else {
        (grid.rows, grid.cols)
    };
    let _ = writeln!(out, r#"<g transform="translate({x0},{y0})">"#);
    let _ = writeln!(
        out,
        r#"<text x="0" y="-14" class="caption">{}</text>"#,
        escape(caption)
    );
    for r in 0..rows {
        let _ = writeln!(
            out,
            r#"<text x="-4" y="{}" class="index" text-anchor="end">{r}</text>"#,
            r * CELL_H + CELL_H / 2 + 4
        );
    }
    for c in 0..cols {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="-3" class="index" text-anchor="middle">{c}</text>"#,
            c * CELL_W + CELL_W / 2
        );
    }
    for r in 0..rows {
        for c in 0..cols {
            let (m, n) = if transpose { (c, r) } else { (r, c) };
            let (x, y) = (c * CELL_W, r * CELL_H);
            let Some(cell) = grid.cell(m, n) else {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" class="empty"><title>({m},{n}): no thread</title></rect>"#
                );
                continue;
            };
            let (thread, value, fill, class) = match (highlight, cell.highlighted_value) {
                (Some(h), Some(v)) => (h, v, thread_colour(h), "cell hl"),
                (Some(_), None) => (cell.thread, cell.value, "#f4f4f4", "cell faded"),
                (None, _) => (cell.thread, cell.value, thread_colour(cell.thread), "cell"),
            };
            let holders = if cell.holders > 1 {
                format!(", held by {} (thread, value) pairs", cell.holders)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                r#"<g class="{class}"><title>({m},{n}): T{thread} V{value}{holders}</title><rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}"/><text x="{}" y="{}"><tspan x="{}" dy="0">T{thread}</tspan><tspan x="{}" dy="11">V{value}</tspan></text></g>"#,
                x + CELL_W / 2,
                y + 12,
                x + CELL_W / 2,
                x + CELL_W / 2
            );
        }
    }
    let _ = writeln!(out, "</g>");
}

fn document(width: i64, height: i64, title: Option<&str>, body: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace">"#
    );
    out.push_str(concat!(
        "<style>\n",
        ".cell rect{stroke:#000;stroke-width:1}\n",
        ".hl rect{stroke-width:3}\n",
        ".faded text{fill:#aaa}\n",
        ".empty{fill:#fff;stroke:#ccc;stroke-dasharray:2,2}\n",
        "text{font-size:10px;text-anchor:middle}\n",
        ".index{font-size:9px;fill:#555}\n",
        ".caption{font-size:12px;text-anchor:start;font-weight:bold}\n",
        ".title{font-size:14px;text-anchor:start}\n",
        "</style>\n"
    ));
    if let Some(t) = title {
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="18" class="title">{}</text>"#,
            escape(t)
        );
    }
    out.push_str(body);
    out.push_str("</svg>\n");
    out
}

fn top(title: Option<&str>) -> i64 {
    MARGIN + 24 + if title.is_some() { 20 } else { 0 }
}

/// SVG of a TV layout over a `rows x cols` tile (offsets column-major: element `(m, n)` is `m + rows * n`).
///
/// ```
/// use cute_layout_core::atom::svg::{tv_layout_svg, SvgOptions};
/// let tv = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))".parse().unwrap();
/// assert!(tv_layout_svg(&tv, 16, 8, &SvgOptions::default()).unwrap().starts_with("<svg"));
/// assert!(tv_layout_svg(&tv, 8, 8, &SvgOptions::default()).is_err()); // offsets past the 8x8 tile
/// ```
pub fn tv_layout_svg(tv: &Layout, rows: i64, cols: i64, opts: &SvgOptions) -> Result<String> {
    let grid = TvGrid::new(tv, rows, cols, opts.highlight)?;
    let y0 = top(opts.title.as_deref());
    let mut body = String::new();
    draw_grid(
        &mut body,
        &grid,
        MARGIN + 16,
        y0,
        false,
        &format!("{tv}"),
        opts.highlight,
    );
    let (w, h) = (MARGIN * 2 + 16 + cols * CELL_W, y0 + rows * CELL_H + MARGIN);
    Ok(document(w, h, opts.title.as_deref(), &body))
}

/// SVG of a TiledMMA: A (`M x K`) on the left, B (`K x N`, B's `(n,k)` drawn at row `k`) on top, C
/// (`M x N`) below B, each cell labelled with the thread and value that hold it.
///
/// ```
/// use cute_layout_core::atom::{MmaTraits, TiledMma};
/// use cute_layout_core::atom::svg::{tiled_mma_svg, SvgOptions};
/// let mma = TiledMma::new(MmaTraits::from_name("SM80_16x8x8_F16F16F16F16_TN").unwrap(), &"(_1,_1,_1):(_0,_0,_0)".parse().unwrap(), None).unwrap();
/// let svg = tiled_mma_svg(&mma, &SvgOptions { highlight: Some(0), title: None }).unwrap();
/// assert!(svg.contains("(0,0): T0 V0"));
/// ```
pub fn tiled_mma_svg(mma: &TiledMma, opts: &SvgOptions) -> Result<String> {
    let (m, n, k) = (
        mma.tile_size(0)?.value,
        mma.tile_size(1)?.value,
        mma.tile_size(2)?.value,
    );
    // All three grids are checked before any is evaluated.
    for (rows, cols) in [(m, k), (n, k), (m, n)] {
        crate::print::check_picture("a TV layout", rows, cols, crate::print::MAX_FIGURE_CELLS)?;
    }
    let a = TvGrid::new(&mma.layout_tv(Operand::A)?, m, k, opts.highlight)?;
    let b = TvGrid::new(&mma.layout_tv(Operand::B)?, n, k, opts.highlight)?;
    let c = TvGrid::new(&mma.layout_tv(Operand::C)?, m, n, opts.highlight)?;
    let gap = CELL_W;
    let x_a = MARGIN + 16;
    let x_c = x_a + k * CELL_W + gap;
    let y_b = top(opts.title.as_deref());
    let y_c = y_b + k * CELL_H + gap + 16;
    let mut body = String::new();
    draw_grid(
        &mut body,
        &a,
        x_a,
        y_c,
        false,
        &format!("A {m}x{k}"),
        opts.highlight,
    );
    draw_grid(
        &mut body,
        &b,
        x_c,
        y_b,
        true,
        &format!("B {n}x{k} (drawn k by n)"),
        opts.highlight,
    );
    draw_grid(
        &mut body,
        &c,
        x_c,
        y_c,
        false,
        &format!("C {m}x{n}"),
        opts.highlight,
    );
    let (w, h) = (x_c + n * CELL_W + MARGIN, y_c + m * CELL_H + MARGIN);
    Ok(document(w, h, opts.title.as_deref(), &body))
}

/// SVG of a TiledCopy: the source TV layout on the left, the destination on the right, over the tile.
///
/// ```
/// use cute_layout_core::atom::{CopyAtom, TiledCopy, svg::{tiled_copy_svg, SvgOptions}};
/// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
/// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
/// assert!(tiled_copy_svg(&tc, &SvgOptions::default()).unwrap().starts_with("<svg"));
/// ```
pub fn tiled_copy_svg(tc: &TiledCopy, opts: &SvgOptions) -> Result<String> {
    let shape = tc.tile_shape()?;
    let modes = shape.elems();
    let rows = crate::tuple_ops::product(&modes[0])?.value;
    let cols = match modes.get(1) {
        Some(s) => crate::tuple_ops::product(s)?.value,
        None => 1,
    };
    let s = TvGrid::new(&tc.layout_s_tv()?, rows, cols, opts.highlight)?;
    let d = TvGrid::new(&tc.layout_d_tv()?, rows, cols, opts.highlight)?;
    let y0 = top(opts.title.as_deref());
    let x_s = MARGIN + 16;
    let x_d = x_s + cols * CELL_W + 3 * CELL_W;
    let mut body = String::new();
    draw_grid(
        &mut body,
        &s,
        x_s,
        y0,
        false,
        &format!("source {rows}x{cols}"),
        opts.highlight,
    );
    draw_grid(
        &mut body,
        &d,
        x_d,
        y0,
        false,
        &format!("destination {rows}x{cols}"),
        opts.highlight,
    );
    let (w, h) = (x_d + cols * CELL_W + MARGIN, y0 + rows * CELL_H + MARGIN);
    Ok(document(w, h, opts.title.as_deref(), &body))
}
