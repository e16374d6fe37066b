//! The two 8-bit floating-point formats of Hopper's tensor cores (OCP FP8), decoded and encoded exactly on
//! the CPU: the reference the FP8 GEMM is checked against, and the element types of its buffers.
//!
//! | format | sign.exponent.mantissa | bias | largest finite | smallest subnormal | specials |
//! | --- | --- | --- | --- | --- | --- |
//! | E4M3 (`e4m3`, torch `float8_e4m3fn`) | 1.4.3 | 7 | 448 | 2^-9 | NaN = `S.1111.111`, no infinity |
//! | E5M2 (`e5m2`, torch `float8_e5m2`) | 1.5.2 | 15 | 57344 | 2^-16 | ±inf = `S.11111.00`, NaN = `S.11111.{01,10,11}` |
//!
//! Encoding rounds to nearest, ties to even, and saturates as PTX's `cvt.rn.satfinite` does: finite values
//! beyond the largest finite one (and infinities) become ±largest finite, NaN stays NaN.
//!
//! ```
//! use cute_gpu::fp8::{E4M3, E5M2};
//! assert_eq!(E4M3::from_f32(448.0).0, 0x7e);
//! assert_eq!(E4M3::from_f32(1e9).to_f32(), 448.0);          // saturates
//! assert_eq!(E4M3(0x01).to_f32(), 2f32.powi(-9));           // smallest subnormal
//! assert!(E4M3(0x7f).to_f32().is_nan());
//! assert_eq!(E5M2::from_f32(f32::INFINITY).to_f32(), 57344.0);
//! assert_eq!(E5M2(0x7c).to_f32(), f32::INFINITY);            // decoding keeps the encoding's infinity
//! ```

/// One FP8 format: field widths and the encodings of its special values.
///
/// ```
/// use cute_gpu::fp8::{E4M3_FORMAT, Format};
/// let f = Format { exponent_bits: 4, mantissa_bits: 3, bias: 7, ieee_specials: false };
/// assert_eq!(f, E4M3_FORMAT);
/// assert_eq!(f.max_finite(), 448.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Exponent bits.
    pub exponent_bits: u32,
    /// Mantissa bits.
    pub mantissa_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Whether the all-ones exponent encodes infinities and NaNs (IEEE-like, E5M2) or only
    /// `S.1111.111` is NaN (E4M3).
    pub ieee_specials: bool,
}

/// E4M3: 1.4.3, bias 7, max 448, NaN `0x7f`/`0xff`, no infinities.
///
/// ```
/// use cute_gpu::fp8::E4M3_FORMAT;
/// assert_eq!(E4M3_FORMAT.decode(0x7e), 448.0);
/// assert!(E4M3_FORMAT.decode(0xff).is_nan());
/// assert_eq!(E4M3_FORMAT.encode(f32::INFINITY), 0x7e); // no infinity: saturates
/// ```
pub const E4M3_FORMAT: Format = Format {
    exponent_bits: 4,
    mantissa_bits: 3,
    bias: 7,
    ieee_specials: false,
};

/// E5M2: 1.5.2, bias 15, max 57344, IEEE infinities and NaNs.
///
/// ```
/// use cute_gpu::fp8::E5M2_FORMAT;
/// assert_eq!(E5M2_FORMAT.decode(0x7b), 57344.0);
/// assert_eq!(E5M2_FORMAT.decode(0xfc), f32::NEG_INFINITY);
/// assert!(E5M2_FORMAT.decode(0x7d).is_nan());
/// ```
pub const E5M2_FORMAT: Format = Format {
    exponent_bits: 5,
    mantissa_bits: 2,
    bias: 15,
    ieee_specials: true,
};

impl Format {
    fn exponent_max_field(self) -> u32 {
        (1 << self.exponent_bits) - 1
    }

    /// The largest finite value.
    ///
    /// ```
    /// use cute_gpu::fp8::{E4M3_FORMAT, E5M2_FORMAT};
    /// assert_eq!((E4M3_FORMAT.max_finite(), E5M2_FORMAT.max_finite()), (448.0, 57344.0));
    /// ```
    pub fn max_finite(self) -> f64 {
        let m = self.mantissa_bits as i32;
        let (e, frac) = if self.ieee_specials {
            (self.exponent_max_field() as i32 - 1, (1 << m) - 1)
        } else {
            (self.exponent_max_field() as i32, (1 << m) - 2)
        };
        (1.0 + frac as f64 / (1 << m) as f64) * 2f64.powi(e - self.bias)
    }

    /// The smallest normal exponent, `1 - bias`.
    fn min_exponent(self) -> i32 {
        1 - self.bias
    }

    /// The canonical NaN encoding with sign bit 0.
    fn nan(self) -> u8 {
        if self.ieee_specials {
            (self.exponent_max_field() << self.mantissa_bits) as u8 | 0b11
        } else {
            0x7f
        }
    }

