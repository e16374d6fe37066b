//! SM90 GEMM epilogues, from the GMMA accumulator layout ([`gmma_c_layout`]) to D:
//!
//! - [`Sm90Epilogue::direct`]: each thread stores its accumulator pairs to global memory, predicated at
//!   the M and N edges ([`Sm90Epilogue::direct_column_major`]: each value, into a column-major D);
//! - [`Sm90Epilogue::tma_store`]: each warp writes its 16 rows x one 128-byte swizzle row of columns into
//!   one of its two swizzled staging boxes (the output type's 128-byte K-major GMMA atom tiled to
//!   `(16, cols)`), and its lane 0 TMA-stores the box while the warp goes on.
//!
//! Where a thread's accumulators sit: `gmma_c_layout(N)` written as coordinates
//! ([`as_coordinates`](crate::atom::as_coordinates)): thread `t` -> `(frag_row, frag_col)` by the thread
//! mode, value `v = v0 + 2h + 4j` -> `+ (8h, 8j + v0)` by the value mode.
//!
//! ```
//! use cute_gpu::{piece::{epilogue_op::EpilogueOp, epilogue_sm90::{Accumulators, Sm90Epilogue, Staging}}, DType};
//! let acc = Accumulators::new(256).unwrap(); // m64n256: 128 f32 accumulators per thread
//! let epi = Sm90Epilogue { acc: &acc, tile: (128, 256), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
//! assert_eq!(Staging::per_warp(DType::F16).unwrap().cols, 64); // one 128-byte row of halves per box
//! assert!(epi.tma_store(&Staging::per_warp(DType::F16).unwrap()).contains("tma_store_2d("));
//! ```

use crate::atom::{Fragment, StmatrixC, stmatrix_gmma_c};
use crate::dtype::{DType, Major};
use crate::emit::{offset_at, swizzle_expr};
use crate::error::{Result, config};
use crate::piece::epilogue_op::EpilogueOp;
use cute_layout_core::atom::gmma::{SmemSwizzle, gmma_c_layout, smem_atom};
use cute_layout_core::{IntTuple, Layout, Swizzle, tile_to_shape};

/// Rows of a GMMA accumulator tile held by one warp (the 64 rows of `gmma_c_layout` over 4 warps).
const WARP_ROWS: i64 = 16;

/// Where the accumulators of one `m64nN` wgmma live, from [`gmma_c_layout`]: the thread's first row and
/// column, and the value mode's steps.
///
/// ```
/// use cute_gpu::piece::epilogue_sm90::Accumulators;
/// let acc = Accumulators::new(64).unwrap(); // m64n64: value v0 + 2h + 4j at + (8h, 8j + v0)
/// assert_eq!((acc.h_rows, acc.j_cols, acc.fragment.value(1).unwrap()), (8, 8, [0, 1]));
/// ```
pub struct Accumulators {
    /// The fragment of `gmma_c_layout(n)` for thread `tid`.
    pub fragment: Fragment,
    /// Rows between value pairs `h = 0, 1` (8).
    pub h_rows: i64,
    /// Columns between value groups `j` (8).
    pub j_cols: i64,
    /// What one `stmatrix.x4` of these accumulators stores (16-bit outputs).
    pub stmatrix: StmatrixC,
}

impl Accumulators {
    /// The accumulator placement of a `64 x n` GMMA.
    ///
    /// ```
    /// use cute_gpu::piece::epilogue_sm90::Accumulators;
    /// let acc = Accumulators::new(128).unwrap();
    /// assert_eq!(acc.fragment.value(6).unwrap(), [8, 8]); // h = 1, j = 1
    /// ```
    pub fn new(n: i64) -> Result<Accumulators> {
        let fragment = Fragment::new(&gmma_c_layout(n)?, 64, "tid")?;
        fragment.pairs_along_columns()?;
        let (h, j) = (fragment.value(2)?, fragment.value(4)?);
        if h[1] != 0 || j[0] != 0 {
            return config(
                "gemm_sm90",
                format!(
                    "accumulator layout {}: value 2 must be a row step, 4 a column step",
                    fragment.layout
                ),
            );
        }
        // each warp's rows (values h = 0, 1 of each thread) fill its own 16-row block
        let threads = fragment.layout.mode(0)?;
        for t in 0..128 {
            let row = crate::emit::basis_coord(&threads, t)?[0];
            if [row, row + h[0]].iter().any(|r| r / WARP_ROWS != t / 32) {
                return config(
                    "gemm_sm90",
                    format!(
                        "accumulator layout {}: thread {t}'s rows {row} and {} are not in warp {}'s {WARP_ROWS} rows",
                        fragment.layout,
                        row + h[0],
                        t / 32
                    ),
                );
            }
        }
        Ok(Accumulators {
            fragment,
            h_rows: h[0],
            j_cols: j[1],
            stmatrix: stmatrix_gmma_c("(tid % 32)")?,
        })
    }
}

