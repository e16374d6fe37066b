//! The second half of a split-K GEMM: `D = act(alpha * Σ_s W[s] + beta * C + bias)`.
//!
//! A split-K GEMM runs K in `splits` slices as a strided batch (slice `s` reads A and B at `s * K/splits`
//! along K) whose f32 products land in a workspace `W` of `splits` row-major `(M, ldw)` matrices; this
//! kernel sums them and applies the fused epilogue once (alpha, beta·C, bias and the activation must see
//! the whole sum). One thread per four consecutive columns of a row: a 16-byte load of each slice.
//!
//! ```
//! use cute_gpu::{DType, kernels::{gemm_sm90::Fused, splitk_reduce::{SplitKReduce, generate_splitk_reduce}}};
//! let r = SplitKReduce { m: 16, n: 8190, ldd: 8192, splits: 4, output: DType::BF16, fused: Fused::default() };
//! assert_eq!((r.ldw(), r.split_stride()), (8192, 16 * 8192));
//! let k = generate_splitk_reduce(&r).unwrap();
//! assert_eq!(k.buffer_names(), ["W", "D"]);
//! assert_eq!(k.grid.0 * k.block.0, 16 * 8192 / 4); // a thread per 4 columns
//! ```

use crate::dtype::DType;
use crate::emit::{Leaf, Params};
use crate::error::{GpuError, Result, to_u32};
use crate::kernel::{Buffer, Kernel};
use crate::kernels::gemm_sm90::Fused;
use cute_layout_core::Int;

const THREADS: u32 = 256;

/// The reduction of `splits` f32 slices of an `(m, n)` product into D (`ldd` elements between rows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitKReduce {
    /// Rows of D.
    pub m: i64,
    /// Columns of D.
    pub n: i64,
    /// Elements between rows of D (and C).
    pub ldd: i64,
    /// K slices.
    pub splits: i64,
    /// D's type.
    pub output: DType,
    /// alpha, beta·C, bias, activation.
    pub fused: Fused,
}

impl SplitKReduce {
    /// Elements between rows of a workspace slice: `n` rounded up to 4 (16-byte rows, for the loads and
    /// for the TMA store of the partial products).
    ///
    /// ```
    /// # use cute_gpu::{DType, kernels::{gemm_sm90::Fused, splitk_reduce::SplitKReduce}};
    /// let r = SplitKReduce { m: 3, n: 5, ldd: 6, splits: 2, output: DType::F32, fused: Fused::default() };
    /// assert_eq!(r.ldw(), 8);
    /// ```
    pub fn ldw(&self) -> i64 {
        (self.n + 3) / 4 * 4
    }

    /// Elements between two slices of the workspace.
    pub fn split_stride(&self) -> i64 {
        self.m * self.ldw()
    }

    /// f32 elements of the workspace.
    ///
    /// ```
    /// # use cute_gpu::{DType, kernels::{gemm_sm90::Fused, splitk_reduce::SplitKReduce}};
    /// let r = SplitKReduce { m: 3, n: 5, ldd: 6, splits: 2, output: DType::F32, fused: Fused::default() };
    /// assert_eq!(r.workspace_elems(), 2 * 3 * 8);
    /// ```
    pub fn workspace_elems(&self) -> i64 {
        self.splits * self.split_stride()
    }

    fn check(&self) -> Result<()> {
        if self.m < 1 || self.n < 1 || self.splits < 1 || self.ldd < self.n {
            return Err(GpuError::Config {
                kernel: "splitk_reduce",
                reason: format!(
                    "needs m, n, splits >= 1 and ldd >= n: m {}, n {}, splits {}, ldd {}",
                    self.m, self.n, self.splits, self.ldd
                ),
            });
        }
        Ok(())
    }
}

fn store(output: DType) -> &'static str {
    match output {
        DType::F32 => "v",
        DType::F16 => "f32_to_f16(v)",
        _ => "f32_to_bf16(v)",
    }
}

/// The buffers of `r`'s kernel: W, D, and C and the bias when the op reads them.
fn buffers(r: &SplitKReduce) -> Vec<Buffer> {
    let osz = r.output.bytes() as usize;
    let d_bytes = ((r.m - 1) * r.ldd + r.n) as usize * osz;
    let op = r.fused.op;
    let mut buffers = vec![
        Buffer {
            name: "W".into(),
            bytes: r.workspace_elems() as usize * 4,
        },
        Buffer {
            name: "D".into(),
            bytes: d_bytes,
        },
    ];
    if op.scale {
        buffers.push(Buffer {
            name: "C".into(),
            bytes: d_bytes,
        });
    }
    // an empty bias (M or N = 0) is no buffer: the reduction of an empty output is never launched
    buffers.extend(op.bias_buffer(r.m, r.n, r.output).filter(|b| b.bytes > 0));
    buffers
}

