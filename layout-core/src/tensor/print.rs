//! `print_tensor`-style display: a header with the memory space and the layout, then the values laid
//! out by coordinate (mode 0 down, mode 1 across; higher modes as a sequence of such tables).

use super::base::Tensor;
use super::engine::Engine;
use super::index::Indices;
use super::layout::TensorLayout;
use crate::Layout;
use std::fmt;

fn table<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    data: &[T],
    off: i64,
    rows: &[i64],
    cols: &[i64],
    width: usize,
) -> fmt::Result {
    for &r in rows {
        for (k, &c) in cols.iter().enumerate() {
            if k > 0 {
                write!(f, " ")?;
            }
            write!(f, "{:>width$}", data[(off + r + c) as usize].to_string())?;
        }
        writeln!(f)?;
    }
    Ok(())
}

fn mode_indices(l: &Layout, k: usize) -> Vec<i64> {
    l.mode(k)
        .ok()
        .and_then(|m| Indices::new(&m).ok())
        .map(|i| i.collect())
        .unwrap_or_default()
}

impl<E: Engine, L: TensorLayout> fmt::Display for Tensor<E, L>
where
    E::Value: fmt::Display,
{
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..6).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "gmem o (2,3):(3,1):\n0 1 2\n3 4 5\n");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.layout().to_runtime();
        writeln!(f, "{} o {}:", self.memory_space(), l)?;
        let data = self.engine().as_slice();
        let width = self.iter().map(|v| v.to_string().len()).max().unwrap_or(1);
        let off = self.offset();
        match l.rank() {
            0 => Ok(()),
            1 if !l.is_tuple() || l.rank() == 1 => {
                let rows: Vec<i64> = Indices::new(&l).map(|i| i.collect()).unwrap_or_default();
                table(f, data, off, &rows, &[0], width)
            }
            2 => table(
                f,
                data,
                off,
                &mode_indices(&l, 0),
                &mode_indices(&l, 1),
                width,
            ),
            r => {
                let rows = mode_indices(&l, 0);
                let cols = mode_indices(&l, 1);
                let rest = Layout::from_modes((2..r).filter_map(|k| l.mode(k).ok()).collect());
                let rest: Vec<i64> = Indices::new(&rest).map(|i| i.collect()).unwrap_or_default();
                for (k, b) in rest.iter().enumerate() {
                    if k > 0 {
                        writeln!(f, "{}", "-".repeat(cols.len() * (width + 1)))?;
                    }
                    table(f, data, off + b, &rows, &cols, width)?;
                }
                Ok(())
            }
        }
    }
}

/// CuTe's `print_tensor(t)`: the display of [`Tensor`] as a string.
///
/// ```
/// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor, print_tensor};
/// use cute_layout_core::Layout;
/// let a: Vec<i32> = (0..6).collect();
/// let t = make_tensor(make_gmem_ptr(&a[..]), "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
/// assert!(print_tensor(&t).starts_with("gmem o (2,3):(3,1):\n0 1 2\n3 4 5\n"));
/// ```
pub fn print_tensor<E: Engine, L: TensorLayout>(t: &Tensor<E, L>) -> String
where
    E::Value: fmt::Display,
{
    t.to_string()
}
