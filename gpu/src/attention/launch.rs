//! The attention call on cudarc buffers: the plan ([`super::plan`]) and the buffer checks before any
//! launch, one compiled kernel per variant (cached), the launch on the caller's stream.
//!
//! ```no_run
//! use cute_gpu::attention::{bhsd, Attention, Options, Tensor, TensorMut};
//! let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
//! let l = bhsd(1, 128, 2, 64).unwrap(); // torch's (B,H,S,D) storage
//! let x = stream.clone_htod(&vec![half::bf16::from_f32(0.5); 128 * 2 * 64]).unwrap();
//! let mut o = stream.alloc_zeros::<half::bf16>(128 * 2 * 64).unwrap();
//! let t = Tensor::new(&x, l.clone());
//! Attention::new(&stream).unwrap()
//!     .run(&t, &t, &t, &mut TensorMut::new(&mut o, l), None, &Options { causal: true, ..Options::default() })
//!     .unwrap();
//! assert_eq!(stream.clone_dtoh(&o).unwrap()[0].to_f32(), 0.5); // every row averages equal values
//! ```

use super::plan::{Bound, Plan, Request, check_bound, plan};
use crate::error::{GpuError, Result};
use crate::kernel::Kernel;
use crate::kernels::attention_sm80::{AttentionConfig, generate_attention};
use crate::kernels::attention_sm90::{self, Sm90AttentionConfig, generate_attention_sm90};
use crate::matmul::Element;
use crate::runtime::{LoadedKernel, RawBuffer, Runtime};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use cute_layout_core::Layout;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A read-only tensor: a device buffer and its `(B,S,H,D)` layout (element offsets).
///
/// ```no_run
/// use cute_gpu::attention::{bshd, Tensor};
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let q = stream.alloc_zeros::<half::f16>(2 * 16 * 4 * 64).unwrap();
/// let t = Tensor::new(&q, bshd(2, 16, 4, 64).unwrap());
/// assert_eq!(t.layout.to_string(), "(2,16,4,64):(4096,256,64,1)");
/// ```
pub struct Tensor<'a, T> {
    /// The buffer.
    pub data: &'a CudaSlice<T>,
    /// `(B,S,H,D):(strides)`.
    pub layout: Layout,
}

impl<'a, T> Tensor<'a, T> {
    /// The tensor `layout` in `data`.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bhsd, Tensor};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let k = stream.alloc_zeros::<half::bf16>(8 * 64).unwrap();
    /// assert_eq!(Tensor::new(&k, bhsd(1, 8, 1, 64).unwrap()).data.len(), 512);
    /// ```
    pub fn new(data: &'a CudaSlice<T>, layout: Layout) -> Self {
        Tensor { data, layout }
    }
}

/// The output tensor.
///
/// ```no_run
/// use cute_gpu::attention::{bshd, TensorMut};
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let mut o = stream.alloc_zeros::<half::f16>(16 * 64).unwrap();
/// let t = TensorMut::new(&mut o, bshd(1, 16, 1, 64).unwrap());
/// assert_eq!(t.layout.to_string(), "(1,16,1,64):(1024,64,64,1)");
/// ```
pub struct TensorMut<'a, T> {
    /// The buffer.
    pub data: &'a mut CudaSlice<T>,
    /// `(B,S,H,D):(strides)`.
    pub layout: Layout,
}

impl<'a, T> TensorMut<'a, T> {
    /// The tensor `layout` in `data`.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, TensorMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let mut o = stream.alloc_zeros::<half::bf16>(16 * 64).unwrap();
    /// assert_eq!(TensorMut::new(&mut o, bshd(1, 16, 1, 64).unwrap()).data.len(), 1024);
    /// ```
    pub fn new(data: &'a mut CudaSlice<T>, layout: Layout) -> Self {
        TensorMut { data, layout }
    }
}

/// Options of a call: scale (default `1/sqrt(D)`), causal mask, packed variable-length batches
/// (cumulative offsets on the host: `B + 1` values from 0, checked, copied to the device per call).
///
/// ```
/// use cute_gpu::attention::Options;
/// let (cq, ck) = ([0, 3, 10], [0, 5, 12]); // two packed sequences
/// let o = Options { causal: true, varlen: Some((&cq, &ck)), ..Options::default() };
/// assert!(o.scale.is_none() && o.causal && o.varlen.unwrap().0.len() == 3);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Softmax scale.
    pub scale: Option<f32>,
    /// Causal mask (bottom-right aligned).
    pub causal: bool,
    /// `(cu_seqlens_q, cu_seqlens_k)`.
    pub varlen: Option<(&'a [i32], &'a [i32])>,
}

