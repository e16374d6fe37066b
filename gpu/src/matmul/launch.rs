//! The GEMM call on cudarc buffers: checks (lengths, overlap, alignment) before any launch, the plan
//! cache, and the launches (one per batch) on the caller's stream, with cudarc's event tracking kept
//! around each launch.

use super::plan::{Plan, Request, Span, check_spans, plan};
use crate::dtype::DType;
use crate::error::{GpuError, Result};
use crate::runtime::{RawBuffer, Runtime};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, ValidAsZeroBits};
use layout_core::Layout;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// An element type of GEMM operands: `half::f16`, `half::bf16` (A, B, C, D) or `f32` (C, D).
pub trait Element: DeviceRepr + ValidAsZeroBits {
    /// The kernel-side type.
    const DTYPE: DType;
}

impl Element for half::f16 {
    const DTYPE: DType = DType::F16;
}
impl Element for half::bf16 {
    const DTYPE: DType = DType::BF16;
}
impl Element for f32 {
    const DTYPE: DType = DType::F32;
}

/// A read-only operand: a device buffer and the CuTe layout of the matrix in it (element offsets).
pub struct Matrix<'a, T> {
    /// The buffer.
    pub data: &'a CudaSlice<T>,
    /// `(rows, columns[, batch]) : (strides)`.
    pub layout: Layout,
}

impl<'a, T> Matrix<'a, T> {
    /// The matrix `layout` in `data`.
    pub fn new(data: &'a CudaSlice<T>, layout: Layout) -> Self {
        Matrix { data, layout }
    }
}

/// The output operand.
pub struct MatrixMut<'a, T> {
    /// The buffer.
    pub data: &'a mut CudaSlice<T>,
    /// `(rows, columns[, batch]) : (strides)`.
    pub layout: Layout,
}

impl<'a, T> MatrixMut<'a, T> {
    /// The matrix `layout` in `data`.
    pub fn new(data: &'a mut CudaSlice<T>, layout: Layout) -> Self {
        MatrixMut { data, layout }
    }
}

/// A GEMM handle on a stream: the runtime (compile cache) and the plans of the requests seen so far.
pub struct Gemm {
    rt: Runtime,
    plans: Mutex<HashMap<String, Arc<Plan>>>,
}

impl Gemm {
    /// A handle launching on `stream`.
    pub fn new(stream: &Arc<CudaStream>) -> Result<Gemm> {
        Ok(Gemm {
            rt: Runtime::with_stream(stream.clone())?,
            plans: Mutex::new(HashMap::new()),
        })
    }

    /// The runtime (architecture, SM count, compile cache).
    pub fn runtime(&self) -> &Runtime {
        &self.rt
    }

    fn plan(&self, r: &Request) -> Result<Option<Arc<Plan>>> {
        let key = format!(
            "{}|{}|{}|{:?}|{}|{}|{:?}|{}|{}|{:?}",
            r.a,
            r.b,
            r.d,
            r.c.map(|c| c.to_string()),
            r.input.name(),
            r.output.name(),
            r.aligned,
            r.alpha,
            r.beta,
            r.arch
        );
        let lock = || {
            self.plans.lock().map_err(|_| GpuError::Driver {
                call: "plan cache".into(),
                detail: "lock poisoned".into(),
            })
        };
        if let Some(p) = lock()?.get(&key) {
            return Ok(Some(p.clone()));
        }
        let Some(p) = plan(r)? else { return Ok(None) };
        let p = Arc::new(p);
        lock()?.insert(key, p.clone());
        Ok(Some(p))
    }

    /// `D = alpha * A·B + beta * C` (C = D when `c` is `None`), asynchronously on the handle's stream.
    /// Bad input (shapes that do not agree, a buffer shorter than its layout's span, D overlapping an
    /// input) is an error before any launch.
    pub fn run<T: Element, O: Element>(
        &self,
        a: &Matrix<T>,
        b: &Matrix<T>,
        c: Option<&Matrix<O>>,
        d: &mut MatrixMut<O>,
        alpha: f32,
        beta: f32,
    ) -> Result<()> {
        let stream = self.rt.stream().clone();
        let (pa, _ga) = a.data.device_ptr(&stream);
        let (pb, _gb) = b.data.device_ptr(&stream);
        let c_guard = c.map(|c| c.data.device_ptr(&stream));
        let d_len = d.data.len();
        let (pd, _gd) = d.data.device_ptr_mut(&stream);
        let pc = c_guard.as_ref().map_or(pd, |g| g.0);
        let (ts, os) = (std::mem::size_of::<T>(), std::mem::size_of::<O>());
        let mut spans = vec![
            Span::new("A", pa, a.data.len() * ts, &a.layout, ts)?,
            Span::new("B", pb, b.data.len() * ts, &b.layout, ts)?,
        ];
        if let Some(c) = c {
            spans.push(Span::new("C", pc, c.data.len() * os, &c.layout, os)?);
        }
        spans.push(Span::new("D", pd, d_len * os, &d.layout, os)?);
        check_spans(&spans)?;
        let request = Request {
            a: &a.layout,
            b: &b.layout,
            c: c.map(|c| &c.layout),
            d: &d.layout,
            input: T::DTYPE,
            output: O::DTYPE,
            alpha,
            beta,
            arch: self.rt.arch(),
            aligned: [pa, pb, pc, pd].map(|p| p % 16 == 0),
        };
        let Some(plan) = self.plan(&request)? else {
            return Ok(());
        };
        let sizes = [
            T::DTYPE.bytes(),
            T::DTYPE.bytes(),
            O::DTYPE.bytes(),
            O::DTYPE.bytes(),
        ];
        let out = spans.len() - 1;
        let lens = [
            spans[0].bytes,
            spans[1].bytes,
            spans[out - usize::from(c.is_some())].bytes,
            spans[out].bytes,
        ];
        for l in 0..plan.batches {
            let off = |i: usize| (l * plan.batch_strides[i] * sizes[i]) as usize;
            let at = |i: usize, p: u64, len: usize| (p + off(i) as u64, len.saturating_sub(off(i)));
            let (mut x, mut y) = (at(0, pa, lens[0]), at(1, pb, lens[1]));
            if plan.batch.swapped {
                std::mem::swap(&mut x, &mut y);
            }
            let (cb, db) = (at(2, pc, lens[2]), at(3, pd, lens[3]));
            let raw = |(p, n): (u64, usize)| RawBuffer::new(p, n);
            let buffers: Vec<RawBuffer> = match plan.path {
                "sm90" => vec![raw(x), raw(y), raw(db)],
                _ => vec![raw(x), raw(y), raw(cb), raw(db)],
            };
            let prepared = self.rt.prepare(&plan.kernel, &buffers)?;
            self.rt.run(&prepared)?;
        }
        Ok(())
    }
}
