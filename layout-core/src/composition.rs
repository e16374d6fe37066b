//! Composition `A ∘ B`: the layout `R` with `R(i) = A(B(i))` for every `i` in B's domain.
//!
//! The algorithm is CuTe's: A is first coalesced into flat modes (keeping its function past its last
//! mode), then each mode `n:r` of B walks A's modes, dividing the stride `r` out of A's shapes and the
//! shape `n` into what is left, and keeps A's last mode unbounded. CuTe's static and dynamic typing is
//! kept: `composition((10,2):(16,4),(5,4):(1,5))` is `((5,1),(2,2)):((16,4),(80,4))`, its static twin
//! `(_5,(_2,_2)):(_16,(_80,_4))`.
//!
//! Where CuTe would print a layout that is not `A ∘ B` (its divisibility check is weak, and skipped for
//! dynamic values), this module returns [`LayoutError::Postcondition`] naming the first index where
//! the two differ, or the size that does not match.
//!
//! ```
//! use cute_layout_core::{composition, Layout};
//! let a: Layout = "(_6,_2):(_8,_2)".parse().unwrap();
//! let b: Layout = "(_4,_3):(_3,_1)".parse().unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! // With dynamic integers CuTe cannot drop the size-1 remainder of the second mode:
//! let a: Layout = "(6,2):(8,2)".parse().unwrap();
//! let b: Layout = "(4,3):(3,1)".parse().unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "((2,2),(3,1)):((24,2),(8,2))");
//! ```

use crate::coalesce::support::*;
use crate::construct::make_layout;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::query::coprofile;
use crate::tiler::Tiler;
use std::collections::BTreeMap;

/// Anything that can stand right of `∘`: a layout, a tiler (`_`, a shape, or a tuple of tilers applied
/// mode by mode), or an integer (a shape with stride 1).
///
/// ```
/// use cute_layout_core::{Int, Layout, Tiler, composition};
/// let a: Layout = "(_6,_2):(_8,_2)".parse().unwrap();
/// let b: Layout = "(_4,_3):(_3,_1)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "((_2,_2),_3):((_24,_2),_8)");
/// assert_eq!(composition(&a, &Int::s(3)).unwrap().to_string(), "_3:_8");
/// let t: Tiler = "(_3,_)".parse().unwrap();
/// assert_eq!(composition(&a, &t).unwrap().to_string(), "(_3,_2):(_8,_2)");
/// ```
pub trait CompositionRhs {
    /// `lhs ∘ self`.
    fn compose_onto(&self, lhs: &Layout) -> Result<Layout>;
}

impl CompositionRhs for Layout {
    fn compose_onto(&self, lhs: &Layout) -> Result<Layout> {
        compose_layouts(lhs, self)
    }
}

impl CompositionRhs for Tiler {
    fn compose_onto(&self, lhs: &Layout) -> Result<Layout> {
        match self {
            Tiler::Layout(b) => compose_layouts(lhs, b),
            Tiler::Underscore => Ok(lhs.clone()),
            Tiler::Int(n) => n.compose_onto(lhs),
            Tiler::Tuple(ts) => {
                if ts.len() > lhs.rank() {
                    return Err(LayoutError::NotCongruent {
                        what: "composition: the tiler has more modes than the layout".into(),
                        left: lhs.to_string(),
                        right: self.to_string(),
                    });
                }
                // Modes of lhs that the tiler does not reach are dropped, as in CuTe.
                let modes = lhs
                    .modes()
                    .iter()
                    .zip(ts)
                    .map(|(m, t)| t.compose_onto(m))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Layout::from_modes(modes))
            }
        }
    }
}

impl CompositionRhs for Int {
    fn compose_onto(&self, lhs: &Layout) -> Result<Layout> {
        let flat = coalesce_x(lhs)?;
        let mut track = Track::default();
        let r = compose_impl(
            flat.shape(),
            flat.stride(),
            &IntTuple::Int(*self),
            &IntTuple::s(1),
            &mut track,
        )?;
        let b = Layout::new(IntTuple::Int(*self), IntTuple::s(1))?;
        verify(lhs, &b, &r, track.exact_for(&flat), Check::Strict)?;
        Ok(r)
    }
}

