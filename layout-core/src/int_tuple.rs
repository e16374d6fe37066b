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
///
/// ```
/// use cute_layout_core::{Int, IntTuple};
/// let t: IntTuple = "(_4,(3,_6))".parse().unwrap();
/// assert_eq!(t, IntTuple::tuple(vec![IntTuple::s(4), IntTuple::tuple(vec![IntTuple::d(3), IntTuple::s(6)])]));
/// assert_eq!(t.get(0).unwrap(), IntTuple::Int(Int::s(4)));
/// ```
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
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// assert_eq!(IntTuple::s(4).to_string(), "_4");
    /// ```
    pub fn s(v: i64) -> IntTuple {
        IntTuple::Int(Int::s(v))
    }
    /// A dynamic integer leaf `v`.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// assert_eq!(IntTuple::d(4).to_string(), "4");
    /// ```
    pub fn d(v: i64) -> IntTuple {
        IntTuple::Int(Int::d(v))
    }
    /// A tuple of the given elements.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let t = IntTuple::tuple(vec![IntTuple::s(2), IntTuple::d(3)]);
    /// assert_eq!(t.to_string(), "(_2,3)");
    /// assert_eq!(IntTuple::tuple(vec![]).to_string(), "()");
    /// ```
    pub fn tuple(v: Vec<IntTuple>) -> IntTuple {
        IntTuple::Tuple(v)
    }
    /// True for a tuple (even of rank 1), false for a leaf.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// assert!("(4)".parse::<IntTuple>().unwrap().is_tuple());
    /// assert!(!"4".parse::<IntTuple>().unwrap().is_tuple());
    /// ```
    pub fn is_tuple(&self) -> bool {
        matches!(self, IntTuple::Tuple(_))
    }
    /// The integer if this is an integer leaf.
    ///
    /// ```
    /// use cute_layout_core::{Int, IntTuple};
    /// assert_eq!(IntTuple::s(4).as_int(), Some(Int::s(4)));
    /// assert_eq!("(4,2)".parse::<IntTuple>().unwrap().as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<Int> {
        match self {
            IntTuple::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The integer leaf, or an error naming `what` when this is a tuple or a basis element.
    ///
    /// ```
    /// use cute_layout_core::{Int, IntTuple};
    /// assert_eq!(IntTuple::d(4).expect_int("size").unwrap(), Int::d(4));
    /// assert!("(4,2)".parse::<IntTuple>().unwrap().expect_int("size").is_err());
    /// ```
    pub fn expect_int(&self, what: &str) -> Result<Int> {
        self.as_int().ok_or_else(|| {
            LayoutError::invalid(format!("{what}: expected an integer, found {self}"))
        })
    }
    /// The elements of a tuple; a leaf is its own single element (CuTe's rank-1 view of a leaf).
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let t: IntTuple = "(2,(3,4))".parse().unwrap();
    /// let e: Vec<String> = t.elems().iter().map(|x| x.to_string()).collect();
    /// assert_eq!(e, ["2", "(3,4)"]);
    /// assert_eq!(IntTuple::d(5).elems(), vec![IntTuple::d(5)]);
    /// ```
    pub fn elems(&self) -> Vec<IntTuple> {
        match self {
            IntTuple::Tuple(v) => v.clone(),
            leaf => vec![leaf.clone()],
        }
    }
    /// Number of top-level modes: 1 for a leaf.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().rank(), 2);
    /// assert_eq!(IntTuple::d(5).rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        match self {
            IntTuple::Tuple(v) => v.len(),
            _ => 1,
        }
    }
    /// Nesting depth: 0 for a leaf, 1 + max depth of the elements for a tuple.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().depth(), 2);
    /// assert_eq!(IntTuple::d(5).depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        match self {
            IntTuple::Tuple(v) => 1 + v.iter().map(|e| e.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }
    /// Mode `i` (a leaf has only mode 0, itself).
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let t: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.get(1).unwrap().to_string(), "(3,4)");
    /// assert!(t.get(2).is_err());
    /// ```
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
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let t: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.get_path(&[1, 0]).unwrap().to_string(), "3"); // get<1,0>(t)
    /// ```
    pub fn get_path(&self, path: &[usize]) -> Result<IntTuple> {
        let mut cur = self.clone();
        for &i in path {
            cur = cur.get(i)?;
        }
        Ok(cur)
    }
    /// All leaves, left to right.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let t: IntTuple = "(2,(3,_4))".parse().unwrap();
    /// assert_eq!(t.leaves(), vec![IntTuple::d(2), IntTuple::d(3), IntTuple::s(4)]);
    /// ```
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
    ///
    /// ```
    /// use cute_layout_core::{Int, IntTuple};
    /// let t: IntTuple = "(2,(3,_4))".parse().unwrap();
    /// assert_eq!(t.int_leaves().unwrap(), vec![Int::d(2), Int::d(3), Int::s(4)]);
    /// ```
    pub fn int_leaves(&self) -> Result<Vec<Int>> {
        self.leaves()
            .iter()
            .map(|l| l.expect_int("integer leaves"))
            .collect()
    }
    /// True when every leaf is a static integer (or a basis with a static scale).
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// assert!("(_2,(_3,_4))".parse::<IntTuple>().unwrap().is_static());
    /// assert!(!"(_2,(3,_4))".parse::<IntTuple>().unwrap().is_static());
    /// ```
    pub fn is_static(&self) -> bool {
        match self {
            IntTuple::Int(i) => i.is_static,
            IntTuple::Basis(b) => b.scale.is_static,
            IntTuple::Tuple(v) => v.iter().all(|e| e.is_static()),
        }
    }
    /// Same nesting (profile) as `other`: both leaves, or both tuples of equal rank with congruent modes.
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let a: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert!(a.congruent_with(&"(1,(2,6))".parse().unwrap()));
    /// assert!(!a.congruent_with(&"(1,2)".parse().unwrap()));
    /// ```
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
    ///
    /// ```
    /// use cute_layout_core::IntTuple;
    /// let t: IntTuple = "((2,3),(4,(5,6)))".parse().unwrap();
    /// assert_eq!(t.flatten().to_string(), "(2,3,4,5,6)");
    /// ```
    pub fn flatten(&self) -> IntTuple {
        match self {
            IntTuple::Tuple(_) => IntTuple::Tuple(self.leaves()),
            leaf => leaf.clone(),
        }
    }
    /// Apply `f` to every leaf, keeping the nesting.
    ///
    /// ```
    /// use cute_layout_core::{Int, IntTuple};
    /// let t: IntTuple = "(2,(3,_4))".parse().unwrap();
    /// let twice = t.map_leaves(&mut |l| Ok(l.expect_int("leaf")?.mul(Int::s(2))?.into())).unwrap();
    /// assert_eq!(twice.to_string(), "(4,(6,_8))");
    /// ```
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
