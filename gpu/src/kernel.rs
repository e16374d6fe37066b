//! What a generator returns: CUDA C source plus everything needed to launch it.

use crate::error::Result;
use layout_core::{Int, IntTuple, Layout};

/// One kernel argument, in the order of the entry point's parameter list.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A device pointer; the name says which tensor (`src`, `dst`, `A`, ...).
    Ptr(String),
    /// A 32-bit signed integer (a dynamic extent); value taken from the layouts given to the generator.
    I32(String, i32),
    /// A 64-bit signed integer (a dynamic stride).
    I64(String, i64),
    /// A 32-bit float (alpha, beta).
    F32(String, f32),
}

/// A generated kernel: self-contained CUDA C source, its entry point and its launch configuration.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Name of the `extern "C"` entry point.
    pub name: String,
    /// The CUDA C source (no headers).
    pub source: String,
    /// Grid dimensions for the problem the kernel was generated for.
    pub grid: (u32, u32, u32),
    /// Block dimensions.
    pub block: (u32, u32, u32),
    /// Dynamic shared memory in bytes.
    pub dynamic_smem_bytes: u32,
    /// Arguments, in order; pointers are bound by the caller at launch.
    pub args: Vec<Arg>,
    /// Byte alignment every pointer argument must have.
    pub pointer_alignment: usize,
}

impl Kernel {
    /// Names of the pointer arguments, in order.
    pub fn pointer_names(&self) -> Vec<&str> {
        self.args
            .iter()
            .filter_map(|a| match a {
                Arg::Ptr(n) => Some(n.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// A layout leaf as it appears in generated code: a literal when static, a named kernel parameter
/// when dynamic.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// The leaf.
    pub int: Int,
    /// The parameter name used when the leaf is dynamic.
    pub name: String,
}

impl Leaf {
    /// A leaf named `name`.
    pub fn new(int: Int, name: impl Into<String>) -> Leaf {
        Leaf {
            int,
            name: name.into(),
        }
    }

    /// The C expression: a literal for a static leaf, the parameter name for a dynamic one.
    pub fn expr(&self) -> String {
        if self.int.is_static {
            self.int.value.to_string()
        } else {
            self.name.clone()
        }
    }
}

/// Collects the dynamic leaves of a generator's layouts as kernel parameters (deduplicated by name).
#[derive(Default, Debug)]
pub(crate) struct Params {
    pub decls: Vec<String>,
    pub args: Vec<Arg>,
}

impl Params {
    pub fn ptr(&mut self, decl: &str, name: &str) {
        self.decls.push(format!("{decl} {name}"));
        self.args.push(Arg::Ptr(name.to_string()));
    }
    /// Registers a leaf as an extent (`int`) parameter if it is dynamic.
    pub fn extent(&mut self, leaf: &Leaf) -> crate::Result<()> {
        if !leaf.int.is_static && !self.has(&leaf.name) {
            let v = i32::try_from(leaf.int.value).map_err(|_| {
                crate::GpuError::Unsupported(format!(
                    "extent {} = {} does not fit in 32 bits",
                    leaf.name, leaf.int.value
                ))
            })?;
            self.decls.push(format!("int {}", leaf.name));
            self.args.push(Arg::I32(leaf.name.clone(), v));
        }
        Ok(())
    }
    /// Registers a leaf as a stride (`long long`) parameter if it is dynamic.
    pub fn stride(&mut self, leaf: &Leaf) {
        if !leaf.int.is_static && !self.has(&leaf.name) {
            self.decls.push(format!("long long {}", leaf.name));
            self.args.push(Arg::I64(leaf.name.clone(), leaf.int.value));
        }
    }
    pub fn f32(&mut self, name: &str, v: f32) {
        self.decls.push(format!("float {name}"));
        self.args.push(Arg::F32(name.to_string(), v));
    }
    fn has(&self, name: &str) -> bool {
        self.args
            .iter()
            .any(|a| matches!(a, Arg::I32(n, _) | Arg::I64(n, _) if n == name))
    }
    pub fn signature(&self) -> String {
        self.decls.join(",\n    ")
    }
}

/// Emits statements computing `out = layout(idx)` (CuTe `crd2idx(idx2crd(idx, shape), shape, stride)`)
/// for flat modes: the coordinate of each mode by `%` and `/` of the shape, times the stride.
/// Static leaves are literals, so the compiler strength-reduces them.
pub(crate) fn offset_statements(
    indent: &str,
    idx: &str,
    out: &str,
    modes: &[(Leaf, Leaf)],
) -> String {
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

/// A layout printed for a generated source's header: static leaves as CuTe prints them, dynamic
/// leaves as `#` (their values are kernel arguments, so the text, and the compile cache key, does
/// not depend on them).
pub(crate) fn pattern(l: &layout_core::Layout) -> String {
    fn walk(t: &layout_core::IntTuple) -> String {
        match t {
            layout_core::IntTuple::Int(i) if !i.is_static => "#".into(),
            layout_core::IntTuple::Tuple(v) => {
                format!("({})", v.iter().map(walk).collect::<Vec<_>>().join(","))
            }
            other => other.to_string(),
        }
    }
    format!("{}:{}", walk(l.shape()), walk(l.stride()))
}

/// One flattened mode: (shape, stride), both integer leaves.
pub type Mode = (Int, Int);

/// The leaves of a layout's shape and stride, paired: how the generators read a (coalesced or
/// divided) layout from layout-core to emit its index arithmetic. Not a layout operation: the modes
/// are the leaves as they are (strides must be integers, not basis elements).
pub fn flat_modes(l: &Layout) -> Result<Vec<Mode>> {
    let shapes = l.shape().leaves();
    let strides = l.stride().leaves();
    let mut out = Vec::with_capacity(shapes.len());
    for (s, d) in shapes.iter().zip(&strides) {
        match (s, d) {
            (IntTuple::Int(s), IntTuple::Int(d)) => out.push((*s, *d)),
            _ => {
                return crate::error::unsupported(format!(
                    "layout {l}: expected integer shapes and strides"
                ));
            }
        }
    }
    Ok(out)
}
