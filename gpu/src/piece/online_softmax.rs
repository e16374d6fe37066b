//! The online softmax of attention (FlashAttention's running row max and row sum) over an MMA accumulator
//! fragment: for each key block, the scores' row max (across the threads sharing a row by `shfl.xor`),
//! the rescale of the running sum and of the output accumulators by `exp2((m_old - m_new) * scale * log2 e)`,
//! the scores replaced in place by `exp2(s * scale * log2 e - m * scale * log2 e)` (one `fma` and one
//! `ex2.approx`), and at the end the `1/l` normalization and the log-sum-exp `m * scale + ln l`.
//!
//! Which rows a thread owns, which accumulator value lies in which row, and which lanes share a row all
//! come from the atom's C layout ([`Fragment`]): the m16n8k16 `mma.sync` fragment (2 rows per atom, rows
//! shared by the 4 lanes of a quad: `shfl.xor` 1 and 2) or a wgmma accumulator (`gmma_c_layout`, the same
//! pattern over a warp group), named through an [`AccIndex`].
//!
//! ```
//! use cute_gpu::atom::{sm80_mma, Fragment};
//! use cute_gpu::piece::online_softmax::{mma_index, OnlineSoftmax};
//! let mma = sm80_mma(cute_gpu::DType::BF16).unwrap();
//! let f = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
//! let sm = OnlineSoftmax::new(&f, 1, mma_index).unwrap();
//! assert_eq!((sm.rows, sm.xor_masks.clone(), sm.value_row.clone()), (2, vec![1, 2], vec![0, 0, 1, 1]));
//! ```

use crate::atom::Fragment;
use crate::emit::basis_coord;
use crate::error::{Result, config};

/// How generated code names one accumulator value: `(array, m-atom index, n-atom index, value)` -> an
/// lvalue (the atom indices are C expressions).
///
/// ```
/// use cute_gpu::piece::online_softmax::{gmma_index, mma_index, AccIndex};
/// let ix: [AccIndex; 2] = [mma_index, gmma_index];
/// assert_eq!(ix.map(|f| f("s", "mi", "nj", 3)), ["s[mi][nj][3]".to_string(), "s[(nj) * 4 + 3]".to_string()]);
/// ```
pub type AccIndex = fn(&str, &str, &str, i64) -> String;

/// `name[mi][nj][v]`: `mma.sync` accumulators declared `float name[MI][NJ][4]`.
///
/// ```
/// use cute_gpu::piece::online_softmax::mma_index;
/// assert_eq!(mma_index("acc", "0", "nj", 2), "acc[0][nj][2]");
/// ```
pub fn mma_index(name: &str, mi: &str, nj: &str, v: i64) -> String {
    format!("{name}[{mi}][{nj}][{v}]")
}

/// `name[nj * 4 + v]`: wgmma accumulators declared `float name[N/2]`, as `N/8` atoms of the `64 x 8`
/// fragment's 4 values (checked by [`crate::atom::gmma_n8_values`]); one atom along m.
///
/// ```
/// use cute_gpu::piece::online_softmax::gmma_index;
/// assert_eq!(gmma_index("o", "0", "dj + 1", 1), "o[(dj + 1) * 4 + 1]");
/// ```
pub fn gmma_index(name: &str, _mi: &str, nj: &str, v: i64) -> String {
    format!("{name}[({nj}) * 4 + {v}]")
}

