//! `cute`: CuTe's layout algebra in Rust, and CUDA kernels generated from it.
//!
//! One dependency line serves every use (the package is `cute-layout`, the library `cute`, so code
//! writes `cute::...` and the macros' expansions name `::cute::...`):
//!
//! ```toml
//! [dependencies]
//! cute-layout = { version = "0.1", features = ["gpu"] } # features: none, "gpu", "nvrtc", "cuda", "candle"
//! ```
//!
//! | feature | adds | needs at run time |
//! | --- | --- | --- |
//! | (none) | the algebra ([`cute_layout_core`], re-exported at this crate's root), [`layout!`], [`Layout!`], [`layouts!`], the typed layer ([`typed`]) | nothing |
//! | `gpu` | `cute::gpu`: CUDA C generators (copy, transpose, SM80/SM90 GEMM) and `cute::gpu::nvrtc` | libnvrtc, only to compile |
//! | `nvrtc` | the same as `gpu` (the NVRTC compile path is on by default there), named for clarity | libnvrtc |
//! | `cuda` | `cute::gpu::runtime` (load and launch with the driver), `cute::gpu::matmul` (GEMM on cudarc buffers), and `cute::cudarc`, `cute::half` re-exported | libcuda, a GPU |
//! | `candle` | `cute::candle`: the GEMM on candle's CUDA tensors (`cute::candle::matmul`, the `CustomOp2` `Matmul`), candle-core re-exported as `cute::candle::core`; builds candle-core's `cuda` feature (nvcc at build time) | libcuda, libnvrtc, libcublas(Lt), libcurand, libcudart (candle links them), a GPU |
//!
//! # The layers, bottom to top
//!
//! **1. Layouts at run time.** A [`Layout`](struct@Layout) is a shape and a stride, both hierarchical [`IntTuple`]s
//! whose leaves are static (`_4`) or dynamic (`4`) [`Int`]s, as in CuTe. Parse CuTe's notation, call
//! the algebra under CuTe's names, print CuTe's notation:
//!
//! ```
//! use cute::{Layout, Tiler, coalesce, complement, composition, logical_divide, size, cosize};
//! let a: Layout = "(_6,_2):(_8,_2)".parse().unwrap();
//! let b: Layout = "(_4,_3):(_3,_1)".parse().unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! assert_eq!(coalesce(&"(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap()).unwrap().to_string(), "_12:_1");
//! // Static and dynamic leaves give CuTe's results: dynamic shapes cannot be simplified.
//! assert_eq!(coalesce(&"(2,(1,6)):(1,(6,2))".parse().unwrap()).unwrap().to_string(), "(2,1,6):(1,6,2)");
//! assert_eq!(complement(&"(_2,_2):(_4,_1)".parse().unwrap(), &"_16".parse().unwrap()).unwrap().to_string(), "(_2,_2):(_2,_8)");
//! let tiler: Tiler = "(_2,_4)".parse().unwrap();
//! let m: Layout = "(_8,_8):(_1,_8)".parse().unwrap();
//! assert_eq!(logical_divide(&m, &tiler).unwrap().to_string(), "((_2,_4),(_4,_2)):((_1,_2),(_8,_32))");
//! assert_eq!((size(&m).unwrap().value, cosize(&m).unwrap().value), (64, 64));
//! ```
//!
//! Every operation returns `Result<_, LayoutError>`: where CuTe would `static_assert` or return a layout
//! that breaks the operation's definition, the error names the condition and the numbers. The same
//! algebra answers whole expressions in CuTe's notation ([`notation::eval_str`], the `cute eval`
//! command):
//!
//! ```
//! let v = cute::notation::eval_str("zipped_divide((_8,_8):(_1,_8),(_2,_4))").unwrap();
//! assert_eq!(v.to_string(), "((_2,_4),(_4,_2)):((_1,_8),(_2,_32))");
//! ```
//!
//! **2. Layouts at compile time.** [`layout!`] writes a layout as a Rust literal. The macro checks it
//! (congruence, extents) with spans and evaluates any algebra in it with the same library during
//! expansion; the result is a concrete typed layout ([`typed::Layout`]), zero-sized when fully static:
//!
//! ```
//! use cute::layout;
//! let l = layout!((4,(3,6)):(1,(4,12)));
//! assert_eq!(l.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
//! assert_eq!(l.call((3, (2, 5))), 3 + 2 * 4 + 5 * 12);
//! assert_eq!(std::mem::size_of_val(&l), 0); // fully static: zero-sized
//! let r: cute::Layout = l.into();          // lossless into the run-time layout
//! assert_eq!(r.to_string(), l.to_string());
//! // Algebra inside the macro runs at compile time:
//! let c = layout!(composition((6,2):(8,2),(4,3):(3,1)));
//! assert_eq!(c.to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! ```
//!
//! **3. Tensors and atoms.** [`tensor`] pairs an engine (owned, or a view over a slice) with a layout,
//! with CuTe's slicing and algorithms; [`atom`] holds the MMA and copy atoms of CUTLASS with their
//! thread-value layouts, `TiledMma` and `TiledCopy`, and pictures of them ([`atom::svg`]):
//!
//! ```
//! use cute::atom::{MmaTraits, TiledMma};
//! let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
//! let atoms = cute::make_layout(&"(_2,_2,_1)".parse().unwrap()).unwrap(); // 2x2 atoms
//! let mma = TiledMma::new(atom, &atoms, None).unwrap();
//! assert_eq!(mma.num_threads().unwrap().value, 128);
//! assert_eq!(mma.tile_shape().unwrap().to_string(), "(_32,_16,_16)");
//! ```
//!
//! **4. CUDA kernels** (feature `gpu`). `cute::gpu` generates self-contained CUDA C from layouts: the
//! tiling, thread-value partitioning, swizzles and predication are layout operations. A tiled copy
//! between two layouts of the same size:
//!
//! ```
//! # #[cfg(feature = "gpu")] {
//! use cute::gpu::kernels::copy::{generate_copy, CopySpec};
//! // A column-major 1000x1000 f32 matrix, copied into a row-major one.
//! let src = "(1000,1000):(_1,1000)".parse().unwrap();
//! let dst = "(1000,1000):(1000,_1)".parse().unwrap();
//! let k = generate_copy(&CopySpec::new(src, dst, 4)).unwrap();
//! assert!(k.source.contains("extern \"C\""));
//! println!("{}", k.source); // CUDA C; `cute::gpu::nvrtc::compile` turns it into a CUBIN
//! # }
//! ```
//!
//! The repository's `examples/` run each layer end to end: `algebra_tour`, `draw_tiled_mma`,
//! `layout_macro`, (with `--features gpu`) `tiled_copy_kernel` and (with `--features candle`, on a GPU)
//! `candle_matmul`.

// Lets the macros' `::cute::...` paths resolve inside this crate too.
extern crate self as cute;

pub use cute_layout_core::*;
pub use cute_layout_macros::*;

/// CUDA kernel generation from layouts (feature `gpu`): the `gpu` crate, whole. Its `nvrtc` module
/// compiles generated sources (needs libnvrtc); with feature `cuda`, `runtime` launches them.
#[cfg(feature = "gpu")]
pub use cute_gpu as gpu;

/// The cudarc the GPU crate is built on (feature `cuda`): contexts, streams and device buffers for
/// `cute::gpu::matmul` and `cute::gpu::runtime`, without a second dependency line to keep in step.
#[cfg(feature = "cuda")]
pub use cudarc;
/// The `half` crate's `f16` and `bf16` (feature `cuda`), the element types of the GPU buffers.
#[cfg(feature = "cuda")]
pub use half;

#[cfg(feature = "candle")]
pub mod candle;

// Short paths for the code that `layout!` emits: every static leaf of a result is `::cute::__C::<N>`,
// and a path segment fewer per leaf is measurably cheaper to resolve (scripts/macro-bench).
#[doc(hidden)]
pub use cute_layout_core::typed::{C as __C, Layout as __L};
