//! Pictures of the analyses: a memory layout's grid with each cell coloured by the shared-memory bank
//! (or the global-memory sector) its element lies in, and the cells of one warp request outlined and
//! labelled with their thread: the worst request for banks, the first for sectors.
//!
//! ```
//! use cute_layout_core::analysis::{bank_svg, Access};
//! use cute_layout_core::{notation::eval_str, Layout, LayoutFn};
//! let smem = LayoutFn::from_value(&eval_str("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)").unwrap()).unwrap();
//! let tv: Layout = "((_8,_8),_8):((_1,_64),_8)".parse().unwrap();
//! let svg = bank_svg(&tv, &smem, Access { elem_bits: 16, bytes: 16 }).unwrap();
//! assert!(svg.starts_with("<svg") && svg.contains("4 wavefronts (ideal 4)"));
//! ```

use super::TvTable;
use super::bank::{Access, bank_conflicts};
use super::global::global_access;
use crate::error::Result;
use crate::layout::Layout;
use crate::print::grid;
use crate::swizzle::LayoutFn;
use std::collections::BTreeMap;
use std::fmt::Write;

/// An SVG of `smem` (rank 1 or 2) with the banks of its elements and the worst request of `tv`.
///
/// ```
/// use cute_layout_core::analysis::{bank_svg, Access};
/// use cute_layout_core::{notation::eval_str, LayoutFn};
/// let smem = LayoutFn::from_value(&eval_str("(_8,_64):(_64,_1)").unwrap()).unwrap();
/// let tv: cute_layout_core::Layout = "((_8,_8),_8):((_1,_64),_8)".parse().unwrap();
/// let svg = bank_svg(&tv, &smem, Access { elem_bits: 16, bytes: 16 }).unwrap();
/// assert!(svg.contains("32 wavefronts (ideal 4)"));
/// ```
pub fn bank_svg(tv: &Layout, smem: &LayoutFn, access: Access) -> Result<String> {
    let report = bank_conflicts(tv, smem, access)?;
    let (warp, k) = report.worst_at;
    let title = format!(
        "{smem}: {}-bit elements, {}-byte accesses; worst request (warp {warp}, vector {k}): {} wavefronts (ideal {})",
        access.elem_bits, access.bytes, report.worst, report.ideal
    );
    let overlay = Overlay {
        title,
        legend: "cell colour: bank (0-31); outlined: the worst request, labelled T# by thread; others: b# bank",
        classes: 32,
        class_of: &|off| (off.saturating_mul(access.elem_bits) / 32).rem_euclid(32),
        prefix: "b",
    };
    overlay.draw(smem, &request(tv, smem, (warp, k), access.elems()?)?)
}

/// An SVG of `gmem` (rank 1 or 2) with the 32-byte sectors of its elements and the first warp
/// request of `tv` (vectors as wide as [`global_access`] finds).
///
/// ```
/// use cute_layout_core::analysis::sector_svg;
/// use cute_layout_core::{notation::eval_str, LayoutFn};
/// let g = LayoutFn::from_value(&eval_str("(_32,_32):(_32,_1)").unwrap()).unwrap();
/// let tv: cute_layout_core::Layout = "(_32,_4):(_1,_32)".parse().unwrap();
/// let svg = sector_svg(&tv, &g, 32).unwrap();
/// assert!(svg.contains("32 sectors per request, 50.0% of fetched bytes used"));
/// ```
pub fn sector_svg(tv: &Layout, gmem: &LayoutFn, elem_bits: i64) -> Result<String> {
    let r = global_access(tv, gmem, elem_bits)?;
    let title = format!(
        "{gmem}: {elem_bits}-bit elements, {}-bit vectors; {:.0} sectors per request, {:.1}% of fetched bytes used",
        r.vector_bits,
        r.sectors_mean,
        r.efficiency * 100.0
    );
    let overlay = Overlay {
        title,
        legend: "cell colour: 32-byte sector; outlined: the first warp request, labelled T# by thread; others: s# sector",
        classes: 8,
        class_of: &|off| off.saturating_mul(elem_bits).div_euclid(256),
        prefix: "s",
    };
    overlay.draw(gmem, &request(tv, gmem, (0, 0), r.vector_elems)?)
}

/// The offsets one warp request touches (vector `k` of `n` elements of warp `warp`), by thread.
fn request(
    tv: &Layout,
    mem: &LayoutFn,
    (warp, k): (i64, i64),
    n: i64,
) -> Result<BTreeMap<i64, i64>> {
    let table = TvTable::new(tv, mem)?;
    let mut owner = BTreeMap::new();
    for t in warp * 32..(warp * 32 + 32).min(table.threads) {
        for j in 0..n.min(table.values) {
            owner.insert(table.at(t, k * n + j), t);
        }
    }
    Ok(owner)
}

/// A grid picture with cells coloured by a class of their offset and one request outlined.
struct Overlay<'a> {
    title: String,
    legend: &'a str,
    /// Number of distinct colours (classes are taken modulo it for the hue).
    classes: i64,
    class_of: &'a dyn Fn(i64) -> i64,
    /// Label prefix of cells outside the request.
    prefix: &'a str,
}

impl Overlay<'_> {
    fn draw(&self, mem: &LayoutFn, owner: &BTreeMap<i64, i64>) -> Result<String> {
        let g = grid(mem, true)?;
        crate::print::check_picture(
            "an analysis figure",
            g.rows as i64,
            g.cols as i64,
            crate::print::MAX_FIGURE_CELLS,
        )?;
        let (cw, ch, left, top) = (34usize, 22usize, 40usize, 60usize);
        let (w, h) = (left + g.cols * cw + 10, top + g.rows * ch + 10);
        let mut o = String::new();
        let _ = writeln!(
            o,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{h}\" font-family=\"monospace\" font-size=\"11\">",
            w.max(self.title.len() * 7 + 20)
        );
        let _ = writeln!(o, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
        let _ = writeln!(
            o,
            "<text x=\"{left}\" y=\"18\">{}</text>",
            escape(&self.title)
        );
        let _ = writeln!(
            o,
            "<text x=\"{left}\" y=\"36\" fill=\"#555\">{}</text>",
            self.legend
        );
        for m in 0..g.rows {
            for c in 0..g.cols {
                let off = g.cells[m * g.cols + c];
                let class = (self.class_of)(off);
                let who = owner.get(&off);
                let (x, y) = (left + c * cw, top + m * ch);
                let stroke = if who.is_some() {
                    "stroke=\"black\" stroke-width=\"2\""
                } else {
                    "stroke=\"#999\" stroke-width=\"0.5\""
                };
                let _ = writeln!(
                    o,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\"hsl({},70%,{}%)\" {stroke}/>",
                    class.rem_euclid(self.classes) * 360 / self.classes,
                    if who.is_some() { 70 } else { 88 }
                );
                let label = who.map_or(format!("{}{class}", self.prefix), |t| format!("T{t}"));
                let _ = writeln!(
                    o,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
                    x + cw / 2,
                    y + 15
                );
            }
        }
        o.push_str("</svg>\n");
        Ok(o)
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
