//! Working with the modes of layouts and IntTuples as with tuples: select, take, group, flatten,
//! unflatten, append, prepend, replace, zip, and slicing by coordinates that hold `_`.
//!
//! Every layout operation applies the tuple operation to the shape and to the stride. A leaf counts
//! as a rank-1 tuple where CuTe treats it so (`append(_3:_1, _4:_3)` is `(_3,_4):(_1,_3)`).
//!
//! ```
//! use cute_layout_core::{Coord, Layout, slice};
//! let l: Layout = "(2,3,4):(1,2,6)".parse().unwrap();
//! let c: Coord = "(0,_,1)".parse().unwrap();
//! assert_eq!(slice(&c, &l).unwrap().to_string(), "(3):(2)");
//! ```

use crate::arith_tuple::arith_add;
use crate::coord::crd2idx;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::Value;
use std::fmt;

/// A coordinate that may hold `_` (CuTe's Underscore): a slicing coordinate.
///
/// ```
/// use cute_layout_core::{Coord, Int};
/// let c: Coord = "(2,_)".parse().unwrap();
/// assert_eq!(c, Coord::Tuple(vec![Coord::Int(Int::d(2)), Coord::Underscore]));
/// assert_eq!(c.to_string(), "(2,_)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Coord {
    /// An integer coordinate.
    Int(Int),
    /// `_`: keep the whole mode.
    Underscore,
    /// A tuple of coordinates.
    Tuple(Vec<Coord>),
}

impl Coord {
    /// True when `_` occurs anywhere in the coordinate.
    ///
    /// ```
    /// use cute_layout_core::Coord;
    /// assert!("(2,(_,1))".parse::<Coord>().unwrap().has_underscore());
    /// assert!(!"(2,(0,1))".parse::<Coord>().unwrap().has_underscore());
    /// ```
    pub fn has_underscore(&self) -> bool {
        match self {
            Coord::Int(_) => false,
            Coord::Underscore => true,
            Coord::Tuple(v) => v.iter().any(Coord::has_underscore),
        }
    }
    /// The coordinate as an IntTuple, when it holds no `_`.
    ///
    /// ```
    /// use cute_layout_core::Coord;
    /// assert_eq!("(2,_3)".parse::<Coord>().unwrap().to_int_tuple().unwrap().to_string(), "(2,_3)");
    /// assert!("(2,_)".parse::<Coord>().unwrap().to_int_tuple().is_none());
    /// ```
    pub fn to_int_tuple(&self) -> Option<IntTuple> {
        match self {
            Coord::Int(i) => Some(IntTuple::Int(*i)),
            Coord::Underscore => None,
            Coord::Tuple(v) => v
                .iter()
                .map(Coord::to_int_tuple)
                .collect::<Option<_>>()
                .map(IntTuple::Tuple),
        }
    }
    /// Convert an IntTuple (integer leaves only) into a coordinate.
    ///
    /// ```
    /// use cute_layout_core::{Coord, IntTuple};
    /// let c = Coord::from_int_tuple(&"(1,(2,3))".parse::<IntTuple>().unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "(1,(2,3))");
    /// assert!(Coord::from_int_tuple(&"_1@0".parse::<IntTuple>().unwrap()).is_err());
    /// ```
    pub fn from_int_tuple(t: &IntTuple) -> Result<Coord> {
        match t {
            IntTuple::Int(i) => Ok(Coord::Int(*i)),
            IntTuple::Tuple(v) => Ok(Coord::Tuple(
                v.iter().map(Coord::from_int_tuple).collect::<Result<_>>()?,
            )),
            IntTuple::Basis(_) => Err(LayoutError::invalid(format!(
                "a coordinate cannot hold a basis element: {t}"
            ))),
        }
    }
    /// Convert a notation value (integers, `_`, tuples of them) into a coordinate.
    ///
    /// ```
    /// use cute_layout_core::{Coord, notation::eval_str};
    /// let c = Coord::from_value(&eval_str("(_,3)").unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "(_,3)");
    /// ```
    pub fn from_value(v: &Value) -> Result<Coord> {
        match v {
            Value::IntTuple(t) => Coord::from_int_tuple(t),
            Value::Underscore => Ok(Coord::Underscore),
            Value::Tuple(vs) => Ok(Coord::Tuple(
                vs.iter().map(Coord::from_value).collect::<Result<_>>()?,
            )),
            other => Err(LayoutError::invalid(format!(
                "expected a coordinate (integers, `_` and tuples of them), found {} `{other}`",
                other.kind()
            ))),
        }
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coord::Int(i) => write!(f, "{i}"),
            Coord::Underscore => write!(f, "_"),
            Coord::Tuple(v) => crate::int_tuple::write_tuple(f, v),
        }
    }
}