/// An attention handle on a stream: the runtime and one loaded kernel per variant.
///
/// ```no_run
/// use cute_gpu::attention::{bshd, Attention, Tiles};
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let attn = Attention::new(&stream).unwrap().with_sm90(false); // mma.sync kernel everywhere
/// assert!(attn.runtime().arch().starts_with("sm_"));
/// ```
pub struct Attention {
    rt: Runtime,
    kernels: Mutex<HashMap<AttentionConfig, (Kernel, Arc<LoadedKernel>)>>,
    kernels90: Mutex<HashMap<Sm90AttentionConfig, (Kernel, Arc<LoadedKernel>)>>,
    tiles: HashMap<i64, Tiles>,
    sm90: bool,
    /// The Hopper kernel's schedule, (intra-warp-group overlap, ping-pong), when chosen by the caller
    /// (else by the plan, per shape: [`Sm90AttentionConfig::for_keys`]).
    schedule: Option<(bool, bool)>,
    /// The Hopper kernel's keys per K/V tile, per head dim, instead of the defaults.
    block_n90: HashMap<i64, i64>,
    /// The Hopper kernel's persistent CTAs, when chosen by the caller (else by the plan, per shape).
    persistent90: Option<bool>,
    /// O through shared memory and TMA (where O allows it) or from the registers, when chosen by the
    /// caller (else by the plan: TMA for d = 128 and 256).
    tma_store_o90: Option<bool>,
    /// The Hopper kernel's tuning choices instead of the plan's: stages of the K/V ring (as many as fit,
    /// up to this), the first `S` wgmma with scale-d = 0, the persistent LPT tile order.
    stages90: Option<i64>,
    s_scale_d0_90: Option<bool>,
    lazy90: Option<bool>,
    tails90: Option<bool>,
    poly_exp2_90: Option<i64>,
    lpt90: Option<i64>,
    /// The Hopper kernel's consumer warp groups for d = 64 instead of the plan's.
    consumers90: Option<i64>,
    /// The Hopper kernel's dynamic tile scheduler on or off instead of the plan's choice.
    dynamic90: Option<bool>,
    /// The Hopper kernel's O rescaled before each `P·V` instead of after the one before.
    rescale_before_pv90: Option<bool>,
    /// The Hopper kernel's L2 prefetch of the next Q instead of the plan's choice.
    prefetch_q90: Option<bool>,
    /// The Hopper kernel's warp group index (broadcast from lane 0 or not) instead of the plan's choice.
    broadcast_wg90: Option<bool>,
    narrow_tail90: Option<bool>,
    /// The dynamic scheduler's tile counter and the CTAs' mailboxes (`1 + SMs` words), allocated zeroed
    /// at the first launch that uses them; each such grid leaves the counter zero for the next one.
    tile_sched: Mutex<Option<CudaSlice<u32>>>,
}

/// A tile choice for one head dim: query rows per CTA, keys per K/V tile, Q kept in registers.
///
/// ```
/// use cute_gpu::attention::Tiles;
/// let t = Tiles { block_m: 128, block_n: 32, q_in_registers: true };
/// assert_eq!(t, Tiles { block_n: 32, ..t });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    /// Query rows per CTA (64 or 128).
    pub block_m: i64,
    /// Keys per K/V tile (32, 64 or 128).
    pub block_n: i64,
    /// Q's fragments in registers (else re-read from shared memory per k16 step).
    pub q_in_registers: bool,
}

