//! A text table for the terminal: columns of settings (left-aligned, shortened or wrapped when the
//! table is too wide) and numbers (right-aligned, an estimate and its `±` as two columns so the
//! signs line up), fitted into a width by breaking long names, leaving out the droppable columns,
//! then wrapping the widest setting values.

/// Droppable columns of this rank and higher are left out before setting values wrap (a wrapped
/// label costs rows; a quantile is one click away in the CSV).
pub const EAGER: u8 = 2;

/// Blank columns between two columns of a table.
const GAP: usize = 2;

/// `s` in at most `n` characters: cut in the middle, where sweeps' values differ least often
/// (`greedy,greedy,d…random,random`).
pub fn cut_middle(s: &str, n: usize) -> String {
    let len = s.chars().count();
    if len <= n {
        return s.to_string();
    }
    if n < 3 {
        return s.chars().take(n).collect();
    }
    let tail = (n - 1) / 2;
    let head = n - 1 - tail;
    let chars: Vec<char> = s.chars().collect();
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[len - tail..]);
    out
}

/// `text` broken at spaces into lines of at most `width` characters.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for w in text.split(' ') {
        let n = w.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(w);
        line += n;
    }
    out.push('\n');
    out
}

/// One column of a text table.
pub struct Column {
    header: String,
    /// The header's second line, when a long setting name is broken at a `_` (`search_` over
    /// `budget`); single-line headers sit on the second line.
    header2: String,
    cells: Vec<String>,
    /// Setting values: left-aligned, and shortened when the table is too wide.
    setting: bool,
    /// Left-aligned (settings and the `±` halves of intervals); numbers are right-aligned.
    left: bool,
    /// Blank columns before this one.
    gap: usize,
    /// Left out when the table is too wide, highest first; 0 never.
    drop: u8,
    /// The header spans this column and the next (an estimate and its `±`).
    spans_next: bool,
    width: usize,
}

impl Column {
    pub fn new(header: &str, cells: Vec<String>) -> Column {
        let width = cells.iter().chain([&header.to_string()]).map(|c| c.chars().count()).max().unwrap_or(0);
        Column {
            header: header.into(),
            header2: String::new(),
            cells,
            setting: false,
            left: false,
            gap: GAP,
            drop: 0,
            spans_next: false,
            width,
        }
    }

    pub fn setting(header: &str, cells: Vec<String>) -> Column {
        Column { setting: true, left: true, ..Column::new(header, cells) }
    }

    /// The `±half-width` half of an estimate's column, one blank after it.
    fn plus_minus(cells: Vec<String>) -> Column {
        Column { left: true, gap: 1, ..Column::new("", cells) }
    }

    pub fn droppable(self, rank: u8) -> Column {
        Column { drop: rank, ..self }
    }

    /// The header as one line, however it was broken.
    fn full_header(&self) -> String {
        match self.header2.as_str() {
            "" => self.header.clone(),
            rest if self.header.ends_with('_') => format!("{}{rest}", self.header),
            rest => format!("{} {rest}", self.header),
        }
    }

    /// The narrowest a setting column gets: its header's lines, and its values' longest piece
    /// between break characters up to `FLOOR` (a longer piece is cut at the column's width).
    fn floor(&self) -> usize {
        const FLOOR: usize = 8;
        let piece = self
            .cells
            .iter()
            .flat_map(|c| c.split_inclusive(BREAKS))
            .map(|p| p.chars().count())
            .max()
            .unwrap_or(0);
        piece.min(FLOOR).max(self.header.chars().count()).max(self.header2.chars().count()).max(1)
    }

    /// Breaks a setting's name wider than its values at the `_` nearest its middle.
    fn break_header(&mut self) {
        let cells = self.cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        let len = self.header.chars().count();
        if !self.setting || !self.header2.is_empty() || len <= cells {
            return;
        }
        let Some(at) =
            self.header.match_indices('_').map(|(i, _)| i + 1).min_by_key(|&i| i.abs_diff(len / 2))
        else {
            return;
        };
        self.header2 = self.header.split_off(at);
        self.width = cells.max(self.header.chars().count()).max(self.header2.chars().count());
    }
}

/// An estimate and its `±` half-width as two columns, so the `±` signs line up.
pub fn interval_columns(header: &str, cells: Vec<(String, String)>, drop: u8) -> [Column; 2] {
    let (est, pm): (Vec<String>, Vec<String>) = cells.into_iter().unzip();
    let mut est = Column { spans_next: true, ..Column::new("", est).droppable(drop) };
    let pm = Column::plus_minus(pm).droppable(drop);
    est.header = header.into();
    est.width = est.width.max(header.chars().count().saturating_sub(pm.gap + pm.width));
    [est, pm]
}

/// Columns of equal length, fitted into a width and printed aligned.
pub struct Table {
    pub cols: Vec<Column>,
}

impl Table {
    fn total(&self) -> usize {
        self.cols.iter().map(|c| c.width).sum::<usize>()
            + self.cols.iter().skip(1).map(|c| c.gap).sum::<usize>()
    }