/// The TMA-store staging box: `(rows, cols)` output elements, 128-byte rows, swizzled like the atom.
///
/// ```
/// use cute_gpu::{piece::epilogue_sm90::Staging, DType};
/// let s = Staging::new(DType::F32).unwrap();
/// assert_eq!((s.cols, s.byte_swizzle.to_string()), (32, "Sw<3,4,3>".to_string())); // 32 floats per 128-byte row
/// ```
pub struct Staging {
    /// `tile_to_shape(atom, (rows, cols))`.
    pub layout: Layout,
    /// Rows per box: 64 (a warp group's) or 16 (a warp's, [`Staging::per_warp`]).
    pub rows: i64,
    /// The output type's 128-byte K-major atom.
    pub atom: String,
    /// Columns per box (one 128-byte row).
    pub cols: i64,
    /// The atom's swizzle on byte offsets.
    pub byte_swizzle: Swizzle,
}

impl Staging {
    /// The staging box of `output`.
    ///
    /// ```
    /// use cute_gpu::{piece::epilogue_sm90::Staging, DType};
    /// let s = Staging::new(DType::BF16).unwrap();
    /// assert_eq!((s.cols, s.byte_swizzle.to_string()), (64, "Sw<3,4,3>".to_string()));
    /// ```
    pub fn new(output: DType) -> Result<Staging> {
        Staging::with_rows(output, 64)
    }

    /// The staging box of one warp's 16 rows of a GMMA accumulator (`gmma_c_layout`: warp `w` holds rows
    /// `[16w, 16w + 16)` of the 64): two 8-row swizzle atoms, so each warp stages and stores its own rows
    /// without waiting for the rest of its warp group.
    ///
    /// ```
    /// use cute_gpu::{piece::epilogue_sm90::Staging, DType};
    /// let s = Staging::per_warp(DType::BF16).unwrap();
    /// assert_eq!((s.rows, s.cols, s.layout.to_string()), (16, 64, "((_8,_2),(_64,_1)):((_64,_512),(_1,_0))".to_string()));
    /// ```
    pub fn per_warp(output: DType) -> Result<Staging> {
        Staging::with_rows(output, WARP_ROWS)
    }

    fn with_rows(output: DType, rows: i64) -> Result<Staging> {
        let osz = output.bytes();
        let cols = 128 / osz;
        let atom = smem_atom(Major::K, SmemSwizzle::Sw128, osz * 8)?;
        let shape: IntTuple = format!("(_{rows},_{cols})").parse()?;
        let layout = tile_to_shape(atom.domain_layout()?, &shape, None)?;
        let sw = atom.swizzle().ok_or_else(|| crate::GpuError::Config {
            kernel: "gemm_sm90",
            reason: format!("the output atom {atom} has no swizzle"),
        })?;
        // element offsets -> byte offsets: the swizzle's base moves up by log2(bytes per element)
        let byte_swizzle = Swizzle::new(sw.bits, sw.base + osz.trailing_zeros() as i64, sw.shift)?;
        if offset_at(&layout, 1, 0)? * osz != 128 {
            return config(
                "gemm_sm90",
                format!("staging layout {layout}: rows are not 128 bytes"),
            );
        }
        Ok(Staging {
            layout,
            rows,
            atom: atom.to_string(),
            cols,
            byte_swizzle,
        })
    }
}

