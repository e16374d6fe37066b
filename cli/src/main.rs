//! The `cute` command: evaluate and draw CuTe layout expressions.
//!
//! ```text
//! cute eval 'composition((6,2):(8,2),(4,3):(3,1))'
//! cute eval -            # one expression per line on stdin, one result per line on stdout
//! ```

mod analyze;
mod show;
mod show_atoms;

use layout_core::notation::eval_str;
use std::io::{BufRead, Write};
use std::process::ExitCode;

const USAGE: &str = "usage:
  cute eval EXPR...      evaluate each expression, print each result on its own line
  cute eval -            read expressions from stdin (one per line; blank and # lines skipped)
  cute show EXPR [--format table|latex|svg] [-o FILE]   draw a layout";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("eval") if args.len() > 1 => eval_cmd(&args[1..]),
        Some("show") if args.len() > 1 => show_cmd(&args[1..]),
        Some("analyze") if args.len() > 1 => analyze::run(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            println!("{USAGE}\n{}\n{}", show_atoms::USAGE, analyze::USAGE);
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn eval_cmd(exprs: &[String]) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut run = |e: &str, out: &mut dyn Write| {
        let line = match eval_str(e) {
            Ok(v) => v.to_string(),
            Err(err) => {
                failed = true;
                format!("error: {err}")
            }
        };
        let _ = writeln!(out, "{line}");
    };
    if exprs.len() == 1 && exprs[0] == "-" {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else {
                eprintln!("cute: stdin is not valid UTF-8 text");
                return ExitCode::from(2);
            };
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            run(t, &mut out);
        }
    } else {
        for e in exprs {
            run(e, &mut out);
        }
    }
    let _ = out.flush();
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn show_cmd(args: &[String]) -> ExitCode {
    // MMA and copy operations draw their thread-value layouts; anything else is a layout expression.
    if let Some(code) = show_atoms::run(args) {
        return code;
    }
    show::run(args)
}
