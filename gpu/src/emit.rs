//! The one layout -> C emitter: every index expression of a generated kernel is written here from a
//! layout (static leaves as literals, dynamic leaves as kernel parameters, basis strides as coordinates,
//! swizzles as xor-shifts), and every layout a generator needs as numbers is evaluated here by layout-core.
//!
//! ```
//! use cute_gpu::emit::{offset_statements, swizzle_expr, Leaf};
//! use cute_layout_core::{Int, Swizzle};
//! // (4,n):(d0,_1): the first mode's coordinate times the dynamic stride d0, then the rest
//! let modes = [
//!     (Leaf::new(Int::s(4), "s0"), Leaf::new(Int::d(100), "d0")),
//!     (Leaf::new(Int::d(9), "s1"), Leaf::new(Int::s(1), "d1")),
//! ];
//! let code = offset_statements("", "i", "off", &modes);
//! assert!(code.contains("off += (long long)(r_ % (unsigned int)(4)) * (long long)(d0);"), "{code}");
//! assert!(code.contains("r_ = r_ / (unsigned int)(4);"));
//! let sw = Swizzle { bits: 3, base: 3, shift: 3 };
//! assert_eq!(swizzle_expr(sw, "x"), "((x) ^ (((x) & 448) >> 3))");
//! ```

use crate::error::{GpuError, Result};
use crate::kernel::{Arg, TensorMapArg};
use cute_layout_core::{Int, IntTuple, Layout, Swizzle, crd2idx, layout_eval};

/// A layout leaf as it appears in generated code: a literal when static, a named kernel parameter
/// when dynamic.
///
/// ```
/// use cute_gpu::emit::Leaf;
/// use cute_layout_core::Int;
/// assert_eq!(Leaf::new(Int::s(64), "ld").expr(), "64"); // static: a literal
/// assert_eq!(Leaf::new(Int::d(1000), "ld").expr(), "ld"); // dynamic: a kernel parameter
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// The leaf.
    pub int: Int,
    /// The parameter name used when the leaf is dynamic.
    pub name: String,
}

impl Leaf {
    /// A leaf named `name`.
    ///
    /// ```
    /// use cute_gpu::emit::Leaf;
    /// use cute_layout_core::Int;
    /// let l = Leaf::new(Int::d(1000), "s0");
    /// assert_eq!((l.int.value, l.name.as_str()), (1000, "s0"));
    /// ```
    pub fn new(int: Int, name: impl Into<String>) -> Leaf {
        Leaf {
            int,
            name: name.into(),
        }
    }

    /// The C expression: a literal for a static leaf, the parameter name for a dynamic one.
    ///
    /// ```
    /// use cute_gpu::emit::Leaf;
    /// use cute_layout_core::Int;
    /// assert_eq!(Leaf::new(Int::s(4), "s0").expr(), "4");
    /// assert_eq!(Leaf::new(Int::d(4), "s0").expr(), "s0");
    /// ```
    pub fn expr(&self) -> String {
        if self.int.is_static {
            self.int.value.to_string()
        } else {
            self.name.clone()
        }
    }
}

/// The parameter list of a kernel: declarations (C) and arguments (host), in one order. Dynamic leaves
/// become parameters; static ones stay literals and add nothing.
///
/// ```
/// use cute_gpu::{Arg, emit::{Leaf, Params}};
/// use cute_layout_core::Int;
/// let mut p = Params::default();
/// p.ptr("const float* __restrict__", "src");
/// p.extent(&Leaf::new(Int::d(1000), "n")).unwrap();
/// p.extent(&Leaf::new(Int::s(4), "m")).unwrap(); // static: stays a literal, no parameter
/// p.stride(&Leaf::new(Int::d(1000), "ld"));
/// assert_eq!(p.signature(), "const float* __restrict__ src,\n    int n,\n    long long ld");
/// assert_eq!(p.args[1], Arg::I32("n".into(), 1000));
/// ```
#[derive(Default, Debug)]
pub struct Params {
    decls: Vec<String>,
    /// The host-side arguments, in the order of the declarations.
    pub args: Vec<Arg>,
}