/// The epilogue of one consumer warp group.
///
/// ```
/// # use cute_gpu::{piece::{epilogue_op::EpilogueOp, epilogue_sm90::*}, DType};
/// # let acc = Accumulators::new(128).unwrap();
/// # let epi = Sm90Epilogue { acc: &acc, tile: (128, 128), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
/// assert_eq!((epi.tile, epi.osz), ((128, 128), 2));
/// assert!(epi.direct().contains("const int frag_row = "));
/// ```
pub struct Sm90Epilogue<'a> {
    /// Accumulator placement.
    pub acc: &'a Accumulators,
    /// CTA tile (bm, bn).
    pub tile: (i64, i64),
    /// 64-row chunks per consumer.
    pub m_chunks: i64,
    /// `" + cw * rows"` when consumers split the tile's rows, else empty.
    pub cw_row: String,
    /// Output bytes per element.
    pub osz: i64,
    /// The fused elementwise op.
    pub op: EpilogueOp,
}

impl Sm90Epilogue<'_> {
    fn frag(&self) -> String {
        format!(
            "      const int frag_row = {}, frag_col = {};   // gmma_c_layout: thread -> (row, col) of its first value\n",
            self.acc.fragment.row, self.acc.fragment.col
        )
    }

    /// Stores of the accumulators, predicated at the M and N edges.
    ///
    /// ```
    /// # use cute_gpu::{piece::{epilogue_op::EpilogueOp, epilogue_sm90::*}, DType};
    /// # let acc = Accumulators::new(128).unwrap();
    /// # let epi = Sm90Epilogue { acc: &acc, tile: (128, 128), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
    /// let c = epi.direct();
    /// assert!(c.contains("epilogue: gmma_c_layout(128) = ") && c.contains("store_pair("));
    /// ```
    pub fn direct(&self) -> String {
        self.direct_with("out_t* drow = D + (long long)row * ldd;", &|v0, v1| {
            format!("if (col < N) store_pair(drow + col, {v0}, {v1}, col + 1 < N);")
        })
    }

    /// [`Sm90Epilogue::direct`] into a column-major D (`D[row + col * ldd]`): each value on its own, a
    /// warp's 8 consecutive rows of one column in 16 bytes.
    ///
    /// ```
    /// # use cute_gpu::{piece::{epilogue_op::EpilogueOp, epilogue_sm90::*}, DType};
    /// # let acc = Accumulators::new(16).unwrap();
    /// # let epi = Sm90Epilogue { acc: &acc, tile: (64, 16), m_chunks: 1, cw_row: String::new(), osz: 2, op: EpilogueOp::default() };
    /// let c = epi.direct_column_major();
    /// assert!(c.contains("store_pair(dcol + (long long)(col + 1) * ldd, acc[c][4 * j + 2 * h + 1], 0.f, false)"));
    /// ```
    pub fn direct_column_major(&self) -> String {
        self.direct_with("out_t* dcol = D + row;", &|v0, v1| {
            format!(
                "if (col < N) store_pair(dcol + (long long)col * ldd, {v0}, 0.f, false);\n              \
                 if (col + 1 < N) store_pair(dcol + (long long)(col + 1) * ldd, {v1}, 0.f, false);"
            )
        })
    }

    /// The direct epilogue's loops over the thread's accumulators: `row_ptr` declares the row's pointer,
    /// `store(v0, v1)` stores the values at `(row, col)` and `(row, col + 1)`.
    fn direct_with(&self, row_ptr: &str, store: &dyn Fn(&str, &str) -> String) -> String {
        let ((bm, bn), m_chunks, cw_row) = (self.tile, self.m_chunks, &self.cw_row);
        let v0 = self.op.apply("acc[c][4 * j + 2 * h]", "row", "col");
        let v1 = self.op.apply("acc[c][4 * j + 2 * h + 1]", "row", "col + 1");
        let (h_rows, j_cols, nj) = (self.acc.h_rows, self.acc.j_cols, bn / 8);
        let mut c = format!(
            "      // epilogue: gmma_c_layout({bn}) = {} -> (row, col) of each accumulator; predicated at the M/N edges\n",
            self.acc.fragment.layout
        );
        c += &self.frag();
        c += &format!(
            r#"#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c) {{
#pragma unroll
        for (int h = 0; h < 2; ++h) {{
          const int row = tm * {bm}{cw_row} + c * 64 + frag_row + {h_rows} * h;
          if (row < M) {{
            {row_ptr}
#pragma unroll
            for (int j = 0; j < {nj}; ++j) {{
              const int col = tn * {bn} + {j_cols} * j + frag_col;
              {}
            }}
          }}
        }}
      }}
