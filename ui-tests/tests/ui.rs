//! trybuild: every `layout!`/`Layout!`/`layouts!` error message has a compile-fail case with its
//! `.stderr` in `tests/ui/`; `tests/ui/pass/` holds cases that must compile and run.
//! Regenerate after a deliberate message change with `TRYBUILD=overwrite cargo test -p ui-tests`,
//! then review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/*.rs");
}
