/*!
`Weight`: the W of weighted A* and weighted IDA* (f = g + W·h), kept as an
exact fraction so that priorities stay integers: orderings are exact and
no rounding can push a path past its bound of W times the optimum.
*/

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Largest weight accepted; beyond it, weighted search is greedy search.
pub const MAX_WEIGHT: u32 = 1_000_000;

/// Most decimals a weight may have.
const MAX_DECIMALS: usize = 6;

/// A weight W ≥ 1, as the fraction `numerator / denominator` in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    numerator: u64,
    denominator: u64,
}

/// A weight that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WeightError {
    /// Not a decimal number.
    #[error("'{0}' is not a number (write a weight such as 2 or 1.5)")]
    Syntax(String),
    /// Below 1: the search would not be bounded by the optimum.
    #[error("a weight of {0} is below 1; weights start at 1 (plain A*)")]
    BelowOne(String),
    /// Above [`MAX_WEIGHT`].
    #[error("a weight of {0} is above {MAX_WEIGHT}; for the heuristic alone use --algo greedy")]
    TooLarge(String),
    /// More decimals than a weight may have (six).
    #[error("'{0}' has more than {MAX_DECIMALS} decimals")]
    TooPrecise(String),
}

impl Weight {
    /// W = 1: plain A* and IDA*.
    pub const ONE: Weight = Weight { numerator: 1, denominator: 1 };

    /// `numerator / denominator`, for weights known when compiling.
    ///
    /// # Panics
    /// Unless the fraction is in lowest terms and at least 1 (at compile
    /// time, in a constant).
    pub const fn ratio(numerator: u64, denominator: u64) -> Weight {
        assert!(denominator > 0 && numerator >= denominator, "a weight is at least 1");
        assert!(gcd(numerator, denominator) == 1, "a weight is a fraction in lowest terms");
        Weight { numerator, denominator }
    }

    /// The numerator of W in lowest terms.
    pub const fn numerator(self) -> u64 {
        self.numerator
    }

    /// The denominator of W in lowest terms.
    pub const fn denominator(self) -> u64 {
        self.denominator
    }

    /// Whether `cost` is at most W times `lower`: an answer within W of a
    /// lower bound is within W of the shortest. Exact, in integers.
    pub const fn covers(self, cost: u64, lower: u64) -> bool {
        cost as u128 * self.denominator as u128 <= lower as u128 * self.numerator as u128
    }

    /// W as a float, for reports.
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl FromStr for Weight {
    type Err = WeightError;

    fn from_str(text: &str) -> Result<Weight, WeightError> {
        let text = text.trim();
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !digits(fraction) {
            return Err(WeightError::Syntax(text.to_owned()));
        }
        if fraction.len() > MAX_DECIMALS {
            return Err(WeightError::TooPrecise(text.to_owned()));
        }
        let whole = whole.trim_start_matches('0');
        if whole.len() > 7 {
            return Err(WeightError::TooLarge(text.to_owned()));
        }
        let scale = 10u64.pow(fraction.len() as u32);
        let number = |s: &str| if s.is_empty() { Ok(0) } else { s.parse::<u64>() };
        let numerator = number(whole).map_err(|_| WeightError::Syntax(text.to_owned()))? * scale
            + number(fraction).map_err(|_| WeightError::Syntax(text.to_owned()))?;
        if numerator < scale {
            return Err(WeightError::BelowOne(text.to_owned()));
        }
        if numerator > u64::from(MAX_WEIGHT) * scale {
            return Err(WeightError::TooLarge(text.to_owned()));
        }
        let divisor = gcd(numerator, scale);
        Ok(Weight { numerator: numerator / divisor, denominator: scale / divisor })
    }
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The shortest decimal that parses back to the same weight; a fraction
/// whose decimals never end (the searches' own bounds, such as 4/3) as
/// `numerator/denominator`.
impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = self.denominator;
        for prime in [2, 5] {
            while d.is_multiple_of(prime) {
                d /= prime;
            }
        }
        if d != 1 {
            return write!(f, "{}/{}", self.numerator, self.denominator);
        }
        let whole = self.numerator / self.denominator;
        let mut rest = self.numerator % self.denominator;
        write!(f, "{whole}")?;
        if rest != 0 {
            f.write_str(".")?;
            // A denominator in lowest terms from a power of ten divides
            // 10⁶, so the decimals end.
            while rest != 0 {
                rest *= 10;
                write!(f, "{}", rest / self.denominator)?;
                rest %= self.denominator;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_exact_fractions_that_print_as_typed() {
        let w: Weight = "1.5".parse().unwrap();
        assert_eq!((w.numerator(), w.denominator()), (3, 2));
        assert_eq!(w.to_string(), "1.5");
        assert_eq!(Weight::ratio(4, 3).to_string(), "4/3", "decimals that never end");
        assert_eq!(Weight::ratio(21, 20).to_string(), "1.05");
        assert_eq!("2".parse::<Weight>().unwrap(), Weight::ratio(2, 1));
        assert_eq!("2.000".parse::<Weight>().unwrap().to_string(), "2");
        assert_eq!("1.125".parse::<Weight>().unwrap().to_string(), "1.125");
        assert_eq!("1".parse::<Weight>().unwrap(), Weight::ONE);
        assert_eq!("1000000".parse::<Weight>().unwrap().numerator(), 1_000_000);
    }

    #[test]
    fn weights_below_one_or_malformed_are_refused_with_a_reason() {
        assert!(matches!("0.5".parse::<Weight>(), Err(WeightError::BelowOne(_))));
        assert!(matches!("0".parse::<Weight>(), Err(WeightError::BelowOne(_))));
        for bad in ["", "x", "-2", "1e3", "1.5.2", ".5", "inf", "NaN", "2,5"] {
            assert!(matches!(bad.parse::<Weight>(), Err(WeightError::Syntax(_))), "{bad}");
        }
        assert!(matches!("1.0000001".parse::<Weight>(), Err(WeightError::TooPrecise(_))));
        assert!(matches!("1000001".parse::<Weight>(), Err(WeightError::TooLarge(_))));
        assert!(matches!("99999999999999999999".parse::<Weight>(), Err(WeightError::TooLarge(_))));
    }
}
