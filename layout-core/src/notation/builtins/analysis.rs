//! Notation table for the layout analyses ([`crate::analysis`]), so that `cute eval` and `layout!`
//! can ask for them; the `check_*` forms return the thread-value layout they checked (a plain layout,
//! so `layout!` can type it) or fail with the numbers, which inside `layout!` is a compile error.

use super::swizzle::as_fn;
use super::{arity, targ};
use crate::analysis::{Access, F2Map, bank_conflicts, from_f2, global_access, to_f2};
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::value::Value;

pub(super) const NAMES: &[&str] = &[
    "bank_conflicts",
    "check_bank_conflict_free",
    "vector_bits",
    "check_coalesced",
    "linear_bases",
    "from_linear_bases",
];

pub(super) fn call(name: &str, targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    Some(dispatch(name, targs, args))
}

fn dispatch(name: &str, targs: &[i64], args: Vec<Value>) -> Result<Value> {
    match name {
        "linear_bases" => {
            arity(name, &args, &[1])?;
            let m = to_f2(&as_fn(name, &args[0])?)?;
            Ok(Value::IntTuple(IntTuple::Tuple(
                m.bases.iter().map(|&b| IntTuple::d(b)).collect(),
            )))
        }
        "from_linear_bases" => {
            arity(name, &args, &[1])?;
            let t = args[0].clone().into_int_tuple()?;
            let bases = t
                .leaves()
                .iter()
                .map(|l| l.as_int().map(|i| i.value))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    LayoutError::bad_args(name, format!("expected a tuple of integers, got {t}"))
                })?;
            Ok(from_f2(&F2Map { bases })?.into())
        }
        "bank_conflicts" | "check_bank_conflict_free" => {
            arity(name, &args, &[2])?;
            let access = Access {
                elem_bits: targ(name, targs, 0)? as i64,
                bytes: targ(name, targs, 1)? as i64,
            };
            let (tv, smem) = (tv_layout(name, &args[0])?, as_fn(name, &args[1])?);
            let r = bank_conflicts(&tv, &smem, access)?;
            if name == "bank_conflicts" {
                return Ok(Value::tuple(vec![
                    Value::int(Int::d(r.worst)),
                    Value::int(Int::d(r.ideal)),
                ]));
            }
            if !r.conflict_free() {
                return Err(LayoutError::invalid(format!(
                    "bank conflicts: {}-byte accesses of {}-bit elements by {tv} on {smem} take {} wavefronts in the worst warp request (warp {}, vector {}), mean {:.2}, ideal {}",
                    access.bytes,
                    access.elem_bits,
                    r.worst,
                    r.worst_at.0,
                    r.worst_at.1,
                    r.mean,
                    r.ideal
                )));
            }
            Ok(args[0].clone())
        }
        "vector_bits" | "check_coalesced" => {
            arity(name, &args, &[2])?;
            let bits = targ(name, targs, 0)? as i64;
            let (tv, gmem) = (tv_layout(name, &args[0])?, as_fn(name, &args[1])?);
            let r = global_access(&tv, &gmem, bits)?;
            if name == "vector_bits" {
                return Ok(Value::int(Int::d(r.vector_bits)));
            }
            if r.efficiency < 1.0 {
                return Err(LayoutError::invalid(format!(
                    "not coalesced: {tv} on {gmem} ({bits}-bit elements) moves {}-bit vectors, {:.2} sectors per warp request, {:.1}% of the fetched bytes used",
                    r.vector_bits,
                    r.sectors_mean,
                    r.efficiency * 100.0
                )));
            }
            Ok(args[0].clone())
        }
        _ => unreachable!("name listed in NAMES"),
    }
}

fn tv_layout(op: &str, v: &Value) -> Result<Layout> {
    v.clone()
        .into_layout()
        .map_err(|e| LayoutError::bad_args(op, format!("the thread-value layout: {e}")))
}
