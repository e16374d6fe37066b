//! The fused elementwise epilogue shared by every GEMM kernel: `D(m,n) = act(alpha*acc + beta*C(m,n) +
//! bias)`, with the bias per row (`bias[m]`) or per column (`bias[n]`), the activation ReLU, GELU (erf
//! form) or SiLU, and the cast to the output type by the kernel's store. Emitted as two lambdas the
//! epilogues call with the element's global coordinates: `epi_scale(acc, m, n)` (alpha and beta*C, for
//! kernels whose epilogue does not read C itself) and `epi_post(v, m, n)` (bias, activation). The identity
//! op emits nothing and changes no kernel.
//!
//! ```
//! use cute_gpu::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};
//! let op = EpilogueOp { bias: BiasKind::PerColumn, activation: Activation::Relu, scale: false };
//! let l = op.lambdas(cute_gpu::DType::BF16, ("M", "N"));
//! assert!(l.contains("v += bf16_to_f32(bias[n]);") && l.contains("fmaxf(v, 0.f)"));
//! assert_eq!(op.tag(), "_bn_relu");
//! ```

use crate::dtype::DType;
use crate::emit::Params;
use crate::kernel::Buffer;

/// Which bias is added.
///
/// ```
/// use cute_gpu::piece::epilogue_op::{BiasKind, EpilogueOp};
/// assert_eq!(BiasKind::default(), BiasKind::None);
/// assert_eq!(EpilogueOp { bias: BiasKind::PerRow, ..Default::default() }.tag(), "_bm");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BiasKind {
    /// No bias.
    #[default]
    None,
    /// `bias[m]`: one value per row of D.
    PerRow,
    /// `bias[n]`: one value per column of D.
    PerColumn,
}

/// The activation applied last.
///
/// ```
/// use cute_gpu::piece::epilogue_op::{Activation, EpilogueOp};
/// let gelu = EpilogueOp { activation: Activation::Gelu, ..Default::default() };
/// assert_eq!(gelu.tag(), "_gelu");
/// assert!(gelu.lambdas(cute_gpu::DType::F32, ("M", "N")).contains("erff(v * 0.70710678f)"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Identity.
    #[default]
    None,
    /// `max(v, 0)`.
    Relu,
    /// `v * Φ(v)` with the exact (erf) normal CDF.
    Gelu,
    /// `v * sigmoid(v)`.
    Silu,
}

/// The fused epilogue of a GEMM kernel.
///
/// ```
/// use cute_gpu::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};
/// let op = EpilogueOp { bias: BiasKind::PerColumn, activation: Activation::Silu, scale: true };
/// assert_eq!(op.tag(), "_ab_bn_silu");
/// assert_eq!(op.apply("acc", "m", "n"), "epi_post(epi_scale(acc, m, n), m, n)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EpilogueOp {
    /// Bias.
    pub bias: BiasKind,
    /// Activation.
    pub activation: Activation,
    /// Whether the op also applies `alpha*acc + beta*C` (kernels whose epilogue has no C of its own).
    pub scale: bool,
}

impl EpilogueOp {
    /// True when the op changes nothing (no bias, no activation, no scaling).
    ///
    /// ```
    /// use cute_gpu::piece::epilogue_op::EpilogueOp;
    /// assert!(EpilogueOp::default().is_identity());
    /// assert!(!EpilogueOp { scale: true, ..Default::default() }.is_identity());
    /// ```
    pub fn is_identity(&self) -> bool {
        *self == EpilogueOp::default()
    }

    /// A suffix for kernel names: `_bn_gelu`, `_ab`, ... (empty for the identity).
    ///
    /// ```
    /// use cute_gpu::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};
    /// assert_eq!(EpilogueOp::default().tag(), "");
    /// let op = EpilogueOp { bias: BiasKind::PerRow, activation: Activation::Relu, scale: true };
    /// assert_eq!(op.tag(), "_ab_bm_relu");
    /// ```
    pub fn tag(&self) -> String {
        let bias = match self.bias {
            BiasKind::None => "",
            BiasKind::PerRow => "_bm",
            BiasKind::PerColumn => "_bn",
        };
        let act = match self.activation {
            Activation::None => "",
            Activation::Relu => "_relu",
            Activation::Gelu => "_gelu",
            Activation::Silu => "_silu",
        };
        format!("{}{bias}{act}", if self.scale { "_ab" } else { "" })
    }

    /// The bias buffer the op reads, if any: `m` values (per row) or `n` (per column) of `out`.
    ///
    /// ```
    /// use cute_gpu::{DType, piece::epilogue_op::{BiasKind, EpilogueOp}};
    /// let op = EpilogueOp { bias: BiasKind::PerColumn, ..Default::default() };
    /// assert_eq!(op.bias_buffer(100, 60, DType::BF16).unwrap().bytes, 120);
    /// assert!(EpilogueOp::default().bias_buffer(100, 60, DType::BF16).is_none());
    /// ```
    pub fn bias_buffer(&self, m: i64, n: i64, out: DType) -> Option<Buffer> {
        let values = match self.bias {
            BiasKind::None => return None,
            BiasKind::PerRow => m,
            BiasKind::PerColumn => n,
        };
        Some(Buffer {
            name: "bias".into(),
            bytes: values.max(0) as usize * out.bytes() as usize,
        })
    }