impl std::str::FromStr for Coord {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Coord> {
        Coord::from_value(&crate::notation::parse_value(s)?)
    }
}

/// The largest rank that `append<N>`/`prepend<N>` build (a guard against absurd template
/// arguments; the number of elements of the result is limited separately).
///
/// ```
/// use cute_layout_core::{IntTuple, modes::MAX_RANK, append_tuple};
/// assert!(append_tuple(&IntTuple::d(1), &IntTuple::d(0), Some(MAX_RANK + 1)).is_err());
/// ```
pub const MAX_RANK: usize = crate::limits::MAX_ELEMENTS;

fn check_rank(op: &str, n: usize) -> Result<()> {
    if n > MAX_RANK {
        return Err(out_of_range(
            format!("{op}<{n}>: target rank"),
            n,
            MAX_RANK + 1,
        ));
    }
    Ok(())
}

/// An error before `copies` copies of `x` are added to `t` when the result would have more than
/// [`crate::limits::MAX_ELEMENTS`] elements.
fn check_copies(op: &str, t: &IntTuple, x: &IntTuple, copies: usize) -> Result<()> {
    use crate::limits::{MAX_ELEMENTS, extent, too_large};
    let total = extent(x)
        .elements
        .saturating_mul(copies)
        .saturating_add(extent(t).elements);
    if total > MAX_ELEMENTS {
        return Err(too_large(
            format!("{op}: the number of elements of the result"),
            total,
            MAX_ELEMENTS,
        ));
    }
    Ok(())
}

fn out_of_range(what: String, index: usize, bound: usize) -> LayoutError {
    LayoutError::IndexOutOfRange {
        what,
        index: index as i64,
        bound: bound as i64,
    }
}

/// Apply a tuple operation to shape and stride.
fn both<F: Fn(&IntTuple) -> Result<IntTuple>>(layout: &Layout, f: F) -> Result<Layout> {
    Layout::new(f(layout.shape())?, f(layout.stride())?)
}

/// The modes of `t` as CuTe's index-pack algorithms (`select`, `take`, `group`) read them. For a
/// dynamic integer `v` that is not a tuple, CuTe's `get<I>` converts it to a CUDA `dim3(v, 1, 1)`:
/// three unsigned modes, so `-1` reads 4294967295 and `select<1>(7)` is `(1)`.
fn pack_elems(t: &IntTuple) -> Vec<IntTuple> {
    match t {
        IntTuple::Int(i) if !i.is_static => {
            vec![
                IntTuple::d(i.value & 0xFFFF_FFFF),
                IntTuple::d(1),
                IntTuple::d(1),
            ]
        }
        _ => t.elems(),
    }
}

