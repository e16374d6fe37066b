//! What the Hopper GEMM refuses, before any text is generated: types, tiles, layouts, alignment,
//! batches; each error names the values.

use super::*;

pub(super) fn check_inputs(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
) -> Result<()> {
    let half = inp.a.is_half() && inp.a == inp.b && inp.scaling.is_none();
    let fp8 = inp.a.is_fp8() && inp.b.is_fp8() && inp.scaling.is_some();
    if !(half || fp8) || !output.is_output() {
        return unsupported(format!(
            "wgmma inputs are f16 or bf16 (both the same, no scaling) or FP8 with a scaling, outputs f16, bf16 or f32: got {}·{} -> {} ({:?})",
            inp.a.name(),
            inp.b.name(),
            output.name(),
            inp.scaling
        ));
    }
    if c.bk * inp.bytes() != 128 {
        return unsupported(format!(
            "bk = {} must be {} (one 128-byte swizzle row of {}-bit values)",
            c.bk,
            128 / inp.bytes(),
            inp.a.bits()
        ));
    }
    if fp8 && (p.a_major != Major::K || p.b_major != Major::K) {
        return unsupported(format!(
            "FP8 wgmma reads K-major operands only (A row-major, B column-major): got A {:?}-major, B {:?}-major",
            p.a_major, p.b_major
        ));
    }
    let rows = c.bm / if c.pingpong { 1 } else { c.consumers as i64 };
    let split_n = c.bn.min(SCALE_BLOCK);
    let aligned = SCALE_BLOCK % c.bn == 0 || c.bn % SCALE_BLOCK == 0;
    if inp.scaling == Some(Scaling::Block) && (!aligned || rows * (c.bn + split_n) > 64 * 384) {
        return unsupported(format!(
            "block scaling needs bn dividing {SCALE_BLOCK} or a multiple of it (B scales per 128 columns), and \
             at most 64 x 384 accumulators per consumer (f32 sums + one 128-column split's product): bn = {}, {rows} rows",
            c.bn
        ));
    }
    if c.cluster > 1 && (!matches!(c.cluster, 2 | 4) || inp.scaling == Some(Scaling::Block)) {
        return unsupported(format!(
            "clusters are of 2 or 4 CTAs along M, not for block-scaled FP8: cluster = {}, {:?}",
            c.cluster, inp.scaling
        ));
    }
    if c.overlap_promotion
        && (inp.scaling != Some(Scaling::Block)
            || !c.smem_scales
            || c.bn > SCALE_BLOCK
            || rows != 64)
    {
        return unsupported(format!(
            "overlapped promotion (two product buffers) is for block-scaled FP8 with staged scales, bn <= {SCALE_BLOCK} \
             and 64 rows per consumer: got {:?}, smem_scales = {}, bn = {}, {rows} rows",
            inp.scaling, c.smem_scales, c.bn
        ));
    }
    if c.promotion_stagger > 0
        && (inp.scaling != Some(Scaling::Block) || c.pingpong || c.consumers != 2)
    {
        return unsupported(format!(
            "a promotion stagger is for block-scaled FP8 with two cooperative consumers: got {:?}, {} consumers, ping-pong {}",
            inp.scaling, c.consumers, c.pingpong
        ));
    }
    let sk_slots = c.stream_k as i64 * c.consumers as i64;
    if c.stream_k > 0
        && (!c.persistent
            || c.pingpong
            || inp.scaling == Some(Scaling::Block)
            || sk_slots > stream_k::FLAG_SLOTS)
    {
        return unsupported(format!(
            "stream-K is for persistent cooperative kernels without block scaling, at most {} \
             flags (CTAs x consumers): persistent {}, ping-pong {}, {:?}, {sk_slots} flags",
            stream_k::FLAG_SLOTS,
            c.persistent,
            c.pingpong,
            inp.scaling
        ));
    }
    if c.smem_scales && inp.scaling != Some(Scaling::Block) {
        return unsupported(format!(
            "staged scales (smem_scales) are for block-scaled FP8: got {:?}",
            inp.scaling
        ));
    }
    Ok(())
}

