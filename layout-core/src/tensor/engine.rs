//! Engines (the one-dimensional storage behind a tensor) and memory-space tags.
//!
//! | engine | owns | CuTe |
//! | --- | --- | --- |
//! | [`ArrayEngine<T, N>`] | a `[T; N]`, no heap (register fragments) | `ArrayEngine<T,N>` |
//! | [`HeapEngine<T, M>`] | a `Vec<T>` (dynamic layouts) | (CuTe does not allocate) |
//! | [`ViewEngine<'a, T, M>`] | borrows `&mut [T]` | `ViewEngine<Iterator>` |
//! | [`ConstViewEngine<'a, T, M>`] | borrows `&[T]` | `ConstViewEngine<Iterator>` |
//!
//! Rust's borrow rules do what CuTe's const-ness does: a `ConstViewEngine` only reads, a `ViewEngine`
//! is the one writer of its elements while it lives. Plain slices and vectors are engines too (tagged
//! global memory), so a classic `TensorRef` can hold them.

use std::fmt;
use std::marker::PhantomData;

/// A memory space tag: where the elements live. Carried in an engine's type so that algorithms (and
/// the kernel generator) can dispatch on it, as CuTe does with `gmem_ptr`/`smem_ptr`/register arrays.
///
/// ```
/// use cute_layout_core::tensor::{Gmem, MemorySpace, Rmem, Smem};
/// assert_eq!((Gmem::NAME, Smem::NAME, Rmem::NAME), ("gmem", "smem", "rmem"));
/// ```
pub trait MemorySpace: Copy + Default + fmt::Debug + 'static {
    /// `"gmem"`, `"smem"` or `"rmem"`.
    const NAME: &'static str;
}

/// Global memory (CuTe's `make_gmem_ptr`).
///
/// ```
/// use cute_layout_core::tensor::{Gmem, make_tensor_owned};
/// use cute_layout_core::Layout;
/// let t = make_tensor_owned::<f32, Gmem, _>("8:1".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.memory_space(), "gmem");
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Gmem;
/// Shared memory (CuTe's `make_smem_ptr`).
///
/// ```
/// use cute_layout_core::tensor::{Smem, make_tensor_owned};
/// use cute_layout_core::Layout;
/// let t = make_tensor_owned::<f32, Smem, _>("8:1".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.memory_space(), "smem");
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Smem;
/// Register memory (owning fragments, CuTe's `make_tensor<T>(layout)`).
///
/// ```
/// use cute_layout_core::tensor::{Rmem, make_tensor_owned};
/// use cute_layout_core::Layout;
/// let t = make_tensor_owned::<f32, Rmem, _>("8:1".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.memory_space(), "rmem");
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Rmem;

impl MemorySpace for Gmem {
    const NAME: &'static str = "gmem";
}
impl MemorySpace for Smem {
    const NAME: &'static str = "smem";
}
impl MemorySpace for Rmem {
    const NAME: &'static str = "rmem";
}

/// A one-dimensional array of elements (CuTe's Engine concept): read access.
///
/// ```
/// use cute_layout_core::tensor::Engine;
/// fn len<E: Engine>(e: &E) -> usize { e.as_slice().len() }
/// let v = vec![1, 2, 3];
/// assert_eq!(len(&v), 3); // a Vec<T> is an engine
/// assert_eq!(len(&&v[1..]), 2); // so is a slice
/// ```
pub trait Engine {
    /// The element type (CuTe's `value_type`).
    type Value;
    /// The memory space the elements live in.
    type Space: MemorySpace;
    /// All elements of the storage.
    fn as_slice(&self) -> &[Self::Value];
}

/// An engine whose elements can be written.
///
/// ```
/// use cute_layout_core::tensor::{EngineMut, HeapEngine};
/// let mut e: HeapEngine<i32> = HeapEngine::new(vec![0; 3]);
/// e.as_mut_slice()[1] = 4;
/// assert_eq!(e.into_inner(), [0, 4, 0]);
/// ```
pub trait EngineMut: Engine {
    /// All elements of the storage, mutably.
    fn as_mut_slice(&mut self) -> &mut [Self::Value];
}

/// An owning fixed-size array engine: `N` elements inline, no heap (CuTe's `ArrayEngine<T,N>`).
///
/// ```
/// use cute_layout_core::tensor::{ArrayEngine, Tensor};
/// use cute_layout_core::Layout;
/// let t = Tensor::new(ArrayEngine::new([1, 2, 3, 4]), "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t[(0, 1)], 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrayEngine<T, const N: usize> {
    data: [T; N],
}