/// Composition `lhs ∘ rhs` (CuTe's `composition`), with `rhs` a layout, a tiler or an integer.
///
/// Pre: for a tuple tiler, `rank(rhs) <= rank(lhs)` (modes of `lhs` past the tiler are dropped); CuTe's
/// static divisibility conditions hold (the stride of each mode of B divides, or is below, the shape of
/// the A mode it meets; the shape left divides what it is split into).
/// Post: `R(i) == A(B(i))` for every `i < size(B)`, with A extended past its last mode, and
/// `size(R) == size(B)`; otherwise a [`LayoutError::Postcondition`] error. (Compositions whose right
/// side has scaled-basis strides are computed as CuTe does but not re-verified.)
///
/// ```
/// # use cute_layout_core::{composition, Layout, Tiler};
/// let a: Layout = "(_4,_3,_1):(_3,_1,_0)".parse().unwrap();
/// let b: Layout = "_24:_1".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "(_4,_3,_2):(_3,_1,_0)");
/// let l: Layout = "(_8,_2,_32):(_1,_8,_16)".parse().unwrap();
/// let t: Tiler = "(_4,_2)".parse().unwrap();
/// assert_eq!(composition(&l, &t).unwrap().to_string(), "(_4,_2):(_1,_8)");
/// let bad: Layout = "(_4,_32):(_32,_1)".parse().unwrap();
/// assert!(composition(&bad, &"_32:_3".parse::<Layout>().unwrap()).is_err());
/// ```
pub fn composition<R: CompositionRhs + ?Sized>(lhs: &Layout, rhs: &R) -> Result<Layout> {
    rhs.compose_onto(lhs)
}

/// `L.with_shape(S)`: the layout `L` read through the compact column-major layout of shape `S`
/// (`composition(L, make_layout(S))`).
///
/// Pre/post: as [`composition`] with `B = make_layout(S)`.
///
/// ```
/// # use cute_layout_core::{with_shape, IntTuple, Layout};
/// let l: Layout = "(_4,_4):(_4,_1)".parse().unwrap();
/// let s: IntTuple = "(_8,_2)".parse().unwrap();
/// assert_eq!(with_shape(&l, &s).unwrap().to_string(), "((_4,_2),_2):((_4,_1),_2)");
/// ```
pub fn with_shape(layout: &Layout, shape: &IntTuple) -> Result<Layout> {
    composition(layout, &make_layout(shape)?)
}

/// Composition `lhs ∘ rhs` as CuTe computes it, without the point-by-point check that the result is
/// `A ∘ B`. CuTe's own static divisibility checks still apply (they are its `static_assert`s).
///
/// Divides and products use this: CuTe keeps its raw result there even where the tile does not
/// divide the layout (the rest mode is rounded up and reads past A's last mode).
pub(crate) fn composition_unverified(lhs: &Layout, rhs: &Layout) -> Result<Layout> {
    compose_layouts_with(lhs, rhs, Check::None)
}

/// The tile of a divide: CuTe's composition `lhs ∘ rhs`, checked point by point on the indices
/// where both CuTe's result and `rhs` are defined. A size mismatch alone is accepted (CuTe skips
/// its checks on dynamic values and keeps that result inside divides), and so is a domain too large
/// to check; a wrong value is a [`LayoutError::Postcondition`] error.
pub(crate) fn composition_tile(lhs: &Layout, rhs: &Layout) -> Result<Layout> {
    compose_layouts_with(lhs, rhs, Check::Prefix)
}

/// How a composition result is checked against `A ∘ B`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Not at all (CuTe's static checks only).
    None,
    /// On the common part of the domains of the result and B, when small enough.
    Prefix,
    /// Everywhere on B's domain, with the sizes equal.
    Strict,
}

fn compose_layouts(lhs: &Layout, rhs: &Layout) -> Result<Layout> {
    compose_layouts_with(lhs, rhs, Check::Strict)
}

