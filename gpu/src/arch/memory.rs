//! Plain memory instructions: the shared-window address of a pointer, and vector loads and stores of
//! 1, 2 or 4 32-bit words to global or shared memory.
//!
//! ```
//! use cute_gpu::arch::memory::{load_fn, Space};
//! let f = load_fn("ld_global", Space::GlobalNc, 4);
//! assert!(f.contains("ld.global.nc.v4.b32 {%0,%1,%2,%3}, [%4];"));
//! ```

/// `smem_u32(p)`: `cvta.to.shared`, a generic pointer to shared memory as a 32-bit shared-window address.
///
/// ```
/// use cute_gpu::arch::memory::SMEM_ADDR;
/// assert!(SMEM_ADDR.starts_with("__device__ __forceinline__ unsigned int smem_u32(const void* p) {"));
/// assert!(SMEM_ADDR.contains("cvta.to.shared.u64 t, %1;"));
/// ```
pub const SMEM_ADDR: &str = r#"__device__ __forceinline__ unsigned int smem_u32(const void* p) {
  unsigned int a;
  asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
  return a;
}
"#;

/// A state space of vector accesses.
///
/// ```
/// use cute_gpu::arch::memory::{Space, load_fn, store_fn};
/// assert!(load_fn("ld", Space::Global, 1).contains("ld.global.b32 %0, [%1];"));
/// assert!(store_fn("st", Space::Shared, 2).contains("st.shared.v2.b32 [%0], {%1,%2};"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `.global`, addressed by a generic pointer.
    Global,
    /// `.global.nc`: read-only data through the non-coherent cache (loads only).
    GlobalNc,
    /// `.shared`, addressed by a 32-bit shared-window address.
    Shared,
}

impl Space {
    fn op(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::GlobalNc => "global.nc",
            Space::Shared => "shared",
        }
    }
}

fn vec_suffix(words: usize) -> &'static str {
    match words {
        4 => ".v4",
        2 => ".v2",
        _ => "",
    }
}

/// `{%first,...}` (or `%first` for one word) naming `words` consecutive operands.
fn operand_list(first: usize, words: usize) -> String {
    if words == 1 {
        return format!("%{first}");
    }
    let ops: Vec<String> = (first..first + words).map(|i| format!("%{i}")).collect();
    format!("{{{}}}", ops.join(","))
}

fn registers(constraint: &str, words: usize) -> String {
    let regs: Vec<String> = (0..words)
        .map(|i| format!("\"{constraint}\"(r[{i}])"))
        .collect();
    regs.join(", ")
}

/// `void name(addr, unsigned int* r)`: load `words` (1, 2, 4) 32-bit words from `space` into `r`.
///
/// ```
/// use cute_gpu::arch::memory::{Space, load_fn};
/// let f = load_fn("ld_shared", Space::Shared, 2);
/// assert!(f.starts_with("__device__ __forceinline__ void ld_shared(unsigned int a, unsigned int* r) {"));
/// assert!(f.contains("ld.shared.v2.b32 {%0,%1}, [%2];"));
/// ```
pub fn load_fn(name: &str, space: Space, words: usize) -> String {
    let words = words.clamp(1, 4);
    let (addr_decl, addr, clobber) = match space {
        Space::Shared => ("unsigned int a", "\"r\"(a)", " : \"memory\""),
        _ => ("const void* p", "\"l\"(p)", ""),
    };
    format!(
        "__device__ __forceinline__ void {name}({addr_decl}, unsigned int* r) {{\n  asm volatile(\"ld.{}{}.b32 {}, [%{words}];\" : {} : {addr}{clobber});\n}}\n",
        space.op(),
        vec_suffix(words),
        operand_list(0, words),
        registers("=r", words)
    )
}

/// `void name(addr, const unsigned int* r)`: store `words` (1, 2, 4) 32-bit words from `r` to `space`.
///
/// ```
/// use cute_gpu::arch::memory::{Space, store_fn};
/// let f = store_fn("st_global", Space::Global, 4);
/// assert!(f.starts_with("__device__ __forceinline__ void st_global(void* p, const unsigned int* r) {"));
/// assert!(f.contains("st.global.v4.b32 [%0], {%1,%2,%3,%4};"));
/// ```
pub fn store_fn(name: &str, space: Space, words: usize) -> String {
    let words = words.clamp(1, 4);
    let (addr_decl, addr) = match space {
        Space::Shared => ("unsigned int a", "\"r\"(a)"),
        _ => ("void* p", "\"l\"(p)"),
    };
    format!(
        "__device__ __forceinline__ void {name}({addr_decl}, const unsigned int* r) {{\n  asm volatile(\"st.{}{}.b32 [%0], {};\" :: {addr}, {} : \"memory\");\n}}\n",
        space.op(),
        vec_suffix(words),
        operand_list(1, words),
        registers("r", words)
    )
}

/// `ld_global` (read-only, non-coherent) and `st_global` of `bytes` (4, 8 or 16) as 32-bit words.
///
/// ```
/// use cute_gpu::{arch::memory::global_vector_fns, nvrtc::{compile, nvrtc_available}};
/// let fns = global_vector_fns(8);
/// assert!(fns.contains("ld.global.nc.v2.b32") && fns.contains("st.global.v2.b32"));
/// let src = fns + "extern \"C\" __global__ void k(const uint2* x, uint2* y) { unsigned int r[2]; ld_global(x, r); st_global(y, r); }";
/// if nvrtc_available() { assert!(!compile(&src, "k", "sm_80").unwrap().cubin.is_empty()); }
/// ```
pub fn global_vector_fns(bytes: usize) -> String {
    let words = (bytes / 4).clamp(1, 4);
    load_fn("ld_global", Space::GlobalNc, words) + &store_fn("st_global", Space::Global, words)
}