impl<T, const N: usize> ArrayEngine<T, N> {
    /// The engine holding `data`.
    ///
    /// ```
    /// use cute_layout_core::tensor::ArrayEngine;
    /// let e = ArrayEngine::new([1.0f32; 4]);
    /// assert_eq!(e.as_slice_ref(), &[1.0; 4]);
    /// ```
    pub const fn new(data: [T; N]) -> Self {
        ArrayEngine { data }
    }
    /// The array back.
    ///
    /// ```
    /// use cute_layout_core::tensor::ArrayEngine;
    /// assert_eq!(ArrayEngine::new([1, 2]).into_inner(), [1, 2]);
    /// ```
    pub fn into_inner(self) -> [T; N] {
        self.data
    }
}

impl<T: Default + Copy, const N: usize> Default for ArrayEngine<T, N> {
    fn default() -> Self {
        ArrayEngine {
            data: [T::default(); N],
        }
    }
}

impl<T, const N: usize> Engine for ArrayEngine<T, N> {
    type Value = T;
    type Space = Rmem;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        &self.data
    }
}
impl<T, const N: usize> EngineMut for ArrayEngine<T, N> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }
}

/// An owning heap engine (a `Vec<T>`) tagged with its memory space, for dynamic layouts.
///
/// ```
/// use cute_layout_core::tensor::{HeapEngine, Smem, Tensor};
/// use cute_layout_core::Layout;
/// let e: HeapEngine<f32, Smem> = HeapEngine::new(vec![0.0; 16]);
/// let t = Tensor::new(e, "(4,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.memory_space(), "smem");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapEngine<T, M: MemorySpace = Gmem> {
    data: Vec<T>,
    space: PhantomData<M>,
}

impl<T, M: MemorySpace> HeapEngine<T, M> {
    /// The engine holding `data`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{Engine, HeapEngine};
    /// let e: HeapEngine<i32> = HeapEngine::new(vec![1, 2, 3]);
    /// assert_eq!(e.as_slice(), &[1, 2, 3]);
    /// ```
    pub fn new(data: Vec<T>) -> Self {
        HeapEngine {
            data,
            space: PhantomData,
        }
    }
    /// The vector back.
    ///
    /// ```
    /// use cute_layout_core::tensor::HeapEngine;
    /// let e: HeapEngine<i32> = HeapEngine::new(vec![1, 2, 3]);
    /// assert_eq!(e.into_inner(), vec![1, 2, 3]);
    /// ```
    pub fn into_inner(self) -> Vec<T> {
        self.data
    }
}

impl<T, M: MemorySpace> Engine for HeapEngine<T, M> {
    type Value = T;
    type Space = M;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        &self.data
    }
}
impl<T, M: MemorySpace> EngineMut for HeapEngine<T, M> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }
}

/// A non-owning mutable view of `&mut [T]` in memory space `M` (CuTe's `ViewEngine`).
///
/// ```
/// use cute_layout_core::tensor::{Tensor, ViewEngine};
/// use cute_layout_core::Layout;
/// let mut a = [0; 4];
/// let mut t = Tensor::new(ViewEngine::<_>::new(&mut a[..]), "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
/// t[(1, 0)] = 9;
/// assert_eq!(a, [0, 0, 9, 0]);
/// ```
#[derive(Debug)]
pub struct ViewEngine<'a, T, M: MemorySpace = Gmem> {
    data: &'a mut [T],
    space: PhantomData<M>,
}

impl<'a, T, M: MemorySpace> ViewEngine<'a, T, M> {
    /// A view of `data`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{Engine, Smem, ViewEngine};
    /// let mut a = [1, 2];
    /// let e: ViewEngine<'_, i32, Smem> = ViewEngine::new(&mut a[..]);
    /// assert_eq!(e.as_slice(), &[1, 2]);
    /// ```
    pub fn new(data: &'a mut [T]) -> Self {
        ViewEngine {
            data,
            space: PhantomData,
        }
    }
}

impl<T, M: MemorySpace> Engine for ViewEngine<'_, T, M> {
    type Value = T;
    type Space = M;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self.data
    }
}
impl<T, M: MemorySpace> EngineMut for ViewEngine<'_, T, M> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self.data
    }
}

/// A non-owning read-only view of `&[T]` in memory space `M` (CuTe's `ConstViewEngine`).
///
/// ```
/// use cute_layout_core::tensor::{ConstViewEngine, Tensor};
/// use cute_layout_core::Layout;
/// let a = [1, 2, 3, 4];
/// let t = Tensor::new(ConstViewEngine::<_>::new(&a[..]), "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t[(1, 0)], 3);
/// ```
#[derive(Debug)]
pub struct ConstViewEngine<'a, T, M: MemorySpace = Gmem> {
    data: &'a [T],
    space: PhantomData<M>,
}