/// The tuple of modes `idx` of `t` (CuTe's `select<I...>`); always a tuple.
///
/// ```
/// use cute_layout_core::{IntTuple, select_tuple};
/// let t: IntTuple = "(2,3,4)".parse().unwrap();
/// assert_eq!(select_tuple(&t, &[2, 0]).unwrap().to_string(), "(4,2)"); // select<2,0>(t)
/// ```
pub fn select_tuple(t: &IntTuple, idx: &[usize]) -> Result<IntTuple> {
    let elems = IntTuple::Tuple(pack_elems(t));
    Ok(IntTuple::Tuple(
        idx.iter()
            .map(|&i| elems.get(i).map_err(|_| select_range(t, i, elems.rank())))
            .collect::<Result<_>>()?,
    ))
}

fn select_range(t: &IntTuple, i: usize, rank: usize) -> LayoutError {
    LayoutError::IndexOutOfRange {
        what: format!("select<{i}> of {t}"),
        index: i64::try_from(i).unwrap_or(i64::MAX),
        bound: i64::try_from(rank).unwrap_or(i64::MAX),
    }
}

/// The layout of modes `idx` (CuTe's `select<I...>(L)`); always a tuple.
/// ```
/// # use cute_layout_core::{Layout, select};
/// let l: Layout = "(_2,_2):(_6,_1)".parse().unwrap();
/// assert_eq!(select(&l, &[0, 1, 0]).unwrap().to_string(), "(_2,_2,_2):(_6,_1,_6)");
/// ```
pub fn select(layout: &Layout, idx: &[usize]) -> Result<Layout> {
    both(layout, |t| select_tuple(t, idx))
}

/// Modes `[b, e)` of `t` as a tuple (CuTe's `take<B,E>`; `b == e` is the empty tuple `()`, at any
/// `b`). Pre: `b < e <= rank(t)` or `b == e`.
///
/// ```
/// use cute_layout_core::{IntTuple, take_tuple};
/// let t: IntTuple = "(2,3,4,5)".parse().unwrap();
/// assert_eq!(take_tuple(&t, 1, 3).unwrap().to_string(), "(3,4)"); // take<1,3>(t)
/// assert_eq!(take_tuple(&t, 2, 2).unwrap().to_string(), "()");
/// ```
pub fn take_tuple(t: &IntTuple, b: usize, e: usize) -> Result<IntTuple> {
    if b == e {
        return Ok(IntTuple::Tuple(Vec::new())); // CuTe's empty range, whatever the rank
    }
    let elems = pack_elems(t);
    if b > e || e > elems.len() {
        return Err(LayoutError::invalid(format!(
            "take<{b},{e}> of {t}: the range must satisfy {b} <= {e} <= rank {}",
            elems.len()
        )));
    }
    Ok(IntTuple::Tuple(elems[b..e].to_vec()))
}

/// Modes `[b, e)` of the layout (CuTe's `take<B,E>(L)`). Pre: `b < e <= rank(L)` (CuTe asserts a
/// non-empty range for layouts).
/// ```
/// # use cute_layout_core::{Layout, take};
/// let l: Layout = "(_2,_3,_5,_7):(_1,_2,_6,_30)".parse().unwrap();
/// assert_eq!(take(&l, 1, 4).unwrap().to_string(), "(_3,_5,_7):(_2,_6,_30)");
/// assert!(take(&l, 2, 2).is_err());
/// ```
pub fn take(layout: &Layout, b: usize, e: usize) -> Result<Layout> {
    if b >= e || e > layout.rank() {
        return Err(LayoutError::invalid(format!(
            "take<{b},{e}> of {layout}: a layout needs {b} < {e} <= rank {}",
            layout.rank()
        )));
    }
    both(layout, |t| take_tuple(t, b, e))
}

