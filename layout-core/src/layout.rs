//! Layout: a shape and a congruent stride, a function from coordinates to indices.
//!
//! ```
//! use cute_layout_core::Layout;
//! let l: Layout = "(4,(3,6)):(1,(4,12))".parse().unwrap();
//! assert_eq!(l.rank(), 2);
//! assert_eq!(l.to_string(), "(4,(3,6)):(1,(4,12))");
//! assert!("(4,(3,6)):(1,4)".parse::<Layout>().is_err());
//! ```

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use std::fmt;

/// A CuTe layout `shape:stride`. Shape and stride are congruent by construction.
///
/// ```
/// use cute_layout_core::{IntTuple, Layout};
/// let l = Layout::new("(4,(3,6))".parse().unwrap(), "(1,(4,12))".parse().unwrap()).unwrap();
/// assert_eq!(l, "(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap());
/// assert_eq!(l.shape().to_string(), "(4,(3,6))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: IntTuple,
    stride: IntTuple,
}

impl Layout {
    /// Pair a shape with a stride; an error names both when they are not congruent.
    ///
    /// ```
    /// use cute_layout_core::{IntTuple, Layout};
    /// let l = Layout::new("(_4,_8)".parse().unwrap(), "(_8,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(l.to_string(), "(_4,_8):(_8,_1)");
    /// assert!(Layout::new("(4,8)".parse().unwrap(), IntTuple::d(1)).is_err()); // not congruent
    /// ```
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Layout> {
        if !shape.congruent_with(&stride) {
            return Err(LayoutError::NotCongruent {
                what: "layout shape and stride".into(),
                left: shape.to_string(),
                right: stride.to_string(),
            });
        }
        if let IntTuple::Basis(_) = shape {
            return Err(LayoutError::invalid(format!(
                "a shape cannot hold a basis element: {shape}"
            )));
        }
        if shape
            .leaves()
            .iter()
            .any(|l| matches!(l, IntTuple::Basis(_)))
        {
            return Err(LayoutError::invalid(format!(
                "a shape cannot hold a basis element: {shape}"
            )));
        }
        Ok(Layout { shape, stride })
    }
    /// The shape.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// let l: Layout = "(4,(3,6)):(1,(4,12))".parse().unwrap();
    /// assert_eq!(l.shape().to_string(), "(4,(3,6))");
    /// ```
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }
    /// The stride.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// let l: Layout = "(4,(3,6)):(1,(4,12))".parse().unwrap();
    /// assert_eq!(l.stride().to_string(), "(1,(4,12))");
    /// ```
    pub fn stride(&self) -> &IntTuple {
        &self.stride
    }
    /// Split into shape and stride.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// let (shape, stride) = "(4,8):(8,1)".parse::<Layout>().unwrap().into_parts();
    /// assert_eq!((shape.to_string(), stride.to_string()), ("(4,8)".into(), "(8,1)".into()));
    /// ```
    pub fn into_parts(self) -> (IntTuple, IntTuple) {
        (self.shape, self.stride)
    }
    /// The empty layout `():()`.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// assert_eq!(Layout::empty().to_string(), "():()");
    /// assert_eq!(Layout::empty().rank(), 0);
    /// ```
    pub fn empty() -> Layout {
        Layout {
            shape: IntTuple::Tuple(vec![]),
            stride: IntTuple::Tuple(vec![]),
        }
    }
    /// Number of top-level modes.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// assert_eq!("(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap().rank(), 2);
    /// assert_eq!("8:1".parse::<Layout>().unwrap().rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }
    /// Nesting depth of the shape.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// assert_eq!("(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap().depth(), 2);
    /// assert_eq!("8:1".parse::<Layout>().unwrap().depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }
    /// True when the shape is a tuple (even of rank 1).
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// assert!("(8):(1)".parse::<Layout>().unwrap().is_tuple());
    /// assert!(!"8:1".parse::<Layout>().unwrap().is_tuple());
    /// ```
    pub fn is_tuple(&self) -> bool {
        self.shape.is_tuple()
    }
    /// Mode `i` as a layout (a non-tuple layout has only mode 0, itself).
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// let l: Layout = "(4,(3,6)):(1,(4,12))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(3,6):(4,12)"); // layout<1>(l)
    /// assert!(l.mode(2).is_err());
    /// ```
    pub fn mode(&self, i: usize) -> Result<Layout> {
        Ok(Layout {
            shape: self.shape.get(i)?,
            stride: self.stride.get(i)?,
        })
    }
    /// The top-level modes as layouts (a non-tuple layout is its own single mode).
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// let l: Layout = "(4,(3,6)):(1,(4,12))".parse().unwrap();
    /// let m: Vec<String> = l.modes().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(m, ["4:1", "(3,6):(4,12)"]);
    /// ```
    pub fn modes(&self) -> Vec<Layout> {
        self.shape
            .elems()
            .into_iter()
            .zip(self.stride.elems())
            .map(|(shape, stride)| Layout { shape, stride })
            .collect()
    }
    /// The layout whose modes are `modes` (CuTe's `make_layout(L0, L1, ...)`): always a tuple.
    ///
    /// ```
    /// use cute_layout_core::Layout;
    /// let a: Layout = "4:1".parse().unwrap();
    /// let b: Layout = "(3,6):(4,12)".parse().unwrap();
    /// assert_eq!(Layout::from_modes(vec![a, b]).to_string(), "(4,(3,6)):(1,(4,12))");
    /// ```
    pub fn from_modes(modes: Vec<Layout>) -> Layout {
        let (shapes, strides) = modes.into_iter().map(|m| (m.shape, m.stride)).unzip();
        Layout {
            shape: IntTuple::Tuple(shapes),
            stride: IntTuple::Tuple(strides),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

impl std::str::FromStr for Layout {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Layout> {
        crate::notation::parse_value(s)?.into_layout()
    }
}