    /// The value of the encoding `bits` (exact: every FP8 value is an f32).
    ///
    /// ```
    /// use cute_gpu::fp8::E4M3_FORMAT;
    /// assert_eq!(E4M3_FORMAT.decode(0x38), 1.0); // exponent field 7 = bias
    /// assert_eq!(E4M3_FORMAT.decode(0xb8), -1.0);
    /// assert_eq!(E4M3_FORMAT.decode(0x01), 2f32.powi(-9)); // smallest subnormal
    /// ```
    pub fn decode(self, bits: u8) -> f32 {
        let m = self.mantissa_bits;
        let sign = if bits & 0x80 != 0 { -1.0f64 } else { 1.0 };
        let e = ((bits & 0x7f) >> m) as u32;
        let frac = (bits & ((1 << m) - 1)) as u32;
        if e == self.exponent_max_field() {
            if self.ieee_specials {
                return if frac == 0 {
                    (sign * f64::INFINITY) as f32
                } else {
                    f32::NAN
                };
            }
            if frac == (1 << m) - 1 {
                return f32::NAN;
            }
        }
        let value = if e == 0 {
            frac as f64 * 2f64.powi(self.min_exponent() - m as i32)
        } else {
            (1.0 + frac as f64 / (1u32 << m) as f64) * 2f64.powi(e as i32 - self.bias)
        };
        (sign * value) as f32
    }

    /// `f` rounded to nearest even, saturated to the largest finite value; NaN to NaN.
    ///
    /// ```
    /// use cute_gpu::fp8::{E4M3_FORMAT, E5M2_FORMAT};
    /// assert_eq!(E4M3_FORMAT.encode(1.0), 0x38);
    /// assert_eq!(E4M3_FORMAT.encode(1.0625), 0x38); // halfway between 1 and 1.125: ties to even
    /// assert_eq!(E4M3_FORMAT.encode(-1e6), 0xfe); // saturates to -448
    /// assert_eq!(E5M2_FORMAT.encode(f32::NAN), 0x7f);
    /// ```
    pub fn encode(self, f: f32) -> u8 {
        let sign = if f.is_sign_negative() { 0x80u8 } else { 0 };
        if f.is_nan() {
            return sign | self.nan();
        }
        let a = (f as f64).abs();
        if a == 0.0 {
            return sign;
        }
        let m = self.mantissa_bits as i32;
        // the quantum of a's binade (subnormals share the smallest normal binade's quantum)
        let e = (a.log2().floor() as i32).max(self.min_exponent());
        let e = if 2f64.powi(e) > a { e - 1 } else { e }.max(self.min_exponent());
        let quantum = 2f64.powi(e - m);
        let rounded = (a / quantum).round_ties_even() * quantum;
        let value = rounded.min(self.max_finite());
        sign | self.encode_exact(value)
    }

    /// The encoding of a non-negative representable value.
    fn encode_exact(self, value: f64) -> u8 {
        let m = self.mantissa_bits as i32;
        let min_normal = 2f64.powi(self.min_exponent());
        if value < min_normal {
            return (value / 2f64.powi(self.min_exponent() - m)) as u8;
        }
        let e = value.log2().floor() as i32;
        let frac = (value / 2f64.powi(e) - 1.0) * (1 << m) as f64;
        (((e + self.bias) as u8) << m) | frac as u8
    }
}

macro_rules! fp8_type {
    ($name:ident, $format:expr, $doc:literal) => {
        #[doc = $doc]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub u8);

        impl $name {
            /// The format's field widths and specials.
            ///
            /// ```
            /// use cute_gpu::fp8::{E4M3, E4M3_FORMAT, E5M2, E5M2_FORMAT};
            /// assert_eq!((E4M3::FORMAT, E5M2::FORMAT), (E4M3_FORMAT, E5M2_FORMAT));
            /// ```
            pub const FORMAT: Format = $format;
            /// `f` rounded to nearest even and saturated (`cvt.rn.satfinite`).
            ///
            /// ```
            /// use cute_gpu::fp8::{E4M3, E5M2};
            /// assert_eq!(E4M3::from_f32(2.0), E4M3(0x40));
            /// assert_eq!(E5M2::from_f32(2.0), E5M2(0x40));
            /// assert_eq!(E4M3::from_f32(500.0), E4M3(0x7e)); // 448
            /// ```
            pub fn from_f32(f: f32) -> Self {
                $name(Self::FORMAT.encode(f))
            }
            /// The exact value.
            ///
            /// ```
            /// use cute_gpu::fp8::{E4M3, E5M2};
            /// assert_eq!(E4M3(0x40).to_f32(), 2.0);
            /// assert_eq!(E5M2(0x3e).to_f32(), 1.5);
            /// ```
            pub fn to_f32(self) -> f32 {
                Self::FORMAT.decode(self.0)
            }
        }

        #[cfg(feature = "cuda")]
        // SAFETY: a plain byte, passed and stored as the kernel's 8-bit payload.
        unsafe impl cudarc::driver::DeviceRepr for $name {}
        #[cfg(feature = "cuda")]
        // SAFETY: the zero byte is +0.0 in both formats.
        unsafe impl cudarc::driver::ValidAsZeroBits for $name {}
    };
}