pub(super) fn check(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
) -> Result<()> {
    check_inputs(p, inp, output, c)?;
    let owners = if c.pingpong { 1 } else { c.consumers as i64 };
    if c.pingpong && (!c.persistent || c.consumers != 2) {
        return unsupported("ping-pong needs 2 consumers and a persistent grid".into());
    }
    if !(1..=2).contains(&c.consumers) || c.bm % (64 * owners) != 0 {
        return unsupported(format!(
            "bm = {} must be a multiple of 64 x {} consumers",
            c.bm, c.consumers
        ));
    }
    if c.bn % 16 != 0 || !(16..=256).contains(&c.bn) || c.bm > 256 {
        return unsupported(format!(
            "bn = {} must be a multiple of 16 in [16,256]",
            c.bn
        ));
    }
    if c.stages < 2 || c.smem_bytes() > 232448 {
        return unsupported(format!(
            "{} stages, {} bytes of shared memory: at least 2 stages, at most 227 KiB",
            c.stages,
            c.smem_bytes()
        ));
    }
    let a_inner = if p.a_major == Major::K { p.k } else { p.m };
    let b_inner = if p.b_major == Major::K { p.k } else { p.n };
    let align = 16 / inp.bytes();
    if p.lda % align != 0
        || p.ldb % align != 0
        || p.ldd % 2 != 0
        || p.m < 1
        || p.n < 1
        || p.k < 1
        || p.lda < a_inner
        || p.ldb < b_inner
    {
        return unsupported(format!(
            "lda, ldb must be multiples of {align} (16-byte TMA strides) covering the contiguous mode, ldd even: {p:?}"
        ));
    }
    check_batch(p, inp, output, c)?;
    if p.d_column_major && (c.tma_store || p.ldd < p.m) {
        return unsupported(format!(
            "a column-major D takes the direct epilogue (tma_store {}), ldd >= M: {p:?}",
            c.tma_store
        ));
    }
    let osz = output.bytes();
    if c.tma_store && (c.bn % (128 / osz) != 0 || (p.ldd * osz) % 16 != 0) {
        return unsupported(format!(
            "the TMA-store epilogue needs bn a multiple of {} and 16-byte rows of D: {p:?}",
            128 / osz
        ));
    }
    Ok(())
}

/// A batch: 16-bit inputs, batch strides of A and B that a tensor map can step (0 or 16-byte multiples),
/// D's and C's even (the direct epilogue's paired stores), the direct epilogue.
pub(super) fn check_batch(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
) -> Result<()> {
    let Some(b) = p.batch else { return Ok(()) };
    let steppable = |s: i64| s == 0 || (s > 0 && (s * inp.bytes()) % 16 == 0);
    let paired = |s: i64| s >= 0 && s % 2 == 0;
    let stored = (b.d != 0 || b.k_slices) && (!c.tma_store || (b.d * output.bytes()) % 16 == 0);
    if b.k_slices && (b.count < 2 || b.d != 0 || b.c != 0 || c.stream_k > 0) {
        return unsupported(format!(
            "K slices summed in the kernel need 2 or more slices, a shared D and C (strides 0), no stream-K: {b:?}, stream_k {}",
            c.stream_k
        ));
    }
    if b.count < 1
        || inp.scaling.is_some()
        || !stored
        || !steppable(b.a)
        || !steppable(b.b)
        || !paired(b.d)
        || !paired(b.c)
    {
        return unsupported(format!(
            "a batch needs count >= 1, 16-bit inputs, A and B strides of 0 or 16-byte multiples, D and C \
             strides even (16-byte multiples for the TMA-store epilogue): {b:?}, {} inputs, tma_store {}, D {}",
            inp.name(),
            c.tma_store,
            output.name()
        ));
    }
    Ok(())
}
