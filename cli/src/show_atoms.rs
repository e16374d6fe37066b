//! `cute show OP ...`: SVG pictures of MMA and copy atoms and their tilings.
//!
//! ```text
//! cute show SM80_16x8x16_F32F16F16F32_TN                      # the atom: A, B and C
//! cute show SM80_16x8x16_F32F16F16F32_TN --tiled '(_2,_2,_1)' --highlight 5 -o mma.svg
//! cute show SM80_16x8x16_F32F16F16F32_TN --tiled '(_2,_2,_1)' --perm '(_32,_32,_16)' --operand c
//! cute show 'UniversalCopy<uint128_t>' --bits 16 --thr '(_32,_8):(_8,_1)' --val '(_1,_8)'
//! cute show SM75_U32x4_LDSM_N --bits 16 --mma SM80_16x8x16_F32F16F16F32_TN --tiled '(_2,_2,_1)' --operand a
//! ```

use cute_layout_core::atom::svg::{SvgOptions, tiled_copy_svg, tiled_mma_svg, tv_layout_svg};
use cute_layout_core::atom::{CopyAtom, CopyTraits, MmaTraits, Operand, TiledCopy, TiledMma};
use cute_layout_core::notation::{Value, eval_str};
use cute_layout_core::{Layout, Tiler};
use std::process::ExitCode;

/// The usage lines for `cute show` on atoms.
pub const USAGE: &str = "  cute show MMA_OP [--tiled LAYOUT] [--perm TILE] [--operand a|b|c] [--highlight THREAD] [--title TEXT] [-o FILE]
  cute show COPY_OP --bits N (--thr LAYOUT --val LAYOUT | --mma MMA_OP [--tiled LAYOUT] [--perm TILE] --operand a|b|c|c_atom)
                    [--highlight THREAD] [--title TEXT] [-o FILE]
      draw an MMA atom (A, B, C), a TiledMMA, or a TiledCopy (source and destination) as SVG";

/// Run `cute show` when `args[0]` names an MMA or copy operation; `None` when it names neither (the
/// argument is then a layout expression for the general `show`).
pub fn run(args: &[String]) -> Option<ExitCode> {
    let op = args.first()?;
    let is_mma = MmaTraits::from_name(op).is_ok();
    let is_copy = !is_mma && CopyTraits::from_name(op).is_ok();
    if !is_mma && !is_copy {
        return None;
    }
    let result = parse_options(&args[1..]).and_then(|opts| {
        let svg = if is_mma {
            mma_picture(op, &opts)?
        } else {
            copy_picture(op, &opts)?
        };
        Ok((svg, opts.output))
    });
    Some(match result {
        Ok((svg, path)) => crate::io::emit(&svg, path.as_deref()),
        Err(msg) => {
            crate::io::warn(&format!("show: {msg}\nusage:\n{USAGE}"));
            ExitCode::from(2)
        }
    })
}

#[derive(Default)]
struct Options {
    tiled: Option<String>,
    perm: Option<String>,
    operand: Option<String>,
    highlight: Option<i64>,
    title: Option<String>,
    output: Option<String>,
    bits: Option<i64>,
    thr: Option<String>,
    val: Option<String>,
    mma: Option<String>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--tiled" | "--atoms" => o.tiled = Some(value()?),
            "--perm" => o.perm = Some(value()?),
            "--operand" => o.operand = Some(value()?.to_ascii_lowercase()),
            "--highlight" => {
                let v = value()?;
                o.highlight = Some(
                    v.trim_start_matches(['T', 't'])
                        .parse()
                        .map_err(|_| format!("--highlight takes a thread index, got `{v}`"))?,
                );
            }
            "--title" => o.title = Some(value()?),
            "-o" | "--output" => o.output = Some(value()?),
            "--bits" => {
                let v = value()?;
                o.bits = Some(
                    v.parse()
                        .map_err(|_| format!("--bits takes a number of bits, got `{v}`"))?,
                );
            }
            "--thr" => o.thr = Some(value()?),
            "--val" => o.val = Some(value()?),
            "--mma" => o.mma = Some(value()?),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(o)
}

fn svg_options(o: &Options) -> SvgOptions {
    SvgOptions {
        highlight: o.highlight,
        title: o.title.clone(),
    }
}