"#,
            store(&v0, &v1)
        );
        c
    }

    /// Boxes across the right edge when N is not a multiple of 16 bytes of D: a TMA store would also write
    /// the columns up to the next 16 bytes, so these are stored from the registers, predicated.
    fn edge(&self, cols: i64) -> String {
        let ((bm, _), cw_row, ejs) = (self.tile, &self.cw_row, cols / 8);
        let (h_rows, j_cols) = (self.acc.h_rows, self.acc.j_cols);
        format!(
            r#"          if (col0 + {cols} > N && N % {} != 0) {{
            // a box across the right edge with N not a multiple of 16 bytes: the TMA store would also write
            // the columns up to the next 16 bytes (into D's padding), so these boxes are stored from the
            // registers, predicated (uniform branch: the whole warp group takes it)
#pragma unroll
            for (int h = 0; h < 2; ++h) {{
              const int row = tm * {bm}{cw_row} + c * 64 + frag_row + {h_rows} * h;
              if (row < M) {{
#pragma unroll
                for (int jj = 0; jj < {ejs}; ++jj) {{
                  const int col = col0 + {j_cols} * jj + frag_col;
                  if (col < N)
                    store_pair(D + (long long)row * ldd + col, {e0},
                               {e1}, col + 1 < N);
                }}
              }}
            }}
            continue;
          }}
