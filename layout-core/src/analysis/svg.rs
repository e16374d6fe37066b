//! A picture of bank conflicts: the shared-memory layout's grid, each cell coloured by the bank its
//! element lies in, and the cells of the worst warp request outlined and labelled with their thread.

use super::TvTable;
use super::bank::{Access, bank_conflicts};
use crate::error::Result;
use crate::layout::Layout;
use crate::print::grid;
use crate::swizzle::LayoutFn;
use std::collections::BTreeMap;
use std::fmt::Write;

/// An SVG of `smem` (rank 1 or 2) with the banks of its elements and the worst request of `tv`.
///
/// ```
/// use layout_core::analysis::{bank_svg, Access};
/// use layout_core::{notation::eval_str, LayoutFn};
/// let smem = LayoutFn::from_value(&eval_str("(_8,_64):(_64,_1)").unwrap()).unwrap();
/// let tv: layout_core::Layout = "((_8,_8),_8):((_1,_64),_8)".parse().unwrap();
/// let svg = bank_svg(&tv, &smem, Access { elem_bits: 16, bytes: 16 }).unwrap();
/// assert!(svg.contains("32 wavefronts (ideal 4)"));
/// ```
pub fn bank_svg(tv: &Layout, smem: &LayoutFn, access: Access) -> Result<String> {
    let report = bank_conflicts(tv, smem, access)?;
    let g = grid(smem, true)?;
    let n = access.elems()?;
    let table = TvTable::new(tv, smem)?;
    let (warp, k) = report.worst_at;
    let mut owner: BTreeMap<i64, i64> = BTreeMap::new();
    for t in warp * 32..(warp * 32 + 32).min(table.threads) {
        for j in 0..n {
            owner.insert(table.at(t, k * n + j), t);
        }
    }
    let (cw, ch, left, top) = (34usize, 22usize, 40usize, 60usize);
    let (w, h) = (left + g.cols * cw + 10, top + g.rows * ch + 10);
    let title = format!(
        "{smem}: {}-bit elements, {}-byte accesses; worst request (warp {warp}, vector {k}): {} wavefronts (ideal {})",
        access.elem_bits, access.bytes, report.worst, report.ideal
    );
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{h}\" font-family=\"monospace\" font-size=\"11\">",
        w.max(title.len() * 7 + 20)
    );
    let _ = writeln!(o, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(o, "<text x=\"{left}\" y=\"18\">{}</text>", escape(&title));
    let _ = writeln!(
        o,
        "<text x=\"{left}\" y=\"36\" fill=\"#555\">cell colour: bank (0-31); outlined: the worst request, labelled T# by thread; others: b# bank</text>"
    );
    for m in 0..g.rows {
        for c in 0..g.cols {
            let off = g.cells[m * g.cols + c];
            let bank = (off.saturating_mul(access.elem_bits) / 8 / 4).rem_euclid(32);
            let (x, y) = (left + c * cw, top + m * ch);
            let who = owner.get(&off);
            let stroke = if who.is_some() {
                "stroke=\"black\" stroke-width=\"2\""
            } else {
                "stroke=\"#999\" stroke-width=\"0.5\""
            };
            let _ = writeln!(
                o,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\"hsl({},70%,{}%)\" {stroke}/>",
                bank * 360 / 32,
                if who.is_some() { 70 } else { 88 }
            );
            let label = who.map_or(format!("b{bank}"), |t| format!("T{t}"));
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

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
