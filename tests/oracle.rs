//! Every line of the CuTe C++ oracle (`tests/data/oracle_public.tsv`, a copy of `shared/oracle/public.tsv`)
//! must give exactly what CuTe printed, or an error where CuTe rejects the expression or returns a
//! layout that breaks the operation's definition.

use cute::notation::eval_str;
use std::collections::BTreeMap;

/// Ops whose implementation has not landed yet (by op name only). Empty when everything is done.
const PENDING: &[&str] = &[];

fn check_file(path: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut per_op: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "malformed oracle line: {line}");
        let (id, op, expr, expected) = (cols[0], cols[1], cols[3], cols[4]);
        if PENDING.contains(&op) {
            continue;
        }
        let got = match eval_str(expr) {
            Ok(v) => v.to_string(),
            Err(_) => "error".to_string(),
        };
        let entry = per_op.entry(op.to_string()).or_default();
        entry.1 += 1;
        if got == expected {
            entry.0 += 1;
        } else {
            let detail = match eval_str(expr) {
                Err(e) => format!("error: {e}"),
                Ok(v) => v.to_string(),
            };
            failures.push(format!(
                "{id} {expr}\n    expected {expected}\n    got      {detail}"
            ));
        }
    }
    for (op, (ok, n)) in &per_op {
        if ok != n {
            eprintln!("{op:>24}: {ok}/{n}");
        }
    }
    let total: usize = per_op.values().map(|(_, n)| n).sum();
    eprintln!(
        "{path}: {} of {total} lines agree, pending ops: {PENDING:?}",
        total - failures.len()
    );
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(60).cloned().collect();
        panic!(
            "{} oracle lines disagree with CuTe C++:\n{}",
            failures.len(),
            shown.join("\n")
        );
    }
}

#[test]
fn oracle_public_core() {
    check_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/oracle_public.tsv"
    ));
}

#[test]
fn oracle_public_atoms() {
    check_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/oracle_atoms_public.tsv"
    ));
}

/// Lines added for issue 16, printed by CuTe C++ at the same commit (`7107b05`, compiled on the host):
/// every MMA atom of `mma_traits_sm61..sm90*.hpp` (GMMA: every shape, one template variant each and all
/// of them at N = 64), the new operations (make_tile, ceil_div/evenly_divides with layout tilers,
/// upcast/downcast, queries on composed layouts), and session 22's random differential campaign
/// (`q` lines: the cases it found and a sample of those that agreed).
#[test]
fn oracle_added() {
    check_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/oracle_added.tsv"
    ));
}