/// The online softmax of one accumulator fragment type.
///
/// ```
/// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
/// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
/// let sm = OnlineSoftmax::new(&f, 2, mma_index).unwrap();
/// assert_eq!((sm.atoms_m, sm.row_offsets.clone()), (2, vec![0, 8])); // rows r and r + 8 of each atom
/// ```
#[derive(Clone, Debug)]
pub struct OnlineSoftmax {
    /// Atoms along m per thread (each with its own rows).
    pub atoms_m: i64,
    /// Rows a thread owns per atom.
    pub rows: usize,
    /// For each fragment value, which of the thread's rows it is in.
    pub value_row: Vec<usize>,
    /// The row offset (in the atom) of each of the thread's rows, from its row 0.
    pub row_offsets: Vec<i64>,
    /// Lane xor masks reaching every thread that shares a row (the row reductions).
    pub xor_masks: Vec<i64>,
    /// How accumulators are named.
    pub index: AccIndex,
    /// Lazy rescaling (FlashAttention 4): the running max moves only when a key block's row max exceeds
    /// it by more than this many powers of two (probabilities stay below `2^threshold`, exactly
    /// normalized at the end), and [`OnlineSoftmax::rescale`] skips the output accumulators of a warp
    /// whose rows all kept their max. `None`: the max follows every block.
    pub lazy_threshold: Option<f64>,
    /// One of every this many score atoms (along n) computes its probabilities with `poly_exp2` on the
    /// FMA pipe instead of `ex2.approx` on the special-function unit ([`crate::arch::math::poly_ex2`],
    /// FlashAttention 4's offload; measured slower on an H100, where the softmax is not bound by the
    /// special-function unit: [`crate::kernels::attention_sm90::Sm90AttentionConfig::poly_exp2_every`]).
    /// 0: every exponential on the special-function unit.
    pub poly_exp2_every: i64,
}

/// The variable prefix of the softmax state in generated code.
const P: &str = "sm";