impl Params {
    /// A device pointer parameter declared as `decl name`.
    ///
    /// ```
    /// use cute_gpu::{Arg, emit::Params};
    /// let mut p = Params::default();
    /// p.ptr("float*", "dst");
    /// assert_eq!((p.signature(), &p.args[0]), ("float* dst".to_string(), &Arg::Ptr("dst".into())));
    /// ```
    pub fn ptr(&mut self, decl: &str, name: &str) {
        self.decls.push(format!("{decl} {name}"));
        self.args.push(Arg::Ptr(name.to_string()));
    }

    /// A TMA tensor map parameter (`const __grid_constant__ TmaDesc name`), encoded at launch.
    ///
    /// ```
    /// use cute_gpu::{DType, TensorMapArg, emit::Params};
    /// let mut p = Params::default();
    /// p.tensor_map(TensorMapArg {
    ///     name: "tma_a".into(), buffer: "A".into(), dtype: DType::F16,
    ///     extents: [4096, 4096], ld: 4096, box_dims: [64, 128], swizzle_bytes: 128, outer: vec![],
    /// });
    /// assert_eq!(p.signature(), "const __grid_constant__ TmaDesc tma_a");
    /// ```
    pub fn tensor_map(&mut self, map: TensorMapArg) {
        self.decls
            .push(format!("const __grid_constant__ TmaDesc {}", map.name));
        self.args.push(Arg::TensorMap(map));
    }

    /// Registers a leaf as an extent (`int`) parameter if it is dynamic.
    ///
    /// ```
    /// use cute_gpu::emit::{Leaf, Params};
    /// use cute_layout_core::Int;
    /// let mut p = Params::default();
    /// p.extent(&Leaf::new(Int::d(96), "n")).unwrap();
    /// p.extent(&Leaf::new(Int::d(96), "n")).unwrap(); // the same name twice: one parameter
    /// assert_eq!(p.signature(), "int n");
    /// assert!(p.extent(&Leaf::new(Int::d(1 << 40), "big")).is_err()); // not an int
    /// ```
    pub fn extent(&mut self, leaf: &Leaf) -> Result<()> {
        if !leaf.int.is_static && !self.has(&leaf.name) {
            let v = crate::error::to_i32(&format!("extent {}", leaf.name), leaf.int.value)?;
            self.decls.push(format!("int {}", leaf.name));
            self.args.push(Arg::I32(leaf.name.clone(), v));
        }
        Ok(())
    }

    /// Registers a leaf as a stride (`long long`) parameter if it is dynamic.
    ///
    /// ```
    /// use cute_gpu::emit::{Leaf, Params};
    /// use cute_layout_core::Int;
    /// let mut p = Params::default();
    /// p.stride(&Leaf::new(Int::s(1), "d0")); // static unit stride: nothing
    /// p.stride(&Leaf::new(Int::d(1 << 40), "d1"));
    /// assert_eq!(p.signature(), "long long d1");
    /// ```
    pub fn stride(&mut self, leaf: &Leaf) {
        if !leaf.int.is_static && !self.has(&leaf.name) {
            self.decls.push(format!("long long {}", leaf.name));
            self.args.push(Arg::I64(leaf.name.clone(), leaf.int.value));
        }
    }

    /// A `float` parameter.
    ///
    /// ```
    /// use cute_gpu::{Arg, emit::Params};
    /// let mut p = Params::default();
    /// p.f32("alpha", 1.5);
    /// assert_eq!((p.signature(), &p.args[0]), ("float alpha".to_string(), &Arg::F32("alpha".into(), 1.5)));
    /// ```
    pub fn f32(&mut self, name: &str, v: f32) {
        self.decls.push(format!("float {name}"));
        self.args.push(Arg::F32(name.to_string(), v));
    }

    fn has(&self, name: &str) -> bool {
        self.args
            .iter()
            .any(|a| matches!(a, Arg::I32(n, _) | Arg::I64(n, _) if n == name))
    }

    /// The declarations, one per line, for the entry point's parameter list.
    ///
    /// ```
    /// use cute_gpu::emit::Params;
    /// let mut p = Params::default();
    /// p.ptr("const float*", "src");
    /// p.ptr("float*", "dst");
    /// assert_eq!(p.signature(), "const float* src,\n    float* dst");
    /// ```
    pub fn signature(&self) -> String {
        self.decls.join(",\n    ")
    }
}

