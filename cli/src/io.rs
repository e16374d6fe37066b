//! The CLI's input and output: bounded line reading, one escaped line per result, every write
//! checked.
//!
//! * A write that fails (a closed pipe, a full disk) ends the command with status
//!   [`OUTPUT_FAILED`], quietly for a closed pipe and with one message otherwise; nothing panics.
//! * Control characters in results and messages are escaped ([`escape_controls`]), so one result
//!   is always one line and never a terminal escape sequence.
//! * Lines of stdin are read as bytes, at most [`MAX_INPUT_BYTES`] of each kept, so an endless line
//!   or invalid UTF-8 costs one error line, not the rest of the input.

use cute_layout_core::limits::MAX_INPUT_BYTES;
use cute_layout_core::print::escape_controls;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// The exit status when the output could not be written.
pub const OUTPUT_FAILED: u8 = 3;

/// Report a failed write (nothing for a closed pipe) and give the exit status for it.
pub fn output_failed(e: &io::Error) -> ExitCode {
    if e.kind() != io::ErrorKind::BrokenPipe {
        warn(&format!("cannot write the output: {e}"));
    }
    ExitCode::from(OUTPUT_FAILED)
}

/// A message on stderr, its lines escaped; a failure to write it is ignored (there is nowhere
/// else to say it).
pub fn warn(msg: &str) {
    let lines: Vec<String> = msg.split('\n').map(escape_controls).collect();
    let _ = writeln!(io::stderr(), "cute: {}", lines.join("\n"));
}

/// Write a whole document (a picture) to stdout and flush it.
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Write a picture to `path`, or to stdout when there is none; the exit status says how it went.
pub fn emit(text: &str, path: Option<&str>) -> ExitCode {
    match path {
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                warn(&format!("show: cannot write {path}: {e}"));
                ExitCode::from(OUTPUT_FAILED)
            }
        },
        None => match write_stdout(text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => output_failed(&e),
        },
    }
}

/// One result line, escaped, written and flushed (a client reading line by line gets each answer
/// as soon as it is computed).
pub fn write_line(out: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(out, "{}", escape_controls(line))?;
    out.flush()
}

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without the newline.
    Bytes(Vec<u8>),
    /// A line longer than [`MAX_INPUT_BYTES`]: its length (its bytes were skipped).
    TooLong(usize),
}

/// The next line of `r` (without its `\n`), `None` at the end of the input. Only the first
/// `MAX_INPUT_BYTES + 1` bytes of a line are kept in memory.
pub fn next_line(r: &mut impl BufRead) -> io::Result<Option<Line>> {
    let (mut buf, mut len, mut any) = (Vec::new(), 0usize, false);
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then(|| finish(buf, len)));
        }
        any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        len = len.saturating_add(part.len());
        if len <= MAX_INPUT_BYTES {
            buf.extend_from_slice(part);
        } else {
            buf = Vec::new();
        }
        r.consume(used);
        if done {
            return Ok(Some(finish(buf, len)));
        }
    }
}

fn finish(buf: Vec<u8>, len: usize) -> Line {
    if len > MAX_INPUT_BYTES {
        Line::TooLong(len)
    } else {
        Line::Bytes(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_with_limits() {
        let long = vec![b'1'; MAX_INPUT_BYTES + 5];
        let mut input = b"a\n\xff\xfe\n".to_vec();
        input.extend_from_slice(&long);
        input.extend_from_slice(b"\nlast");
        let mut r = io::BufReader::with_capacity(7, &input[..]);
        assert_eq!(next_line(&mut r).unwrap(), Some(Line::Bytes(b"a".to_vec())));
        assert_eq!(
            next_line(&mut r).unwrap(),
            Some(Line::Bytes(b"\xff\xfe".to_vec()))
        );
        assert_eq!(
            next_line(&mut r).unwrap(),
            Some(Line::TooLong(MAX_INPUT_BYTES + 5))
        );
        assert_eq!(
            next_line(&mut r).unwrap(),
            Some(Line::Bytes(b"last".to_vec()))
        );
        assert_eq!(next_line(&mut r).unwrap(), None);
    }

    #[test]
    fn escapes_one_line() {
        let mut out = Vec::new();
        write_line(&mut out, "error: `\u{1b}[2J`\nnext").unwrap();
        assert_eq!(out, b"error: `\\x1b[2J`\\nnext\n");
    }
}
