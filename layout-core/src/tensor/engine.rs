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
pub trait MemorySpace: Copy + Default + fmt::Debug + 'static {
    /// `"gmem"`, `"smem"` or `"rmem"`.
    const NAME: &'static str;
}

/// Global memory (CuTe's `make_gmem_ptr`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Gmem;
/// Shared memory (CuTe's `make_smem_ptr`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Smem;
/// Register memory (owning fragments, CuTe's `make_tensor<T>(layout)`).
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
pub trait Engine {
    /// The element type (CuTe's `value_type`).
    type Value;
    /// The memory space the elements live in.
    type Space: MemorySpace;
    /// All elements of the storage.
    fn as_slice(&self) -> &[Self::Value];
}

/// An engine whose elements can be written.
pub trait EngineMut: Engine {
    /// All elements of the storage, mutably.
    fn as_mut_slice(&mut self) -> &mut [Self::Value];
}

/// An owning fixed-size array engine: `N` elements inline, no heap (CuTe's `ArrayEngine<T,N>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrayEngine<T, const N: usize> {
    data: [T; N],
}

impl<T, const N: usize> ArrayEngine<T, N> {
    /// The engine holding `data`.
    pub const fn new(data: [T; N]) -> Self {
        ArrayEngine { data }
    }
    /// The array back.
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapEngine<T, M: MemorySpace = Gmem> {
    data: Vec<T>,
    space: PhantomData<M>,
}

impl<T, M: MemorySpace> HeapEngine<T, M> {
    /// The engine holding `data`.
    pub fn new(data: Vec<T>) -> Self {
        HeapEngine {
            data,
            space: PhantomData,
        }
    }
    /// The vector back.
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
#[derive(Debug)]
pub struct ViewEngine<'a, T, M: MemorySpace = Gmem> {
    data: &'a mut [T],
    space: PhantomData<M>,
}

impl<'a, T, M: MemorySpace> ViewEngine<'a, T, M> {
    /// A view of `data`.
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
pub fn make_smem_ptr<V: IntoView<Smem>>(memory: V) -> V::Engine {
    memory.into_view()
}

/// Tag memory as registers (a view of a register array).
pub fn make_rmem_ptr<V: IntoView<Rmem>>(memory: V) -> V::Engine {
    memory.into_view()
}