/// Emits statements computing `out = layout(idx)` (CuTe `crd2idx(idx2crd(idx, shape), shape, stride)`)
/// for flat modes: the coordinate of each mode by `%` and `/` of the shape, times the stride.
/// Static leaves are literals, so the compiler strength-reduces them.
///
/// ```
/// use cute_gpu::emit::{offset_statements, Leaf};
/// use cute_layout_core::Int;
/// // _8:_1 -> off = i
/// let code = offset_statements("", "i", "off", &[(Leaf::new(Int::s(8), "s0"), Leaf::new(Int::s(1), "d0"))]);
/// assert_eq!(code, "long long off = 0;\n{\n  unsigned int r_ = i;\n  off += (long long)r_;\n}\n");
/// ```
pub fn offset_statements(indent: &str, idx: &str, out: &str, modes: &[(Leaf, Leaf)]) -> String {
    let mut s = String::new();
    let live: Vec<&(Leaf, Leaf)> = modes
        .iter()
        .filter(|(sh, _)| !sh.int.is_static_eq(1))
        .collect();
    s += &format!("{indent}long long {out} = 0;\n");
    if live.is_empty() {
        return s;
    }
    s += &format!("{indent}{{\n{indent}  unsigned int r_ = {idx};\n");
    for (k, (sh, st)) in live.iter().enumerate() {
        let last = k + 1 == live.len();
        let c = if last {
            "r_".to_string()
        } else {
            format!("(r_ % (unsigned int)({}))", sh.expr())
        };
        if !st.int.is_static_eq(0) {
            if st.int.is_static_eq(1) {
                s += &format!("{indent}  {out} += (long long){c};\n");
            } else {
                s += &format!(
                    "{indent}  {out} += (long long){c} * (long long)({});\n",
                    st.expr()
                );
            }
        }
        if !last {
            s += &format!("{indent}  r_ = r_ / (unsigned int)({});\n", sh.expr());
        }
    }
    s += &format!("{indent}}}\n");
    s
}

/// The C expression of `Swizzle<B,M,S>` applied to the expression `x`: `x ^ ((x & mask) >> S)` with
/// `mask` the `B` bits at `M+S`; `x` itself for `B = 0`.
///
/// ```
/// use cute_gpu::emit::swizzle_expr;
/// use cute_layout_core::Swizzle;
/// assert_eq!(swizzle_expr(Swizzle::new(3, 4, 3).unwrap(), "o"), "((o) ^ (((o) & 896) >> 3))");
/// assert_eq!(swizzle_expr(Swizzle::new(0, 4, 3).unwrap(), "o"), "o"); // the identity
/// ```
pub fn swizzle_expr(sw: Swizzle, x: &str) -> String {
    if sw.bits == 0 {
        x.to_string()
    } else {
        let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
        format!("(({x}) ^ ((({x}) & {mask}) >> {}))", sw.shift)
    }
}

/// The C expression of coordinate `mode` of a layout whose strides are basis elements (`_d@mode`), as a
/// function of the index expression `var`: the sum over the leaves with stride `d@mode` of
/// `(var / (product of the shapes before)) % shape * d`. As in CuTe's `idx2crd`, the last leaf is not
/// reduced modulo its shape (indices past the size extend it); factors of 1 are left out.
///
/// ```
/// let l: cute_layout_core::Layout = "(_4,_8):(_2@1,_1@0)".parse().unwrap();
/// assert_eq!(cute_gpu::emit::basis_coord_expr(&l, "lane", 0).unwrap(), "(lane / 4)");
/// assert_eq!(cute_gpu::emit::basis_coord_expr(&l, "lane", 1).unwrap(), "(lane % 4) * 2");
/// ```
pub fn basis_coord_expr(l: &Layout, var: &str, mode: usize) -> Result<String> {
    let shapes = l.shape().leaves();
    let strides = l.stride().leaves();
    let mut terms = Vec::new();
    let mut div = 1i64;
    for (k, (s, d)) in shapes.iter().zip(&strides).enumerate() {
        let s = s.expect_int("basis layout")?.value;
        let last = k + 1 == shapes.len();
        let scale = match d {
            IntTuple::Basis(b) if b.modes == [mode] && s != 1 => Some(b.scale.value),
            _ => None,
        };
        if let Some(scale) = scale {
            let quotient = if div == 1 {
                var.to_string()
            } else {
                format!("{var} / {div}")
            };
            let c = if last {
                format!("({quotient})")
            } else {
                format!("({quotient} % {s})")
            };
            terms.push(if scale == 1 {
                c
            } else {
                format!("{c} * {scale}")
            });
        }
        div *= s;
    }
    Ok(if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    })
}

