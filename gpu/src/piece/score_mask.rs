//! Masking of attention scores in an MMA accumulator fragment: every score whose key column is at or
//! past its row's limit becomes `-inf` (its softmax weight is then exactly 0). The limit is a C expression
//! of the row (the key count for padding, `row + 1 + Sk - Sq` for a causal mask); each value's row and
//! column come from the atom's C layout ([`Fragment`]), never by hand.
//!
//! ```
//! use cute_gpu::{atom::{sm80_mma, Fragment}, piece::{online_softmax::mma_index, score_mask::ScoreMask}, DType};
//! let f = Fragment::new(&sm80_mma(DType::BF16).unwrap().layout_c, 16, "lane").unwrap();
//! let m = ScoreMask { fragment: &f, atoms: (2, 8), atom: (16, 8), index: mma_index };
//! // causal, bottom-right aligned: row r sees keys below r + 1 + Sk - Sq
//! let c = m.emit("s", "q0", "k0", &|row| format!("{row} + 1 + Sk - Sq")).unwrap();
//! assert!(c.contains("const int lim1 = (q0 + mi * 16 + (lane / 4) + 8) + 1 + Sk - Sq;"));
//! ```

use crate::atom::Fragment;
use crate::error::Result;
use crate::piece::online_softmax::AccIndex;

/// The C expression of the keys a query row may see (scores at or past it are masked): `sk`, or with the
/// causal mask aligned bottom-right (FlashAttention 2's convention) `min(sk, row + 1 + sk - sq)`.
///
/// ```
/// use cute_gpu::piece::score_mask::key_limit;
/// assert_eq!(key_limit(false, "r"), "sk");
/// assert_eq!(key_limit(true, "m0 + r"), "min(sk, m0 + r + 1 + sk - sq)");
/// ```
pub fn key_limit(causal: bool, row: &str) -> String {
    if causal {
        format!("min(sk, {row} + 1 + sk - sq)")
    } else {
        "sk".to_string()
    }
}

/// The mask of a thread's `(atoms_m, atoms_n)` accumulator atoms of extent `atom` (rows, columns).
///
/// ```
/// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::{online_softmax::mma_index, score_mask::ScoreMask}, DType};
/// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
/// let m = ScoreMask { fragment: &f, atoms: (1, 8), atom: (16, 8), index: mma_index };
/// assert_eq!((m.atoms, m.atom), ((1, 8), (16, 8)));
/// ```
pub struct ScoreMask<'a> {
    /// The atom's C fragment.
    pub fragment: &'a Fragment,
    /// Atoms per thread along m and n.
    pub atoms: (i64, i64),
    /// Atom extent (rows, columns).
    pub atom: (i64, i64),
    /// How accumulators are named.
    pub index: AccIndex,
}

impl ScoreMask<'_> {
    /// Statements setting `s[mi][nj][v] = -inf` where the column `col0 + nj*atom_n + col(v)` is not below
    /// `limit(row)`, row = `row0 + mi*atom_m + row(v)` (`limit` maps a row variable to its C expression).
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, piece::{online_softmax::mma_index, score_mask::ScoreMask}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// let m = ScoreMask { fragment: &f, atoms: (1, 8), atom: (16, 8), index: mma_index };
    /// let c = m.emit("s", "r0", "c0", &|_row| "Sk".to_string()).unwrap(); // padding: keys past Sk
    /// assert!(c.contains("const int lim0 = Sk;") && c.contains("if (col + 1 >= lim1) s[mi][nj][3] = neg_inf();"));
    /// ```
    pub fn emit(
        &self,
        s: &str,
        row0: &str,
        col0: &str,
        limit: &dyn Fn(&str) -> String,
    ) -> Result<String> {
        let f = self.fragment;
        let values = cute_layout_core::size(&f.layout.mode(1)?)?.value;
        let ((am, an), (mm, nn)) = (self.atoms, self.atom);
        let mut c = format!(
            "    #pragma unroll\n    for (int mi = 0; mi < {am}; ++mi) {{  // mask: -inf at or past each row's key limit\n"
        );
        let mut rows: Vec<i64> = Vec::new();
        for v in 0..values {
            let dr = f.value(v)?[0];
            if !rows.contains(&dr) {
                c += &format!(
                    "      const int lim{} = {};\n",
                    rows.len(),
                    limit(&format!("({row0} + mi * {mm} + {} + {dr})", f.row))
                );
                rows.push(dr);
            }
        }
        c += &format!(
            "      #pragma unroll\n      for (int nj = 0; nj < {an}; ++nj) {{\n        const int col = {col0} + nj * {nn} + {};\n",
            f.col
        );
        for v in 0..values {
            let [dr, dc] = f.value(v)?;
            let r = rows.iter().position(|&x| x == dr).unwrap_or(0);
            c += &format!(
                "        if (col + {dc} >= lim{r}) {} = neg_inf();\n",
                (self.index)(s, "mi", "nj", v)
            );
        }
        c += "      }\n    }\n";
        Ok(c)
    }
}