impl<T, M: MemorySpace> Clone for ConstViewEngine<'_, T, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, M: MemorySpace> Copy for ConstViewEngine<'_, T, M> {}

impl<'a, T, M: MemorySpace> ConstViewEngine<'a, T, M> {
    /// A view of `data`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{ConstViewEngine, Engine, Rmem};
    /// let a = [1, 2];
    /// let e: ConstViewEngine<'_, i32, Rmem> = ConstViewEngine::new(&a[..]);
    /// assert_eq!(e.as_slice(), &[1, 2]);
    /// ```
    pub fn new(data: &'a [T]) -> Self {
        ConstViewEngine {
            data,
            space: PhantomData,
        }
    }
}

impl<T, M: MemorySpace> Engine for ConstViewEngine<'_, T, M> {
    type Value = T;
    type Space = M;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self.data
    }
}

impl<T> Engine for &[T] {
    type Value = T;
    type Space = Gmem;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> Engine for &mut [T] {
    type Value = T;
    type Space = Gmem;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> EngineMut for &mut [T] {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T> Engine for Vec<T> {
    type Value = T;
    type Space = Gmem;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> EngineMut for Vec<T> {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

/// Memory a view engine can be made from: `&[T]` gives a [`ConstViewEngine`], `&mut [T]` a
/// [`ViewEngine`].
///
/// ```
/// use cute_layout_core::tensor::{ConstViewEngine, Gmem, IntoView};
/// let a = vec![1, 2, 3];
/// let e: ConstViewEngine<'_, i32, Gmem> = IntoView::<Gmem>::into_view(&a);
/// assert_eq!(cute_layout_core::tensor::Engine::as_slice(&e), &[1, 2, 3]);
/// ```
pub trait IntoView<M: MemorySpace> {
    /// The engine.
    type Engine: Engine;
    /// Wrap the memory.
    fn into_view(self) -> Self::Engine;
}

impl<'a, T, M: MemorySpace> IntoView<M> for &'a [T] {
    type Engine = ConstViewEngine<'a, T, M>;
    fn into_view(self) -> Self::Engine {
        ConstViewEngine::new(self)
    }
}
impl<'a, T, M: MemorySpace> IntoView<M> for &'a mut [T] {
    type Engine = ViewEngine<'a, T, M>;
    fn into_view(self) -> Self::Engine {
        ViewEngine::new(self)
    }
}
impl<'a, T, M: MemorySpace> IntoView<M> for &'a Vec<T> {
    type Engine = ConstViewEngine<'a, T, M>;
    fn into_view(self) -> Self::Engine {
        ConstViewEngine::new(self)
    }
}
impl<'a, T, M: MemorySpace> IntoView<M> for &'a mut Vec<T> {
    type Engine = ViewEngine<'a, T, M>;
    fn into_view(self) -> Self::Engine {
        ViewEngine::new(self)
    }
}

/// Tag memory as global (CuTe's `make_gmem_ptr`): `&[T]` or `&mut [T]` to a view engine.
///
/// ```
/// use cute_layout_core::tensor::{make_gmem_ptr, Engine, Gmem, MemorySpace};
/// let a = [1.0f32; 8];
/// let e = make_gmem_ptr(&a[..]);
/// fn space<E: Engine>(_: &E) -> &'static str { <E::Space as MemorySpace>::NAME }
/// assert_eq!(space(&e), "gmem");
/// ```
pub fn make_gmem_ptr<V: IntoView<Gmem>>(memory: V) -> V::Engine {
    memory.into_view()
}

/// Tag memory as shared (CuTe's `make_smem_ptr`).
///
/// ```
/// use cute_layout_core::tensor::{make_smem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let s = vec![0f32; 32];
/// let t = make_tensor(make_smem_ptr(&s[..]), "(_4,_8):(_8,_1)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.memory_space(), "smem");
/// ```
pub fn make_smem_ptr<V: IntoView<Smem>>(memory: V) -> V::Engine {
    memory.into_view()
}

/// Tag memory as registers (a view of a register array).
///
/// ```
/// use cute_layout_core::tensor::{make_rmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let mut r = [0f32; 8];
/// let t = make_tensor(make_rmem_ptr(&mut r[..]), "8:1".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.memory_space(), "rmem");
/// ```
pub fn make_rmem_ptr<V: IntoView<Rmem>>(memory: V) -> V::Engine {
    memory.into_view()
}