impl Attention {
    /// A handle launching on `stream`.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, Attention, Tiles};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let attn = Attention::new(&stream).unwrap();
    /// assert!(!attn.runtime().arch().is_empty());
    /// ```
    pub fn new(stream: &Arc<CudaStream>) -> Result<Attention> {
        Ok(Attention {
            rt: Runtime::with_stream(stream.clone())?,
            kernels: Mutex::new(HashMap::new()),
            kernels90: Mutex::new(HashMap::new()),
            tiles: HashMap::new(),
            sm90: true,
            schedule: None,
            block_n90: HashMap::new(),
            persistent90: None,
            tma_store_o90: None,
            stages90: None,
            s_scale_d0_90: None,
            lazy90: None,
            tails90: None,
            poly_exp2_90: None,
            lpt90: None,
            consumers90: None,
            dynamic90: None,
            rescale_before_pv90: None,
            prefetch_q90: None,
            broadcast_wg90: None,
            narrow_tail90: None,
            tile_sched: Mutex::new(None),
        })
    }

    /// The same handle with the Hopper kernel's persistent CTAs (one per SM, looping over the tiles: the
    /// next tile's loads overlap the last one's epilogue) always or never, instead of the plan's choice by
    /// shape ([`Sm90AttentionConfig::for_keys`]). It needs the intra-warp-group overlap: with the serial
    /// schedule it is an error here.
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// assert!(Attention::new(&stream).unwrap().with_sm90_persistent(true).is_ok());
    /// let serial = Attention::new(&stream).unwrap().with_sm90_schedule(false, false).unwrap();
    /// assert!(serial.with_sm90_persistent(true).is_err());
    /// ```
    pub fn with_sm90_persistent(mut self, persistent: bool) -> Result<Attention> {
        let (overlap, pingpong) = self.schedule.unwrap_or((true, true));
        generate_attention_sm90(&Sm90AttentionConfig {
            overlap,
            pingpong,
            persistent,
            ..Sm90AttentionConfig::new(crate::DType::BF16, 128, false)
        })?;
        self.persistent90 = Some(persistent);
        Ok(self)
    }

