//! Attention as a library call: `O = softmax(scale * Q·Kᵀ + mask)·V` (and the log-sum-exp of each row)
//! over cudarc buffers described by CuTe layouts, on the caller's stream: on an sm_90 device with the
//! FlashAttention-3-style TMA + wgmma kernel ([`crate::kernels::attention_sm90`]) for every request it
//! takes (strides TMA can describe, packed varlen batches included), else with the FlashAttention-2-style `mma.sync` kernel
//! ([`crate::kernels::attention_sm80`], SM80+).
//!
//! Q, K, V, O: rank-4 layouts `(B, S, H, D)` with any strides (head dim contiguous): [`bshd`], [`bhsd`].
//! K/V heads may be fewer than Q heads (grouped-query attention, MQA). The causal mask is aligned to the
//! bottom-right corner (FlashAttention 2's convention: query `i` sees keys `j <= i + Sk - Sq`); a row that
//! sees no key gets `O = 0`, `LSE = -inf`. Packed variable-length batches take cumulative offsets
//! (FlashAttention's `cu_seqlens`), validated on the host before the launch.
//!
//! ```no_run
//! # #[cfg(feature = "cuda")] {
//! use cute_gpu::attention::{bshd, Attention, Options, Tensor, TensorMut};
//! use half::bf16;
//! let ctx = cudarc::driver::CudaContext::new(0).unwrap();
//! let stream = ctx.default_stream();
//! let (b, s, h, d) = (2i64, 1000i64, 8i64, 128i64);
//! let n = (b * s * h * d) as usize;
//! let q = stream.clone_htod(&vec![bf16::from_f32(0.1); n]).unwrap();
//! let k = stream.clone_htod(&vec![bf16::from_f32(0.2); n]).unwrap();
//! let v = stream.clone_htod(&vec![bf16::from_f32(0.5); n]).unwrap();
//! let mut o = stream.alloc_zeros::<bf16>(n).unwrap();
//! let l = bshd(b, s, h, d).unwrap();
//! let attn = Attention::new(&stream).unwrap();
//! attn.run(
//!     &Tensor::new(&q, l.clone()), &Tensor::new(&k, l.clone()), &Tensor::new(&v, l.clone()),
//!     &mut TensorMut::new(&mut o, l), None,
//!     &Options { causal: true, ..Options::default() },
//! ).unwrap();
//! assert_eq!(stream.clone_dtoh(&o).unwrap()[0].to_f32(), 0.5);
//! # }
//! ```

#[cfg(feature = "cuda")]
mod launch;
pub mod plan;
pub mod reference;

#[cfg(feature = "cuda")]
pub use launch::{Attention, Options, Tensor, TensorMut, Tiles};
pub use plan::{bhsd, bshd};
