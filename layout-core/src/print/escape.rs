//! Escaping of text that may hold anything a user typed, before it is written into one line of
//! output, an SVG document or a LaTeX comment.
//!
//! ```
//! use cute_layout_core::print::{escape_controls, escape_xml};
//! assert_eq!(escape_controls("a\u{1b}[31m\nb\0"), "a\\x1b[31m\\nb\\x00");
//! assert_eq!(escape_xml("<T&V>\r"), "&lt;T&amp;V&gt;\\r");
//! ```

/// Control characters (C0, DEL and C1) written as `\n`, `\r`, `\t` or `\xNN` / `\u{NNNN}`, so the
/// text stays on one line and sends no terminal escape sequence; everything else is unchanged.
///
/// ```
/// use cute_layout_core::print::escape_controls;
/// assert_eq!(escape_controls("a\tb\u{7f}"), "a\\tb\\x7f");
/// assert_eq!(escape_controls("plain"), "plain");
/// ```
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() && (c as u32) < 0x100 => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:04x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Text for an SVG (XML) document: `& < > "` as entities and control characters escaped as by
/// [`escape_controls`] (XML 1.0 cannot hold most of them at all).
///
/// ```
/// use cute_layout_core::print::escape_xml;
/// assert_eq!(escape_xml("Copy_Atom<\"x\">"), "Copy_Atom&lt;&quot;x&quot;&gt;");
/// ```
pub fn escape_xml(s: &str) -> String {
    escape_controls(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
