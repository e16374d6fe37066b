//! The atom lines of the CuTe C++ oracle (`tests/data/oracle_atoms_public.tsv` at the workspace root), checked
//! through `eval_str`, grouped by the part of the atom module that answers them.

use cute_layout_core::notation::eval_str;

const DATA: &str = include_str!("../../tests/data/oracle_atoms_public.tsv");

/// Evaluate every oracle line whose op starts with one of `prefixes`; return how many were checked.
fn check(prefixes: &[&str]) -> usize {
    let mut failures = Vec::new();
    let mut n = 0;
    for line in DATA.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "malformed oracle line: {line}");
        let (id, op, expr, expected) = (cols[0], cols[1], cols[3], cols[4]);
        if !prefixes.iter().any(|p| op.starts_with(p)) {
            continue;
        }
        n += 1;
        let got = match eval_str(expr) {
            Ok(v) => v.to_string(),
            Err(e) if expected == "error" => {
                let _ = e;
                "error".to_string()
            }
            Err(e) => format!("error: {e}"),
        };
        if got != expected {
            failures.push(format!(
                "{id} {expr}\n    expected {expected}\n    got      {got}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} lines disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    n
}

#[test]
fn mma_traits_lines() {
    assert_eq!(check(&["mma_"]), 70);
}

#[test]
fn copy_traits_lines() {
    assert_eq!(check(&["copy_layout_", "copy_thr_id"]), 28);
}

#[test]
fn copy_atom_and_tiled_copy_lines() {
    assert_eq!(
        check(&["copy_atom_", "tiled_copy_"]),
        36 + 48 + 24 + 12 + 8 + 8
    );
}