"#,
            16 / self.osz,
            e0 = self.op.apply(
                &format!("acc[c][4 * (q * {ejs} + jj) + 2 * h]"),
                "row",
                "col"
            ),
            e1 = self.op.apply(
                &format!("acc[c][4 * (q * {ejs} + jj) + 2 * h + 1]"),
                "row",
                "col + 1"
            ),
        )
    }

    /// The TMA-store epilogue through the staging boxes at `ebase`: each warp converts its 16 rows of a
    /// 128-byte-wide column block into one of its two boxes ([`Staging::per_warp`]; `stmatrix.x4` for
    /// 16-bit outputs, as CUTLASS's SM90 epilogue, 8-byte stores of pairs for f32) and its lane 0
    /// TMA-stores them, with no barrier across the warp group (as cuBLAS's SM90 kernels: ncu showed their
    /// consumers store per warp, ours waited on two warp-group barriers per box).
    ///
    /// ```
    /// # use cute_gpu::{piece::{epilogue_op::EpilogueOp, epilogue_sm90::*}, DType};
    /// # let acc = Accumulators::new(128).unwrap();
    /// # let epi = Sm90Epilogue { acc: &acc, tile: (128, 128), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
    /// let c = epi.tma_store(&Staging::per_warp(DType::BF16).unwrap());
    /// assert!(c.contains("stmatrix_x4(buf + ") && c.contains("tma_store_2d(&tmD, buf, col0, tm * 128 + cw * 64 + c * 64 + ew * 16);"));
    /// assert!(c.contains("__syncwarp();") && !c.contains("bar.sync"));
    /// // f32 output: 8-byte stores of each value pair
    /// let f32_epi = Sm90Epilogue { osz: 4, ..epi };
    /// assert!(f32_epi.tma_store(&Staging::per_warp(DType::F32).unwrap()).contains("st_shared_pair(buf + "));
    /// ```
    pub fn tma_store(&self, staging: &Staging) -> String {
        self.tma_store_at(staging, None)
    }

    /// [`Sm90Epilogue::tma_store`] into one batch of a strided-batched D: the tensor map's third
    /// coordinate is `batch` (a C expression), or a 2-D store for `None`.
    ///
    /// ```
    /// # use cute_gpu::{piece::{epilogue_op::EpilogueOp, epilogue_sm90::*}, DType};
    /// # let acc = Accumulators::new(128).unwrap();
    /// # let epi = Sm90Epilogue { acc: &acc, tile: (128, 128), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
    /// let c = epi.tma_store_at(&Staging::per_warp(DType::BF16).unwrap(), Some("tb"));
    /// assert!(c.contains("tma_store_3d(&tmD, buf, col0, tm * 128 + cw * 64 + c * 64 + ew * 16, tb);"));
    /// ```
    pub fn tma_store_at(&self, staging: &Staging, batch: Option<&str>) -> String {
        debug_assert_eq!(staging.rows, WARP_ROWS, "per-warp staging boxes");
        let ((bm, bn), m_chunks, cw_row, osz) = (self.tile, self.m_chunks, &self.cw_row, self.osz);
        let row = format!("tm * {bm}{cw_row} + c * 64 + ew * {WARP_ROWS}");
        let store = match batch {
            Some(b) => format!("tma_store_3d(&tmD, buf, col0, {row}, {b});"),
            None => format!("tma_store_2d(&tmD, buf, col0, {row});"),
        };
        let ecols = staging.cols;
        let box_bytes = staging.rows * 128;
        let mut c = format!(
            "      // epilogue: gmma_c_layout({bn}) -> (row, col) of each accumulator -> the warp's staging box {} (element\n      // offsets), swizzle {} on bytes; its lane 0 TMA-stores the box (out-of-bounds rows and columns are not written)\n",
            staging.layout, staging.byte_swizzle
        );
        c += &self.frag();
        c += &format!(
            "      const int ew = tid / 32;   // this warp's rows [{WARP_ROWS} ew, {WARP_ROWS} ew + {WARP_ROWS}) of each 64\n"
        );
        c += &format!(
            "#pragma unroll\n      for (int c = 0; c < {m_chunks}; ++c) {{\n#pragma unroll\n        for (int q = 0; q < {}; ++q) {{\n          const int col0 = tn * {bn} + q * {ecols};\n",
            bn / ecols
        );
        c += &self.edge(ecols);
        c += &format!(
            r#"          const u32 buf = ebase + (u32)((cw * 4 + ew) * 2 + (eb & 1u)) * {box_bytes}u;
          // the store this warp issued two boxes ago from this buffer has finished reading it
          if (tid % 32 == 0) {}
          __syncwarp();
{}{}          ++eb;
        }}
      }}