/// Modes `[b, e)` of `t` grouped into one mode (CuTe's `group<B,E>`); `b == e` leaves a tuple as it
/// is and makes an integer a rank-1 tuple.
/// Pre: `b <= e <= rank(t)` (up to 3 for a dynamic integer, see `pack_elems`).
///
/// ```
/// use cute_layout_core::{IntTuple, group_tuple};
/// let t: IntTuple = "(2,3,4,5)".parse().unwrap();
/// assert_eq!(group_tuple(&t, 1, 3).unwrap().to_string(), "(2,(3,4),5)"); // group<1,3>(t)
/// ```
pub fn group_tuple(t: &IntTuple, b: usize, e: usize) -> Result<IntTuple> {
    let elems = pack_elems(t);
    if b > e || e > elems.len() {
        return Err(LayoutError::invalid(format!(
            "group<{b},{e}> of {t}: the range must satisfy {b} <= {e} <= rank {}",
            elems.len()
        )));
    }
    // CuTe builds a tuple (an integer becomes a rank-1 tuple of itself): the modes before `b`, the
    // group if it is not empty, then the modes from `e` up to the rank of `t`.
    let mut out = elems[..b].to_vec();
    if b < e {
        out.push(IntTuple::Tuple(elems[b..e].to_vec()));
    }
    out.extend_from_slice(elems.get(e..t.rank()).unwrap_or(&[]));
    Ok(IntTuple::Tuple(out))
}

/// The layout with modes `[b, e)` grouped into one mode (CuTe's `group<B,E>(L)`).
/// ```
/// # use cute_layout_core::{Layout, group};
/// let l: Layout = "(_4,_5,_6):(_1,_4,_20)".parse().unwrap();
/// assert_eq!(group(&l, 0, 2).unwrap().to_string(), "((_4,_5),_6):((_1,_4),_20)");
/// ```
pub fn group(layout: &Layout, b: usize, e: usize) -> Result<Layout> {
    both(layout, |t| group_tuple(t, b, e))
}

/// The layout with depth at most 1 (CuTe's `flatten(L)`); an integer layout stays as it is.
/// ```
/// # use cute_layout_core::{Layout, flatten};
/// let l: Layout = "((_2,_3),(_5,_7)):((_1,_2),(_6,_30))".parse().unwrap();
/// assert_eq!(flatten(&l).unwrap().to_string(), "(_2,_3,_5,_7):(_1,_2,_6,_30)");
/// ```
pub fn flatten(layout: &Layout) -> Result<Layout> {
    both(layout, |t| Ok(t.flatten()))
}

/// The modes of `flat` folded into the nesting of `profile` (CuTe's `unflatten`).
/// Pre: `rank(flat)` equals the number of leaves of `profile`.
///
/// ```
/// use cute_layout_core::{IntTuple, unflatten_tuple};
/// let flat: IntTuple = "(2,3,4,5)".parse().unwrap();
/// let profile: IntTuple = "(0,(0,0),0)".parse().unwrap(); // only the nesting counts
/// assert_eq!(unflatten_tuple(&flat, &profile).unwrap().to_string(), "(2,(3,4),5)");
/// ```
pub fn unflatten_tuple(flat: &IntTuple, profile: &IntTuple) -> Result<IntTuple> {
    fn build(it: &mut std::slice::Iter<'_, IntTuple>, p: &IntTuple) -> Option<IntTuple> {
        match p {
            IntTuple::Tuple(ps) => ps
                .iter()
                .map(|q| build(it, q))
                .collect::<Option<_>>()
                .map(IntTuple::Tuple),
            _ => it.next().cloned(),
        }
    }
    let elems = flat.elems();
    let mut it = elems.iter();
    match build(&mut it, profile) {
        Some(r) if it.next().is_none() => Ok(r),
        _ => Err(LayoutError::invalid(format!(
            "unflatten: {flat} has {} modes but the profile {profile} has {} leaves",
            elems.len(),
            profile.leaves().len()
        ))),
    }
}

/// The layout with its (flat) modes folded into the nesting of `profile` (CuTe's `unflatten(L, profile)`).
/// ```
/// # use cute_layout_core::{IntTuple, Layout, unflatten};
/// let l: Layout = "(4,16,32):(64,1,768)".parse().unwrap();
/// let p: IntTuple = "((4,16),32)".parse().unwrap();
/// assert_eq!(unflatten(&l, &p).unwrap().to_string(), "((4,16),32):((64,1),768)");
/// ```
pub fn unflatten(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    both(layout, |t| unflatten_tuple(t, profile))
}

