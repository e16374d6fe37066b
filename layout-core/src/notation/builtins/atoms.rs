//! Atom functions of the notation (grammar in `shared/oracle/atoms/README.md`): MMA and copy traits,
//! TiledMMA and TiledCopy queries. The first argument is always the operation's C++ type name.

use super::arity;
use crate::atom::{CopyAtom, CopyTraits, MmaTraits, Operand, TiledCopy, TiledMma, alg, gmma};
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
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
    "copy_atom_layout_src",
    "copy_atom_layout_dst",
    "copy_atom_layout_ref",
    "tiled_mma_layout_a_tv",
    "tiled_mma_layout_b_tv",
    "tiled_mma_layout_c_tv",
    "tiled_mma_tile_mnk",
    "tiled_mma_thr_layout_vmnk",
    "tiled_copy_layout_s_tv",
    "tiled_copy_layout_d_tv",
    "tiled_copy_tiler_mn",
    "tiled_copy_layout_tv",
    "tiled_copy_a_layout_s_tv",
    "tiled_copy_a_layout_d_tv",
    "tiled_copy_a_tiler_mn",
    "tiled_copy_a_layout_tv",
    "tiled_copy_b_layout_s_tv",
    "tiled_copy_b_layout_d_tv",
    "tiled_copy_b_tiler_mn",
    "tiled_copy_b_layout_tv",
    "tiled_copy_c_layout_s_tv",
    "tiled_copy_c_layout_d_tv",
    "tiled_copy_c_tiler_mn",
    "tiled_copy_c_layout_tv",
    "tiled_copy_c_atom_layout_s_tv",
    "tiled_copy_c_atom_layout_d_tv",
    "tiled_copy_c_atom_tiler_mn",
    "tiled_copy_c_atom_layout_tv",
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
        "copy_atom_layout_src" | "copy_atom_layout_dst" | "copy_atom_layout_ref" => {
            copy_atom_query(name, args)
        }
        n if n.starts_with("tiled_mma_") => tiled_mma_query(name, args),
        n if n.starts_with("tiled_copy_") => tiled_copy_query(name, args),
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

/// A value width in bits (a positive integer).
fn bits_arg(fname: &str, v: &Value) -> Result<i64> {
    match v.clone().into_int() {
        Ok(i) if i.value > 0 => Ok(i.value),
        _ => Err(LayoutError::bad_args(
            fname,
            format!("the value width must be a positive number of bits, found `{v}`"),
        )),
    }
}

/// A layout argument: a layout, or a bare shape meaning `make_layout(shape)` (compact column-major).
fn layout_arg(fname: &str, v: &Value) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l.clone()),
        Value::IntTuple(t) => alg::make_layout(t),
        other => Err(LayoutError::bad_args(
            fname,
            format!(
                "expected a layout or a shape, found {} `{other}`",
                other.kind()
            ),
        )),
    }
}

fn copy_atom_query(name: &str, args: Vec<Value>) -> Result<Value> {
    arity(name, &args, &[2])?;
    let atom = CopyAtom::from_name(op_name(name, &args[0])?, bits_arg(name, &args[1])?)?;
    Ok(Value::Layout(match name {
        "copy_atom_layout_src" => atom.val_layout_src,
        "copy_atom_layout_dst" => atom.val_layout_dst,
        _ => atom.val_layout_ref,
    }))
}

/// `make_tiled_mma(MMA_OP, LAYOUT[, PERM])` from the arguments starting at `args[0]`.
fn tiled_mma_arg(fname: &str, args: &[Value]) -> Result<TiledMma> {
    let atom = MmaTraits::from_name(op_name(fname, &args[0])?)?;
    let layout = layout_arg(fname, &args[1])?;
    let perm = args.get(2).map(|p| p.clone().into_tiler()).transpose()?;
    TiledMma::new(atom, &layout, perm.as_ref())
}

fn tiled_mma_query(name: &str, args: Vec<Value>) -> Result<Value> {
    arity(name, &args, &[2, 3])?;
    let mma = tiled_mma_arg(name, &args)?;
    Ok(match name {
        "tiled_mma_layout_a_tv" => Value::Layout(mma.layout_a_tv()?),
        "tiled_mma_layout_b_tv" => Value::Layout(mma.layout_b_tv()?),
        "tiled_mma_layout_c_tv" => Value::Layout(mma.layout_c_tv()?),
        "tiled_mma_tile_mnk" => Value::IntTuple(mma.tile_shape()?),
        "tiled_mma_thr_layout_vmnk" => Value::Layout(mma.thr_layout_vmnk),
        _ => {
            return Err(LayoutError::UnknownOperation {
                name: name.into(),
                suggestion: None,
            });
        }
    })
}

fn tiled_copy_query(name: &str, args: Vec<Value>) -> Result<Value> {
    let rest = &name["tiled_copy_".len()..];
    let (kind, query) = ["c_atom_", "a_", "b_", "c_"]
        .iter()
        .find_map(|k| rest.strip_prefix(k).map(|q| (Some(*k), q)))
        .unwrap_or((None, rest));
    let tc = match kind {
        None => {
            arity(name, &args, &[4])?;
            let atom = CopyAtom::from_name(op_name(name, &args[0])?, bits_arg(name, &args[1])?)?;
            TiledCopy::new(
                atom,
                &layout_arg(name, &args[2])?,
                &layout_arg(name, &args[3])?,
            )?
        }
        Some(k) => {
            arity(name, &args, &[4, 5])?;
            let atom = CopyAtom::from_name(op_name(name, &args[0])?, bits_arg(name, &args[1])?)?;
            let mma = tiled_mma_arg(name, &args[2..])?;
            match k {
                "a_" => TiledCopy::for_mma(atom, &mma, Operand::A)?,
                "b_" => TiledCopy::for_mma(atom, &mma, Operand::B)?,
                "c_" => TiledCopy::for_mma(atom, &mma, Operand::C)?,
                _ => TiledCopy::for_mma_c_atom(atom, &mma)?,
            }
        }
    };
    Ok(match query {
        "layout_s_tv" => Value::Layout(tc.layout_s_tv()?),
        "layout_d_tv" => Value::Layout(tc.layout_d_tv()?),
        "tiler_mn" => Value::from(tc.tiler_mn),
        "layout_tv" => Value::Layout(tc.layout_tv),
        _ => {
            return Err(LayoutError::UnknownOperation {
                name: name.into(),
                suggestion: None,
            });
        }
    })
}
