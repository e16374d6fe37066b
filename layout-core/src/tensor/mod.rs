//! Tensors: an engine (storage) and a layout (CuTe's `cute::Tensor`), with CuTe's tensor algorithms.
//!
//! - Engines own ([`ArrayEngine`] without heap for static layouts, [`HeapEngine`]) or borrow
//!   ([`ViewEngine`] over `&mut [T]`, [`ConstViewEngine`] over `&[T]`); the memory space
//!   ([`Gmem`], [`Smem`], [`Rmem`]) is part of the engine's type.
//! - The layout is a run-time [`crate::Layout`] or a typed [`crate::typed::Layout`].
//! - Access by 1-D, R-D or natural coordinate: `t[17]`, `t[(1, 4)]`, `t[(1, (1, 1))]`, or checked
//!   with `get`. A tensor never reaches outside its storage: making one whose layout's cosize exceeds
//!   the storage is an error.
//! - Slicing with `_`: `t.slice(s![_, 3])` is CuTe's `t(_,3)`.
//!
//! The seed example, copying rows of a matrix from global memory to a register fragment:
//!
//! ```
//! use cute_layout_core::tensor::{copy, make_fragment_like, make_gmem_ptr, make_tensor};
//! use cute_layout_core::{s, Layout};
//! let a: Vec<f32> = (0..128).map(|x| x as f32).collect();
//! // Tensor gmem = make_tensor(make_gmem_ptr(A), make_shape(Int<8>{}, 16));
//! let gmem = make_tensor(make_gmem_ptr(&a[..]), "(_8,16):(_1,_8)".parse::<Layout>().unwrap()).unwrap();
//! // Tensor rmem = make_fragment_like(gmem(_, 0));
//! let mut rmem = make_fragment_like::<f32, _, _>(&gmem.slice(s![_, 0]).unwrap()).unwrap();
//! assert_eq!(rmem.memory_space(), "rmem");
//! for j in 0..gmem.shape().get(1).unwrap().as_int().unwrap().value {
//!     copy(&gmem.slice(s![_, j]).unwrap(), &mut rmem).unwrap();
//!     assert_eq!(rmem[7], (8 * j + 7) as f32);
//! }
//! ```

mod algorithm;
mod base;
mod engine;
mod index;
mod layout;
mod print;
mod slice;
mod tile;

pub use algorithm::{axpby, clear, copy, copy_if, copy_naive, fill, gemm, make_identity_tensor};
pub use base::{Tensor, View, ViewMut, make_tensor, make_tensor_array, make_tensor_owned};
pub use engine::{
    ArrayEngine, ConstViewEngine, Engine, EngineMut, Gmem, HeapEngine, IntoView, MemorySpace, Rmem,
    Smem, ViewEngine, make_gmem_ptr, make_rmem_ptr, make_smem_ptr,
};
pub use index::{Indices, RtCoord};
pub use layout::{TensorLayout, TypedIndices};
pub use print::print_tensor;
pub use slice::{SliceCoord, Underscore, dice_layout, slice_layout_and_offset};

use crate::Layout;
use crate::error::Result;

/// CuTe's `make_fragment_like(t)`: an owning register tensor with the shape of `t` and the compact
/// layout [`crate::make_fragment_like`] gives, elements `T::default()`. On the heap: a run-time layout has no size in its type;
/// [`make_fragment_like_array`] gives an array fragment.
///
/// ```
/// use cute_layout_core::tensor::{make_fragment_like, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let a = vec![1.0f32; 64];
/// let g = make_tensor(make_gmem_ptr(&a[..]), "(_4,_8):(_8,_1)".parse::<Layout>().unwrap()).unwrap();
/// let r = make_fragment_like::<f32, _, _>(&g).unwrap();
/// assert_eq!(r.layout().to_string(), "(_4,(_8)):(_1,(_4))"); // as CuTe prints it
/// assert_eq!((r.memory_space(), r[5]), ("rmem", 0.0));
/// ```
pub fn make_fragment_like<T: Default + Clone, E: Engine, L: TensorLayout>(
    t: &Tensor<E, L>,
) -> Result<Tensor<HeapEngine<T, Rmem>, Layout>> {
    make_tensor_owned(crate::make_fragment_like(&t.layout().to_runtime())?)
}

/// [`make_fragment_like`] in a fixed-size array of `N` elements (no heap); an error when the
/// fragment needs more than `N`.
///
/// ```
/// use cute_layout_core::tensor::{make_fragment_like_array, make_gmem_ptr, make_tensor};
/// use cute_layout_core::{s, Layout};
/// let a = vec![1.0f32; 128];
/// let gmem = make_tensor(make_gmem_ptr(&a[..]), "(_8,16):(_1,_8)".parse::<Layout>().unwrap()).unwrap();
/// let rmem = make_fragment_like_array::<f32, 8, _, _>(&gmem.slice(s![_, 0]).unwrap()).unwrap();
/// assert_eq!(rmem.layout().to_string(), "(_8):(_1)");
/// ```
pub fn make_fragment_like_array<T: Default + Copy, const N: usize, E: Engine, L: TensorLayout>(
    t: &Tensor<E, L>,
) -> Result<Tensor<ArrayEngine<T, N>, Layout>> {
    make_tensor_array(crate::make_fragment_like(&t.layout().to_runtime())?)
}
