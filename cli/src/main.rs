//! The `cute` command: evaluate and draw CuTe layout expressions.
//!
//! ```text
//! cute eval 'composition((6,2):(8,2),(4,3):(3,1))'
//! cute eval -            # one expression per line on stdin, one result per line on stdout
//! ```

mod analyze;
mod io;
mod show;
mod show_atoms;

use cute_layout_core::limits::{MAX_DEPTH, MAX_ELEMENTS, MAX_INPUT_BYTES};
use cute_layout_core::notation::eval_str;
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage:
  cute eval EXPR...      evaluate each expression, print each result on its own line
  cute eval -            read expressions from stdin (one per line; blank and # lines skipped)
  cute show EXPR [--format table|latex|svg] [-o FILE]   draw a layout";

/// The limits and the exit statuses, for `--help`.
fn limits_help() -> String {
    format!(
        "limits (see the README's section on limits):
  an expression: at most {MAX_INPUT_BYTES} bytes, nesting depth {MAX_DEPTH}, {MAX_ELEMENTS} elements
  every value: at most {MAX_ELEMENTS} elements and depth {MAX_DEPTH}
  pictures: tables at most {} cells, SVG/LaTeX figures at most {} cells
exit status: 0 all succeeded, 1 some expression failed, 2 usage error, {} output not written
  (a closed pipe or a write error); control characters in output are escaped (\\x1b, \\n)",
        cute_layout_core::print::MAX_CELLS,
        cute_layout_core::print::MAX_FIGURE_CELLS,
        io::OUTPUT_FAILED
    )
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let text = |a: &OsString| a.to_string_lossy().into_owned();
    match args.first().map(text).as_deref() {
        Some("eval") if args.len() > 1 => eval_cmd(&args[1..]),
        Some("show") if args.len() > 1 => show_cmd(&args[1..].iter().map(text).collect::<Vec<_>>()),
        Some("analyze") if args.len() > 1 => {
            analyze::run(&args[1..].iter().map(text).collect::<Vec<_>>())
        }
        Some("-h") | Some("--help") | Some("help") => {
            let help = format!(
                "{USAGE}\n{}\n{}\n{}\n",
                show_atoms::USAGE,
                analyze::USAGE,
                limits_help()
            );
            match io::write_stdout(&help) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => io::output_failed(&e),
            }
        }
        _ => {
            io::warn(&format!("no command given\n{USAGE}"));
            ExitCode::from(2)
        }
    }
}

/// The result line of one expression (`error: ...` when it fails); `failed` is set on an error.
/// A panic, which the library never should raise, costs this line only.
fn eval_line(e: &str, failed: &mut bool) -> String {
    match std::panic::catch_unwind(|| eval_str(e)) {
        Ok(Ok(v)) => v.to_string(),
        Ok(Err(err)) => {
            *failed = true;
            format!("error: {err}")
        }
        Err(_) => {
            *failed = true;
            "error: internal error: the evaluation panicked (please report this expression)".into()
        }
    }
}

/// The result line of one line of stdin, `None` for a blank or `#` line.
fn stdin_line(n: usize, line: io::Line, failed: &mut bool) -> Option<String> {
    let bytes = match line {
        io::Line::Bytes(b) => b,
        io::Line::TooLong(len) => {
            *failed = true;
            return Some(format!(
                "error: line {n} is {len} bytes long, above the limit of {MAX_INPUT_BYTES}"
            ));
        }
    };
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => t,
        Err(e) => {
            *failed = true;
            return Some(format!(
                "error: line {n} is not valid UTF-8 (at byte {})",
                e.valid_up_to() + 1
            ));
        }
    };
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    Some(eval_line(t, failed))
}

fn eval_cmd(exprs: &[OsString]) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    let written = if exprs.len() == 1 && exprs[0] == "-" {
        eval_stdin(&mut out, &mut failed)
    } else {
        exprs.iter().enumerate().try_for_each(|(k, e)| {
            let line = match e.to_str() {
                Some(e) => eval_line(e, &mut failed),
                None => {
                    failed = true;
                    format!("error: argument {} is not valid UTF-8", k + 1)
                }
            };
            io::write_line(&mut out, &line)
        })
    };
    match written {
        Err(e) => io::output_failed(&e),
        Ok(()) if failed => ExitCode::from(1),
        Ok(()) => ExitCode::SUCCESS,
    }
}

/// `cute eval -`: one result line per expression line of stdin, until its end.
fn eval_stdin(out: &mut impl Write, failed: &mut bool) -> std::io::Result<()> {
    let mut input = std::io::stdin().lock();
    let mut n = 0usize;
    loop {
        let line = match io::next_line(&mut input) {
            Ok(Some(line)) => line,
            Ok(None) => return Ok(()),
            Err(e) => {
                *failed = true;
                io::warn(&format!("cannot read stdin: {e}"));
                return Ok(());
            }
        };
        n += 1;
        if let Some(result) = stdin_line(n, line, failed) {
            io::write_line(out, &result)?;
        }
    }
}

fn show_cmd(args: &[String]) -> ExitCode {
    // MMA and copy operations draw their thread-value layouts; anything else is a layout expression.
    if let Some(code) = show_atoms::run(args) {
        return code;
    }
    show::run(args)
}