"#,
            crate::arch::tma::store_wait_read(1),
            if osz == 2 {
                self.stage_stmatrix(staging)
            } else {
                self.stage_pairs(staging, &row)
            },
            publish_by(
                "          ",
                "__syncwarp();",
                "tid % 32 == 0",
                &format!("            {store}\n"),
                ""
            ),
        );
        c
    }

    /// A 16-bit box written by `stmatrix.x4` ([`StmatrixC`]): each lane addresses one 16-byte row, each
    /// of its four registers a converted value pair.
    fn stage_stmatrix(&self, staging: &Staging) -> String {
        let (st, ecols, (h_rows, j_cols)) = (
            &self.acc.stmatrix,
            staging.cols,
            (self.acc.h_rows, self.acc.j_cols),
        );
        let ((bm, _), cw_row) = (self.tile, &self.cw_row);
        let swizzled = swizzle_expr(staging.byte_swizzle, "off");
        let regs: Vec<String> = st
            .registers
            .iter()
            .map(|[dr, dc]| {
                let (h, jj) = (
                    dr / h_rows,
                    format!(
                        "q * {} + {} * jp + {}",
                        ecols / j_cols,
                        st.cols / j_cols,
                        dc / j_cols
                    ),
                );
                let grow = format!("(tm * {bm}{cw_row} + c * 64 + frag_row + {dr})");
                let gcol = format!("(col0 + {} * jp + frag_col + {dc})", st.cols);
                let v = |k: i64, col: &str| {
                    self.op
                        .apply(&format!("acc[c][4 * ({jj}) + {}]", 2 * h + k), &grow, col)
                };
                format!(
                    "pack_out({}, {})",
                    v(0, &gcol),
                    v(1, &format!("{gcol} + 1"))
                )
            })
            .collect();
        format!(
            r#"          // stmatrix.x4: lane -> (row, col) of the 16-byte row it addresses {}; register i -> value pair at {:?}
          const u32 sm_row = {}, sm_col = {};
#pragma unroll
          for (int jp = 0; jp < {}; ++jp) {{
            const u32 off = (sm_row * {ecols}u + {} * jp + sm_col) * 2u;
            stmatrix_x4(buf + {swizzled},
                        {});
          }}
"#,
            st.lanes,
            st.registers,
            st.row,
            st.col,
            ecols / st.cols,
            st.cols,
            regs.join(",\n                        ")
        )
    }

    /// A box written by 32-bit (8-byte for f32) shared stores of each thread's value pairs; `row` is the
    /// warp's first row in D.
    fn stage_pairs(&self, staging: &Staging, row: &str) -> String {
        let (ecols, ejs, h_rows, j_cols, osz) = (
            staging.cols,
            staging.cols / 8,
            self.acc.h_rows,
            self.acc.j_cols,
            self.osz,
        );
        let swizzled = swizzle_expr(staging.byte_swizzle, "off");
        // the element's coordinates in D, for the fused op
        let grow = format!("({row} + (int)r)");
        let gcol = format!("(col0 + {j_cols} * jj + frag_col)");
        format!(
            r#"#pragma unroll
          for (int h = 0; h < 2; ++h) {{
            const u32 r = frag_row - ew * {WARP_ROWS} + {h_rows} * h;
#pragma unroll
            for (int jj = 0; jj < {ejs}; ++jj) {{
              const u32 off = (r * {ecols}u + {j_cols} * jj + frag_col) * {osz}u;
              st_shared_pair(buf + {swizzled}, {s0},
                             {s1});
            }}
          }}
"#,
            s0 = self.op.apply(
                &format!("acc[c][4 * (q * {ejs} + jj) + 2 * h]"),
                &grow,
                &gcol
            ),
            s1 = self.op.apply(
                &format!("acc[c][4 * (q * {ejs} + jj) + 2 * h + 1]"),
                &grow,
                &format!("{gcol} + 1")
            ),
        )
    }
}

/// `store_pair(p, x, y, both)` to global memory and `st_shared_pair(a, x, y)`, converting f32 pairs to
/// the output type, and `out_t`.
///
/// ```
/// use cute_gpu::{piece::epilogue_sm90::store_fns, DType};
/// assert!(store_fns(DType::BF16).contains("cvt.rn.bf16x2.f32") && store_fns(DType::BF16).contains("typedef unsigned short out_t;"));
/// assert!(store_fns(DType::F32).contains("typedef float out_t;"));
/// ```
pub fn store_fns(output: DType) -> String {
    match output {
        DType::F32 => {
            r#"__device__ __forceinline__ void store_pair(float* p, float x, float y, bool both) {
  if (both) asm volatile("st.global.v2.f32 [%0], {%1, %2};" :: "l"(p), "f"(x), "f"(y) : "memory");
  else asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(x) : "memory");
}
__device__ __forceinline__ void st_shared_pair(u32 a, float x, float y) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};" :: "r"(a), "f"(x), "f"(y) : "memory");
}
typedef float out_t;
"#
            .to_string()
        }
        _ => {
            let t = output.name();
            format!(
                r#"{}// the output type's value pair (x in the low half)
__device__ __forceinline__ u32 pack_out(float x, float y) {{ return {}(x, y); }}
__device__ __forceinline__ void store_pair(unsigned short* p, float x, float y, bool both) {{
  if (both) asm volatile("st.global.b32 [%0], %1;" :: "l"(p), "r"(pack_out(x, y)) : "memory");
  else {{ unsigned short h; asm("cvt.rn.{t}.f32 %0, %1;" : "=h"(h) : "f"(x)); asm volatile("st.global.b16 [%0], %1;" :: "l"(p), "h"(h) : "memory"); }}
}}
__device__ __forceinline__ void st_shared_pair(u32 a, float x, float y) {{
  asm volatile("st.shared.b32 [%0], %1;" :: "r"(a), "r"(pack_out(x, y)) : "memory");
}}
typedef unsigned short out_t;
{}"#,
                crate::arch::convert::PACK,
                crate::arch::convert::pack_fn(output),
                crate::arch::ldmatrix::STMATRIX
            )
        }
    }
}

