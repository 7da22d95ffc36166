/*!
Table: aligned columns for people, written row by row as results arrive, so
widths are set up front (wide enough for typical values). A larger value
widens its column from that row on rather than holding the table back.
*/

use super::{Column, Layout, Record, Reporter, Summary};
use crate::heuristic::HeuristicKind;
use crate::search::Algorithm;
use std::io::{self, Write};

/// Two spaces between columns.
const GAP: &str = "  ";

/// The table exporter.
#[derive(Debug)]
pub struct Table<W: Write> {
    out: W,
    columns: Vec<(Column, usize)>,
}

impl<W: Write> Table<W> {
    /// A table written to `out`.
    pub fn new(out: W) -> Table<W> {
        Table { out, columns: Vec::new() }
    }

    /// The writer, back.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn line(&mut self, cells: &[String]) -> io::Result<()> {
        let mut line = String::new();
        for (i, ((column, width), cell)) in self.columns.iter_mut().zip(cells).enumerate() {
            if i > 0 {
                line.push_str(GAP);
            }
            let chars = cell.chars().count();
            *width = (*width).max(chars);
            let pad = *width - chars;
            if column.numeric() {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        writeln!(self.out, "{}", line.trim_end())
    }
}

/// The width a column starts with.
fn width(column: Column, layout: &Layout<'_>) -> usize {
    let longest = |names: &mut dyn Iterator<Item = &'static str>| names.map(str::len).max();
    let content = match column {
        Column::File => layout.file_width,
        Column::Size => "8x8".len(),
        Column::Width | Column::Height => 2,
        Column::Algorithm => longest(&mut Algorithm::ALL.iter().map(|a| a.name())).unwrap_or(0),
        Column::Heuristic => longest(&mut HeuristicKind::ALL.iter().map(|h| h.name())).unwrap_or(0),
        Column::Status => "unsolvable".len(),
        Column::Matches => "no".len(),
        Column::Cost
        | Column::Depth
        | Column::Expected
        | Column::MaxDepth
        | Column::Weight
        | Column::LowerBound => 3,
        Column::ProvenOptimal => "yes".len(),
        Column::NodesExpanded | Column::NodesGenerated | Column::MaxFrontier => 10,
        Column::RuntimeMs => "1000.000".len(),
        Column::BranchingFactor => "2.0000".len(),
        Column::Error | Column::Start | Column::Path | Column::Goal | Column::Flags => 0,
    };
    content.max(column.title().len())
}

impl<W: Write> Reporter for Table<W> {
    fn begin(&mut self, layout: &Layout<'_>) -> io::Result<()> {
        self.columns = layout.columns.iter().map(|&c| (c, width(c, layout))).collect();
        let titles: Vec<String> = layout.columns.iter().map(|c| c.title().to_owned()).collect();
        self.line(&titles)
    }

    fn row(&mut self, record: &Record) -> io::Result<()> {
        let cells: Vec<String> = self.columns.iter().map(|(c, _)| c.cell(record, true)).collect();
        self.line(&cells)
    }

    fn finish(&mut self, summary: Option<&Summary>) -> io::Result<()> {
        let Some(s) = summary else {
            return Ok(());
        };
        let out = &mut self.out;
        writeln!(out)?;
        let puzzles = if s.rows() == 1 { "puzzle" } else { "puzzles" };
        writeln!(
            out,
            "{} {puzzles}: {} solved, {} unsolvable, {} limit, {} error",
            s.rows(),
            s.solved,
            s.unsolvable,
            s.limit,
            s.error
        )?;
        if s.matched + s.mismatched + s.unchecked > 0 {
            write!(out, "expected lengths: {} match, {} differ", s.matched, s.mismatched)?;
            if s.unchecked > 0 {
                write!(out, ", {} without a cost to compare", s.unchecked)?;
            }
            writeln!(out)?;
        }
        let ms = |value: Option<f64>| value.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"));
        write!(
            out,
            "search time: {:.3} ms total, {} ms mean, {} ms median",
            s.runtime_ms.total(),
            ms(s.runtime_ms.mean()),
            ms(s.runtime_ms.median())
        )?;
        match s.wall {
            Some(wall) if wall.as_secs() >= 1 => writeln!(out, "; wall time {:.3} s", wall.as_secs_f64())?,
            Some(wall) => writeln!(out, "; wall time {:.3} ms", wall.as_secs_f64() * 1e3)?,
            None => writeln!(out)?,
        }
        // Means to one decimal; a median of an even count may end in .5,
        // shown as it is.
        let mean = |value: Option<f64>| value.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
        let median = |value: Option<f64>| value.map_or_else(|| "-".to_owned(), |v| format!("{v}"));
        let rate = s.nodes_per_second().map_or_else(|| "-".to_owned(), |r| format!("{r:.0}"));
        writeln!(
            out,
            "nodes expanded: {} total, {} mean, {} median, {rate} per second",
            s.nodes_expanded,
            mean(s.expanded.mean()),
            median(s.expanded.median())
        )?;
        writeln!(
            out,
            "nodes generated: {} total, {} mean, {} median",
            s.nodes_generated,
            mean(s.generated.mean()),
            median(s.generated.median())
        )?;
        let b = |value: Option<f64>| value.map_or_else(|| "-".to_owned(), |v| format!("{v:.4}"));
        writeln!(
            out,
            "b*: {} mean, {} median",
            b(s.branching_factor.mean()),
            b(s.branching_factor.median())
        )?;
        if let (Some(mean), Some(worst)) = (s.bound_ratio.mean(), s.worst_bound_ratio) {
            writeln!(out, "cost / lower bound: {mean:.4} mean, {worst:.4} worst (1 is proven optimal)")?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::tests::sample_rows;

    fn render(summary: bool) -> String {
        let rows = sample_rows();
        let mut table = Table::new(Vec::new());
        let layout = Layout { columns: Column::BATCH, file_width: 21 };
        table.begin(&layout).unwrap();
        let mut totals = Summary::default();
        for row in &rows {
            table.row(row).unwrap();
            totals.add(row);
        }
        table.finish(summary.then_some(&totals)).unwrap();
        String::from_utf8(table.into_inner()).unwrap()
    }

    #[test]
    fn columns_line_up_under_their_titles() {
        let text = render(false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        // Left-aligned text starts under its title...
        let at = |line: &str, word: &str| line.find(word).unwrap();
        assert_eq!(at(lines[0], "status"), at(lines[1], "solved"));
        assert_eq!(at(lines[0], "status"), at(lines[2], "error"));
        assert_eq!(lines[0].rfind("error"), lines[2].find("line 2:"));
        // ...and numbers end under theirs: the solved row, which has no
        // error, ends where the runtime title does.
        assert_eq!(lines[0].strip_suffix("  error").unwrap().len(), lines[1].len());
        assert!(lines[2].contains(" -  "), "missing values show as dashes");
    }

    #[test]
    fn ends_with_a_summary_when_given_one() {
        let text = render(true);
        assert!(text.contains("\n2 puzzles: 1 solved, 0 unsolvable, 0 limit, 1 error\n"));
        assert!(text.contains("nodes expanded: 3 total, 3.0 mean, 3 median, "), "{text}");
        assert!(text.contains("\nnodes generated: 8 total, 8.0 mean, 8 median\n"), "{text}");
        // 8 nodes generated at depth 3.
        assert!(text.contains("\nb*: 1.5782 mean, 1.5782 median\n"), "{text}");
        assert!(!render(false).contains("puzzles:"));
    }
}
