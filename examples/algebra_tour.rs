//! The algebra tour: CuTe's layout algebra at run time, in CuTe's notation.
//!
//! ```sh
//! cargo run --example algebra_tour
//! ```
//!
//! Every line prints the CuTe expression, then what this crate computes for it (the same text CuTe
//! C++ prints; `tests/oracle.rs` checks thousands of them against CuTe itself).

use cute::print::print_layout;
use cute::tensor::{copy, make_gmem_ptr, make_tensor};
use cute::{
    Layout, LayoutFn, Result, Tiler, coalesce, complement, composition, cosize, crd2idx, idx2crd,
    logical_divide, raked_product, right_inverse, size, zipped_divide,
};

fn l(s: &str) -> Layout {
    s.parse().expect("a layout in CuTe's notation")
}

fn main() -> Result<()> {
    // 1. A layout is a shape and a stride, hierarchical tuples of static (`_4`) or dynamic (`4`)
    //    integers. It maps a coordinate to an offset: the inner product with the stride.
    let a = l("(_4,(_3,_6)):(_1,(_4,_12))");
    println!("L = {a}");
    println!("  size(L) = {}, cosize(L) = {}", size(&a)?, cosize(&a)?);
    let c = "(3,(2,5))".parse()?;
    println!(
        "  L(3,(2,5)) = crd2idx((3,(2,5)), shape, stride) = {}",
        crd2idx(&c, a.shape(), a.stride())?
    );
    // L is compact, so idx2crd inverts it.
    let back = idx2crd(&"40".parse()?, a.shape(), a.stride())?;
    println!("  idx2crd(40, shape, stride) = {back}");
    assert_eq!(crd2idx(&back, a.shape(), a.stride())?.to_string(), "40");

    // 2. coalesce: the same function with fewer modes. Static leaves simplify; dynamic ones cannot,
    //    because at run time CuTe cannot tell that a `1` is a 1.
    for s in ["(_2,(_1,_6)):(_1,(_6,_2))", "(2,(1,6)):(1,(6,2))"] {
        println!("coalesce({s}) = {}", coalesce(&l(s))?);
    }

    // 3. composition: (A o B)(i) = A(B(i)); checked against its definition.
    let (a, b) = (l("(_6,_2):(_8,_2)"), l("(_4,_3):(_3,_1)"));
    println!("composition({a}, {b}) = {}", composition(&a, &b)?);
    let bad = composition(&l("(_4,_32):(_32,_1)"), &l("_32:_3"));
    println!(
        "composition((_4,_32):(_32,_1), _32:_3) -> {}",
        bad.unwrap_err()
    );

    // 4. complement and inverses.
    let t = l("(_2,_2):(_4,_1)");
    println!(
        "complement({t}, _16) = {}",
        complement(&t, &"_16".parse()?)?
    );
    let rm = l("(_4,_8):(_8,_1)");
    println!("right_inverse({rm}) = {}", right_inverse(&rm)?);

    // 5. Divides tile a layout; products repeat one.
    let m = l("(_8,_8):(_1,_8)");
    let tiler: Tiler = "(_2,_4)".parse()?;
    println!(
        "logical_divide({m}, {tiler}) = {}",
        logical_divide(&m, &tiler)?
    );
    println!(
        "zipped_divide({m}, {tiler}) = {}",
        zipped_divide(&m, &tiler)?
    );
    let (blk, rep) = (l("(_2,_2):(_1,_2)"), l("(_3,_4):(_4,_1)"));
    println!(
        "raked_product({blk}, {rep}) = {}",
        raked_product(&blk, &rep)?
    );

    // 6. Whole expressions in CuTe's notation (what `cute eval` runs), swizzles included.
    for e in [
        "logical_divide((_9,(_4,_8)):(_59,(_13,_1)),(_3:_3,(_2,_4):(_1,_8)))",
        "make_identity_layout((_4,_2))",
        "eval(Sw<3,4,3> o _0 o (_8,_64):(_64,_1),_100)",
        "mma_layout_a(SM80_16x8x16_F32F16F16F32_TN)",
    ] {
        println!("{e} = {}", cute::notation::eval_str(e)?);
    }

    // 7. Pictures: CuTe's print_layout table (TikZ and SVG are in `cute::print` too).
    print!("{}", print_layout(&LayoutFn::Layout(l("(_4,_8):(_8,_1)")))?);

    // 8. Tensors: a layout over storage. Copy a column-major 4x3 matrix into a row-major one.
    let src: Vec<i32> = (0..12).collect();
    let mut dst = vec![0; 12];
    let s = make_tensor(make_gmem_ptr(&src[..]), l("(_4,_3):(_1,_4)"))?;
    let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), l("(_4,_3):(_3,_1)"))?;
    copy(&s, &mut d)?;
    println!("column-major {src:?}\n   row-major {dst:?}");
    assert_eq!(dst, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
    Ok(())
}