impl OnlineSoftmax {
    /// The softmax of `fragment` (an atom's C layout as coordinates) with `atoms_m` atoms along m per thread.
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::BF16).unwrap().layout_c, 16, "lane").unwrap();
    /// let sm = OnlineSoftmax::new(&f, 1, mma_index).unwrap();
    /// assert_eq!(sm.xor_masks, [1, 2]); // a row is shared by the 4 lanes of a quad
    /// ```
    pub fn new(fragment: &Fragment, atoms_m: i64, index: AccIndex) -> Result<OnlineSoftmax> {
        let threads_mode = fragment.layout.mode(0)?;
        let threads = cute_layout_core::size(&threads_mode)?.value;
        let values = cute_layout_core::size(&fragment.layout.mode(1)?)?.value;
        let mut row_offsets = Vec::new();
        let mut value_row = Vec::new();
        for v in 0..values {
            let r = fragment.value(v)?[0];
            let at = row_offsets.iter().position(|&x| x == r).unwrap_or_else(|| {
                row_offsets.push(r);
                row_offsets.len() - 1
            });
            value_row.push(at);
        }
        if threads <= 0 || threads & (threads - 1) != 0 {
            return config(
                "online_softmax",
                format!("{threads} threads: not a power of two"),
            );
        }
        let mut xor_masks = Vec::new();
        for bit in 0..threads.trailing_zeros() {
            if basis_coord(&threads_mode, 1 << bit)?[0] == 0 {
                if bit >= 5 {
                    return config(
                        "online_softmax",
                        format!("{}: a row spans warps (bit {bit})", fragment.layout),
                    );
                }
                xor_masks.push(1i64 << bit);
            }
        }
        for t in 0..threads {
            let row = basis_coord(&threads_mode, t)?[0];
            let sharing = (0..threads)
                .filter(|&u| basis_coord(&threads_mode, u).map(|c| c[0]).ok() == Some(row))
                .count();
            if sharing != 1 << xor_masks.len() {
                return config(
                    "online_softmax",
                    format!(
                        "{}: row {row} is not shared along lane bits",
                        fragment.layout
                    ),
                );
            }
        }
        Ok(OnlineSoftmax {
            atoms_m,
            rows: row_offsets.len(),
            value_row,
            row_offsets,
            xor_masks,
            index,
            lazy_threshold: None,
            poly_exp2_every: 0,
        })
    }

    /// The same softmax with lazy rescaling above `threshold` powers of two
    /// ([`lazy_threshold`](Self::lazy_threshold)).
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let sm = OnlineSoftmax::new(&f, 1, mma_index).unwrap().lazy(Some(8.0));
    /// let u = sm.update_scores("s", 8, "sl2");
    /// assert!(u.contains("if (!((mx[0] - sm_max[mi][0]) * sl2 > 8.0f)) mx[0] = sm_max[mi][0];"));
    /// assert!(u.contains("sm_grew |= mx[1] != sm_max[mi][1];"));
    /// assert!(sm.declare_corr().contains("bool sm_grew = false;"));
    /// assert!(sm.rescale("o", 16).contains("if (__any_sync(0xffffffffu, sm_grew))"));
    /// ```
    pub fn lazy(self, threshold: Option<f64>) -> OnlineSoftmax {
        OnlineSoftmax {
            lazy_threshold: threshold,
            ..self
        }
    }

    /// The same softmax with one of every `every` score atoms exponentiated on the FMA pipe
    /// ([`poly_exp2_every`](Self::poly_exp2_every); 0 or 1 never or always).
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let u = OnlineSoftmax::new(&f, 1, mma_index).unwrap().with_poly_exp2(4).update_scores("s", 8, "sl2");
    /// assert!(u.contains("s[mi][nj][0] = nj % 4 == 3 ? poly_exp2(x0) : fast_exp2(x0);"));
    /// ```
    pub fn with_poly_exp2(self, every: i64) -> OnlineSoftmax {
        OnlineSoftmax {
            poly_exp2_every: every,
            ..self
        }
    }

    /// The C expression of a probability `2^x` (`x` a variable) in score atom `nj`, with the offload.
    fn exp2(&self, x: &str) -> String {
        match self.poly_exp2_every {
            1 => format!("poly_exp2({x})"),
            n => format!("nj % {n} == {} ? poly_exp2({x}) : fast_exp2({x})", n - 1),
        }
    }

    fn reduce(&self, op: &str, var: &str) -> String {
        self.xor_masks
            .iter()
            .map(|m| format!("{var} = {op}({var}, __shfl_xor_sync(0xffffffffu, {var}, {m}));"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The running state `sm_max[MI][R]` (raw scores) and `sm_sum[MI][R]` (this thread's columns only;
    /// reduced across the row at the end), initialized to `-inf` and 0.
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let d = OnlineSoftmax::new(&f, 2, mma_index).unwrap().declare();
    /// assert!(d.contains("float sm_max[2][2], sm_sum[2][2];") && d.contains("sm_max[i][r] = neg_inf();"));
    /// ```
    pub fn declare(&self) -> String {
        let (mi, r) = (self.atoms_m, self.rows);
        format!(
            "  float {P}_max[{mi}][{r}], {P}_sum[{mi}][{r}];  // running row max (raw scores), row sum (own columns)\n  #pragma unroll\n  for (int i = 0; i < {mi}; ++i)\n    #pragma unroll\n    for (int r = 0; r < {r}; ++r) {{ {P}_max[i][r] = neg_inf(); {P}_sum[i][r] = 0.f; }}\n"
        )
    }

    /// One key block: scores `s` (`s_n` atoms along n) become probabilities in place, the running max and
    /// sum advance, and the output accumulators `o` (`o_n` atoms along n) are rescaled (always: lazy
    /// rescaling is for the deferred [`OnlineSoftmax::update_scores`] + [`OnlineSoftmax::rescale`]). `scale_log2` is
    /// the C expression of `scale * log2(e)` (scale > 0).
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let u = OnlineSoftmax::new(&f, 1, mma_index).unwrap().update("s", 8, "o", 16, "sl2");
    /// assert!(u.contains("s[mi][nj][0] = fast_exp2(fmaf(s[mi][nj][0], sl2, -ms[0]));"));
    /// assert!(u.contains("o[mi][dj][3] *= corr[1];") && u.contains("__shfl_xor_sync(0xffffffffu, mx[0], 2)"));
    /// ```
    pub fn update(&self, s: &str, s_n: i64, o: &str, o_n: i64, scale_log2: &str) -> String {
        // O is rescaled right here, every block: laziness would save nothing
        let eager = self.clone().lazy(None);
        let mut c = eager.probabilities(s, s_n, scale_log2);
        c += &self.scale_rows(o, o_n, "corr");
        c + "    }\n"
    }

    /// `sm_corr[MI][R]`: the factors [`OnlineSoftmax::update_scores`] leaves for [`OnlineSoftmax::rescale`].
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// assert!(OnlineSoftmax::new(&f, 1, mma_index).unwrap().declare_corr().contains("float sm_corr[1][2];"));
    /// ```
    pub fn declare_corr(&self) -> String {
        let grew = match self.lazy_threshold {
            Some(_) => format!(
                "  bool {P}_grew = false;  // a row max of this thread moved since O was last rescaled\n"
            ),
            None => String::new(),
        };
        format!(
            "  float {P}_corr[{}][{}];  // the rescale of O by the last key block's new row max\n{grew}",
            self.atoms_m, self.rows
        )
    }

    /// [`OnlineSoftmax::update`] without touching the output accumulators (they may still be the target
    /// of an asynchronous MMA): the factors go to `sm_corr` ([`OnlineSoftmax::declare_corr`]) for a later
    /// [`OnlineSoftmax::rescale`].
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let u = OnlineSoftmax::new(&f, 1, mma_index).unwrap().update_scores("s", 8, "sl2");
    /// assert!(u.contains("sm_corr[mi][1] = corr[1];") && !u.contains("dj")); // O is not touched
    /// ```
    pub fn update_scores(&self, s: &str, s_n: i64, scale_log2: &str) -> String {
        let mut c = self.probabilities(s, s_n, scale_log2);
        for r in 0..self.rows {
            c += &format!("      {P}_corr[mi][{r}] = corr[{r}];\n");
        }
        c + "    }\n"
    }

    /// Multiplies the output accumulators `o` by the factors of the last [`OnlineSoftmax::update_scores`].
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let r = OnlineSoftmax::new(&f, 1, mma_index).unwrap().rescale("o", 16);
    /// assert!(r.contains("o[mi][dj][2] *= sm_corr[mi][1];"));
    /// ```
    pub fn rescale(&self, o: &str, o_n: i64) -> String {
        let c = format!(
            "    #pragma unroll\n    for (int mi = 0; mi < {}; ++mi) {{  // O *= exp2(m_old - m_new)\n{}    }}\n",
            self.atoms_m,
            self.scale_rows(o, o_n, &format!("{P}_corr[mi]"))
        );
        match self.lazy_threshold {
            // warp-uniform: every factor of a warp whose rows kept their max is exactly 1
            Some(_) => format!(
                "    if (__any_sync(0xffffffffu, {P}_grew)) {{\n{c}    }}\n    {P}_grew = false;\n"
            ),
            None => c,
        }
    }

    /// The opening of the per-atom-row loop through the probabilities and the rescaled row sums (the
    /// loop stays open, with `corr[r]` in scope).
    fn probabilities(&self, s: &str, s_n: i64, scale_log2: &str) -> String {
        let (ix, r_n) = (self.index, self.rows);
        let mut c = format!(
            "    #pragma unroll\n    for (int mi = 0; mi < {}; ++mi) {{  // online softmax\n      float mx[{r_n}], ms[{r_n}], corr[{r_n}];\n",
            self.atoms_m
        );
        for r in 0..r_n {
            c += &format!("      mx[{r}] = {P}_max[mi][{r}];\n");
        }
        c += &format!("      #pragma unroll\n      for (int nj = 0; nj < {s_n}; ++nj) {{\n");
        for (v, r) in self.value_row.iter().enumerate() {
            let sv = ix(s, "mi", "nj", v as i64);
            c += &format!("        mx[{r}] = fmaxf(mx[{r}], {sv});\n");
        }
        c += "      }\n";
        for r in 0..r_n {
            c += &format!("      {}\n", self.reduce("fmaxf", &format!("mx[{r}]")));
            c += &self.keep_max(r, scale_log2);
            c += &format!(
                "      ms[{r}] = mx[{r}] == neg_inf() ? 0.f : mx[{r}] * {scale_log2};  // a row masked so far stays 0\n      corr[{r}] = fast_exp2({P}_max[mi][{r}] * {scale_log2} - ms[{r}]);\n      {P}_max[mi][{r}] = mx[{r}];\n      {P}_sum[mi][{r}] *= corr[{r}];\n"
            );
        }
        c += &format!("      #pragma unroll\n      for (int nj = 0; nj < {s_n}; ++nj) {{\n");
        for (v, r) in self.value_row.iter().enumerate() {
            let sv = ix(s, "mi", "nj", v as i64);
            let x = format!("fmaf({sv}, {scale_log2}, -ms[{r}])");
            c += &match self.poly_exp2_every {
                0 => format!("        {sv} = fast_exp2({x});\n"),
                _ => format!(
                    "        const float x{v} = {x};\n        {sv} = {};\n",
                    self.exp2(&format!("x{v}"))
                ),
            };
            c += &format!("        {P}_sum[mi][{r}] += {sv};\n");
        }
        c += "      }\n";
        c
    }

    /// With lazy rescaling: row `r`'s new max `mx[r]` falls back to the running one unless it grew by more
    /// than the threshold (`-inf` rows move to the first finite max: the difference is `+inf`), and a
    /// move is remembered in `sm_grew`.
    fn keep_max(&self, r: usize, scale_log2: &str) -> String {
        let Some(t) = self.lazy_threshold else {
            return String::new();
        };
        format!(
            "      if (!((mx[{r}] - {P}_max[mi][{r}]) * {scale_log2} > {t:?}f)) mx[{r}] = {P}_max[mi][{r}];\n      {P}_grew |= mx[{r}] != {P}_max[mi][{r}];\n"
        )
    }

    /// Multiplies the accumulators `o` of atom row `mi` by `factor[r]`, `r` the value's row.
    fn scale_rows(&self, o: &str, o_n: i64, factor: &str) -> String {
        let mut c = format!("      #pragma unroll\n      for (int dj = 0; dj < {o_n}; ++dj) {{\n");
        for (v, r) in self.value_row.iter().enumerate() {
            c += &format!(
                "        {} *= {factor}[{r}];\n",
                (self.index)(o, "mi", "dj", v as i64)
            );
        }
        c + "      }\n"
    }

    /// The end: row sums reduced across the row, `o` multiplied by `1/l` (0 for a row with no key), and
    /// `sm_lse[MI][R]` = `ln(sum_j exp(scale * s_j))` (`-inf` for a row with no key).
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::online_softmax::{mma_index, OnlineSoftmax}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let c = OnlineSoftmax::new(&f, 1, mma_index).unwrap().finalize("o", 16, "sl2");
    /// assert!(c.contains("float sm_lse[1][2];") && c.contains("o[mi][dj][0] *= inv[0];"));
    /// ```
    pub fn finalize(&self, o: &str, o_n: i64, scale_log2: &str) -> String {
        let (mi_n, r_n) = (self.atoms_m, self.rows);
        let mut c = format!(
            "  float {P}_lse[{mi_n}][{r_n}];\n  #pragma unroll\n  for (int mi = 0; mi < {mi_n}; ++mi) {{  // 1/l and log-sum-exp\n    float inv[{r_n}];\n"
        );
        for r in 0..r_n {
            c += &format!(
                "    {{\n      float l = {P}_sum[mi][{r}];\n      {}\n      inv[{r}] = l == 0.f ? 0.f : 1.f / l;\n      {P}_lse[mi][{r}] = l == 0.f ? neg_inf() : ({P}_max[mi][{r}] * {scale_log2} + log2f(l)) * 0.6931471805599453f;\n    }}\n",
                self.reduce("__fadd_rn", "l")
            );
        }
        c += &self.scale_rows(o, o_n, "inv");
        c += "  }\n";
        c
    }
}
