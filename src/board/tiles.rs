/*!
[`Tiles`]: a validated arrangement, the plain form every board takes
between the reader and a search, and how it is shown.
*/

use super::parse_error::ParseErrorKind;
use super::{MIN_SIDE, Shape, supported};
use std::fmt::{self, Write as _};

/// A validated arrangement: `cells` is a permutation of `0..cells` laid out
/// row-major on `shape`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tiles {
    shape: Shape,
    cells: Vec<u16>,
}

impl Tiles {
    /// A square board: checks that `cells` is a permutation of `0..N²`.
    ///
    /// # Errors
    /// The same kinds as parsing a file, without a line number.
    pub fn new(cells: &[u16]) -> Result<Tiles, ParseErrorKind> {
        let count = cells.len();
        let side = count.isqrt();
        if side * side != count || side < MIN_SIDE {
            return Err(ParseErrorKind::NotSquare(count));
        }
        Tiles::with_shape(Shape::square(side), cells)
    }

    /// A board of `shape`: checks that `cells` is a permutation of
    /// `0..shape.cells()` and that the shape is supported.
    ///
    /// # Errors
    /// The same kinds as parsing a file, without a line number.
    pub fn with_shape(shape: Shape, cells: &[u16]) -> Result<Tiles, ParseErrorKind> {
        validate_with(shape, cells.len(), |i| (u64::from(cells[i]), 0))
    }

    /// [`Tiles::with_shape`] for numbers as read, before any is known to
    /// fit a tile.
    pub(crate) fn from_numbers(shape: Shape, numbers: &[u64]) -> Result<Tiles, ParseErrorKind> {
        validate_with(shape, numbers.len(), |i| (numbers[i], 0))
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Board width (columns).
    pub fn width(&self) -> usize {
        self.shape.width()
    }

    /// Board height (rows).
    pub fn height(&self) -> usize {
        self.shape.height()
    }

    /// Tiles in row-major order, 0 for the blank.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// Cell holding the blank.
    pub fn blank(&self) -> usize {
        self.cells.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// The board as a right-aligned grid, one row per line, `0` shown as `.`
    /// when `dot_blank` is set.
    pub fn display_grid(&self, dot_blank: bool) -> String {
        display_grid(&self.cells, self.shape, dot_blank)
    }
}

/// `cells` laid out on `shape` as a right-aligned grid (see
/// [`Tiles::display_grid`]); for boards being replayed, not yet [`Tiles`].
pub fn display_grid(cells: &[u16], shape: Shape, dot_blank: bool) -> String {
    let digits = (cells.len().saturating_sub(1)).to_string().len();
    let mut out = String::with_capacity(cells.len() * (digits + 1));
    for row in cells.chunks(shape.width()) {
        for (i, &t) in row.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            // Writing to a String cannot fail.
            let _ = if t == 0 && dot_blank {
                write!(out, "{:>digits$}", ".")
            } else {
                write!(out, "{t:>digits$}")
            };
        }
        out.push('\n');
    }
    out
}

impl fmt::Display for Tiles {
    /// The board on one line, comma-separated: the inline form `solve` accepts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// Checks numbers (with their lines; 0 = unknown) form a valid board of `shape`.
pub(super) fn validate(shape: Shape, values: &[(u64, usize)]) -> Result<Tiles, ParseErrorKind> {
    validate_with(shape, values.len(), |i| values[i])
}

/// [`validate`] over `count` tiles, the `i`-th with its line given by
/// `value(i)`: callers holding bare numbers need not pair them up first.
fn validate_with(
    shape: Shape,
    count: usize,
    value: impl Fn(usize) -> (u64, usize),
) -> Result<Tiles, ParseErrorKind> {
    if count == 0 {
        return Err(ParseErrorKind::Empty);
    }
    if !supported(shape) {
        return Err(ParseErrorKind::BadSize(shape));
    }
    if shape.cells() != count {
        return Err(ParseErrorKind::SizeMismatch { shape, found: count });
    }
    let mut first_seen: Vec<Option<usize>> = vec![None; count];
    for i in 0..count {
        let (tile, line) = value(i);
        let slot = usize::try_from(tile)
            .ok()
            .and_then(|t| first_seen.get_mut(t))
            .ok_or(ParseErrorKind::OutOfRange { tile, max: count - 1 })?;
        if let Some(first) = *slot {
            return Err(ParseErrorKind::Duplicate { tile, first_line: (first > 0).then_some(first) });
        }
        *slot = Some(line);
    }
    if let Some(missing) = first_seen.iter().position(Option::is_none) {
        return Err(ParseErrorKind::Missing(missing));
    }
    // Every value is below `count` ≤ 65,536 cells: it fits a `u16`.
    Ok(Tiles { shape, cells: (0..count).map(|i| value(i).0 as u16).collect() })
}