fp8_type!(
    E4M3,
    E4M3_FORMAT,
    "An E4M3 value (torch `float8_e4m3fn`): its encoding byte."
);
fp8_type!(
    E5M2,
    E5M2_FORMAT,
    "An E5M2 value (torch `float8_e5m2`): its encoding byte."
);

#[cfg(test)]
mod tests {
    use super::*;

    fn all_formats() -> [Format; 2] {
        [E4M3_FORMAT, E5M2_FORMAT]
    }

    #[test]
    fn every_bit_pattern_round_trips() {
        for f in all_formats() {
            for b in 0..=255u8 {
                let v = f.decode(b);
                if v.is_nan() {
                    assert!(f.decode(f.encode(v)).is_nan(), "{f:?} {b:#04x}");
                } else if v.is_infinite() {
                    assert_eq!(f.decode(f.encode(v)).abs() as f64, f.max_finite());
                } else {
                    assert_eq!(f.encode(v), b, "{f:?} {b:#04x} = {v}");
                }
            }
        }
    }

    #[test]
    fn decoded_values_are_ordered_and_match_the_table() {
        assert_eq!(E4M3_FORMAT.max_finite(), 448.0);
        assert_eq!(E5M2_FORMAT.max_finite(), 57344.0);
        assert_eq!(E4M3(0x08).to_f32(), 2f32.powi(-6)); // smallest normal
        assert_eq!(E4M3(0x07).to_f32(), 7.0 * 2f32.powi(-9)); // largest subnormal
        assert_eq!(E5M2(0x01).to_f32(), 2f32.powi(-16));
        assert_eq!(E5M2(0x7b).to_f32(), 57344.0);
        assert!(E5M2(0x7d).to_f32().is_nan() && E5M2(0xfe).to_f32().is_nan());
        assert_eq!(E5M2(0xfc).to_f32(), f32::NEG_INFINITY);
        assert_eq!(E4M3(0xfe).to_f32(), -448.0);
        assert_eq!(E4M3(0x80).to_f32().to_bits(), (-0.0f32).to_bits());
        for f in all_formats() {
            let finite: Vec<f32> = (0..0x80u8)
                .map(|b| f.decode(b))
                .filter(|v| v.is_finite())
                .collect();
            assert!(finite.windows(2).all(|w| w[0] < w[1]), "{f:?} monotone");
        }
    }

    #[test]
    fn encoding_rounds_to_nearest_even_and_saturates() {
        // 1 + 1/16 lies halfway between 1 and 1.125 (E4M3 step 1/8 at 1): ties go to the even 1.0
        assert_eq!(E4M3::from_f32(1.0625).to_f32(), 1.0);
        assert_eq!(E4M3::from_f32(1.1875).to_f32(), 1.25);
        assert_eq!(E4M3::from_f32(1.07).to_f32(), 1.125);
        // halfway below the smallest subnormal rounds to zero, above to it
        assert_eq!(E4M3::from_f32(2f32.powi(-10)).0, 0);
        assert_eq!(E4M3::from_f32(1.5 * 2f32.powi(-10)).0, 1);
        // beyond the largest finite value: saturate (464 would round past 448)
        assert_eq!(E4M3::from_f32(464.0).to_f32(), 448.0);
        assert_eq!(E4M3::from_f32(-1e30).to_f32(), -448.0);
        assert_eq!(E5M2::from_f32(-f32::INFINITY).to_f32(), -57344.0);
        assert!(E4M3::from_f32(f32::NAN).to_f32().is_nan());
        assert_eq!(E5M2::from_f32(-0.0).0, 0x80);
        // the subnormal/normal boundary: 15/16 of the smallest normal rounds up into it
        assert_eq!(E4M3::from_f32(2f32.powi(-6) * 15.0 / 16.0).0, 0x08);
    }

    #[test]
    fn encoding_is_the_nearest_value() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for f in all_formats() {
            let values: Vec<f32> = (0..0x7fu8).map(|b| f.decode(b)).collect();
            for _ in 0..20000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = ((x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) as f32 * 600.0;
                let got = f.decode(f.encode(v)).abs();
                let best = values
                    .iter()
                    .filter(|c| c.is_finite())
                    .map(|c| (c - v.abs()).abs())
                    .fold(f32::INFINITY, f32::min);
                assert!(
                    (got - v.abs()).abs() <= best || v.abs() as f64 > f.max_finite(),
                    "{f:?} {v}"
                );
            }
        }
    }
}
