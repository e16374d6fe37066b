//! Atom functions of the notation (grammar in `shared/oracle/atoms/README.md`): MMA and copy traits,
//! TiledMMA and TiledCopy queries. The first argument is always the operation's C++ type name.

use super::arity;
use crate::atom::{gmma, CopyTraits, MmaTraits};
use crate::error::{LayoutError, Result};
use crate::notation::value::Value;

pub(super) const NAMES: &[&str] = &[
    "mma_shape_mnk",
    "mma_thr_id",
    "mma_layout_a",
    "mma_layout_b",
    "mma_layout_c",
    "copy_layout_src",
    "copy_layout_dst",
    "copy_layout_ref",
    "copy_thr_id",
    "gmma_layout_atom",
];

pub(super) fn call(name: &str, _targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    let r = match name {
        "mma_shape_mnk" | "mma_thr_id" | "mma_layout_a" | "mma_layout_b" | "mma_layout_c" => {
            mma_query(name, args)
        }
        "copy_layout_src" | "copy_layout_dst" | "copy_layout_ref" | "copy_thr_id" => {
            copy_query(name, args)
        }
        "gmma_layout_atom" => arity(name, &args, &[1])
            .and_then(|_| op_name(name, &args[0]))
            .and_then(gmma::smem_atom_by_name)
            .map(Value::Composed),
        _ => return None,
    };
    Some(r)
}

/// The operation name argument: an opaque type name (or a bare identifier the parser kept as one).
fn op_name<'a>(fname: &str, v: &'a Value) -> Result<&'a str> {
    match v {
        Value::Name(n) => Ok(n),
        other => Err(LayoutError::bad_args(
            fname,
            format!(
                "the first argument must be an operation's C++ type name, found {} `{other}`",
                other.kind()
            ),
        )),
    }
}

fn mma_query(name: &str, args: Vec<Value>) -> Result<Value> {
    arity(name, &args, &[1])?;
    let t = MmaTraits::from_name(op_name(name, &args[0])?)?;
    Ok(match name {
        "mma_shape_mnk" => Value::IntTuple(t.shape_mnk),
        "mma_thr_id" => Value::Layout(t.thr_id),
        "mma_layout_a" => Value::Layout(t.layout_a),
        "mma_layout_b" => Value::Layout(t.layout_b),
        _ => Value::Layout(t.layout_c),
    })
}

fn copy_query(name: &str, args: Vec<Value>) -> Result<Value> {
    arity(name, &args, &[1])?;
    let t = CopyTraits::from_name(op_name(name, &args[0])?)?;
    Ok(Value::Layout(match name {
        "copy_layout_src" => t.src,
        "copy_layout_dst" => t.dst,
        "copy_layout_ref" => t.reference,
        _ => t.thr_id,
    }))
}