/// `t` extended to rank `n` (one more mode if `None`) with copies of `x` at the end (CuTe's
/// `append<N>`); `n == rank(t)` leaves `t` as it is. Pre: `n >= rank(t)`.
///
/// ```
/// use cute_layout_core::{IntTuple, append_tuple};
/// let t: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(append_tuple(&t, &IntTuple::s(1), None).unwrap().to_string(), "(2,3,_1)");
/// assert_eq!(append_tuple(&t, &IntTuple::s(1), Some(4)).unwrap().to_string(), "(2,3,_1,_1)");
/// ```
pub fn append_tuple(t: &IntTuple, x: &IntTuple, n: Option<usize>) -> Result<IntTuple> {
    let elems = t.elems();
    let n = n.unwrap_or(elems.len() + 1);
    if n == elems.len() {
        return Ok(t.clone());
    }
    check_rank("append", n)?;
    if n < elems.len() {
        return Err(LayoutError::invalid(format!(
            "append<{n}> of {t}: it already has rank {} > {n}",
            elems.len()
        )));
    }
    check_copies("append", t, x, n - elems.len())?;
    let mut out = elems.clone();
    out.resize(n, x.clone());
    Ok(IntTuple::Tuple(out))
}

/// `t` extended to rank `n` (one more mode if `None`) with copies of `x` at the front (CuTe's
/// `prepend<N>`); `n == rank(t)` leaves `t` as it is. Pre: `n >= rank(t)`.
///
/// ```
/// use cute_layout_core::{IntTuple, prepend_tuple};
/// let t: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(prepend_tuple(&t, &IntTuple::s(1), None).unwrap().to_string(), "(_1,2,3)");
/// ```
pub fn prepend_tuple(t: &IntTuple, x: &IntTuple, n: Option<usize>) -> Result<IntTuple> {
    let elems = t.elems();
    let n = n.unwrap_or(elems.len() + 1);
    if n == elems.len() {
        return Ok(t.clone());
    }
    check_rank("prepend", n)?;
    if n < elems.len() {
        return Err(LayoutError::invalid(format!(
            "prepend<{n}> of {t}: it already has rank {} > {n}",
            elems.len()
        )));
    }
    check_copies("prepend", t, x, n - elems.len())?;
    let mut out = vec![x.clone(); n - elems.len()];
    out.extend(elems);
    Ok(IntTuple::Tuple(out))
}

fn default_mode() -> Layout {
    Layout::new(IntTuple::s(1), IntTuple::s(0)).unwrap_or_else(|_| Layout::empty())
}

/// The layout with `x` (default `_1:_0`) appended as new modes up to rank `n` (one more mode if
/// `None`) (CuTe's `append<N>(L, x)` and `append(L, x)`).
/// ```
/// # use cute_layout_core::{Layout, append};
/// let l: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
/// assert_eq!(append(&l, None, Some(4)).unwrap().to_string(), "(_4,_8,_1,_1):(_8,_1,_0,_0)");
/// ```
pub fn append(layout: &Layout, x: Option<&Layout>, n: Option<usize>) -> Result<Layout> {
    let x = x.cloned().unwrap_or_else(default_mode);
    Layout::new(
        append_tuple(layout.shape(), x.shape(), n)?,
        append_tuple(layout.stride(), x.stride(), n)?,
    )
}

