//! The kernel's parameters and buffers, which problems it takes, and the per-call arguments (tensor
//! maps, scalars, grid).

use super::*;

/// The parameters (tensor maps with placeholder extents: [`apply`] fills them per call) and
/// the buffers (bytes set by the caller).
pub(super) fn parameters(cfg: &Sm90AttentionConfig, ops: &Operands) -> (Vec<Arg>, Vec<Buffer>) {
    let map = |name: &str, buffer: &str, box_dims: [u32; 2]| {
        Arg::TensorMap(TensorMapArg {
            name: name.into(),
            buffer: buffer.into(),
            dtype: cfg.dtype,
            extents: [cfg.head_dim as u64, 1],
            ld: 8,
            box_dims,
            swizzle_bytes: 128,
            outer: vec![(1, 8), (1, 8)],
        })
    };
    let mut args = vec![
        map("tmQ", "Q", ops.q.tma_box),
        map("tmK", "K", ops.k.tma_box),
        map("tmV", "V", ops.v.tma_box),
    ];
    if cfg.tails() {
        // a tail tile's Q: one consumer's 64 rows
        args.push(map("tmQt", "Q", [ops.q.tma_box[0], WG_ROWS as u32]));
    }
    if cfg.stages_o() {
        // one consumer's 64 rows x 64 columns (a staging box)
        args.push(map("tmO", "O", [CHUNK as u32, WG_ROWS as u32]));
    }
    let offsets: &[&str] = if cfg.varlen { &["cu_q", "cu_k"] } else { &[] };
    let counter: &[&str] = if cfg.dynamic() { &["tile_sched"] } else { &[] };
    for n in ["O", "LSE"].iter().chain(offsets).chain(counter) {
        args.push(Arg::Ptr(n.to_string()));
    }
    let tiles: &[&str] = if cfg.persistent {
        &["heads", "batches"]
    } else {
        &[]
    };
    for n in ["Sq", "Sk", "group"].iter().chain(tiles) {
        args.push(Arg::I32(n.to_string(), 0));
    }
    for n in STRIDES {
        args.push(Arg::I64(n.into(), 0));
    }
    args.push(Arg::F32("scale_log2".into(), 0.0));
    let buffers = ["Q", "K", "V", "O", "LSE"]
        .iter()
        .chain(offsets)
        .chain(counter)
        .map(|n| Buffer {
            name: n.to_string(),
            bytes: 0,
        })
        .collect();
    (args, buffers)
}

pub(super) fn kind(varlen: bool) -> &'static str {
    if varlen { "varlen" } else { "fixed-length" }
}

/// The extents the tensor maps span: rows of Q, rows of K/V, batches (the packed totals and one batch
/// for varlen).
pub(super) fn map_extents(args: &AttentionArgs) -> [i64; 3] {
    match args.packed {
        Some([q, k]) => [q, k, 1],
        None => [args.sq, args.sk, args.batch],
    }
}

/// Whether the Hopper kernel can take a problem with these strides (elements, `(batch, sequence, head)`
/// of Q, K, V): TMA strides are positive multiples of 16 bytes below 2^40 (the stride of an extent-1
/// mode does not matter); rows below 2^31. Packed varlen batches are taken (one batch of `total` rows).
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// use cute_gpu::kernels::attention_sm90::takes;
/// assert!(takes(&p.args));
/// let mut odd = p.args;
/// odd.strides[1][1] = 1028; // K rows 2056 bytes apart: not a multiple of 16 bytes
/// assert!(!takes(&odd));
/// // packed sequences (varlen): the batch stride is 0, the maps span one batch of 300 rows
/// let packed = cute_gpu::kernels::attention_sm80::AttentionArgs { strides: [[0, 1024, 128]; 4], packed: Some([300, 300]), ..p.args };
/// assert!(takes(&packed));
/// ```
pub fn takes(args: &AttentionArgs) -> bool {
    let [rq, rk, batch] = map_extents(args);
    let extents = [
        [batch, rq, args.hq],
        [batch, rk, args.hkv],
        [batch, rk, args.hkv],
    ];
    args.strides[..3]
        .iter()
        .zip(extents)
        .all(|(st, ext)| tma_strides(st, ext))
        && [rq, rk, args.sq, args.sk].iter().all(|&r| r < (1 << 31))
}

/// Whether a TMA map can describe a tensor with these `(batch, sequence, head)` strides and extents.
pub(super) fn tma_strides(st: &[i64; 3], ext: [i64; 3]) -> bool {
    st.iter()
        .zip(ext)
        .all(|(&x, e)| (x > 0 || e <= 1) && x >= 0 && (x * 2) % 16 == 0 && x * 2 < (1i64 << 40))
}

