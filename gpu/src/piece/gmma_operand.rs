//! The SM90 GEMM's shared-memory operand stages, from the GMMA layout atoms: the stage layout
//! (`tile_to_shape` of `GMMA::Layout_{K|MN}_SW128_Atom`), the wgmma descriptor's byte offsets and advances,
//! and the TMA boxes that fill a stage, all evaluated on the stage layout by layout-core.
//!
//! ```
//! use cute_gpu::piece::gmma_operand::gmma_operand;
//! use cute_gpu::Major;
//! let a = gmma_operand(Major::K, 128, 64, 16, "A").unwrap();
//! assert_eq!(a.stage.to_string(), "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))");
//! assert_eq!((a.sbo, a.k_step, a.mma_k, a.tma_box), (1024, 32, 16, [64, 128]));
//! // FP8: 128 values per 128-byte row, one wgmma k32 step is again 32 bytes
//! let f = gmma_operand(Major::K, 128, 128, 8, "A").unwrap();
//! assert_eq!((f.sbo, f.k_step, f.mma_k, f.tma_box), (1024, 32, 32, [128, 128]));
//! ```

use crate::dtype::Major;
use crate::emit::offset_at;
use crate::error::Result;
use cute_layout_core::atom::gmma::{SmemSwizzle, smem_atom};
use cute_layout_core::{IntTuple, Layout, tile_to_shape};

/// One operand's shared-memory stage, descriptor and TMA boxes, derived from its GMMA layout atom.
///
/// ```
/// use cute_gpu::{piece::gmma_operand::gmma_operand, Major};
/// let b = gmma_operand(Major::MN, 128, 64, 16, "B").unwrap(); // 16-bit B, N contiguous
/// assert_eq!((b.tnsp, b.mma_k), (1, 16));
/// assert!(gmma_operand(Major::MN, 128, 128, 8, "B").is_err()); // FP8 wgmma reads K-major only
/// ```
#[derive(Clone, Debug)]
pub struct GmmaOperand {
    /// The stage layout: `(rows, bk)` -> element offset.
    pub stage: Layout,
    /// Descriptor leading byte offset.
    pub lbo: i64,
    /// Descriptor stride byte offset.
    pub sbo: i64,
    /// Descriptor advance per wgmma K step, in bytes (32: k16 of 16-bit values, k32 of 8-bit ones).
    pub k_step: i64,
    /// K per wgmma instruction: 256 bits of K (16 for 16-bit values, 32 for FP8).
    pub mma_k: i64,
    /// Descriptor advance per 64 rows (M or N), in bytes.
    pub mn64: i64,
    /// TMA box, innermost first.
    pub tma_box: [u32; 2],
    /// Byte offsets of the boxes of one stage and the MN element offsets of their origins.
    pub boxes: Vec<(i64, i64)>,
    /// wgmma transpose flag: 1 for MN-major.
    pub tnsp: u32,
    /// Bytes per element.
    pub elem_bytes: i64,
    /// The derivation, as comment lines for the generated source.
    pub doc: String,
}

