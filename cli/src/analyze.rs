//! `cute analyze`: bank conflicts, global-memory coalescing and the F2-linear form of layouts.
//!
//! ```text
//! cute analyze TV --smem SMEM [--bits N]    bank conflicts of TV's accesses to SMEM (4, 8, 16 bytes)
//! cute analyze TV --gmem GMEM [--bits N]    vector width and sector efficiency of TV's accesses to GMEM
//! cute analyze EXPR                         the F2-linear form (Triton linear layout) of a layout
//! ```

use cute_layout_core::analysis::{Access, bank_conflicts, from_f2, global_access, to_f2};
use cute_layout_core::notation::eval_str;
use cute_layout_core::{Layout, LayoutFn};
use std::process::ExitCode;

pub const USAGE: &str = "  cute analyze TV [--smem SMEM] [--gmem GMEM] [--bits N] [--tile (M,N)]
                         bank conflicts (worst/mean wavefronts per warp request, 4/8/16-byte
                         accesses) of the thread-value layout TV on SMEM, vector width and
                         coalescing on GMEM, and the F2-linear (Triton) form of each layout
                         (--tile: write TV's Triton bases as (dim0, dim1) coordinates)";

struct Opts {
    expr: String,
    smem: Option<String>,
    gmem: Option<String>,
    bits: i64,
    tile: Vec<i64>,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        expr: String::new(),
        smem: None,
        gmem: None,
        bits: 16,
        tile: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--smem" => o.smem = Some(value()?),
            "--gmem" => o.gmem = Some(value()?),
            "--tile" => {
                let v = value()?;
                let t = eval_str(&v)
                    .and_then(|t| t.into_int_tuple())
                    .map_err(|e| format!("--tile: {e}"))?;
                o.tile = t
                    .leaves()
                    .iter()
                    .filter_map(|l| l.as_int().map(|i| i.value))
                    .collect();
            }
            "--bits" => {
                let v = value()?;
                o.bits = v
                    .parse()
                    .map_err(|_| format!("--bits takes a number, got `{v}`"))?;
            }
            s if o.expr.is_empty() && !s.starts_with("--") => o.expr = s.to_string(),
            s => return Err(format!("unexpected argument `{s}`")),
        }
    }
    if o.expr.is_empty() {
        return Err("needs an expression".into());
    }
    Ok(o)
}

/// Run `cute analyze ARGS`, printing the report.
pub fn run(args: &[String]) -> ExitCode {
    match parse(args).and_then(|o| report(&o)) {
        Ok(text) => match crate::io::write_stdout(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::io::output_failed(&e),
        },
        Err(e) => {
            crate::io::warn(&format!("analyze: {e}"));
            ExitCode::from(1)
        }
    }
}

fn function(what: &str, expr: &str) -> Result<LayoutFn, String> {
    let v = eval_str(expr).map_err(|e| format!("{what} `{expr}`: {e}"))?;
    LayoutFn::from_value(&v).ok_or(format!(
        "{what} `{expr}` is {} `{v}`, not a layout",
        v.kind()
    ))
}

fn report(o: &Opts) -> Result<String, String> {
    let f = function("expression", &o.expr)?;
    let mut out = format!("{}\n  F2: {}\n", o.expr, linear(&f));
    if let (LayoutFn::Layout(tv), Ok(m)) = (&f, to_f2(&f))
        && tv.rank() == 2
        && let Ok(threads) = cute_layout_core::size(&tv.mode(0).map_err(|e| e.to_string())?)
        && threads.value.count_ones() == 1
    {
        let bits = threads.value.trailing_zeros() as usize;
        out += &format!(
            "  as a Triton linear layout (TV index -> tile index): {}\n",
            m.triton_tv(bits, &o.tile)
        );
    }
    if o.smem.is_none() && o.gmem.is_none() {
        return Ok(out);
    }
    let LayoutFn::Layout(tv) = &f else {
        return Err(format!("`{}` must be a thread-value layout", o.expr));
    };
    if let Some(s) = &o.smem {
        out += &smem_report(tv, &function("--smem", s)?, s, o.bits);
    }
    if let Some(g) = &o.gmem {
        let gm = function("--gmem", g)?;
        let r = global_access(tv, &gm, o.bits).map_err(|e| e.to_string())?;
        out += &format!(
            "gmem {g}\n  F2: {}\n  {}-bit elements: {}-bit vectors ({} per access), {:.2} sectors per warp request, {:.1}% of fetched bytes used\n",
            linear(&gm),
            o.bits,
            r.vector_bits,
            r.vector_elems,
            r.sectors_mean,
            r.efficiency * 100.0
        );
    }
    Ok(out)
}

fn smem_report(tv: &Layout, smem: &LayoutFn, expr: &str, bits: i64) -> String {
    let mut out = format!(
        "smem {expr}\n  F2: {}\n  bank conflicts of {bits}-bit elements, wavefronts per warp request:\n    width  worst  mean   ideal\n",
        linear(smem)
    );
    for bytes in [4, 8, 16] {
        let line = match bank_conflicts(
            tv,
            smem,
            Access {
                elem_bits: bits,
                bytes,
            },
        ) {
            Ok(r) => format!(
                "    {bytes:>2} B   {:>5}  {:>5.2}  {:>5}{}\n",
                r.worst,
                r.mean,
                r.ideal,
                if r.conflict_free() {
                    "   conflict-free".to_string()
                } else {
                    format!(
                        "   {}-way conflict (warp {}, vector {})",
                        r.worst / r.ideal.max(1),
                        r.worst_at.0,
                        r.worst_at.1
                    )
                }
            ),
            Err(e) => format!("    {bytes:>2} B   n/a: {e}\n"),
        };
        out += &line;
    }
    out
}

/// The F2 bases, and the layout they convert back to.
fn linear(f: &LayoutFn) -> String {
    match to_f2(f) {
        Ok(m) => match from_f2(&m) {
            Ok(back) => format!("{m}  (back: {back})"),
            Err(_) => format!("{m}"),
        },
        Err(e) => format!("not F2-linear ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reports_banks_vectors_and_f2() {
        let o = parse(&args(&[
            "((_8,_8),_8):((_1,_64),_8)",
            "--smem",
            "(_8,_64):(_64,_1)",
            "--gmem",
            "(_8,_64):(_64,_1)",
        ]))
        .unwrap();
        let r = report(&o).unwrap();
        assert!(
            r.contains("16 B      32  32.00      4   8-way conflict"),
            "{r}"
        );
        assert!(r.contains("128-bit vectors"), "{r}");
        assert!(r.contains("lane: [1, 2, 4, 64, 128]"), "{r}");
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(parse(&args(&["--smem"])).is_err());
        assert!(parse(&args(&["L", "--bits", "x"])).is_err());
        let o = parse(&args(&["Sw<3,4,3>", "--smem", "(_8,_64):(_64,_1)"])).unwrap();
        assert!(report(&o).unwrap_err().contains("thread-value"));
    }
}
