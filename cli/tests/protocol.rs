//! The CLI's line protocol under hostile input (issue 17): one output line per expression line,
//! whatever the line holds; control characters escaped; closed pipes and full disks end the
//! command with status 3 and no panic.

use std::io::Write;
use std::process::{Command, Stdio};

fn cute() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cute"))
}

/// Run `cute eval -` on `input`; stdout's lines, stderr and the exit status.
fn eval_stdin(input: &[u8]) -> (Vec<String>, String, Option<i32>) {
    let mut child = cute()
        .args(["eval", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cute");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for cute");
    writer.join().expect("writer thread");
    let text = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let lines = text.lines().map(str::to_string).collect();
    (
        lines,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn one_line_per_expression_line() {
    let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    let long_name = "x".repeat(1_000_000);
    let mut input = Vec::new();
    for line in [
        b"1:1".to_vec(),
        b"\xff\xfe invalid UTF-8".to_vec(),
        b"# a comment".to_vec(),
        b"".to_vec(),
        b"foo\x1b[31m(1)\x00".to_vec(),
        deep.into_bytes(),
        format!("{long_name}(1)").into_bytes(),
        b"shape_div(_-9223372036854775808,_-1)".to_vec(),
        b"gcd(-9223372036854775808,0)".to_vec(),
        b"blocked_product((3):(1),2:1)".to_vec(),
        b"append<4096>(1,append<4096>(1,append<4096>(1,(1,1))))".to_vec(),
        b"2:2\r".to_vec(),
    ] {
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    let (lines, stderr, code) = eval_stdin(&input);
    assert_eq!(lines.len(), 10, "{lines:#?}");
    assert_eq!(lines[0], "1:1");
    assert!(lines[1].starts_with("error: line 2 is not valid UTF-8"));
    assert!(lines[2].contains("\\x1b[31m(1)\\x00"), "{}", lines[2]);
    assert!(lines[3].contains("nesting depth"), "{}", lines[3]);
    assert!(
        lines[4].len() < 300,
        "the long name is clipped: {}",
        lines[4].len()
    );
    assert!(lines[5].contains("overflow"), "{}", lines[5]);
    assert!(lines[6].contains("overflow"), "{}", lines[6]);
    assert!(lines[7].contains("mismatched ranks"), "{}", lines[7]);
    assert!(lines[8].contains("above the limit"), "{}", lines[8]);
    assert_eq!(lines[9], "2:2");
    assert!(lines.iter().all(|l| !l.contains('\u{1b}')));
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, Some(1));
}

#[test]
fn overlong_line_costs_one_line() {
    let mut input = vec![b'('; cute_layout_core::limits::MAX_INPUT_BYTES + 10];
    input.extend_from_slice(b"\n3:1\n");
    let (lines, _, code) = eval_stdin(&input);
    assert_eq!(
        lines.len(),
        2,
        "{:?}",
        lines
            .iter()
            .map(|l| &l[..l.len().min(80)])
            .collect::<Vec<_>>()
    );
    assert!(lines[0].contains("above the limit"), "{}", lines[0]);
    assert_eq!(lines[1], "3:1");
    assert_eq!(code, Some(1));
}

#[test]
fn newlines_in_arguments_are_escaped() {
    let out = cute()
        .args(["eval", "1:1\n2:2", "(4,2)", "foo\n"])
        .output()
        .expect("run cute");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("error:"), "{}", lines[0]);
    assert_eq!(lines[1], "(4,2)");
    assert!(
        lines[2].starts_with("error: unknown name `foo"),
        "{}",
        lines[2]
    );
}

#[test]
fn full_disk_is_an_error_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full on this system
    };
    let out = cute()
        .args(["eval", "1:1"])
        .stdout(full)
        .output()
        .expect("run cute");
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn closed_pipe_ends_quietly() {
    // A table of 1024 x 1024 cells is several megabytes: more than a pipe holds.
    let mut child = cute()
        .args(["show", "(1024,1024):(1,1024)"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cute");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for cute");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn help_states_the_limits() {
    let out = cute().arg("--help").output().expect("run cute");
    let text = String::from_utf8_lossy(&out.stdout);
    for number in ["8388608", "64", "1048576", "65536"] {
        assert!(text.contains(number), "help lacks {number}:\n{text}");
    }
}

/// Random byte lines (notation characters, control characters, invalid UTF-8, oracle
/// expressions): exactly one output line per line that is not blank or a comment.
/// `HOSTILE_CLI_LINES` sets the number of lines (default 2000; the long run uses 200,000).
#[test]
fn random_lines_keep_the_protocol() {
    const ALPHABET: &[u8] =
        b"_0123456789-()@:,<> oSwLayoutLeftmake_layoutcompositionsize#\t\r\x00\x1b\x7f\xff\xc3";
    let n: usize = std::env::var("HOSTILE_CLI_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut input, mut expected) = (Vec::new(), 0);
    for _ in 0..n {
        let len = (next() % 40) as usize;
        let line: Vec<u8> = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        let counted = match std::str::from_utf8(&line) {
            Ok(t) => !t.trim().is_empty() && !t.trim().starts_with('#'),
            Err(_) => true,
        };
        expected += usize::from(counted);
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    let (lines, stderr, _) = eval_stdin(&input);
    assert_eq!(lines.len(), expected);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