    /// The parameters the op reads: `alpha`, `beta`, `C`, `ldc` when it scales, `bias` when it adds one
    /// (pointers of the output type).
    ///
    /// ```
    /// use cute_gpu::{DType, emit::Params, piece::epilogue_op::{BiasKind, EpilogueOp}};
    /// let mut p = Params::default();
    /// EpilogueOp { bias: BiasKind::PerRow, scale: true, ..Default::default() }.params(&mut p, DType::F16, 2.0, 0.5);
    /// assert_eq!(p.signature(), "const unsigned short* __restrict__ C,\n    float alpha,\n    float beta,\n    const unsigned short* __restrict__ bias");
    /// ```
    pub fn params(&self, p: &mut Params, out: DType, alpha: f32, beta: f32) {
        let out_c = out.c_type();
        if self.scale {
            p.ptr(&format!("const {out_c}* __restrict__"), "C");
            p.f32("alpha", alpha);
            p.f32("beta", beta);
        }
        if self.bias != BiasKind::None {
            p.ptr(&format!("const {out_c}* __restrict__"), "bias");
        }
    }

    /// The lambdas (`epi_scale` when scaling, `epi_post` when there is a bias or an activation), to be
    /// emitted inside the kernel body where `C`, `ldd`, `bias`, `alpha`, `beta` are in scope; `extents`
    /// are the C expressions of M and N.
    ///
    /// ```
    /// use cute_gpu::{DType, piece::epilogue_op::{BiasKind, EpilogueOp}};
    /// let op = EpilogueOp { bias: BiasKind::PerRow, ..Default::default() };
    /// let l = op.lambdas(DType::F16, ("M", "N"));
    /// assert!(l.contains("auto epi_post = [&](float v, int m, int n) -> float {"));
    /// assert!(l.contains("if (m < M) v += f16_to_f32(bias[m]);"));
    /// assert_eq!(EpilogueOp::default().lambdas(DType::F16, ("M", "N")), "");
    /// ```
    pub fn lambdas(&self, out: DType, extents: (&str, &str)) -> String {
        self.lambdas_at(out, extents, "(long long)m * ldd + n")
    }

    /// [`EpilogueOp::lambdas`] with C's element `(m, n)` at `c_offset` (a C expression in `m`, `n`,
    /// `ldd`), e.g. `m + (long long)n * ldd` for a column-major C.
    ///
    /// ```
    /// use cute_gpu::{DType, piece::epilogue_op::EpilogueOp};
    /// let op = EpilogueOp { scale: true, ..Default::default() };
    /// assert!(op.lambdas_at(DType::F32, ("M", "N"), "m + (long long)n * ldd").contains("C[m + (long long)n * ldd]"));
    /// ```
    pub fn lambdas_at(&self, out: DType, extents: (&str, &str), c_offset: &str) -> String {
        let (mx, nx) = extents;
        let load = |x: &str| match out {
            DType::F32 => x.to_string(),
            DType::F16 => format!("f16_to_f32({x})"),
            DType::BF16 => format!("bf16_to_f32({x})"),
            DType::E4M3 | DType::E5M2 => {
                unreachable!("FP8 is an input type only (the generators check outputs)")
            }
        };
        let mut s = String::new();
        if self.scale {
            s += &format!(
                "  // fused epilogue: alpha*acc + beta*C (C read only inside D and when beta != 0)\n  auto epi_scale = [&](float acc, int m, int n) -> float {{\n    float v = alpha * acc;\n    if (beta != 0.f && m < {mx} && n < {nx}) v += beta * {};\n    return v;\n  }};\n",
                load(&format!("C[{c_offset}]"))
            );
        }
        if self.bias == BiasKind::None && self.activation == Activation::None {
            return s;
        }
        s += "  // fused epilogue: bias, activation\n  auto epi_post = [&](float v, int m, int n) -> float {\n";
        match self.bias {
            BiasKind::None => {}
            BiasKind::PerRow => s += &format!("    if (m < {mx}) v += {};\n", load("bias[m]")),
            BiasKind::PerColumn => s += &format!("    if (n < {nx}) v += {};\n", load("bias[n]")),
        }
        s += match self.activation {
            Activation::None => "",
            Activation::Relu => "    v = fmaxf(v, 0.f);\n",
            Activation::Gelu => "    v = 0.5f * v * (1.f + erff(v * 0.70710678f));\n",
            Activation::Silu => "    v = v / (1.f + __expf(-v));\n",
        };
        s += "    return v;\n  };\n";
        s
    }

    /// The expression applying the op to `v` at `(m, n)` (both scale and post as configured).
    ///
    /// ```
    /// use cute_gpu::piece::epilogue_op::{Activation, EpilogueOp};
    /// assert_eq!(EpilogueOp::default().apply("acc[i]", "m", "n"), "acc[i]");
    /// let relu = EpilogueOp { activation: Activation::Relu, ..Default::default() };
    /// assert_eq!(relu.apply("acc[i]", "m", "n"), "epi_post(acc[i], m, n)");
    /// ```
    pub fn apply(&self, v: &str, m: &str, n: &str) -> String {
        let v = if self.scale {
            format!("epi_scale({v}, {m}, {n})")
        } else {
            v.to_string()
        };
        if self.bias == BiasKind::None && self.activation == Activation::None {
            v
        } else {
            format!("epi_post({v}, {m}, {n})")
        }
    }
}
