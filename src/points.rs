//! Points, exact: a whole number of thousandths of a point, from the scenario file to every
//! output. Sums of binary fractions drift (ten scenarios worth 0.1 add up to
//! 0.9999999999999999); sums of whole thousandths do not. A scenario file's points may not
//! be finer than a thousandth, so they are read exactly; a share of a scenario's points
//! (partial credit, presentation credit) is rounded to the nearest thousandth once, where it
//! is made, and is exact from then on.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many of the smallest unit make a point.
const PER_POINT: i64 = 1000;

/// A number of points, exact to a thousandth. Outputs write it as a number (`1`, `0.1`,
/// `2.125`): JSON as the nearest binary number, whose shortest form is the decimal itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    pub const ZERO: Points = Points(0);

    /// `n` whole points.
    pub const fn whole(n: i64) -> Points {
        Points(n * PER_POINT)
    }

    /// The points `value` writes, when it is a finite number no finer than a thousandth
    /// (`0.1`, `2.125`); `None` for `0.0005` or a value beyond the range of points.
    pub fn exact(value: f64) -> Option<Points> {
        let scaled = value * PER_POINT as f64;
        let nearest = scaled.round();
        let close = (scaled - nearest).abs() <= 1e-9 * nearest.abs().max(1.0);
        (value.is_finite() && close && nearest.abs() < 1e15).then_some(Points(nearest as i64))
    }

    /// The points nearest to `value` (a number read back from an output), 0 when it is not
    /// a finite number.
    pub fn nearest(value: f64) -> Points {
        let scaled = (value * PER_POINT as f64).round();
        if scaled.is_finite() && scaled.abs() < 1e15 {
            Points(scaled as i64)
        } else {
            Points::ZERO
        }
    }

    /// `part` of `whole` of these points (`part / whole` of them), to the nearest thousandth.
    pub fn share(self, part: usize, whole: usize) -> Points {
        if whole == 0 {
            return Points::ZERO;
        }
        let (part, whole) = (part as i128, whole as i128);
        let scaled = i128::from(self.0) * part;
        // Rounded half away from zero, in integers.
        let rounded = (2 * scaled + whole * scaled.signum()) / (2 * whole);
        Points(rounded as i64)
    }

    /// `fraction` (from 0 to 1) of these points, to the nearest thousandth.
    pub fn scaled(self, fraction: f64) -> Points {
        Points::nearest(self.as_f64() * fraction.clamp(0.0, 1.0))
    }

    /// The points as a number, for a ratio or an output that writes numbers.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / PER_POINT as f64
    }

    /// The points as a fraction of `whole` (0 when `whole` is none).
    pub fn ratio(self, whole: Points) -> f64 {
        if whole.0 == 0 {
            0.0
        } else {
            self.0 as f64 / whole.0 as f64
        }
    }

    pub fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Points {
    /// As people write points: no decimals when whole, else without trailing zeros
    /// (`1`, `0.5`, `2.125`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, part) = (self.0.abs() / PER_POINT, self.0.abs() % PER_POINT);
        let text = if part == 0 {
            format!("{sign}{whole}")
        } else {
            let decimals = format!("{part:03}");
            format!("{sign}{whole}.{}", decimals.trim_end_matches('0'))
        };
        f.pad(&text)
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0.saturating_add(other.0))
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        *self = *self + other;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, other: Points) -> Points {
        Points(self.0.saturating_sub(other.0))
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl<'a> Sum<&'a Points> for Points {
    fn sum<I: Iterator<Item = &'a Points>>(iter: I) -> Points {
        iter.copied().sum()
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.as_f64())
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        f64::deserialize(deserializer).map(Points::nearest)
    }
}

impl schemars::JsonSchema for Points {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Points".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        f64::json_schema(generator)
    }
}

/// A share of the points there were to earn: `part` of `whole`, compared exactly (the two
/// sides multiplied across, in integers), never as a float. A share of no points at all is 0.
#[derive(Debug, Clone, Copy)]
pub struct Share {
    part: Points,
    whole: Points,
}

