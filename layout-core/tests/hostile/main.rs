//! Hostile input (issue 17): random and adversarial expressions through the parser, the evaluator,
//! every operation and the printers. No case may panic, overflow the stack, run longer than
//! `HOSTILE_CASE_SECONDS` (default 5) or give a result that breaks the definition of the operation
//! (the metamorphic class).
//!
//! Each class runs a CI-sized number of cases; `HOSTILE_CASES=N` runs `N` cases of every class,
//! `HOSTILE_CASES_WIDE=N` (and so on for each class) of one class, and
//! `HOSTILE_SEED=S` changes the inputs. The long run (see the README's section on limits) is
//! `scripts/hostile_long_run.sh`: release build, >= 1,000,000 cases, time and peak memory per class.

mod inputs;
mod metamorphic;

use cute_layout_core::limits::MAX_DEPTH;
use cute_layout_core::notation::eval_str;
use inputs::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// The number of cases of class `name`: `HOSTILE_CASES_<NAME>` (e.g. `HOSTILE_CASES_WIDE`) or
/// `HOSTILE_CASES` when set, else `default`.
fn cases(name: &str, default: u64) -> u64 {
    env_num(&format!("HOSTILE_CASES_{}", name.to_uppercase()))
        .or_else(|| env_num("HOSTILE_CASES"))
        .unwrap_or(default)
}

fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn clip(s: &str) -> String {
    cute_layout_core::limits::clip(&cute_layout_core::print::escape_controls(s))
}

/// Run the cases of a class (`default_cases`, or as [`cases`] says): `make` builds the input
/// from the case's generator, `check` runs it and returns `Err` for a wrong answer, `Ok(true)`
/// when it gave a value. Panics, wrong answers and slow cases are collected and reported together
/// (each with its input); the class's figures are printed for the long run.
fn run_class(
    name: &str,
    default_cases: u64,
    make: impl Fn(&mut Rng) -> String,
    check: impl Fn(&str) -> Result<bool, String>,
) {
    let n = cases(name, default_cases);
    let seed = env_num("HOSTILE_SEED").unwrap_or(17);
    let limit = Duration::from_secs(env_num("HOSTILE_CASE_SECONDS").unwrap_or(5));
    let (mut failures, mut slowest) = (Vec::new(), (Duration::ZERO, String::new()));
    let mut values = 0u64;
    let start = Instant::now();
    for case in 0..n {
        let input = make(&mut Rng::new(seed, case));
        let t0 = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| check(&input)));
        let dt = t0.elapsed();
        if dt > slowest.0 {
            slowest = (dt, clip(&input));
        }
        let failure = match outcome {
            Err(_) => Some("panicked".to_string()),
            Ok(Err(wrong)) => Some(wrong),
            Ok(Ok(_)) if dt > limit => Some(format!("took {dt:?}")),
            Ok(Ok(value)) => {
                values += u64::from(value);
                None
            }
        };
        if let Some(f) = failure {
            failures.push(format!("case {case} (seed {seed}): {f}: {}", clip(&input)));
        }
    }
    eprintln!(
        "hostile {name}: {n} cases in {:.2?} ({values} gave a value), {} failures, slowest {:.2?}: {}",
        start.elapsed(),
        failures.len(),
        slowest.0,
        slowest.1
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Evaluate and print; any outcome but a panic or a hang is fine (`true` when it gave a value).
fn survives(src: &str) -> Result<bool, String> {
    let outcome = eval_str(src);
    if std::env::var_os("HOSTILE_DEBUG").is_some() {
        let shown = outcome
            .as_ref()
            .map(|v| v.to_string())
            .map_err(|e| e.to_string());
        eprintln!("{} => {}", clip(src), clip(&format!("{shown:?}")));
    }
    match outcome {
        Ok(v) => {
            let _ = v.to_string();
            Ok(true)
        }
        Err(_) => Ok(false),
    }
}

#[test]
fn garbage_bytes() {
    run_class(
        "garbage",
        3000,
        |r| String::from_utf8_lossy(&inputs::garbage(r)).into_owned(),
        survives,
    );
}

#[test]
fn oracle_mutations() {
    let lines = oracle_exprs();
    run_class(
        "mutation",
        3000,
        |r| {
            let line = r.pick(&lines).clone();
            inputs::mutate(r, &line)
        },
        survives,
    );
}

/// The expressions of the public oracle (CuTe C++'s own vectors).
fn oracle_exprs() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/oracle_public.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let exprs: Vec<String> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(3).map(str::to_string))
        .collect();
    assert!(!exprs.is_empty(), "no oracle expressions in {path}");
    exprs
}