/// The layout with `x` (default `_1:_0`) prepended as new modes up to rank `n` (one more mode if
/// `None`) (CuTe's `prepend<N>(L, x)` and `prepend(L, x)`).
/// ```
/// # use cute_layout_core::{Layout, prepend};
/// let l: Layout = "(_16,_16):(_48,_1)".parse().unwrap();
/// let x: Layout = "_4:_1".parse().unwrap();
/// assert_eq!(prepend(&l, Some(&x), None).unwrap().to_string(), "(_4,_16,_16):(_1,_48,_1)");
/// ```
pub fn prepend(layout: &Layout, x: Option<&Layout>, n: Option<usize>) -> Result<Layout> {
    let x = x.cloned().unwrap_or_else(default_mode);
    Layout::new(
        prepend_tuple(layout.shape(), x.shape(), n)?,
        prepend_tuple(layout.stride(), x.stride(), n)?,
    )
}

/// `t` with mode `n` replaced by `x` (CuTe's `replace<N>`); `n == rank(t)` appends `x`, and a leaf
/// `t` with `n == 0` becomes `x`. Pre: `n <= rank(t)` (`n == 0` for a leaf).
///
/// ```
/// use cute_layout_core::{IntTuple, replace_tuple};
/// let t: IntTuple = "(2,3,4)".parse().unwrap();
/// assert_eq!(replace_tuple(&t, 1, &IntTuple::s(7)).unwrap().to_string(), "(2,_7,4)");
/// ```
pub fn replace_tuple(t: &IntTuple, n: usize, x: &IntTuple) -> Result<IntTuple> {
    match t {
        IntTuple::Tuple(v) if n <= v.len() => {
            let mut out = v.clone();
            if n == v.len() {
                out.push(x.clone());
            } else {
                out[n] = x.clone();
            }
            Ok(IntTuple::Tuple(out))
        }
        IntTuple::Tuple(v) => Err(out_of_range(format!("replace<{n}> of {t}"), n, v.len() + 1)),
        _ if n == 0 => Ok(x.clone()),
        _ => Err(out_of_range(format!("replace<{n}> of {t}"), n, 1)),
    }
}

/// The layout with mode `n` replaced by `x` (CuTe's `replace<N>(L, x)`).
/// ```
/// # use cute_layout_core::{Layout, replace};
/// let l: Layout = "(_7,_9):(_18,_1)".parse().unwrap();
/// let x: Layout = "(_8,_6):(_24,_5)".parse().unwrap();
/// assert_eq!(replace(&l, 1, &x).unwrap().to_string(), "(_7,(_8,_6)):(_18,(_24,_5))");
/// ```
pub fn replace(layout: &Layout, n: usize, x: &Layout) -> Result<Layout> {
    Layout::new(
        replace_tuple(layout.shape(), n, x.shape())?,
        replace_tuple(layout.stride(), n, x.stride())?,
    )
}

/// Transpose a tuple of tuples: `((a,b),(c,d))` becomes `((a,c),(b,d))` (CuTe's `zip`); a tuple
/// whose first mode is a leaf becomes a rank-1 tuple of itself; a leaf stays as it is.
///
/// ```
/// use cute_layout_core::{IntTuple, zip_tuple};
/// let t: IntTuple = "((1,2),(3,4))".parse().unwrap();
/// assert_eq!(zip_tuple(&t).unwrap().to_string(), "((1,3),(2,4))");
/// ```
pub fn zip_tuple(t: &IntTuple) -> Result<IntTuple> {
    match t {
        IntTuple::Tuple(v) => match v.first() {
            Some(IntTuple::Tuple(first)) => {
                check_zip_ranks(v, first.len())?;
                Ok(IntTuple::Tuple(
                    (0..first.len())
                        .map(|j| v.iter().map(|e| e.get(j)).collect::<Result<_>>())
                        .map(|r| r.map(IntTuple::Tuple))
                        .collect::<Result<_>>()?,
                ))
            }
            Some(_) => Ok(IntTuple::Tuple(vec![t.clone()])),
            None => Err(LayoutError::invalid("zip of the empty tuple ()")),
        },
        leaf => Ok(leaf.clone()),
    }
}

