//! IntTuple: an integer, a scaled basis element, or a tuple of IntTuples (CuTe's hierarchical tuples).
//!
//! ```
//! use cute_layout_core::IntTuple;
//! let t: IntTuple = "(_4,(3,_6))".parse().unwrap();
//! assert_eq!(t.rank(), 2);
//! assert_eq!(t.depth(), 2);
//! assert_eq!(t.to_string(), "(_4,(3,_6))");
//! ```

use crate::basis::ScaledBasis;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use std::fmt;

/// A hierarchical integer tuple. Shapes, strides and coordinates are IntTuples.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntTuple {
    /// An integer leaf.
    Int(Int),
    /// A scaled basis leaf (only in strides and coordinate results).
    Basis(ScaledBasis),
    /// A tuple of sub-tuples (possibly empty: `()`).
    Tuple(Vec<IntTuple>),
}

impl IntTuple {
    /// A static integer leaf `_v`.
    pub fn s(v: i64) -> IntTuple {
        IntTuple::Int(Int::s(v))
    }
    /// A dynamic integer leaf `v`.
    pub fn d(v: i64) -> IntTuple {
        IntTuple::Int(Int::d(v))
    }
    /// A tuple of the given elements.
    pub fn tuple(v: Vec<IntTuple>) -> IntTuple {
        IntTuple::Tuple(v)
    }
    /// True for a tuple (even of rank 1), false for a leaf.
    pub fn is_tuple(&self) -> bool {
        matches!(self, IntTuple::Tuple(_))
    }
    /// The integer if this is an integer leaf.
    pub fn as_int(&self) -> Option<Int> {
        match self {
            IntTuple::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The integer leaf, or an error naming `what` when this is a tuple or a basis element.
    pub fn expect_int(&self, what: &str) -> Result<Int> {
        self.as_int().ok_or_else(|| {
            LayoutError::invalid(format!("{what}: expected an integer, found {self}"))
        })
    }
    /// The elements of a tuple; a leaf is its own single element (CuTe's rank-1 view of a leaf).
    pub fn elems(&self) -> Vec<IntTuple> {
        match self {
            IntTuple::Tuple(v) => v.clone(),
            leaf => vec![leaf.clone()],
        }
    }
    /// Number of top-level modes: 1 for a leaf.
    pub fn rank(&self) -> usize {
        match self {
            IntTuple::Tuple(v) => v.len(),
            _ => 1,
        }
    }
    /// Nesting depth: 0 for a leaf, 1 + max depth of the elements for a tuple.
    pub fn depth(&self) -> usize {
        match self {
            IntTuple::Tuple(v) => 1 + v.iter().map(|e| e.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }
    /// Mode `i` (a leaf has only mode 0, itself).
    pub fn get(&self, i: usize) -> Result<IntTuple> {
        match self {
            IntTuple::Tuple(v) => v
                .get(i)
                .cloned()
                .ok_or_else(|| LayoutError::IndexOutOfRange {
                    what: format!("get<{i}> of {self}"),
                    index: i as i64,
                    bound: v.len() as i64,
                }),
            leaf if i == 0 => Ok(leaf.clone()),
            leaf => Err(LayoutError::IndexOutOfRange {
                what: format!("get<{i}> of {leaf}"),
                index: i as i64,
                bound: 1,
            }),
        }
    }
    /// Nested mode access `get<i, j, ...>`.
    pub fn get_path(&self, path: &[usize]) -> Result<IntTuple> {
        let mut cur = self.clone();
        for &i in path {
            cur = cur.get(i)?;
        }
        Ok(cur)
    }
    /// All leaves, left to right.
    pub fn leaves(&self) -> Vec<IntTuple> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }
    fn collect_leaves(&self, out: &mut Vec<IntTuple>) {
        match self {
            IntTuple::Tuple(v) => v.iter().for_each(|e| e.collect_leaves(out)),
            leaf => out.push(leaf.clone()),
        }
    }
    /// All integer leaves, left to right; an error if a leaf is a basis element.
    pub fn int_leaves(&self) -> Result<Vec<Int>> {
        self.leaves()
            .iter()
            .map(|l| l.expect_int("integer leaves"))
            .collect()
    }
    /// True when every leaf is a static integer (or a basis with a static scale).
    pub fn is_static(&self) -> bool {
        match self {
            IntTuple::Int(i) => i.is_static,
            IntTuple::Basis(b) => b.scale.is_static,
            IntTuple::Tuple(v) => v.iter().all(|e| e.is_static()),
        }
    }
    /// Same nesting (profile) as `other`: both leaves, or both tuples of equal rank with congruent modes.
    pub fn congruent_with(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (IntTuple::Tuple(a), IntTuple::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent_with(y))
            }
            (IntTuple::Tuple(_), _) | (_, IntTuple::Tuple(_)) => false,
            _ => true,
        }
    }
    /// Flatten to a tuple of leaves (a leaf stays a leaf, as CuTe's `flatten`).
    pub fn flatten(&self) -> IntTuple {
        match self {
            IntTuple::Tuple(_) => IntTuple::Tuple(self.leaves()),
            leaf => leaf.clone(),
        }
    }
    /// Apply `f` to every leaf, keeping the nesting.
    pub fn map_leaves<F: FnMut(&IntTuple) -> Result<IntTuple>>(
        &self,
        f: &mut F,
    ) -> Result<IntTuple> {
        match self {
            IntTuple::Tuple(v) => Ok(IntTuple::Tuple(
                v.iter().map(|e| e.map_leaves(f)).collect::<Result<_>>()?,
            )),
            leaf => f(leaf),
        }
    }
}

/// Write `(a,b,...)` the way CuTe prints tuples: comma-separated, no spaces.
pub(crate) fn write_tuple<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    write!(f, "(")?;
    for (k, e) in items.iter().enumerate() {
        if k > 0 {
            write!(f, ",")?;
        }
        write!(f, "{e}")?;
    }
    write!(f, ")")
}

impl From<Int> for IntTuple {
    fn from(i: Int) -> Self {
        IntTuple::Int(i)
    }
}

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntTuple::Int(i) => write!(f, "{i}"),
            IntTuple::Basis(b) => write!(f, "{b}"),
            IntTuple::Tuple(v) => crate::int_tuple::write_tuple(f, v),
        }
    }
}

impl std::str::FromStr for IntTuple {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<IntTuple> {
        crate::notation::parse_value(s)?.into_int_tuple()
    }
}