/// The C expression of coordinate `dim` of the tile whose index along each mode of `tiles` is `vars[i]`:
/// `tiles` is the rest mode of `zipped_divide(make_identity_layout(shape), tiler)`, whose strides are the
/// tile extents as basis elements (`(_128@0,_64@1)`), so tile `(i, j)` starts at `i*128@0 + j*64@1`.
///
/// ```
/// use cute_gpu::emit::tile_origin_expr;
/// let tiles: cute_layout_core::Layout = "(_4,_2):(_128@0,_64@1)".parse().unwrap();
/// assert_eq!(tile_origin_expr(&tiles, &["bx", "by"], 0).unwrap(), "bx * 128");
/// assert_eq!(tile_origin_expr(&tiles, &["bx", "by"], 1).unwrap(), "by * 64");
/// ```
pub fn tile_origin_expr(tiles: &Layout, vars: &[&str], dim: usize) -> Result<String> {
    let strides = tiles.stride().leaves();
    let mut terms = Vec::new();
    let on_dim = strides.iter().enumerate().filter_map(|(i, d)| match d {
        IntTuple::Basis(b) if b.modes == [dim] => Some((i, b.scale.value)),
        _ => None,
    });
    for (i, scale) in on_dim {
        let var = vars.get(i).ok_or_else(|| GpuError::Config {
            kernel: "emit",
            reason: format!("{tiles}: mode {i} has no tile variable"),
        })?;
        terms.push(format!("{var} * {scale}"));
    }
    Ok(if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    })
}

/// The rank-2 coordinate `l(i)` of a layout with basis strides, evaluated by layout-core.
///
/// ```
/// use cute_gpu::emit::basis_coord;
/// let l: cute_layout_core::Layout = "(_4,_8):(_2@1,_1@0)".parse().unwrap();
/// assert_eq!(basis_coord(&l, 5).unwrap(), [1, 2]); // 5 = (1,1) -> 1*(_1@0) + 1*(_2@1)
/// ```
pub fn basis_coord(l: &Layout, i: i64) -> Result<[i64; 2]> {
    if let Some(c) = basis_coord_flat(l, i) {
        return Ok(c);
    }
    let c = crd2idx(&IntTuple::s(i), l.shape(), l.stride())?;
    match c.leaves().as_slice() {
        [IntTuple::Int(x), IntTuple::Int(y)] => Ok([x.value, y.value]),
        _ => Err(GpuError::Config {
            kernel: "emit",
            reason: format!("{l}({i}) = {c}: not a rank-2 coordinate"),
        }),
    }
}

/// [`basis_coord`] without building arithmetic tuples, when every stride is `scale * E<0>` or
/// `scale * E<1>` (or 0): `i` split along the flat shape (the last mode takes the rest), each part
/// times its stride. `None` for any other stride (then `crd2idx` decides).
fn basis_coord_flat(l: &Layout, i: i64) -> Option<[i64; 2]> {
    let (shapes, strides) = (l.shape().leaves(), l.stride().leaves());
    let mut out = [0i64; 2];
    let mut rest = i;
    for (k, (s, d)) in shapes.iter().zip(&strides).enumerate() {
        let s = match s {
            IntTuple::Int(x) => x.value,
            _ => return None,
        };
        let c = if k + 1 == shapes.len() {
            rest
        } else {
            rest % s
        };
        rest /= s.max(1);
        match d {
            IntTuple::Basis(b) if b.modes.len() == 1 && b.modes[0] < 2 => {
                out[b.modes[0]] = out[b.modes[0]].checked_add(c.checked_mul(b.scale.value)?)?;
            }
            IntTuple::Int(z) if z.value == 0 => {}
            _ => return None,
        }
    }
    Some(out)
}