/// Every element zipped must be a tuple of the rank of the first (which is one): otherwise CuTe does
/// not compile and the transposed tuple would lose or invent elements
/// (`blocked_product((3):(1),2:1)` zips `(3)` with `(1,2)`; `zip(((2),3))` a rank-1 tuple with a leaf).
fn check_zip_ranks(v: &[IntTuple], rank: usize) -> Result<()> {
    match v.iter().find(|e| !e.is_tuple() || e.rank() != rank) {
        Some(e) => Err(LayoutError::NotCongruent {
            what: match e.is_tuple() {
                true => format!(
                    "zip: every element must have rank {rank} like the first, but {e} has rank {}",
                    e.rank()
                ),
                false => format!(
                    "zip: every element must be a tuple of rank {rank} like the first, but {e} is an integer"
                ),
            },
            left: v[0].to_string(),
            right: e.to_string(),
        }),
        None => Ok(()),
    }
}

/// Zip the modes of the layout (one layout: CuTe's `zip(L)`) or of several layouts
/// (`zip(L0, L1, ...)`, which zips the tuple of them).
/// ```
/// # use cute_layout_core::{Layout, zip};
/// let l: Layout = "(4,2):(0,1)".parse().unwrap();
/// assert_eq!(zip(&[l]).unwrap().to_string(), "((4,2)):((0,1))");
/// ```
pub fn zip(layouts: &[Layout]) -> Result<Layout> {
    match layouts {
        [one] => both(one, zip_tuple),
        many => {
            let joined = Layout::from_modes(many.to_vec());
            both(&joined, zip_tuple)
        }
    }
}

fn tuple_for<'a>(what: &str, c: &Coord, t: &'a IntTuple, n: usize) -> Result<&'a [IntTuple]> {
    match t {
        IntTuple::Tuple(v) if v.len() == n => Ok(v),
        _ => Err(LayoutError::NotCongruent {
            what: format!("{what}: coordinate and tuple have different ranks"),
            left: c.to_string(),
            right: t.to_string(),
        }),
    }
}

/// The modes of `t` that `c` keeps, as a list to be concatenated into the parent.
fn lift(c: &Coord, t: &IntTuple, keep_underscore: bool, what: &str) -> Result<Vec<IntTuple>> {
    match c {
        Coord::Tuple(cs) => {
            let ts = tuple_for(what, c, t, cs.len())?;
            let mut out = Vec::new();
            for (ci, ti) in cs.iter().zip(ts) {
                out.extend(lift(ci, ti, keep_underscore, what)?);
            }
            Ok(out)
        }
        Coord::Underscore if keep_underscore => Ok(vec![t.clone()]),
        Coord::Int(_) if !keep_underscore => Ok(vec![t.clone()]),
        _ => Ok(vec![]),
    }
}

/// The modes of `t` where `c` has `_` (CuTe's `slice(c, t)`): nested results are concatenated, so
/// the result is flat at the levels the coordinate descends into. `slice(_, t)` is `t`; an integer
/// coordinate keeps nothing.
///
/// ```
/// use cute_layout_core::{Coord, IntTuple, slice_tuple};
/// let t: IntTuple = "(2,(3,4),5)".parse().unwrap();
/// let c: Coord = "(_,(1,_),0)".parse().unwrap();
/// assert_eq!(slice_tuple(&c, &t).unwrap().to_string(), "(2,4)");
/// ```
pub fn slice_tuple(c: &Coord, t: &IntTuple) -> Result<IntTuple> {
    match c {
        Coord::Underscore => Ok(t.clone()),
        _ => Ok(IntTuple::Tuple(lift(c, t, true, "slice")?)),
    }
}