/// A layout argument: a layout literal, or a shape meaning its compact column-major layout.
fn layout_arg(what: &str, text: &str) -> Result<Layout, String> {
    match eval_str(text).map_err(|e| format!("{what}: {e}"))? {
        Value::Layout(l) => Ok(l),
        Value::IntTuple(t) => {
            match eval_str(&format!("make_layout({t})")).map_err(|e| format!("{what}: {e}"))? {
                Value::Layout(l) => Ok(l),
                v => Err(format!("{what}: make_layout({t}) gave `{v}`")),
            }
        }
        v => Err(format!("{what}: expected a layout or a shape, got `{v}`")),
    }
}

fn tiled_mma(op: &str, o: &Options) -> Result<TiledMma, String> {
    let atom = MmaTraits::from_name(op).map_err(|e| e.to_string())?;
    let layout = layout_arg("--tiled", o.tiled.as_deref().unwrap_or("(_1,_1,_1)"))?;
    let perm: Option<Tiler> = match &o.perm {
        None => None,
        Some(p) => Some(
            eval_str(p)
                .and_then(|v| v.into_tiler())
                .map_err(|e| format!("--perm: {e}"))?,
        ),
    };
    TiledMma::new(atom, &layout, perm.as_ref()).map_err(|e| e.to_string())
}

fn operand(name: &str) -> Result<Operand, String> {
    match name {
        "a" => Ok(Operand::A),
        "b" => Ok(Operand::B),
        "c" => Ok(Operand::C),
        other => Err(format!("--operand takes a, b or c, got `{other}`")),
    }
}

fn mma_picture(op: &str, o: &Options) -> Result<String, String> {
    if o.bits.is_some() || o.thr.is_some() || o.val.is_some() || o.mma.is_some() {
        return Err(format!(
            "{op} is an MMA operation: --bits, --thr, --val and --mma are for copy operations"
        ));
    }
    let mma = tiled_mma(op, o)?;
    let mut opts = svg_options(o);
    if opts.title.is_none() {
        opts.title = Some(format!("{op} tiled {}", mma.atom_layout_mnk));
    }
    let svg = match o.operand.as_deref() {
        None | Some("all") => tiled_mma_svg(&mma, &opts),
        Some(name) => {
            let which = operand(name)?;
            let (i, j) = which.modes();
            let (rows, cols) = (tile(&mma, i)?, tile(&mma, j)?);
            mma.layout_tv(which)
                .and_then(|tv| tv_layout_svg(&tv, rows, cols, &opts))
        }
    };
    svg.map_err(|e| e.to_string())
}

fn tile(mma: &TiledMma, i: usize) -> Result<i64, String> {
    mma.tile_size(i).map(|s| s.value).map_err(|e| e.to_string())
}

fn copy_picture(op: &str, o: &Options) -> Result<String, String> {
    let bits = o
        .bits
        .ok_or_else(|| format!("{op} is a copy operation: give the value width with --bits N"))?;
    let atom = CopyAtom::from_name(op, bits).map_err(|e| e.to_string())?;
    let tc = match (&o.thr, &o.val, &o.mma) {
        (Some(thr), Some(val), None) => {
            TiledCopy::new(atom, &layout_arg("--thr", thr)?, &layout_arg("--val", val)?)
                .map_err(|e| e.to_string())?
        }
        (None, None, Some(mma_op)) => {
            let mma = tiled_mma(mma_op, o)?;
            match o.operand.as_deref() {
                Some("c_atom") => TiledCopy::for_mma_c_atom(atom, &mma),
                Some(name) => TiledCopy::for_mma(atom, &mma, operand(name)?),
                None => return Err("--mma needs --operand a, b, c or c_atom".into()),
            }
            .map_err(|e| e.to_string())?
        }
        _ => {
            return Err(
                "a copy picture needs either --thr and --val, or --mma (with --operand)".into(),
            );
        }
    };
    let mut opts = svg_options(o);
    if opts.title.is_none() {
        opts.title = Some(format!("{op} on {bits}-bit values, tile {}", tc.tiler_mn));
    }
    tiled_copy_svg(&tc, &opts).map_err(|e| e.to_string())
}