/// A warp group's `64 x n` accumulator tile stored through shared memory: converted, written into
/// `n / staging.cols` staging boxes (the output atom's swizzle, 32-bit shared stores of value pairs),
/// then one thread TMA-stores the boxes (full 128-byte rows; the tensor map clips rows and columns out of
/// bounds) and waits until they are read. For kernels whose accumulators are one flat array of 8-column
/// groups (`fragment` is `gmma_c_layout(8)`'s, `reg(j, v)` the register of value `v` of group `j`).
///
/// ```
/// use cute_gpu::{atom::Fragment, piece::{epilogue_sm90::{StagedStore, Staging}, online_softmax::gmma_index}, DType};
/// let f = Fragment::new(&cute_layout_core::atom::gmma::gmma_c_layout(8).unwrap(), 64, "tid").unwrap();
/// let st = Staging::new(DType::BF16).unwrap();
/// let s = StagedStore { fragment: &f, staging: &st, n: 128, pack: "pack_bf16x2", barrier: "3 + cw".into() };
/// let w = s.write(&|j, v| gmma_index("o", "0", j, v), &|q| format!("buf + {}u", q * 8192)).unwrap();
/// assert!(w.contains("st_staged(buf + 8192u + ") && w.contains("o[(1 * 8 + jj) * 4 + 1]"));
/// let t = s.store(&|q| format!("tma_store_4d(&tmO, buf + {}u, {}, row0, h, b);", q * 8192, q * 64));
/// assert!(t.contains("fence.proxy.async") && t.contains("cp.async.bulk.wait_group.read 0;"));
/// ```
pub struct StagedStore<'a> {
    /// The accumulator fragment of one 8-column group (`gmma_c_layout(8)`, pairs along columns).
    pub fragment: &'a Fragment,
    /// The staging box (the output type's atom tiled to `(64, cols)`).
    pub staging: &'a Staging,
    /// Columns of the tile (a multiple of `staging.cols`).
    pub n: i64,
    /// The function packing two f32 into one 32-bit word of the output type.
    pub pack: &'a str,
    /// The warp group's named barrier (a C expression; 128 threads).
    pub barrier: String,
}