/// `rows` = BM (A) or BN (B); `bk` = one 128-byte swizzle row of `bits`-bit values (64 of 16 bits, 128 of
/// 8 bits) for K-major operands; for MN-major ones (16-bit only: FP8 wgmma reads K-major shared memory)
/// the 128-byte rows run along MN and `bk` is any multiple of 16 up to 256 (the TMA box's outer extent).
///
/// ```
/// use cute_gpu::{piece::gmma_operand::gmma_operand, Major};
/// let b = gmma_operand(Major::K, 256, 64, 16, "B").unwrap(); // a 256-row K-major B stage of halves
/// assert_eq!((b.sbo, b.tma_box, b.tnsp), (1024, [64, 256], 0));
/// assert!(gmma_operand(Major::K, 128, 32, 16, "A").is_err()); // bk must fill one 128-byte row
/// // an MN-major B of 256 columns and 80 K rows: four 64 x 80 boxes, the next 64 columns 80 * 128 bytes on
/// let v = gmma_operand(Major::MN, 256, 80, 16, "V").unwrap();
/// assert_eq!((v.lbo, v.tma_box, v.boxes.len()), (10240, [64, 80], 4));
/// assert!(gmma_operand(Major::MN, 256, 72, 16, "V").is_err()); // not whole k16 steps
/// ```
pub fn gmma_operand(
    major: Major,
    rows: i64,
    bk: i64,
    bits: i64,
    name: &str,
) -> Result<GmmaOperand> {
    let fits = match major {
        Major::K => bk * bits == 1024,
        Major::MN => bits == 16 && bk % 16 == 0 && (16..=256).contains(&bk),
    };
    if !fits {
        return crate::error::config(
            "gmma_operand",
            format!(
                "{name}: bk = {bk} of {bits}-bit values, {major:?}-major: K-major needs K per stage = one 128-byte row, MN-major 16-bit values and K a multiple of 16 up to 256"
            ),
        );
    }
    let atom = smem_atom(major, SmemSwizzle::Sw128, bits)?;
    let atom_l = atom.domain_layout()?.clone();
    let shape: IntTuple = format!("(_{rows},_{bk})").parse()?;
    let (bytes, mma_k) = (bits / 8, 256 / bits);
    Ok(match major {
        Major::K => {
            let stage = tile_to_shape(&atom_l, &shape, None)?;
            let sbo = offset_at(&stage, 8, 0)? * bytes;
            let k_step = offset_at(&stage, 0, mma_k)? * bytes;
            let mn64 = offset_at(&stage, 64, 0)? * bytes;
            let doc = format!(
                "// {name} K-major: atom smem_atom(Major::K, Sw128, {bits}) = {atom} (GMMA::Layout_K_SW128_Atom<{}>)
//   stage = tile_to_shape(atom, ({rows},{bk})) = {stage}
//   descriptor: LBO = 16 B (unused for swizzled K-major), SBO = s(8,0) = {sbo} B, per k{mma_k} + s(0,{mma_k}) = {k_step} B
//   (pre-swizzle address; the hardware applies the swizzle), per 64 rows + s(64,0) = {mn64} B; tnsp = 0
//   TMA box ({bk},{rows}) innermost first: one 128 B swizzle row of K x {rows} rows, coordinate {{kb*{bk}, t*{rows}}}",
                if bits == 16 { "half" } else { "fp8" }
            );
            GmmaOperand {
                stage,
                lbo: 16,
                sbo,
                k_step,
                mma_k,
                mn64,
                tma_box: [bk as u32, rows as u32],
                boxes: vec![(0, 0)],
                tnsp: 0,
                elem_bytes: bytes,
                doc,
            }
        }
        Major::MN => {
            // K-blocks of the atom first, then the 64-wide MN blocks (CUTLASS's Step<_2,_1> for MN-major):
            // one 64(MN) x 64(K) TMA box per 64 rows, 8 KiB each
            let order: IntTuple = "(_2,_1)".parse()?;
            let stage = tile_to_shape(&atom_l, &shape, Some(&order))?;
            let lbo = offset_at(&stage, 64, 0)? * 2;
            let sbo = offset_at(&stage, 0, 8)? * 2;
            let k_step = offset_at(&stage, 0, 16)? * 2;
            let mn64 = lbo;
            let boxes = (0..rows / 64)
                .map(|j| Ok((offset_at(&stage, 64 * j, 0)? * 2, 64 * j)))
                .collect::<Result<Vec<_>>>()?;
            let doc = format!(
                "// {name} MN-major: atom smem_atom(Major::MN, Sw128, 16) = {atom} (GMMA::Layout_MN_SW128_Atom<half>)
//   stage = tile_to_shape(atom, ({rows},{bk}), Step<_2,_1>) = {stage}
//   descriptor (canonical MN-major SW128: ((8,8,m),(8,k)):((1,8,LBO),(64,SBO)) elements): LBO = s(64,0) = {lbo} B
//   (next 64 MN), SBO = s(0,8) = {sbo} B (next 8 K), per k16 + s(0,16) = {k_step} B, per 64 rows + s(64,0) = {mn64} B; tnsp = 1
//   TMA box (64,{bk}) innermost first (128 B of MN x {bk} K), {nb} per stage at s(64*j,0) = {offs:?} B, coordinate {{t*{rows} + 64*j, kb*{bk}}}",
                nb = rows / 64,
                offs = boxes.iter().map(|b| b.0).collect::<Vec<_>>()
            );
            GmmaOperand {
                stage,
                lbo,
                sbo,
                k_step,
                mma_k,
                mn64,
                tma_box: [64, bk as u32],
                boxes,
                tnsp: 1,
                elem_bytes: 2,
                doc,
            }
        }
    })
}

impl GmmaOperand {
    /// The same stage filled by at least `parts` TMA boxes, so that the CTAs of a cluster can each load
    /// some of them and multicast them to all: a K-major stage's one box becomes `parts` boxes of
    /// `rows / parts` rows (whole 8-row swizzle atoms), at their offsets in the stage layout; an MN-major
    /// stage already has one box per 64 rows (at least `parts` of them needed).
    ///
    /// ```
    /// use cute_gpu::{piece::gmma_operand::gmma_operand, Major};
    /// let b = gmma_operand(Major::K, 256, 64, 16, "B").unwrap().split_boxes(2).unwrap();
    /// assert_eq!((b.tma_box, b.boxes.clone()), ([64, 128], vec![(0, 0), (16384, 128)]));
    /// let odd = gmma_operand(Major::K, 192, 128, 8, "B").unwrap().split_boxes(2).unwrap(); // FP8
    /// assert_eq!((odd.tma_box, odd.boxes[1]), ([128, 96], (12288, 96)));
    /// assert!(gmma_operand(Major::MN, 64, 64, 16, "B").unwrap().split_boxes(2).is_err()); // one box
    /// ```
    pub fn split_boxes(&self, parts: i64) -> Result<GmmaOperand> {
        let rows = cute_layout_core::size(&self.stage.mode(0)?)?.value;
        if self.boxes.len() as i64 >= parts {
            return Ok(self.clone());
        }
        if self.tnsp != 0 || parts < 1 || rows % (8 * parts) != 0 {
            return crate::error::config(
                "gmma_operand",
                format!(
                    "{rows} rows in {} box(es) cannot be split into {parts} boxes of whole 8-row swizzle atoms",
                    self.boxes.len()
                ),
            );
        }
        let part = rows / parts;
        let boxes = (0..parts)
            .map(|j| {
                Ok((
                    offset_at(&self.stage, j * part, 0)? * self.elem_bytes,
                    j * part,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(GmmaOperand {
            tma_box: [self.tma_box[0], part as u32],
            boxes,
            ..self.clone()
        })
    }
}