    /// The same handle with the Hopper kernel's O stored through shared memory and TMA (`true`, where O
    /// allows it: fixed-length, O's strides describable by TMA) or from the registers (`false`), instead
    /// of the plan's choice ([`Sm90AttentionConfig::tma_store_o`]: TMA for d = 128 and 256).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let direct = Attention::new(&stream).unwrap().with_sm90_tma_store_o(false);
    /// assert!(direct.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_tma_store_o(mut self, tma_store_o: bool) -> Attention {
        self.tma_store_o90 = Some(tma_store_o);
        self
    }

    /// The same handle with the Hopper kernel's K/V ring of `stages` stages where shared memory has room
    /// (else as many as fit, at least 2; [`Sm90AttentionConfig::fitting_stages`]) instead of the plan's.
    /// Outside 2..=3 it is an error here.
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// assert!(Attention::new(&stream).unwrap().with_sm90_stages(3).is_ok());
    /// assert!(Attention::new(&stream).unwrap().with_sm90_stages(5).is_err());
    /// ```
    pub fn with_sm90_stages(mut self, stages: i64) -> Result<Attention> {
        generate_attention_sm90(&Sm90AttentionConfig {
            stages,
            ..Sm90AttentionConfig::new(crate::DType::BF16, 64, false)
        })?;
        self.stages90 = Some(stages);
        Ok(self)
    }

    /// The same handle with `consumers` consumer warp groups of 64 query rows in the Hopper kernel for
    /// head dim 64 (3: 192 rows per CTA, K/V tiles of at most 128 keys; 2: the plan's tiles for 2;
    /// [`Sm90AttentionConfig::for_keys_with_consumers`]) instead of the plan's (3 except causal up to
    /// 1024 keys, [`Sm90AttentionConfig::for_keys`]); other head dims keep 2. Outside 2..=3 it is an
    /// error here.
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// assert!(Attention::new(&stream).unwrap().with_sm90_consumers(3).is_ok());
    /// assert!(Attention::new(&stream).unwrap().with_sm90_consumers(4).is_err());
    /// ```
    pub fn with_sm90_consumers(mut self, consumers: i64) -> Result<Attention> {
        generate_attention_sm90(
            &Sm90AttentionConfig::new(crate::DType::BF16, 64, false).with_consumers(consumers),
        )?;
        self.consumers90 = Some(consumers);
        Ok(self)
    }

    /// The same handle with the Hopper kernel's first `S = Q·Kᵀ` wgmma of a key block with scale-d = 0
    /// (`true`) or after zeroing S (`false`), instead of the plan's choice
    /// ([`Sm90AttentionConfig::s_scale_d0`]).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_s_scale_d0(true);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_s_scale_d0(mut self, on: bool) -> Attention {
        self.s_scale_d0_90 = Some(on);
        self
    }

    /// The same handle with the Hopper kernel's lazy rescaling of O on or off, instead of the plan's
    /// choice ([`Sm90AttentionConfig::lazy_rescale`]; the intra-warp-group overlapped schedule only).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_lazy_rescale(true);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_lazy_rescale(mut self, on: bool) -> Attention {
        self.lazy90 = Some(on);
        self
    }

    /// The same handle with the Hopper kernel's tail tiles on or off instead of the plan's choice
    /// ([`Sm90AttentionConfig::tail_tiles`]; persistent, 3 consumer warp groups, fixed-length only).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_tail_tiles(false);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_tail_tiles(mut self, on: bool) -> Attention {
        self.tails90 = Some(on);
        self
    }

    /// The same handle with the Hopper kernel's dynamic tile scheduler on or off instead of the plan's
    /// choice ([`Sm90AttentionConfig::dynamic_tiles`]: persistent CTAs take their next tile from a
    /// counter; only where the CTAs are persistent).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_persistent(true).unwrap().with_sm90_dynamic_tiles(true);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_dynamic_tiles(mut self, on: bool) -> Attention {
        self.dynamic90 = Some(on);
        self
    }

    /// The same handle with the Hopper kernel's O rescaled just before each `P·V` (`true`) or right
    /// after the `P·V` before (`false`) instead of the plan's choice
    /// ([`Sm90AttentionConfig::rescale_before_pv`]).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let early = Attention::new(&stream).unwrap().with_sm90_rescale_before_pv(true);
    /// assert!(early.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_rescale_before_pv(mut self, on: bool) -> Attention {
        self.rescale_before_pv90 = Some(on);
        self
    }

    /// The same handle launching the Hopper kernel with programmatic dependent launch or not (on by
    /// default on SM90): with it, a call's CTAs launch and set up while the kernel before it in the
    /// stream finishes, once that one's producers have issued their last loads, and wait for it to
    /// complete before they touch memory ([`crate::runtime::Runtime::set_dependent_launch`]).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_dependent_launch(false);
    /// assert!(!a.runtime().dependent_launch());
    /// ```
    pub fn with_dependent_launch(mut self, on: bool) -> Attention {
        self.rt.set_dependent_launch(on);
        self
    }

    /// The same handle with the Hopper kernel's producer prefetching into L2 the Q it loads next (`true`)
    /// or not, instead of the plan's choice ([`Sm90AttentionConfig::prefetch_q`]).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_prefetch_q(true);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_prefetch_q(mut self, on: bool) -> Attention {
        self.prefetch_q90 = Some(on);
        self
    }

    /// The same handle with the Hopper kernel's warp group index broadcast from lane 0 (`true`) or
    /// `threadIdx.x / 128`, instead of the plan's choice ([`Sm90AttentionConfig::broadcast_wg`]).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_warp_group_broadcast(false);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_warp_group_broadcast(mut self, on: bool) -> Attention {
        self.broadcast_wg90 = Some(on);
        self
    }

    /// The same handle with the Hopper kernel's narrow last key block (`true`: where the key length
    /// leaves one, [`Sm90AttentionConfig::with_narrow_tail`]) or without it, instead of the plan's choice.
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_narrow_tail(false);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_narrow_tail(mut self, on: bool) -> Attention {
        self.narrow_tail90 = Some(on);
        self
    }

    /// The same handle with one of every `every` score atoms of the Hopper kernel's softmax
    /// exponentiated on the FMA pipe (0: none), instead of the plan's choice
    /// ([`Sm90AttentionConfig::poly_exp2_every`]); a negative `every` is an error naming it.
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// assert!(Attention::new(&stream).unwrap().with_sm90_poly_exp2(4).is_ok());
    /// assert!(Attention::new(&stream).unwrap().with_sm90_poly_exp2(-1).is_err());
    /// ```
    pub fn with_sm90_poly_exp2(mut self, every: i64) -> Result<Attention> {
        generate_attention_sm90(&Sm90AttentionConfig {
            poly_exp2_every: every,
            ..Sm90AttentionConfig::new(crate::DType::BF16, 64, false)
        })?;
        self.poly_exp2_90 = Some(every);
        Ok(self)
    }

    /// The same handle with the Hopper kernel's persistent tiles in the longest-processing-time-first
    /// order over sections of (head, batch) pairs whose K and V fit in `l2_mib` MiB, or (0) in (query
    /// block, head, batch) order, instead of the plan's choice ([`Sm90AttentionConfig::lpt_l2_mib`]; only
    /// where the CTAs are persistent).
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = Attention::new(&stream).unwrap().with_sm90_persistent(true).unwrap().with_sm90_lpt(8);
    /// assert!(a.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90_lpt(mut self, l2_mib: i64) -> Attention {
        self.lpt90 = Some(l2_mib.max(0));
        self
    }

    /// The same handle with the Hopper kernel's K/V tiles of `block_n` keys for head dim `head_dim`
    /// (for tuning; the defaults are [`Sm90AttentionConfig::new`]'s). A tile the generator cannot build
    /// (not a multiple of 16 in 64..=256, more shared memory than a CTA has) is an error here.
    ///
    /// ```no_run
    /// use cute_gpu::attention::Attention;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// assert!(Attention::new(&stream).unwrap().with_sm90_block_n(256, 80).is_ok()); // FlashAttention 3's d = 256 tile
    /// assert!(Attention::new(&stream).unwrap().with_sm90_block_n(256, 200).is_err()); // not a multiple of 16
    /// ```
    pub fn with_sm90_block_n(mut self, head_dim: i64, block_n: i64) -> Result<Attention> {
        generate_attention_sm90(&Sm90AttentionConfig {
            block_n,
            ..Sm90AttentionConfig::new(crate::DType::BF16, head_dim, false)
        })?;
        self.block_n90.insert(head_dim, block_n);
        Ok(self)
    }

    /// The same handle with the Hopper kernel's schedule: intra-warp-group overlap of softmax and
    /// wgmma, and the ping-pong of the consumer warp groups (which needs the overlap), instead of the
    /// plan's (both, but no ping-pong where it measured slower: [`Sm90AttentionConfig::for_keys`]).
    /// An impossible choice (ping-pong without overlap) is an error here.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, Attention, Tiles};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// assert!(Attention::new(&stream).unwrap().with_sm90_schedule(true, false).is_ok()); // overlap, no ping-pong
    /// assert!(Attention::new(&stream).unwrap().with_sm90_schedule(false, true).is_err()); // ping-pong needs overlap
    /// ```
    pub fn with_sm90_schedule(mut self, overlap: bool, pingpong: bool) -> Result<Attention> {
        generate_attention_sm90(&Sm90AttentionConfig {
            overlap,
            pingpong,
            ..Sm90AttentionConfig::new(crate::DType::BF16, 128, false)
        })?;
        self.schedule = Some((overlap, pingpong));
        Ok(self)
    }

    /// The same handle with the Hopper kernel ([`crate::kernels::attention_sm90`]) allowed (the default)
    /// or not: on an sm_90 device it runs every request it takes (strides TMA can describe, varlen too);
    /// the rest, and every request on other GPUs, runs the mma.sync kernel.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, Attention, Tiles};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let attn = Attention::new(&stream).unwrap().with_sm90(false);
    /// assert!(attn.runtime().arch().starts_with("sm_"));
    /// ```
    pub fn with_sm90(mut self, allowed: bool) -> Attention {
        self.sm90 = allowed;
        self
    }

    /// The Hopper variant that runs `plan` on this handle's device (with the handle's schedule and
    /// tiles), if that kernel runs it.
    fn takes_sm90(&self, plan: &Plan) -> Option<Sm90AttentionConfig> {
        let c = plan.sm90.filter(|_| {
            self.sm90
                && self.rt.arch() == "sm_90a"
                && !self.tiles.contains_key(&plan.config.head_dim)
        })?;
        let (overlap, pingpong) = self.schedule.unwrap_or((c.overlap, c.pingpong));
        // the caller's consumers: the plan's tile for them (as wide as 2 consumers take, for 2)
        let c = match self.consumers90 {
            Some(n) => {
                let k = Sm90AttentionConfig::new(c.dtype, c.head_dim, c.causal)
                    .for_keys_with_consumers(plan.args.sk, n);
                Sm90AttentionConfig {
                    consumers: k.consumers,
                    block_n: k.block_n,
                    ..c
                }
            }
            None => c,
        };
        let block_n = self
            .block_n90
            .get(&c.head_dim)
            .copied()
            .unwrap_or(c.block_n);
        // a caller's tile wider than 3 consumers take: 2 consumers
        let consumers = if block_n > 128 { 2 } else { c.consumers };
        let c = Sm90AttentionConfig {
            overlap,
            pingpong,
            block_n,
            consumers,
            persistent: overlap && self.persistent90.unwrap_or(c.persistent),
            tma_store_o: match self.tma_store_o90 {
                Some(on) => on && attention_sm90::takes_o(&plan.args),
                None => c.tma_store_o,
            },
            s_scale_d0: self.s_scale_d0_90.unwrap_or(c.s_scale_d0),
            lazy_rescale: self.lazy90.unwrap_or(c.lazy_rescale),
            tail_tiles: self.tails90.unwrap_or(c.tail_tiles),
            poly_exp2_every: self.poly_exp2_90.unwrap_or(c.poly_exp2_every),
            lpt_l2_mib: self.lpt90.unwrap_or(c.lpt_l2_mib),
            dynamic_tiles: self.dynamic90.unwrap_or(c.dynamic_tiles),
            rescale_before_pv: self.rescale_before_pv90.unwrap_or(c.rescale_before_pv),
            prefetch_q: self.prefetch_q90.unwrap_or(c.prefetch_q),
            broadcast_wg: self.broadcast_wg90.unwrap_or(c.broadcast_wg),
            ..c
        };
        // the narrow last block for the tile as chosen (the plan's, with the plan's tile)
        let c = match self.narrow_tail90.unwrap_or(true) {
            true => c.with_narrow_tail(plan.args.sk),
            false => Sm90AttentionConfig {
                narrow_tail: 0,
                ..c
            },
        };
        // a caller's stages: as many as fit its tile (the plan's always fit)
        Some(match self.stages90 {
            Some(stages) => c.fitting_stages(stages),
            None => c,
        })
    }

    /// The kernel that runs `plan` on this handle: its name (for benchmarks and tests).
    ///
    /// ```no_run
    /// use cute_gpu::{attention::{bshd, plan::{plan, Request}, Attention}, DType};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let l = bshd(1, 128, 4, 64).unwrap();
    /// let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::F16, scale: None, causal: false, varlen: None };
    /// let attn = Attention::new(&stream).unwrap().with_sm90(false);
    /// assert_eq!(attn.kernel_name(&plan(&r).unwrap()).unwrap(), "cute_attention_f16_d64_128x64");
    /// ```
    pub fn kernel_name(&self, plan: &Plan) -> Result<String> {
        Ok(match self.takes_sm90(plan) {
            Some(c) => self.kernel90(&c)?.0.name,
            None => self.kernel(&plan.config)?.0.name,
        })
    }

    fn kernel90(&self, cfg: &Sm90AttentionConfig) -> Result<(Kernel, Arc<LoadedKernel>)> {
        let mut map = self.kernels90.lock().map_err(|_| GpuError::Driver {
            call: "attention kernel cache".into(),
            detail: "lock poisoned".into(),
        })?;
        if let Some(k) = map.get(cfg) {
            return Ok(k.clone());
        }
        let mut k = generate_attention_sm90(cfg)?;
        let loaded = self.rt.load(&k)?;
        k.source = String::new();
        map.insert(*cfg, (k.clone(), loaded.clone()));
        Ok((k, loaded))
    }

    /// The same handle with `tiles` instead of the default ones for head dim `head_dim` (for tuning;
    /// the defaults are [`AttentionConfig::new`]'s). Tiles the generator cannot build (sizes, no
    /// conflict-free swizzle) are an error here.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, Attention, Tiles};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let t = Tiles { block_m: 64, block_n: 64, q_in_registers: true };
    /// assert!(Attention::new(&stream).unwrap().with_tiles(64, t).is_ok());
    /// ```
    pub fn with_tiles(mut self, head_dim: i64, tiles: Tiles) -> Result<Attention> {
        for dtype in [crate::DType::F16, crate::DType::BF16] {
            let mut cfg = AttentionConfig::new(dtype, head_dim, false, false);
            Self::set_tiles(&mut cfg, tiles);
            generate_attention(&cfg)?;
        }
        self.tiles.insert(head_dim, tiles);
        Ok(self)
    }

    fn set_tiles(cfg: &mut AttentionConfig, t: Tiles) {
        (cfg.block_m, cfg.block_n, cfg.q_in_registers) = (t.block_m, t.block_n, t.q_in_registers);
    }

    /// The runtime (architecture, compile cache, timing).
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, Attention, Tiles};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let attn = Attention::new(&stream).unwrap();
    /// assert!(attn.runtime().arch().starts_with("sm_")); // e.g. "sm_90a" on an H100
    /// ```
    pub fn runtime(&self) -> &Runtime {
        &self.rt
    }

    fn kernel(&self, cfg: &AttentionConfig) -> Result<(Kernel, Arc<LoadedKernel>)> {
        let mut map = self.kernels.lock().map_err(|_| GpuError::Driver {
            call: "attention kernel cache".into(),
            detail: "lock poisoned".into(),
        })?;
        if let Some(k) = map.get(cfg) {
            return Ok(k.clone());
        }
        let mut k = generate_attention(cfg)?;
        let loaded = self.rt.load(&k)?;
        // A launch binds the loaded function: keep the description without its text (cloned per call).
        k.source = String::new();
        map.insert(*cfg, (k.clone(), loaded.clone()));
        Ok((k, loaded))
    }

    /// `O = softmax(scale * Q·Kᵀ + mask)·V`, and the log-sum-exp of each row into `lse` when given
    /// (f32, `(B,Hq,Sq)` packed; `(Hq, total_q)` for varlen), asynchronously on the handle's stream.
    /// Bad input (head dims that differ, K/V heads not dividing Q heads, buffers shorter than their
    /// layouts' span, unsupported head dims, misaligned strides or pointers, O overlapping an input,
    /// bad offsets) is an error before any launch.
    ///
    /// ```no_run
    /// use cute_gpu::attention::{bshd, Attention, Options, Tensor, TensorMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let l = bshd(1, 64, 1, 64).unwrap(); // 4096 elements
    /// let (q, mut o) = (stream.alloc_zeros::<half::f16>(4096).unwrap(), stream.alloc_zeros::<half::f16>(4096).unwrap());
    /// let v = stream.clone_htod(&vec![half::f16::ONE; 4096]).unwrap();
    /// let mut lse = stream.alloc_zeros::<f32>(64).unwrap();
    /// let attn = Attention::new(&stream).unwrap();
    /// let (tq, tv) = (Tensor::new(&q, l.clone()), Tensor::new(&v, l.clone()));
    /// attn.run(&tq, &tq, &tv, &mut TensorMut::new(&mut o, l.clone()), Some(&mut lse), &Options::default()).unwrap();
    /// assert_eq!(stream.clone_dtoh(&o).unwrap()[0], half::f16::ONE); // uniform weights average V's ones
    /// assert!((stream.clone_dtoh(&lse).unwrap()[0] - 64f32.ln()).abs() < 1e-3); // ln(64 keys of weight 1)
    /// ```
    pub fn run<T: Element>(
        &self,
        q: &Tensor<T>,
        k: &Tensor<T>,
        v: &Tensor<T>,
        o: &mut TensorMut<T>,
        lse: Option<&mut CudaSlice<f32>>,
        opts: &Options,
    ) -> Result<()> {
        let mut plan = plan(&Request {
            q: &q.layout,
            k: &k.layout,
            v: &v.layout,
            o: &o.layout,
            dtype: T::DTYPE,
            scale: opts.scale,
            causal: opts.causal,
            varlen: opts.varlen,
        })?;
        if let Some(t) = self.tiles.get(&plan.config.head_dim) {
            Self::set_tiles(&mut plan.config, *t);
        }
        let stream = self.rt.stream().clone();
        let es = std::mem::size_of::<T>();
        let (pq, _gq) = q.data.device_ptr(&stream);
        let (pk, _gk) = k.data.device_ptr(&stream);
        let (pv, _gv) = v.data.device_ptr(&stream);
        let o_len = o.data.len() * es;
        let (po, _go) = o.data.device_ptr_mut(&stream);
        let lse_len = lse.as_ref().map_or(0, |l| l.len() * 4);
        let lse_guard = lse.map(|l| l.device_ptr_mut(&stream));
        let bound = [
            Bound {
                name: "Q",
                ptr: pq,
                bytes: q.data.len() * es,
            },
            Bound {
                name: "K",
                ptr: pk,
                bytes: k.data.len() * es,
            },
            Bound {
                name: "V",
                ptr: pv,
                bytes: v.data.len() * es,
            },
            Bound {
                name: "O",
                ptr: po,
                bytes: o_len,
            },
            Bound {
                name: "LSE",
                ptr: lse_guard.as_ref().map_or(0, |g| g.0),
                bytes: lse_len,
            },
        ];
        if lse_guard.is_none() {
            plan.needed[4] = 0;
        }
        check_bound(&plan, &bound)?;
        if plan.empty {
            return Ok(());
        }
        self.launch(&plan, &bound, opts)
    }

    fn launch(&self, plan: &Plan, bound: &[Bound; 5], opts: &Options) -> Result<()> {
        let (mut kernel, loaded) = match self.takes_sm90(plan) {
            Some(c) => {
                let (mut k, l) = self.kernel90(&c)?;
                attention_sm90::apply(&c, &plan.args, &mut k)?;
                (k, l)
            }
            None => {
                let (mut k, l) = self.kernel(&plan.config)?;
                plan.args.apply(&plan.config, &mut k)?;
                (k, l)
            }
        };
        let mut buffers: Vec<RawBuffer> = bound
            .iter()
            .map(|b| RawBuffer::new(b.ptr, b.bytes))
            .collect();
        for (kb, need) in kernel.buffers.iter_mut().zip(plan.needed) {
            kb.bytes = need;
        }
        let stream = self.rt.stream().clone();
        let offsets = match opts.varlen {
            Some((cq, ck)) => Some((
                stream
                    .clone_htod(cq)
                    .map_err(crate::error::driver("cuMemcpyHtoD cu_seqlens_q"))?,
                stream
                    .clone_htod(ck)
                    .map_err(crate::error::driver("cuMemcpyHtoD cu_seqlens_k"))?,
            )),
            None => None,
        };
        let guards = offsets
            .as_ref()
            .map(|(a, b)| (a.device_ptr(&stream), b.device_ptr(&stream)));
        if let (Some((a, b)), Some(((pa, _), (pb, _)))) = (&offsets, &guards) {
            buffers.push(RawBuffer::new(*pa, a.len() * 4));
            buffers.push(RawBuffer::new(*pb, b.len() * 4));
            kernel.buffers[5].bytes = a.len() * 4;
            kernel.buffers[6].bytes = b.len() * 4;
        }
        let mut sched = self.tile_sched.lock().map_err(|_| GpuError::Driver {
            call: "attention tile scheduler".into(),
            detail: "lock poisoned".into(),
        })?;
        let sched_guard = match kernel.buffers.iter().position(|b| b.name == "tile_sched") {
            Some(i) => {
                let words = 1 + self.rt.sm_count() as usize; // the counter, a mailbox per CTA
                let c = scheduler_words(&stream, &mut sched, words)?;
                kernel.buffers[i].bytes = words * 4;
                let (ptr, guard) = c.device_ptr_mut(&stream);
                buffers.push(RawBuffer::new(ptr, words * 4));
                Some(guard)
            }
            None => None,
        };
        let prepared = self.rt.bind_kernel(&kernel, loaded, &buffers)?;
        let ran = self.rt.run(&prepared);
        drop(sched_guard);
        ran
    }
}

/// `words` words on `stream` for the dynamic scheduler (its counter, zero between launches, and the
/// CTAs' mailboxes): the buffer kept in `buf`, allocated zeroed the first time or when it is too short.
/// Each grid zeroes the counter at its last fetch ([`crate::kernels::attention_sm90`]'s
/// `dynamic_tiles`), so no memset separates two launches (which would serialize a dependent launch).
fn scheduler_words<'a>(
    stream: &Arc<CudaStream>,
    buf: &'a mut Option<CudaSlice<u32>>,
    words: usize,
) -> Result<&'a mut CudaSlice<u32>> {
    match buf.take() {
        Some(b) if b.len() >= words => Ok(buf.insert(b)),
        _ => {
            let b = stream
                .alloc_zeros::<u32>(words)
                .map_err(crate::error::driver("alloc tile scheduler words"))?;
            Ok(buf.insert(b))
        }
    }
}