fn compose_layouts_with(lhs: &Layout, rhs: &Layout, check: Check) -> Result<Layout> {
    // A right side with basis strides reaches into modes of A: coalesce A only within those modes.
    let profile = coprofile(rhs)?;
    let by_mode = profile.is_tuple();
    let flat = if by_mode {
        coalesce_x_profile(lhs, &profile)?
    } else {
        coalesce_x(lhs)?
    };
    crate::limits::check_work(
        "composition: modes of B times modes of A",
        crate::limits::extent(rhs.shape()).elements,
        crate::limits::extent(flat.shape()).elements,
        crate::limits::MAX_STEPS,
    )?;
    let mut track = Track::default();
    let r = compose_impl(
        flat.shape(),
        flat.stride(),
        rhs.shape(),
        rhs.stride(),
        &mut track,
    )?;
    if check != Check::None && !by_mode {
        verify(lhs, rhs, &r, track.exact_for(&flat), check)?;
    }
    Ok(r)
}

fn signum(x: Int) -> Int {
    Int::new(x.value.signum(), x.is_static)
}

/// `(a + b - 1) / b` on integers, CuTe's `ceil_div`.
fn ceil_div_int(a: Int, b: Int) -> Result<Int> {
    a.add(b)?.sub(Int::s(1))?.div(b)
}

/// CuTe's `composition_impl`: `ls:ld` is A after coalescing, `rs:rd` one (sub-)mode of B.
/// `track` records whether every step is exact by construction (see [`Track`]).
fn compose_impl(
    ls: &IntTuple,
    ld: &IntTuple,
    rs: &IntTuple,
    rd: &IntTuple,
    track: &mut Track,
) -> Result<Layout> {
    if let IntTuple::Tuple(shapes) = rs {
        let IntTuple::Tuple(strides) = rd else {
            return Err(not_congruent(rs, rd));
        };
        let modes = shapes
            .iter()
            .zip(strides)
            .map(|(s, d)| compose_impl(ls, ld, s, d, track))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Layout::from_modes(modes));
    }
    let rs_int = rs.expect_int("composition: shape of the right-hand layout")?;
    let rd_int = match rd {
        IntTuple::Basis(b) => {
            let sub_s = ls.get_path(&b.modes)?;
            let sub_d = ld.get_path(&b.modes)?;
            return compose_impl(&sub_s, &sub_d, rs, &IntTuple::Int(b.scale), track);
        }
        IntTuple::Tuple(_) => return Err(not_congruent(rs, rd)),
        IntTuple::Int(d) => *d,
    };
    if rd_int.is_static_eq(0) {
        return Layout::new(rs.clone(), rd.clone());
    }
    let (shapes, strides) = match (ls, ld) {
        (IntTuple::Tuple(s), IntTuple::Tuple(d)) => (s, d),
        (IntTuple::Tuple(_), _) => return Err(not_congruent(ls, ld)),
        _ => return Layout::new(rs.clone(), scale_leaf(rd_int, ld)?),
    };
    let shapes = shapes
        .iter()
        .map(|s| s.expect_int("composition: the left layout after coalescing must be flat"))
        .collect::<Result<Vec<_>>>()?;
    let Some((last_stride, strides)) = strides.split_last() else {
        return Err(empty_layout("composition"));
    };
    compose_general(&shapes, strides, last_stride, rs_int, rd_int, track)
}

fn not_congruent(a: &IntTuple, b: &IntTuple) -> LayoutError {
    LayoutError::NotCongruent {
        what: "composition: shape and stride".into(),
        left: a.to_string(),
        right: b.to_string(),
    }
}