/// The reduction kernel of `r`.
pub fn generate_splitk_reduce(r: &SplitKReduce) -> Result<Kernel> {
    r.check()?;
    if !r.output.is_output() {
        return Err(GpuError::Config {
            kernel: "splitk_reduce",
            reason: format!("output {} is not f32, f16 or bf16", r.output.name()),
        });
    }
    let op = r.fused.op;
    let out_c = r.output.c_type();
    let name = format!("cute_splitk_reduce_{}{}", r.output.name(), r.fused.op.tag());
    let mut params = Params::default();
    params.ptr("const float* __restrict__", "W");
    params.ptr(&format!("{out_c}* __restrict__"), "D");
    op.params(&mut params, r.output, r.fused.alpha, r.fused.beta);
    for (n, v) in [("M", r.m), ("N", r.n), ("S", r.splits)] {
        params.extent(&Leaf::new(Int::d(v), n))?;
    }
    for (n, v) in [
        ("ldd", r.ldd),
        ("ldw", r.ldw()),
        ("split", r.split_stride()),
    ] {
        params.stride(&Leaf::new(Int::d(v), n));
    }
    let columns: String = ["x", "y", "z", "w"]
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let v = op.apply(&format!("s4.{c}"), "m", &format!("n0 + {j}"));
            format!(
                "  if (n0 + {j} < N) {{ const float v = {v}; row[n0 + {j}] = {}; }}
",
                store(r.output)
            )
        })
        .collect();
    let source = format!(
        r#"// {name}: D = epilogue(sum over S slices of W), W slices row-major (M, ldw) f32, split elements apart;
// one thread per 4 columns of a row (a 16-byte load per slice)
{convert}typedef {out_c} out_t;
// (no __launch_bounds__: with it ptxas aims at 32 registers and spills)
extern "C" __global__ void
{name}(
    {sig}) {{
{lambdas}  const long long quads = (N + 3) / 4;
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)M * quads) return;
  const int m = (int)(t / quads), n0 = (int)(t % quads) * 4;
  const float* p = W + (long long)m * ldw + n0;
  float4 s4 = *(const float4*)p;
  for (int s = 1; s < S; ++s) {{
    const float4 x = *(const float4*)(p + (long long)s * split);
    s4.x += x.x; s4.y += x.y; s4.z += x.z; s4.w += x.w;
  }}
  out_t* const row = D + (long long)m * ldd;
{columns}}}
"#,
        convert = crate::arch::convert::CONVERT,
        sig = params.signature(),
        lambdas = op.lambdas(r.output, ("M", "N")),
    );
    let buffers = buffers(r);
    let threads = r.m * ((r.n + 3) / 4);
    Ok(Kernel {
        name,
        source,
        grid: (
            to_u32("split-K reduce blocks", (threads + 255) / 256)?,
            1,
            1,
        ),
        persistent: false,
        cluster: 1,
        block: (THREADS, 1, 1),
        dynamic_smem_bytes: 0,
        args: params.args,
        buffers,
        pointer_alignment: 16,
        dependent_launch: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};

    #[test]
    fn fused_epilogue_runs_on_the_sum() {
        let fused = Fused {
            op: EpilogueOp {
                scale: true,
                bias: BiasKind::PerRow,
                activation: Activation::Silu,
            },
            alpha: 0.5,
            beta: 2.0,
        };
        let r = SplitKReduce {
            m: 7,
            n: 13,
            ldd: 16,
            splits: 3,
            output: DType::F16,
            fused,
        };
        let k = generate_splitk_reduce(&r).unwrap();
        assert_eq!(k.buffer_names(), ["W", "D", "C", "bias"]);
        assert!(
            k.source
                .contains("const float v = epi_post(epi_scale(s4.z, m, n0 + 2), m, n0 + 2);")
        );
        assert!(k.source.contains("f32_to_f16(v)"));
        assert_eq!(k.buffers[0].bytes, 3 * 7 * 16 * 4);
        assert_eq!(k.buffers[1].bytes, (6 * 16 + 13) * 2);
        let bad = SplitKReduce { ldd: 12, ..r };
        assert!(generate_splitk_reduce(&bad).is_err());
    }
}
