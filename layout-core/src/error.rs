//! The one error type of the algebra: every fallible operation returns [`Result`].
//!
//! ```
//! use cute_layout_core::{LayoutError, complement, Layout};
//! let a: Layout = "(_2,_2):(_1,_1)".parse().unwrap(); // not injective
//! let e = complement(&a, &"_4".parse().unwrap()).unwrap_err();
//! assert!(matches!(e, LayoutError::NotInjective { .. }));
//! ```

use std::fmt;

/// What went wrong, with the values involved. Messages are written for people who never read CuTe's source.
///
/// ```
/// use cute_layout_core::{Layout, LayoutError};
/// let e = "(4,(3,6)):(1,4)".parse::<Layout>().unwrap_err();
/// assert!(matches!(e, LayoutError::NotCongruent { .. }));
/// let e = "(4,8):(1,4".parse::<Layout>().unwrap_err();
/// assert!(matches!(e, LayoutError::Parse { .. }));
/// ```
#[allow(missing_docs)] // fields are named for what they hold; the variant docs say what they mean
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// Shape and stride (or two tuples an operation pairs up) do not have the same nesting.
    NotCongruent {
        what: String,
        left: String,
        right: String,
    },
    /// An `i64` computation left the representable range.
    Overflow {
        op: &'static str,
        lhs: i64,
        rhs: i64,
    },
    /// Division (or remainder) by zero.
    DivisionByZero { op: &'static str, lhs: i64 },
    /// A divisibility condition that an operation requires does not hold.
    NotDivisible {
        what: String,
        dividend: String,
        divisor: String,
    },
    /// An index or mode number is outside the valid range.
    IndexOutOfRange {
        what: String,
        index: i64,
        bound: i64,
    },
    /// The layout maps two coordinates to the same index where an injective layout is required.
    NotInjective { what: String, layout: String },
    /// An operation needs static (compile-time) values but got dynamic ones.
    NeedsStatic { what: String, value: String },
    /// The operation's result would break the operation's own definition (see the oracle README).
    Postcondition { what: String },
    /// Malformed notation: where and what was expected.
    Parse {
        pos: usize,
        expected: String,
        found: String,
    },
    /// No such operation in the notation.
    UnknownOperation {
        name: String,
        suggestion: Option<String>,
    },
    /// Wrong number or kind of arguments to a notation operation.
    BadArguments { op: String, message: String },
    /// A size, depth or length is above one of the limits of [`crate::limits`].
    TooLarge {
        what: String,
        count: u64,
        limit: u64,
    },
    /// Anything else an operation rejects, described in words with its values.
    Invalid(String),
}

/// Shorthand for results of layout operations.
///
/// ```
/// use cute_layout_core::{Layout, Result, size};
/// fn elements(s: &str) -> Result<i64> {
///     Ok(size(&s.parse::<Layout>()?)?.value)
/// }
/// assert_eq!(elements("(4,8):(8,1)"), Ok(32));
/// ```
pub type Result<T> = std::result::Result<T, LayoutError>;

impl LayoutError {
    /// Convenience constructor for [`LayoutError::Invalid`].
    ///
    /// ```
    /// use cute_layout_core::LayoutError;
    /// let e = LayoutError::invalid("a tile of 0 threads");
    /// assert_eq!(e, LayoutError::Invalid("a tile of 0 threads".into()));
    /// ```
    pub fn invalid(msg: impl Into<String>) -> Self {
        LayoutError::Invalid(msg.into())
    }
    /// An invariant the code relies on does not hold: a bug, reported as an error rather than a
    /// panic (the library never panics on input).
    ///
    /// ```
    /// use cute_layout_core::LayoutError;
    /// let e = LayoutError::internal("odometer ran past the end");
    /// assert!(matches!(&e, LayoutError::Invalid(m) if m.starts_with("internal error: odometer")));
    /// ```
    pub fn internal(what: &str) -> Self {
        LayoutError::Invalid(format!("internal error: {what} (please report the input)"))
    }
    /// Convenience constructor for [`LayoutError::BadArguments`].
    ///
    /// ```
    /// use cute_layout_core::LayoutError;
    /// let e = LayoutError::bad_args("coalesce", "expected 1 or 2 arguments");
    /// assert!(matches!(e, LayoutError::BadArguments { ref op, .. } if op == "coalesce"));
    /// ```
    pub fn bad_args(op: impl Into<String>, message: impl Into<String>) -> Self {
        LayoutError::BadArguments {
            op: op.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LayoutError::*;
        match self {
            NotCongruent { what, left, right } => {
                write!(
                    f,
                    "{what}: {left} and {right} are not congruent (they do not have the same nesting)"
                )
            }
            Overflow { op, lhs, rhs } => {
                write!(f, "integer overflow: {lhs} {op} {rhs} does not fit in i64")
            }
            DivisionByZero { op, lhs } => write!(f, "division by zero: {lhs} {op} 0"),
            NotDivisible {
                what,
                dividend,
                divisor,
            } => {
                write!(f, "{what}: {dividend} is not divisible by {divisor}")
            }
            IndexOutOfRange { what, index, bound } => {
                write!(
                    f,
                    "{what}: index {index} is out of range (must be below {bound})"
                )
            }
            NotInjective { what, layout } => {
                write!(
                    f,
                    "{what}: layout {layout} is not injective (two coordinates map to one index)"
                )
            }
            NeedsStatic { what, value } => write!(f, "{what}: {value} must be static (written _N)"),
            Postcondition { what } => write!(f, "{what}"),
            Parse {
                pos,
                expected,
                found,
            } => {
                write!(
                    f,
                    "parse error at column {}: expected {expected}, found {found}",
                    pos + 1
                )
            }
            UnknownOperation { name, suggestion } => match suggestion {
                Some(s) => write!(f, "unknown operation `{name}`; did you mean `{s}`?"),
                None => write!(f, "unknown operation `{name}`"),
            },
            BadArguments { op, message } => write!(f, "{op}: {message}"),
            TooLarge { what, count, limit } => write!(
                f,
                "{what} is {count}, above the limit of {limit} (see the README's section on limits)"
            ),
            Invalid(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for LayoutError {}