/// The general case: A has several flat modes, B is one mode `rest_shape:rest_stride`.
fn compose_general(
    shapes: &[Int],
    strides: &[IntTuple],
    last_stride: &IntTuple,
    mut rest_shape: Int,
    mut rest_stride: Int,
    track: &mut Track,
) -> Result<Layout> {
    let mut out: Vec<Mode> = Vec::new();
    for (i, (&cs, cd)) in shapes.iter().zip(strides).enumerate() {
        // CuTe's weak stride divisibility condition, checked when both values are static.
        if cs.is_static && rest_stride.is_static {
            let r = rest_stride.rem(cs)?;
            if r.value != 0 && rest_stride.value >= cs.value {
                return Err(LayoutError::NotDivisible {
                    what: format!(
                        "composition (stride divisibility condition: B's stride {rest_stride} must \
                         divide A's shape {cs} or be a multiple of it)"
                    ),
                    dividend: rest_stride.to_string(),
                    divisor: cs.to_string(),
                });
            }
        }
        track.step(cs, rest_shape, rest_stride);
        let abs_stride = rest_stride.abs()?;
        let next_shape = ceil_div_int(cs, abs_stride)?;
        let next_stride = ceil_div_int(abs_stride, cs)?.mul(signum(rest_stride))?;
        if next_shape.is_static_eq(1) || rest_shape.is_static_eq(1) {
            rest_stride = next_stride;
            continue;
        }
        let new_shape = next_shape.min(rest_shape);
        if new_shape.is_static && rest_shape.is_static && rest_shape.rem(new_shape)?.value != 0 {
            return Err(LayoutError::NotDivisible {
                what: "composition (shape divisibility condition: B's shape must be split evenly \
                       across A's modes)"
                    .into(),
                dividend: rest_shape.to_string(),
                divisor: new_shape.to_string(),
            });
        }
        track.digits(i, new_shape, rest_stride);
        out.push((new_shape, scale_leaf(rest_stride, cd)?));
        rest_shape = rest_shape.div(new_shape)?;
        rest_stride = next_stride;
    }
    if out.is_empty() {
        return Layout::new(
            IntTuple::Int(rest_shape),
            scale_leaf(rest_stride, last_stride)?,
        );
    }
    if rest_shape.is_static_eq(1) {
        let unwrap = out.len() == 1;
        return layout_of(out, !unwrap);
    }
    out.push((rest_shape, scale_leaf(rest_stride, last_stride)?));
    layout_of(out, true)
}

/// Whether a composition is right by construction, so that it needs no point-by-point check.
///
/// Each step of one mode `n:r` of B over a mode `c` of A is exact when B has one element left, or when
/// `r` and `c` divide one another and `n` splits evenly; the modes it appends then use the "digits"
/// `0, r, 2r, ..., (n-1)r` of A's mode. The whole of B composes exactly when, in addition, all strides
/// are non-negative and, for every mode of A but the last, the largest digits the modes of B use add
/// up to less than its shape (so that adding the parts never carries into the next mode of A).
#[derive(Default)]
struct Track {
    exact: bool,
    broken: bool,
    used: Vec<u128>,
}

impl Track {
    fn step(&mut self, cs: Int, rest_shape: Int, rest_stride: Int) {
        let (c, n, r) = (cs.value, rest_shape.value, rest_stride.value);
        if r < 0 {
            self.broken = true;
        }
        if n == 1 {
            return;
        }
        let (c, r) = (c.max(0).unsigned_abs(), r.unsigned_abs());
        if c == 0 || r == 0 || n < 1 || (r % c != 0 && c % r != 0) {
            self.broken = true;
            return;
        }
        if r < c {
            let next = c / r;
            if n.unsigned_abs() > next && n.unsigned_abs() % next != 0 {
                self.broken = true;
            }
        }
    }

    fn digits(&mut self, mode: usize, new_shape: Int, rest_stride: Int) {
        if self.used.len() <= mode {
            self.used.resize(mode + 1, 0);
        }
        let top = (new_shape.value.max(1) as u128 - 1) * rest_stride.value.unsigned_abs() as u128;
        self.used[mode] = self.used[mode].saturating_add(top);
    }

    /// The verdict for A coalesced to `flat`.
    fn exact_for(&mut self, flat: &Layout) -> bool {
        if self.broken {
            return false;
        }
        if flat
            .stride()
            .leaves()
            .iter()
            .any(|d| !matches!(d, IntTuple::Int(_)))
        {
            return false;
        }
        let shapes = flat.shape().leaves();
        self.exact = self.used.iter().enumerate().all(|(i, &u)| {
            matches!(shapes.get(i), Some(IntTuple::Int(s)) if s.value >= 1 && u < s.value as u128)
        });
        self.exact
    }
}

