//! Drawing a TiledMMA: CuTe's `print_svg(tiled_mma)`, the picture of which thread holds which element
//! of A, B and C.
//!
//! ```sh
//! cargo run --example draw_tiled_mma                 # writes target/examples/tiled_mma.svg
//! cargo run --example draw_tiled_mma -- -            # the SVG on stdout
//! cargo run --example draw_tiled_mma -- out.svg SM80_16x8x8_F16F16F16F16_TN '(_2,_1,_1)'
//! ```
//!
//! The `cute` command draws the same: `cute show SM80_16x8x16_F32F16F16F32_TN --tiled '(_2,_2,_1)'`.

use cute::atom::svg::{SvgOptions, tiled_mma_svg};
use cute::atom::{MmaTraits, Operand, TiledMma};
use cute::make_layout;
use std::io::Write;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = args.next();
    let op = args.next().unwrap_or("SM80_16x8x16_F32F16F16F32_TN".into());
    let atoms = args.next().unwrap_or("(_2,_2,_1)".into());

    // CuTe: make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})
    let atom = MmaTraits::from_name(&op)?;
    let atom_layout = make_layout(&atoms.parse()?)?; // a shape: column-major layout of atoms
    let mma = TiledMma::new(atom, &atom_layout, None)?;
    eprintln!("TiledMMA {op} x {atoms}");
    eprintln!("  threads:       {}", mma.num_threads()?);
    eprintln!("  tile (M,N,K):  {}", mma.tile_shape()?);
    eprintln!("  thr_layout_vmnk {}", mma.thr_layout_vmnk);
    for (name, o) in [("A", Operand::A), ("B", Operand::B), ("C", Operand::C)] {
        eprintln!("  {name} (thr,val) -> coord: {}", mma.layout_tv(o)?);
    }

    let svg = tiled_mma_svg(
        &mma,
        &SvgOptions {
            highlight: None,
            title: Some(format!("{op} tiled {atoms}")),
        },
    )?;
    match out.as_deref() {
        Some("-") => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::stdout().write_all(svg.as_bytes());
        }
        Some(path) => write(PathBuf::from(path), &svg)?,
        None => {
            // Under the build directory, so a run leaves nothing in the source tree.
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
            write(target.join("examples").join("tiled_mma.svg"), &svg)?;
        }
    }
    Ok(())
}

fn write(path: PathBuf, svg: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, svg)?;
    eprintln!("wrote {} ({} bytes)", path.display(), svg.len());
    Ok(())
}