/// Calls of random operations, and oracle calls with one argument replaced; `extreme` mixes in
/// integers at the `i64` edges.
fn operations(name: &str, extreme: bool) {
    let lines = oracle_exprs();
    let make = |r: &mut Rng| {
        if r.one_in(2) {
            return inputs::call(r, extreme);
        }
        let line = r.pick(&lines).clone();
        inputs::replace_arg(r, &line, extreme)
    };
    run_class(name, 3000, make, survives);
}

#[test]
fn random_operations() {
    operations("operations", false);
}

#[test]
fn extreme_integers() {
    operations("extreme", true);
}

/// Nesting within the limit works or fails cleanly; past it, the error names the nesting depth.
#[test]
fn deep_nesting() {
    run_class(
        "deep",
        300,
        |r| {
            let k = match r.below(10) {
                0 => 10_000 + r.below(100_000),
                1..=3 => MAX_DEPTH - 2 + r.below(5),
                _ => 1 + r.below(300),
            };
            inputs::deep(r, k)
        },
        |src| {
            let depth = src.matches('(').count().max(src.matches("Sw<").count());
            match eval_str(src) {
                Err(e) if depth > MAX_DEPTH + 1 && !e.to_string().contains("nesting depth") => Err(
                    format!("depth {depth}: an error that does not name the depth: {e}"),
                ),
                Ok(_) if depth > MAX_DEPTH + 1 => Err(format!("depth {depth} was accepted")),
                Ok(v) => {
                    let _ = v.to_string();
                    Ok(true)
                }
                Err(_) => Ok(false),
            }
        },
    );
}

/// Expressions of wide layouts `A` and `B` that most often give a value.
const WIDE_OPS: &[&str] = &[
    "coalesce(A)",
    "filter(A)",
    "flatten(A)",
    "size(A)",
    "cosize(A)",
    "eval(A,5)",
    "crd2idx(7,shape(A),stride(A))",
    "idx2crd(5,shape(A))",
    "composition(A,4)",
    "composition(A,B)",
    "complement(A)",
    "right_inverse(A)",
    "left_inverse(A)",
    "logical_divide(A,(2,2))",
    "zipped_divide(A,2:1)",
    "logical_product(A,2:1)",
    "blocked_product(A,B)",
    "raked_product(A,2:1)",
    "tile_to_shape(A,shape(A))",
    "max_common_vector(A,B)",
    "max_alignment(A)",
    "compact_order(shape(A),stride(A))",
    "evenly_divides(shape(A),shape(B))",
    "colex_less(shape(A),shape(B))",
    "make_layout_like(A)",
    "make_fragment_like(A)",
];

/// Operations named by the issue and every operation of one or two layouts, on flat layouts of
/// 10^3..10^5 modes.
#[test]
fn wide_layouts() {
    let names = cute_layout_core::notation::operation_names();
    run_class(
        "wide",
        60,
        |r| {
            let n = *r.pick(&[1000, 1000, 1000, 10_000, 100_000]);
            let a = inputs::wide(r, n);
            if r.one_in(2) {
                return r
                    .pick(WIDE_OPS)
                    .replace("A", &a)
                    .replace("B", &inputs::wide(r, n));
            }
            let op = *r.pick(&names);
            match r.below(4) {
                0 => format!("{op}({a})"),
                1 => format!("{op}({a},{})", inputs::wide(r, n)),
                2 => format!("{op}({a},{})", inputs::arg(r, false)),
                _ => format!("{op}({},{a})", inputs::arg(r, false)),
            }
        },
        survives,
    );
}

#[test]
fn size_bombs() {
    run_class("bombs", 200, inputs::bomb, survives);
}

#[test]
fn metamorphic_definitions() {
    run_class("metamorphic", 2000, metamorphic::make, metamorphic::check);
}