/// Largest domain checked point by point.
pub(crate) const CHECK_LIMIT: i128 = 1 << 20;

/// A layout as a function on all integers: flat modes, C-style (truncating) index splitting, and the
/// last mode unbounded. Offsets are kept per codomain mode so that basis strides work too.
pub(crate) struct FlatFn {
    shape: Vec<i128>,
    stride: Vec<(Vec<usize>, i128)>,
    all_int: bool,
}

/// A point of the codomain: coefficient per basis mode path (the empty path is the integer part).
pub(crate) type Offset = BTreeMap<Vec<usize>, i128>;

impl FlatFn {
    pub(crate) fn new(l: &Layout) -> Result<FlatFn> {
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        let modes = flat_modes(l)?;
        let last = modes.len().saturating_sub(1);
        for (k, (s, d)) in modes.into_iter().enumerate() {
            if s.value == 1 && k != last {
                continue; // coordinate 0 and the index passed on whole: no effect
            }
            shape.push(s.value as i128);
            stride.push(match d {
                IntTuple::Int(x) => (vec![], x.value as i128),
                IntTuple::Basis(b) => (b.modes.clone(), b.scale.value as i128),
                IntTuple::Tuple(_) => return Err(LayoutError::invalid("stride leaf is a tuple")),
            });
        }
        let all_int = stride.iter().all(|(p, _)| p.is_empty());
        Ok(FlatFn {
            shape,
            stride,
            all_int,
        })
    }

    /// An error when evaluating `points` points of the functions `fs` would take more than
    /// [`crate::limits::MAX_CHECK_WORK`] mode visits (only layouts with many modes of extent -1 or 0
    /// get there: modes of extent 1 are dropped).
    pub(crate) fn check_work(fs: &[&FlatFn], points: i128, what: &str) -> Result<()> {
        let modes: usize = fs.iter().map(|f| f.shape.len()).sum();
        let points = usize::try_from(points.max(0)).unwrap_or(usize::MAX);
        crate::limits::check_work(what, points, modes, crate::limits::MAX_CHECK_WORK)
    }

    /// The number of points in the domain.
    pub(crate) fn size(&self) -> Result<i128> {
        self.shape.iter().try_fold(1i128, |acc, &s| {
            acc.checked_mul(s)
                .ok_or_else(|| LayoutError::invalid("layout size does not fit in i128"))
        })
    }

    /// Split `idx` into the coordinate of each flat mode and call `f(mode, coordinate)`.
    fn split(&self, idx: i128, mut f: impl FnMut(usize, i128) -> Result<()>) -> Result<()> {
        let mut rest = idx;
        let n = self.shape.len();
        for (k, &s) in self.shape.iter().enumerate() {
            // a zero index is coordinate 0 in every mode, even one of extent 0
            let c = if k + 1 == n || rest == 0 {
                rest
            } else {
                if s == 0 {
                    return Err(LayoutError::DivisionByZero {
                        op: "idx2crd",
                        lhs: idx as i64,
                    });
                }
                let c = rest % s;
                rest /= s;
                c
            };
            f(k, c)?;
        }
        Ok(())
    }

    fn term(&self, k: usize, c: i128) -> Result<i128> {
        c.checked_mul(self.stride[k].1)
            .ok_or_else(|| LayoutError::invalid("offset does not fit in i128"))
    }

    /// The value at `idx` of a layout whose strides are all integers.
    fn eval_i(&self, idx: i128) -> Result<i128> {
        let mut acc = 0i128;
        self.split(idx, |k, c| {
            acc = acc
                .checked_add(self.term(k, c)?)
                .ok_or_else(|| LayoutError::invalid("offset does not fit in i128"))?;
            Ok(())
        })?;
        Ok(acc)
    }