    /// Fits the table into `width` columns: long names break onto two header lines, then the
    /// setting values wrap onto more lines (down to each column's floor), and only if that is not
    /// enough the droppable columns go, highest rank first. Returns the headers of the columns it
    /// left out.
    pub fn fit(&mut self, width: usize) -> Vec<String> {
        if self.total() > width {
            self.cols.iter_mut().for_each(Column::break_header);
            self.break_number_headers();
        }
        let mut dropped = Vec::new();
        loop {
            // Columns of rank EAGER and up go before any label wraps; the others only when
            // wrapped labels are not enough.
            let natural: Vec<usize> = self.cols.iter().map(|c| c.width).collect();
            let eager = self.cols.iter().any(|c| c.drop >= EAGER);
            if !eager {
                self.narrow_settings(width);
            }
            if self.total() <= width {
                break;
            }
            let Some(rank) = self.cols.iter().map(|c| c.drop).max().filter(|&r| r > 0) else { break };
            for (c, w) in self.cols.iter_mut().zip(natural) {
                c.width = w;
            }
            let (gone, kept) = std::mem::take(&mut self.cols).into_iter().partition(|c| c.drop == rank);
            self.cols = kept;
            dropped.extend(gone.into_iter().map(|c: Column| c.full_header()).filter(|h| !h.is_empty()));
        }
        dropped.reverse();
        dropped
    }

    /// The widest setting column gives up one character at a time, down to its floor, until the
    /// table fits `width` or no setting column can give more.
    fn narrow_settings(&mut self, width: usize) {
        while self.total() > width {
            let Some(c) =
                self.cols.iter_mut().filter(|c| c.setting && c.width > c.floor()).max_by_key(|c| c.width)
            else {
                break;
            };
            c.width -= 1;
        }
    }

    /// Breaks the header of an estimate wider than its two columns at the space nearest its
    /// middle (`1st policy` over `win %`), so the numbers set the width.
    fn break_number_headers(&mut self) {
        for i in 0..self.cols.len().saturating_sub(1) {
            let (est, pm) = (&self.cols[i], &self.cols[i + 1]);
            let values = est.cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
            let len = est.header.chars().count();
            if !est.spans_next || !est.header2.is_empty() || len <= values + pm.gap + pm.width {
                continue;
            }
            let Some(at) = est.header.match_indices(' ').map(|(i, _)| i).min_by_key(|&i| i.abs_diff(len / 2))
            else {
                continue;
            };
            let (gap, pm_width) = (pm.gap, pm.width);
            let est = &mut self.cols[i];
            est.header2 = est.header[at + 1..].to_string();
            est.header.truncate(at);
            let widest = est.header.chars().count().max(est.header2.chars().count());
            est.width = values.max(widest.saturating_sub(gap + pm_width));
        }
    }

    /// One line of the table: `cell` gives each column's text, already fitted to its width.
    fn line(&self, header: bool, cell: impl Fn(usize, &Column) -> String) -> String {
        let mut line = String::new();
        let mut i = 0;
        while i < self.cols.len() {
            let (c, at) = (&self.cols[i], i);
            if i > 0 {
                line.push_str(&" ".repeat(c.gap));
            }
            let mut w = c.width;
            let mut left = c.left;
            if header && c.spans_next && i + 1 < self.cols.len() {
                i += 1;
                w += self.cols[i].gap + self.cols[i].width;
                left = false;
            }
            let text = cut_middle(&cell(at, c), w);
            line.push_str(&if left { format!("{text:<w$}") } else { format!("{text:>w$}") });
            i += 1;
        }
        let mut line = line.trim_end().to_string();
        line.push('\n');
        line
    }

    pub fn render(&self) -> String {
        let rows = self.cols.first().map_or(0, |c| c.cells.len());
        let mut out = String::new();
        if self.cols.iter().any(|c| !c.header2.is_empty()) {
            out.push_str(
                &self.line(true, |_, c| if c.header2.is_empty() { String::new() } else { c.header.clone() }),
            );
        }
        out.push_str(
            &self.line(true, |_, c| if c.header2.is_empty() { c.header.clone() } else { c.header2.clone() }),
        );
        for r in 0..rows {
            // A setting value wider than its column wraps onto the row's next lines.
            let parts: Vec<Vec<String>> = self
                .cols
                .iter()
                .map(|c| if c.setting { break_value(&c.cells[r], c.width) } else { vec![c.cells[r].clone()] })
                .collect();
            let lines = parts.iter().map(Vec::len).max().unwrap_or(1);
            for l in 0..lines {
                out.push_str(&self.line(false, |k, _| parts[k].get(l).cloned().unwrap_or_default()));
            }
        }
        out
    }
}

/// Where a setting value may break onto the next line: after one of these.
const BREAKS: &[char] = &[',', '+', '_', '-', '/'];

/// `value` in pieces of at most `width` characters, broken after a `,`, `+`, `_`, `-` or `/` where
/// it can be.
fn break_value(value: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest: Vec<char> = value.chars().collect();
    while rest.len() > width {
        let at = (1..=width).rev().find(|&i| BREAKS.contains(&rest[i - 1])).unwrap_or(width);
        out.push(rest.drain(..at).collect());
    }
    out.push(rest.into_iter().collect());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_keep_both_ends() {
        assert_eq!(cut_middle("greedy,greedy,drawer,drawer,random,random", 20), "greedy,gre…om,random");
        assert_eq!(cut_middle("short", 20), "short");
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc\n");
        assert_eq!(break_value("greedy,greedy,drawer,random", 15), ["greedy,greedy,", "drawer,random"]);
        assert_eq!(break_value("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(break_value("cards/imbalance.toml", 19), ["cards/", "imbalance.toml"]);
    }
}