/// Whether O can be stored through a TMA map ([`Sm90AttentionConfig::tma_store_o`]): fixed-length, O's
/// strides describable by TMA (the plan's choice; otherwise O is stored from the registers).
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap();
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// use cute_gpu::kernels::attention_sm90::takes_o;
/// assert!(takes_o(&p.args) && p.sm90.unwrap().tma_store_o);
/// let mut odd = p.args;
/// odd.strides[3][1] = 1028; // O rows 2056 bytes apart
/// assert!(!takes_o(&odd));
/// ```
pub fn takes_o(args: &AttentionArgs) -> bool {
    args.packed.is_none() && tma_strides(&args.strides[3], [args.batch, args.sq, args.hq])
}

/// Sets the values of the kernel's parameters for `args`: the scalars, the tensor maps' extents and
/// strides (`(D, S, H, B)`), the grid.
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// use cute_gpu::kernels::attention_sm90::{apply, generate_attention_sm90, Sm90AttentionConfig};
/// let cfg = p.sm90.unwrap();
/// let mut k = generate_attention_sm90(&cfg).unwrap();
/// apply(&cfg, &p.args, &mut k).unwrap();
/// assert_eq!(k.grid, (16, 1, 1)); // causal, persistent: ceil(100 / 128) query blocks x heads x batches
/// let per_tile = Sm90AttentionConfig { persistent: false, ..cfg };
/// let mut k = generate_attention_sm90(&per_tile).unwrap();
/// apply(&per_tile, &p.args, &mut k).unwrap();
/// assert_eq!(k.grid, (1, 8, 2)); // one CTA per (query block, head, batch)
/// ```
pub fn apply(cfg: &Sm90AttentionConfig, args: &AttentionArgs, k: &mut Kernel) -> Result<()> {
    if !takes(args) {
        return config(
            "attention_sm90",
            format!("strides {:?}: not describable by TMA", args.strides),
        );
    }
    if cfg.varlen != args.packed.is_some() {
        return config(
            "attention_sm90",
            format!(
                "{}: a {} kernel, {} arguments",
                name(cfg),
                kind(cfg.varlen),
                kind(args.packed.is_some())
            ),
        );
    }
    if cfg.stages_o() && !takes_o(args) {
        return config(
            "attention_sm90",
            format!(
                "O strides {:?}: not describable by TMA (tma_store_o)",
                args.strides[3]
            ),
        );
    }
    args.set_scalars(k)?;
    let fix = |extent: i64, stride: i64| (extent.max(1) as u64, stride.max(8) as u64);
    let [rq, rk, batch] = map_extents(args);
    for a in k.args.iter_mut() {
        if let Arg::TensorMap(m) = a {
            let (i, s, heads) = match m.buffer.as_str() {
                "Q" => (0, rq, args.hq),
                "O" => (3, rq, args.hq),
                "K" => (1, rk, args.hkv),
                _ => (2, rk, args.hkv),
            };
            let st = args.strides[i];
            m.extents = [cfg.head_dim as u64, s.max(1) as u64];
            m.ld = st[1].max(8) as u64;
            m.outer = vec![fix(heads, st[2]), fix(batch, st[0])];
        }
    }
    let blocks = ceil_div("attention query blocks", args.sq, cfg.block_m())?;
    if cfg.persistent {
        // one CTA per tile, at most one per SM (the runtime's clamp of persistent kernels)
        let pairs = args.hq.max(1) * args.batch.max(1);
        let (full, rest) = (args.sq / cfg.block_m(), args.sq % cfg.block_m());
        let tiles = if cfg.tails() && rest > 0 && rest <= WG_ROWS {
            mul("attention tiles", full, pairs)?
                + ceil_div("attention tail tiles", pairs, cfg.consumers)?
        } else {
            blocks.max(1) * pairs
        };
        let tiles = i32::try_from(tiles).map_err(|_| GpuError::Overflow {
            what: "attention tiles (query blocks x heads x batches)".into(),
            value: tiles,
            limit: i32::MAX as i64,
        })?;
        k.grid = (tiles as u32, 1, 1);
        return Ok(());
    }
    k.grid = (
        to_u32("attention grid.x (query blocks)", blocks.max(1))?,
        to_u32("attention grid.y (heads)", args.hq)?,
        to_u32("attention grid.z (batches)", args.batch)?,
    );
    Ok(())
}
