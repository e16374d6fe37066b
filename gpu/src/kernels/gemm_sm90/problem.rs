//! The Hopper GEMM's problem: sizes, operand majors, leading dimensions and batches
//! ([`HopperProblem`], [`HopperBatch`]).

use super::*;

/// The problem: sizes, operand majors and leading dimensions (in elements) of A (M,K), B (K,N) and
/// D (M,N), row-major (`D[m*ldd + n]`) or, with `d_column_major`, column-major (`D[m + n*ldd]`).
/// A K-major = row-major (`A[m*lda + k]`), A MN-major = column-major (`A[k*lda + m]`);
/// B K-major = column-major (`B[n*ldb + k]`), B MN-major = row-major (`B[k*ldb + n]`).
///
/// ```
/// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
/// let p = HopperProblem { ldd: 4096, ..HopperProblem::padded(4000, 4000, 4096) };
/// assert_eq!((p.lda, p.ldb, p.ldd, p.a_major), (4096, 4096, 4096, Major::K));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperProblem {
    /// Rows of A and D.
    pub m: i64,
    /// Columns of B and D.
    pub n: i64,
    /// The reduction extent.
    pub k: i64,
    /// Leading dimension of A (multiple of 8: TMA needs 16-byte global strides).
    pub lda: i64,
    /// Leading dimension of B (multiple of 8).
    pub ldb: i64,
    /// Leading dimension of D (even): its row stride, or its column stride when `d_column_major`.
    pub ldd: i64,
    /// Which mode of A is contiguous in global (and shared) memory: K (row-major) or M (column-major).
    pub a_major: Major,
    /// Which mode of B is contiguous: K (column-major) or N (row-major).
    pub b_major: Major,
    /// A strided batch of problems computed by one launch, or `None` for one problem.
    pub batch: Option<HopperBatch>,
    /// D (and C) column-major: a decode-like `D = A·B` with few rows is computed as `Dᵀ = Bᵀ·Aᵀ`, its
    /// rows the wgmma's N (16 and up) instead of 64-row tiles mostly idle; its stores are the direct
    /// epilogue's (no TMA store).
    pub d_column_major: bool,
}

/// `count` problems of one shape computed by one launch (the tiles of every batch in one schedule):
/// batch `l` of an operand starts `l * stride` elements after batch 0. A and B strides of 0 share the
/// operand between batches; otherwise they must be 16-byte multiples (a third tensor-map dimension).
///
/// ```
/// use cute_gpu::kernels::gemm_sm90::{HopperBatch, HopperProblem};
/// let b = HopperBatch { count: 32, a: 1024 * 1024, b: 0, d: 1024 * 1024, c: 1024 * 1024, k_slices: false };
/// let p = HopperProblem { batch: Some(b), ..HopperProblem::padded(1024, 1024, 1024) };
/// assert_eq!(p.batch.unwrap().count, 32);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperBatch {
    /// Batches (at least 1).
    pub count: i64,
    /// Elements between batches of A (0: one A for every batch).
    pub a: i64,
    /// Elements between batches of B (0: one B for every batch).
    pub b: i64,
    /// Elements between batches of D.
    pub d: i64,
    /// Elements between batches of C (read by the fused `beta * C`).
    pub c: i64,
    /// The batches are K slices of one product summed in the kernel ([`crate::piece::split_sum`]):
    /// D and C are shared (`d` and `c` 0); the slices' partial sums go through the f32 buffer `W` (`count`
    /// slices of `M x ((N + 3) / 4 * 4)`, row-major in the kernel's view) and the counters `SKF` (zero
    /// when allocated; the kernel leaves them zero).
    pub k_slices: bool,
}

impl HopperProblem {
    /// Dense problem with leading dimensions rounded up to multiples of 8.
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30);
    /// assert_eq!((p.lda, p.ldb, p.ldd), (32, 32, 64)); // K, K and N rounded up to 8
    /// assert_eq!((p.a_major, p.b_major), (Major::K, Major::K));
    /// ```
    pub fn padded(m: i64, n: i64, k: i64) -> Self {
        let up = |x: i64| (x + 7) / 8 * 8;
        HopperProblem {
            m,
            n,
            k,
            lda: up(k),
            ldb: up(k),
            ldd: up(n),
            a_major: Major::K,
            b_major: Major::K,
            batch: None,
            d_column_major: false,
        }
    }
    /// The same sizes with the given operand majors (leading dimensions recomputed, rounded up to 8).
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30).with_majors(Major::MN, Major::MN);
    /// assert_eq!((p.lda, p.ldb), (104, 64)); // M and N rounded up to 8
    /// ```
    pub fn with_majors(self, a_major: Major, b_major: Major) -> Self {
        let up = |x: i64| (x + 7) / 8 * 8;
        HopperProblem {
            lda: up(if a_major == Major::K { self.k } else { self.m }),
            ldb: up(if b_major == Major::K { self.k } else { self.n }),
            a_major,
            b_major,
            ..self
        }
    }
    /// Elements of A's and B's buffers.
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30);
    /// assert_eq!(p.a_len(), 100 * 32); // M rows of lda = 32
    /// assert_eq!(p.with_majors(Major::MN, Major::K).a_len(), 30 * 104); // K columns of lda = 104
    /// ```
    pub fn a_len(&self) -> i64 {
        self.lda
            * if self.a_major == Major::K {
                self.m
            } else {
                self.k
            }
    }
    /// Elements of B's buffer.
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30);
    /// assert_eq!(p.b_len(), 60 * 32); // N columns of ldb = 32
    /// assert_eq!(p.with_majors(Major::K, Major::MN).b_len(), 30 * 64); // K rows of ldb = 64
    /// ```
    pub fn b_len(&self) -> i64 {
        self.ldb
            * if self.b_major == Major::K {
                self.n
            } else {
                self.k
            }
    }
    /// Short name of the operand majors: `kk` (A row-major, B column-major), `mk` (A column-major),
    /// `km` (B row-major), `mm` (both MN-major).
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(256, 256, 256);
    /// assert_eq!(p.majors_tag(), "kk");
    /// assert_eq!(p.with_majors(Major::MN, Major::K).majors_tag(), "mk");
    /// ```
    pub fn majors_tag(&self) -> &'static str {
        match (self.a_major, self.b_major) {
            (Major::K, Major::K) => "kk",
            (Major::MN, Major::K) => "mk",
            (Major::K, Major::MN) => "km",
            (Major::MN, Major::MN) => "mm",
        }
    }
}
