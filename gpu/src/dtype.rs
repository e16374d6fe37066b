//! Element types and operand majors, shared by every kernel.
//!
//! ```
//! use cute_gpu::DType;
//! assert_eq!([DType::F16, DType::E4M3, DType::F32].map(|t| t.bits()), [16, 8, 32]);
//! assert!(DType::E5M2.is_fp8() && !DType::BF16.is_fp8());
//! ```

/// Which mode of an operand is contiguous in memory (CuTe's `GMMA::Major`, used for every kernel):
/// `K` (A row-major, B column-major) or `MN` (A column-major, B row-major).
pub use cute_layout_core::atom::gmma::Major;

/// Element types of kernel operands.
///
/// ```
/// use cute_gpu::DType;
/// assert_eq!((DType::BF16.bytes(), DType::BF16.name()), (2, "bf16"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE binary32.
    F32,
    /// 8-bit float 1.4.3 (OCP E4M3, torch `float8_e4m3fn`): FP8 GEMM inputs ([`crate::fp8`]).
    E4M3,
    /// 8-bit float 1.5.2 (OCP E5M2, torch `float8_e5m2`): FP8 GEMM inputs ([`crate::fp8`]).
    E5M2,
}

impl DType {
    /// Bytes per element.
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert_eq!((DType::F16.bytes(), DType::F32.bytes(), DType::E4M3.bytes()), (2, 4, 1));
    /// ```
    pub fn bytes(self) -> i64 {
        match self {
            DType::F16 | DType::BF16 => 2,
            DType::F32 => 4,
            DType::E4M3 | DType::E5M2 => 1,
        }
    }

    /// Bits per element.
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert_eq!(DType::BF16.bits(), 16);
    /// ```
    pub fn bits(self) -> i64 {
        self.bytes() * 8
    }

    /// The PTX type name (`f16`, `bf16`, `f32`, `e4m3`, `e5m2`), also used in kernel names.
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert_eq!(DType::E5M2.name(), "e5m2");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::E4M3 => "e4m3",
            DType::E5M2 => "e5m2",
        }
    }

    /// The C type generated code stores the element as (16- and 8-bit values are raw payloads).
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert_eq!(DType::F32.c_type(), "float");
    /// assert_eq!(DType::BF16.c_type(), "unsigned short"); // a raw 16-bit payload
    /// ```
    pub fn c_type(self) -> &'static str {
        match self {
            DType::F32 => "float",
            DType::F16 | DType::BF16 => "unsigned short",
            DType::E4M3 | DType::E5M2 => "unsigned char",
        }
    }

    /// True for the 16-bit floating-point types the tensor-core kernels take as inputs.
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert!(DType::F16.is_half() && DType::BF16.is_half() && !DType::F32.is_half());
    /// ```
    pub fn is_half(self) -> bool {
        matches!(self, DType::F16 | DType::BF16)
    }

    /// True for the 8-bit floating-point types (Hopper's FP8 wgmma inputs).
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert!(DType::E4M3.is_fp8() && !DType::F16.is_fp8());
    /// ```
    pub fn is_fp8(self) -> bool {
        matches!(self, DType::E4M3 | DType::E5M2)
    }

    /// True for the types a GEMM writes (f16, bf16, f32).
    ///
    /// ```
    /// use cute_gpu::DType;
    /// assert!(DType::BF16.is_output() && !DType::E4M3.is_output());
    /// ```
    pub fn is_output(self) -> bool {
        !self.is_fp8()
    }
}
