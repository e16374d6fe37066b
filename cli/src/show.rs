//! `cute show EXPR [--format table|latex|svg] [-o FILE] [--color-block N]`: draw the layout an
//! expression yields (a layout or a composed/swizzled layout) as CuTe's `print_layout` table, as
//! CuTe's `print_latex` TikZ document, or as an SVG picture.

use cute_layout_core::LayoutFn;
use cute_layout_core::notation::eval_str;
use cute_layout_core::print::{SvgOptions, print_latex, print_layout, print_svg};
use std::process::ExitCode;

const USAGE: &str = "usage: cute show EXPR [--format table|latex|svg] [-o FILE] [--color-block N]
  table  CuTe's print_layout (rank-2 layouts)              [default]
  latex  CuTe's print_latex TikZ document (rank 1 or 2; compile with pdflatex)
  svg    a grid of cells labelled and coloured by index (rank 1 or 2)
  --color-block N   svg: cells with equal (index / N) % 8 share a colour (default 1)
  --access TV [--bits N] [--bytes W]   svg: colour the smem layout EXPR by bank and outline the
                    worst warp request of the thread-value layout TV (N-bit elements, W-byte accesses)
  --access TV --global [--bits N]      svg: colour the global layout EXPR by 32-byte sector and
                    outline TV's first warp request";

#[derive(Debug, PartialEq, Eq)]
struct Args {
    expr: String,
    format: String,
    output: Option<String>,
    color_block: i64,
    access: Option<(String, i64, i64)>,
    global: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut expr = None;
    let mut format = "table".to_string();
    let mut output = None;
    let mut color_block = 1;
    let (mut access, mut bits, mut bytes, mut global) = (None, 16, 16, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--format" | "-f" => format = value("--format")?,
            "-o" | "--output" => output = Some(value("-o")?),
            "--color-block" => {
                let v = value("--color-block")?;
                color_block =
                    v.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                        format!("--color-block needs a positive integer, not `{v}`")
                    })?;
            }
            "--access" => access = Some(value("--access")?),
            "--global" => global = true,
            "--bits" | "--bytes" => {
                let v = value(a)?;
                let n = v
                    .parse::<i64>()
                    .map_err(|_| format!("{a} needs a number, not `{v}`"))?;
                if a == "--bits" { bits = n } else { bytes = n }
            }
            s if s.starts_with("--format=") => format = s["--format=".len()..].to_string(),
            s if expr.is_none() => expr = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}` (quote the expression)")),
        }
    }
    if !matches!(format.as_str(), "table" | "latex" | "svg") {
        return Err(format!(
            "unknown format `{format}`: use table, latex or svg"
        ));
    }
    Ok(Args {
        expr: expr.ok_or("missing the expression to draw")?,
        format,
        output,
        color_block,
        access: access.map(|tv| (tv, bits, bytes)),
        global,
    })
}

fn render(a: &Args) -> Result<String, String> {
    let v = eval_str(&a.expr).map_err(|e| e.to_string())?;
    let f = LayoutFn::from_value(&v)
        .ok_or_else(|| format!("`{}` is {} `{v}`, not a layout", a.expr, v.kind()))?;
    if let Some((tv, elem_bits, bytes)) = &a.access {
        let tv = eval_str(tv)
            .and_then(|v| v.into_layout())
            .map_err(|e| format!("--access: {e}"))?;
        let access = cute_layout_core::analysis::Access {
            elem_bits: *elem_bits,
            bytes: *bytes,
        };
        let svg = if a.global {
            cute_layout_core::analysis::sector_svg(&tv, &f, *elem_bits)
        } else {
            cute_layout_core::analysis::bank_svg(&tv, &f, access)
        };
        return svg.map_err(|e| e.to_string());
    }
    let text = match a.format.as_str() {
        "latex" => print_latex(&f),
        "svg" => print_svg(
            &f,
            SvgOptions {
                color_block: a.color_block,
            },
        ),
        _ => print_layout(&f),
    };
    text.map_err(|e| e.to_string())
}

/// Run `cute show` with the arguments after `show`.
pub fn run(args: &[String]) -> ExitCode {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            crate::io::warn(&format!("show: {e}\n{USAGE}"));
            return ExitCode::from(2);
        }
    };
    match render(&a) {
        Ok(text) => crate::io::emit(&text, a.output.as_deref()),
        Err(e) => {
            crate::io::warn(&format!("show: {e}"));
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_options() {
        let a = parse(&args(&["(4,2):(2,1)", "--format", "svg", "-o", "x.svg"])).unwrap();
        assert_eq!(a.format, "svg");
        assert_eq!(a.output.as_deref(), Some("x.svg"));
        assert!(parse(&args(&["L", "--format", "png"])).is_err());
        assert!(parse(&args(&["--format", "svg"])).is_err());
    }

    #[test]
    fn renders_tables_and_errors() {
        let a = parse(&args(&["composition(Sw<1,0,1>,(_2,_2):(_2,_1))"])).unwrap();
        assert!(
            render(&a)
                .unwrap()
                .starts_with("Sw<1,0,1> o _0 o (_2,_2):(_2,_1)\n")
        );
        let a = parse(&args(&["(_2,_3)"])).unwrap();
        assert!(render(&a).unwrap_err().contains("not a layout"));
        let a = parse(&args(&["(_2,_2,_2):(_1,_2,_4)"])).unwrap();
        assert!(render(&a).unwrap_err().contains("rank 2"));
    }
}