/// The modes of `t` where `c` has an integer (CuTe's `dice(c, t)`), the complement of `slice`.
/// `dice(i, t)` for an integer `i` is `t`; `dice(_, t)` keeps nothing.
///
/// ```
/// use cute_layout_core::{Coord, IntTuple, dice_tuple};
/// let t: IntTuple = "(2,(3,4),5)".parse().unwrap();
/// let c: Coord = "(_,(1,_),0)".parse().unwrap();
/// assert_eq!(dice_tuple(&c, &t).unwrap().to_string(), "(3,5)");
/// ```
pub fn dice_tuple(c: &Coord, t: &IntTuple) -> Result<IntTuple> {
    match c {
        Coord::Int(_) => Ok(t.clone()),
        _ => Ok(IntTuple::Tuple(lift(c, t, false, "dice")?)),
    }
}

/// The sub-layout of the modes where `c` has `_` (CuTe's `slice(c, L)`); `():()` when none.
/// ```
/// # use cute_layout_core::{Coord, Layout, slice};
/// let l: Layout = "(_8,(_2,_4)):(_8,(_0,_1))".parse().unwrap();
/// assert_eq!(slice(&"(4,_)".parse().unwrap(), &l).unwrap().to_string(), "((_2,_4)):((_0,_1))");
/// ```
pub fn slice(c: &Coord, layout: &Layout) -> Result<Layout> {
    both(layout, |t| slice_tuple(c, t))
}

/// The sub-layout of the modes where `c` has an integer (CuTe's `dice(c, L)`).
/// ```
/// # use cute_layout_core::{Coord, Layout, dice};
/// let l: Layout = "(_2,_3,_4):(_1,_2,_6)".parse().unwrap();
/// assert_eq!(dice(&"(0,_,1)".parse().unwrap(), &l).unwrap().to_string(), "(_2,_4):(_1,_6)");
/// ```
pub fn dice(c: &Coord, layout: &Layout) -> Result<Layout> {
    both(layout, |t| dice_tuple(c, t))
}

/// The offset of a slicing coordinate: `crd2idx` with every `_` counted as `_0`.
///
/// ```
/// use cute_layout_core::{Coord, Layout, slice_offset};
/// let l: Layout = "(_8,(_2,_4)):(_8,(_0,_1))".parse().unwrap();
/// let c: Coord = "(_,(1,3))".parse().unwrap();
/// assert_eq!(slice_offset(&c, l.shape(), l.stride()).unwrap().to_string(), "3");
/// ```
pub fn slice_offset(c: &Coord, shape: &IntTuple, stride: &IntTuple) -> Result<IntTuple> {
    match c {
        Coord::Underscore => Ok(IntTuple::s(0)),
        Coord::Int(i) => crd2idx(&IntTuple::Int(*i), shape, stride),
        Coord::Tuple(cs) => {
            let ss = tuple_for("slice offset", c, shape, cs.len())?;
            let ds = tuple_for("slice offset", c, stride, cs.len())?;
            let mut acc: Option<IntTuple> = None;
            for ((ci, si), di) in cs.iter().zip(ss).zip(ds) {
                let term = slice_offset(ci, si, di)?;
                acc = Some(match acc {
                    None => term,
                    Some(a) => arith_add(&a, &term)?,
                });
            }
            Ok(acc.unwrap_or(IntTuple::s(0)))
        }
    }
}

/// The slice and the offset of its origin (CuTe's `slice_and_offset(c, L)`):
/// `(slice(c, L), crd2idx(c, L))` with `_` counted as `_0`.
/// ```
/// # use cute_layout_core::{Coord, Layout, slice_and_offset};
/// let l: Layout = "((10),9,2):((_18),_2,_1)".parse().unwrap();
/// let (s, off) = slice_and_offset(&"(3,2,_)".parse().unwrap(), &l).unwrap();
/// assert_eq!(format!("{s} {off}"), "(2):(_1) 58");
/// ```
pub fn slice_and_offset(c: &Coord, layout: &Layout) -> Result<(Layout, IntTuple)> {
    Ok((
        slice(c, layout)?,
        slice_offset(c, layout.shape(), layout.stride())?,
    ))
}