    pub(crate) fn eval(&self, idx: i128) -> Result<Offset> {
        let mut out = Offset::new();
        self.split(idx, |k, c| {
            let term = self.term(k, c)?;
            if term != 0 {
                let path = &self.stride[k].0;
                let e = out.entry(path.clone()).or_insert(0);
                *e = e
                    .checked_add(term)
                    .ok_or_else(|| LayoutError::invalid("offset does not fit in i128"))?;
                if *e == 0 {
                    out.remove(path);
                }
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The integer value at `idx`, or `None` when the result has basis components.
    pub(crate) fn eval_int(&self, idx: i128) -> Result<Option<i128>> {
        if self.all_int {
            return self.eval_i(idx).map(Some);
        }
        let o = self.eval(idx)?;
        Ok(match o.len() {
            0 => Some(0),
            1 => o.get(&vec![]).copied(),
            _ => None,
        })
    }
}

fn show(o: &Offset) -> String {
    if o.keys().all(|k| k.is_empty()) {
        return o.values().next().copied().unwrap_or(0).to_string();
    }
    let parts: Vec<String> = o
        .iter()
        .map(|(k, v)| {
            let mut s = v.to_string();
            for m in k.iter().rev() {
                s += &format!("@{m}");
            }
            s
        })
        .collect();
    parts.join("+")
}

/// Check `R(i) == A(B(i))` on B's domain and `size(R) == size(B)` ([`Check::Strict`]), or
/// `R(i) == A(B(i))` for `i < min(size(R), size(B))` where that is at most [`CHECK_LIMIT`] points
/// ([`Check::Prefix`]).
fn verify(a: &Layout, b: &Layout, r: &Layout, exact: bool, check: Check) -> Result<()> {
    let (fa, fb, fr) = (FlatFn::new(a)?, FlatFn::new(b)?, FlatFn::new(r)?);
    let (nb, nr) = (fb.size()?, fr.size()?);
    if check == Check::None {
        return Ok(());
    }
    if check == Check::Prefix {
        let n = nb.min(nr);
        if exact || n > CHECK_LIMIT {
            return Ok(());
        }
        return verify_points(a, b, r, (&fa, &fb, &fr), n);
    }
    if nb != nr {
        return Err(LayoutError::Postcondition {
            what: format!(
                "composition {a} o {b}: CuTe's result {r} has size {nr} but B has size {nb} \
                 (the shape of B does not split evenly across the modes of A)"
            ),
        });
    }
    if exact {
        return Ok(());
    }
    if nb > CHECK_LIMIT {
        return Err(LayoutError::Postcondition {
            what: format!(
                "composition {a} o {b}: the divisibility conditions do not hold and B's domain \
                 ({nb} points) is too large to check CuTe's result {r} point by point"
            ),
        });
    }
    verify_points(a, b, r, (&fa, &fb, &fr), nb)
}

/// Check `R(i) == A(B(i))` for `i < n`.
fn verify_points(
    a: &Layout,
    b: &Layout,
    r: &Layout,
    (fa, fb, fr): (&FlatFn, &FlatFn, &FlatFn),
    nb: i128,
) -> Result<()> {
    FlatFn::check_work(
        &[fa, fb, fr],
        nb,
        "checking a composition: points times modes",
    )?;
    if fa.all_int && fr.all_int {
        for i in 0..nb {
            let bi = fb.eval_i(i)?;
            let (want, got) = (fa.eval_i(bi)?, fr.eval_i(i)?);
            if want != got {
                return Err(not_a_after_b(
                    a,
                    b,
                    r,
                    i,
                    bi,
                    &got.to_string(),
                    &want.to_string(),
                ));
            }
        }
        return Ok(());
    }
    for i in 0..nb {
        let bi = fb.eval_int(i)?.ok_or_else(|| {
            LayoutError::invalid(format!("composition: B = {b} must map to integers"))
        })?;
        let want = fa.eval(bi)?;
        let got = fr.eval(i)?;
        if want != got {
            return Err(not_a_after_b(a, b, r, i, bi, &show(&got), &show(&want)));
        }
    }
    Ok(())
}

fn not_a_after_b(
    a: &Layout,
    b: &Layout,
    r: &Layout,
    i: i128,
    bi: i128,
    got: &str,
    want: &str,
) -> LayoutError {
    LayoutError::Postcondition {
        what: format!(
            "composition {a} o {b}: CuTe's result {r} is not A o B: at i = {i} it gives {got} but \
             A(B({i})) = A({bi}) = {want} (a divisibility condition fails)"
        ),
    }
}