impl Share {
    /// `part` of `whole`.
    pub fn of(part: Points, whole: Points) -> Share {
        Share { part, whole }
    }

    /// Numerator and denominator, a share of nothing being 0 of 1.
    fn terms(self) -> (i128, i128) {
        if self.whole.0 <= 0 {
            (0, 1)
        } else {
            (i128::from(self.part.0), i128::from(self.whole.0))
        }
    }
}

impl Ord for Share {
    fn cmp(&self, other: &Share) -> std::cmp::Ordering {
        let ((a, b), (c, d)) = (self.terms(), other.terms());
        (a * d).cmp(&(c * b))
    }
}

impl PartialOrd for Share {
    fn partial_cmp(&self, other: &Share) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Share {
    fn eq(&self, other: &Share) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Share {}

/// A number of points or a percentage as people write it: no decimals when whole, else at
/// most two, without trailing zeros (`1`, `0.5`, `66.67`).
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{:.2}", x).trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_tenths_make_one_point() {
        let tenth = Points::exact(0.1).unwrap();
        let total: Points = std::iter::repeat_n(tenth, 10).sum();
        assert_eq!(total, Points::whole(1));
        assert_eq!(total.to_string(), "1");
        assert_eq!(serde_json::to_string(&total).unwrap(), "1.0");
        let three: Points = std::iter::repeat_n(tenth, 3).sum();
        assert_eq!(serde_json::to_string(&three).unwrap(), "0.3");
        assert_eq!(three.to_string(), "0.3");
    }

    #[test]
    fn points_finer_than_a_thousandth_are_not_exact() {
        assert_eq!(
            Points::exact(2.125).map(|p| p.to_string()),
            Some("2.125".into())
        );
        assert_eq!(Points::exact(10_000.0), Some(Points::whole(10_000)));
        assert_eq!(Points::exact(0.0005), None);
        assert_eq!(Points::exact(1.0001), None);
        assert_eq!(Points::exact(9_999.999_5), None);
        assert_eq!(
            Points::exact(9_999.999).map(|p| p.to_string()),
            Some("9999.999".into())
        );
        assert_eq!(Points::exact(f64::NAN), None);
        assert_eq!(Points::exact(f64::INFINITY), None);
    }

    #[test]
    fn shares_round_once_to_the_nearest_thousandth() {
        let one = Points::whole(1);
        assert_eq!(one.share(1, 3).to_string(), "0.333");
        assert_eq!(one.share(2, 3).to_string(), "0.667");
        assert_eq!(Points::whole(3).share(1, 3), Points::whole(1));
        assert_eq!(one.share(1, 0), Points::ZERO);
        assert_eq!(Points::whole(2).scaled(0.5), Points::whole(1));
        assert_eq!(Points::whole(2).scaled(7.0), Points::whole(2));
    }

    #[test]
    fn shares_compare_exactly() {
        let p = |x: f64| Points::exact(x).unwrap();
        // 40/40 beats 35/41; 1/3 of 3 equals 1/3 of 3000 thousandths; 0.1 of 0.3 is 1/3.
        assert!(Share::of(p(40.0), p(40.0)) > Share::of(p(35.0), p(41.0)));
        assert_eq!(Share::of(p(1.0), p(3.0)), Share::of(p(0.1), p(0.3)));
        assert!(Share::of(p(33.0), p(40.0)) < Share::of(p(34.0), p(41.0)));
        // Nothing to earn is a share of 0.
        assert_eq!(
            Share::of(Points::ZERO, Points::ZERO),
            Share::of(p(0.0), p(5.0))
        );
        assert!(Share::of(Points::ZERO, Points::ZERO) < Share::of(p(1.0), p(5.0)));
    }

    #[test]
    fn read_back_from_json_as_written() {
        let points = Points::exact(66.667).unwrap();
        let json = serde_json::to_string(&points).unwrap();
        assert_eq!(json, "66.667");
        assert_eq!(serde_json::from_str::<Points>(&json).unwrap(), points);
        assert_eq!(format!("{:>6}", Points::whole(5)), "     5");
    }
}