/// The offset `l(r, c)` of a rank-2 layout (plain or swizzled), evaluated by layout-core.
///
/// ```
/// use cute_gpu::emit::offset_at;
/// let l: cute_layout_core::Layout = "(_4,_8):(_8,_1)".parse().unwrap();
/// assert_eq!(offset_at(&l, 1, 2).unwrap(), 10);
/// ```
pub fn offset_at(l: &Layout, r: i64, c: i64) -> Result<i64> {
    let coord = IntTuple::tuple(vec![IntTuple::d(r), IntTuple::d(c)]);
    let v = layout_eval(l, &coord)?;
    v.as_int().map(|i| i.value).ok_or_else(|| GpuError::Config {
        kernel: "emit",
        reason: format!("{l} at ({r},{c}) is {v}, not an offset"),
    })
}

/// A layout printed for a generated source's header: static leaves as CuTe prints them, dynamic
/// leaves as `#` (their values are kernel arguments, so the text, and the compile cache key, does
/// not depend on them).
///
/// ```
/// use cute_gpu::emit::pattern;
/// let l: cute_layout_core::Layout = "(4096,_8):(_1,4096)".parse().unwrap();
/// assert_eq!(pattern(&l), "(#,_8):(_1,#)");
/// ```
pub fn pattern(l: &Layout) -> String {
    fn walk(t: &IntTuple) -> String {
        match t {
            IntTuple::Int(i) if !i.is_static => "#".into(),
            IntTuple::Tuple(v) => {
                format!("({})", v.iter().map(walk).collect::<Vec<_>>().join(","))
            }
            other => other.to_string(),
        }
    }
    format!("{}:{}", walk(l.shape()), walk(l.stride()))
}

/// One flattened mode: (shape, stride), both integer leaves.
///
/// ```
/// use cute_gpu::emit::{flat_modes, Mode};
/// use cute_layout_core::Int;
/// let m: Vec<Mode> = flat_modes(&"(_8,100):(_1,_8)".parse().unwrap()).unwrap();
/// assert_eq!(m[1], (Int::d(100), Int::s(8)));
/// ```
pub type Mode = (Int, Int);

/// The leaves of a layout's shape and stride, paired: how the generators read a (coalesced or
/// divided) layout from layout-core to emit its index arithmetic. Not a layout operation: the modes
/// are the leaves as they are (strides must be integers, not basis elements).
///
/// ```
/// use cute_gpu::emit::flat_modes;
/// use cute_layout_core::Int;
/// let m = flat_modes(&"((_2,4),_8):((_1,_2),8)".parse().unwrap()).unwrap();
/// assert_eq!(m, vec![(Int::s(2), Int::s(1)), (Int::d(4), Int::s(2)), (Int::s(8), Int::d(8))]);
/// assert!(flat_modes(&"(_4,_8):(_1@0,_1@1)".parse().unwrap()).is_err()); // basis strides
/// ```
pub fn flat_modes(l: &Layout) -> Result<Vec<Mode>> {
    let shapes = l.shape().leaves();
    let strides = l.stride().leaves();
    let mut out = Vec::with_capacity(shapes.len());
    for (s, d) in shapes.iter().zip(&strides) {
        match (s, d) {
            (IntTuple::Int(s), IntTuple::Int(d)) => out.push((*s, *d)),
            _ => {
                return Err(GpuError::Config {
                    kernel: "emit",
                    reason: format!("layout {l}: expected integer shapes and strides"),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flat evaluation agrees with `crd2idx` on every index of the GMMA layouts as coordinates.
    #[test]
    fn basis_coord_flat_agrees_with_crd2idx() {
        use cute_layout_core::atom::gmma::{gmma_a_register_layout, gmma_c_layout};
        let layouts = [
            crate::atom::as_coordinates(&gmma_c_layout(128).unwrap(), 64).unwrap(),
            crate::atom::as_coordinates(&gmma_c_layout(8).unwrap(), 64).unwrap(),
            crate::atom::as_coordinates(&gmma_a_register_layout(16).unwrap(), 64).unwrap(),
        ];
        for l in &layouts {
            let n = cute_layout_core::size(l).unwrap().value;
            for i in 0..n {
                let slow = crd2idx(&IntTuple::s(i), l.shape(), l.stride()).unwrap();
                let fast = basis_coord_flat(l, i).expect("basis strides");
                let want: Vec<i64> = slow
                    .leaves()
                    .iter()
                    .map(|x| x.expect_int("coordinate").unwrap().value)
                    .collect();
                assert_eq!(fast.to_vec(), want, "{l}({i})");
            }
        }
    }
}