impl StagedStore<'_> {
    /// `st_staged(addr, &word)`: the 32-bit shared store [`StagedStore::write`] uses.
    ///
    /// ```
    /// assert!(cute_gpu::piece::epilogue_sm90::StagedStore::device_fns().contains("st.shared.b32"));
    /// ```
    pub fn device_fns() -> String {
        crate::arch::memory::store_fn("st_staged", crate::arch::memory::Space::Shared, 1)
    }

    /// Each thread's value pairs into box `q` at `box_addr(q)` (a 32-bit shared address expression): row
    /// `fragment.row + dr`, column `8 jj + fragment.col + dc` of the box, swizzled on bytes.
    pub fn write(
        &self,
        reg: &dyn Fn(&str, i64) -> String,
        box_addr: &dyn Fn(i64) -> String,
    ) -> Result<String> {
        let (f, st) = (self.fragment, self.staging);
        let values = cute_layout_core::size(&f.layout.mode(1)?)?.value;
        let osz = 128 / st.cols;
        let groups = st.cols / 8;
        let mut c = format!(
            "      // staged store: gmma_c_layout -> the staging box {} (element offsets), swizzle {} on bytes\n",
            st.layout, st.byte_swizzle
        );
        for q in 0..self.n / st.cols {
            let j = format!("{q} * {groups} + jj");
            for v in (0..values).step_by(2) {
                let [dr, dc] = f.value(v)?;
                let off = format!(
                    "(u32)((({}) + {dr}) * {} + jj * 8 + ({}) + {dc}) * {osz}u",
                    f.row, st.cols, f.col
                );
                c += &format!(
                    "#pragma unroll\n      for (int jj = 0; jj < {groups}; ++jj) {{\n        const u32 off = {off}, w = {}({}, {});\n        st_staged({} + {}, &w);\n      }}\n",
                    self.pack,
                    reg(&j, v),
                    reg(&j, v + 1),
                    box_addr(q),
                    swizzle_expr(st.byte_swizzle, "off")
                );
            }
        }
        Ok(c)
    }

    /// The generic-proxy writes made visible to TMA, the warp group synchronized, and thread `tid == 0`
    /// issuing `store(q)` for each box, committing them and waiting until they are read (the staging
    /// memory may be reused, or the CTA may exit).
    pub fn store(&self, store: &dyn Fn(i64) -> String) -> String {
        let wait = format!("        {}\n", crate::arch::tma::store_wait_read(0));
        publish("      ", &self.barrier, &self.stores(store), &wait)
    }

    /// As [`StagedStore::store`] without the wait: thread `tid == 0` must wait until the group is read
    /// (`store_wait_read(0)`) before the boxes are written again and before the CTA exits, so that the
    /// TMA unit's reads run under whatever the warp group does next.
    ///
    /// ```
    /// # use cute_gpu::{atom::Fragment, piece::epilogue_sm90::{StagedStore, Staging}, DType};
    /// # let f = Fragment::new(&cute_layout_core::atom::gmma::gmma_c_layout(8).unwrap(), 64, "tid").unwrap();
    /// # let st = Staging::new(DType::BF16).unwrap();
    /// let s = StagedStore { fragment: &f, staging: &st, n: 64, pack: "pack_bf16x2", barrier: "3".into() };
    /// let t = s.store_unwaited(&|_| "tma_store_4d(&tmO, buf, 0, row0, h, b);".into());
    /// assert!(t.contains("cp.async.bulk.commit_group") && !t.contains("wait_group"));
    /// ```
    pub fn store_unwaited(&self, store: &dyn Fn(i64) -> String) -> String {
        publish("      ", &self.barrier, &self.stores(store), "")
    }

    fn stores(&self, store: &dyn Fn(i64) -> String) -> String {
        (0..self.n / self.staging.cols)
            .map(|q| format!("        {}\n", store(q)))
            .collect()
    }
}

/// A warp group's staged boxes handed to the TMA unit: its generic-proxy writes made visible to the async
/// proxy, the warp group synchronized on named barrier `barrier` (128 threads), and thread `tid == 0`
/// issuing `stores` (whole lines), committing them as one bulk group, then `after` (whole lines: a wait
/// until the group is read, or nothing).
///
/// ```
/// # use cute_gpu::piece::epilogue_sm90::publish;
/// let p = publish("  ", "3 + cw", "    tma_store_2d(&tmD, buf, x, y);\n", "");
/// assert!(p.contains("fence.proxy.async") && p.contains("if (tid == 0) {\n    tma_store_2d"));
/// assert!(p.contains("cp.async.bulk.commit_group"));
/// ```
pub fn publish(indent: &str, barrier: &str, stores: &str, after: &str) -> String {
    let sync = crate::arch::sync::named_barrier_sync(barrier, 128);
    publish_by(indent, &sync, "tid == 0", stores, after)
}

/// [`publish`] for the threads that `sync` (a statement) synchronizes, the stores issued by the thread
/// for which `leader` (a C condition) holds.
///
/// ```
/// # use cute_gpu::piece::epilogue_sm90::publish_by;
/// let p = publish_by("  ", "__syncwarp();", "tid % 32 == 0", "    tma_store_2d(&tmD, buf, x, y);\n", "");
/// assert!(p.contains("__syncwarp();\n  if (tid % 32 == 0) {"));
/// ```
pub fn publish_by(indent: &str, sync: &str, leader: &str, stores: &str, after: &str) -> String {
    format!(
        "{indent}{}   // generic-proxy writes -> TMA\n{indent}{sync}\n{indent}if ({leader}) {{\n{stores}{indent}  {}\n{after}{indent}}}\n",
        crate::arch::sync::FENCE_PROXY_ASYNC,
        crate::arch::tma::STORE_COMMIT,
    )
}
