//! A text table for the terminal: columns of settings (left-aligned, wrapped at their break
//! characters when the table is too wide) and numbers (right-aligned, an estimate and its `±` or
//! interval as two columns so they line up), fitted into a width. Nothing is ever cut inside a word
//! or a number: setting values break only after a `,` (not a thousands separator), `+`, `_`, `/`, a
//! hyphen between letters, or at a space; when that is not enough, the droppable columns go, then
//! the widest setting column's values are replaced by short keys said below the table, and a table
//! still too wide is printed in parts, each repeating the columns that tell the rows apart.

/// Droppable columns of this rank and higher are left out before setting values wrap (a wrapped
/// label costs rows; a quantile is one click away in the CSV).
pub const EAGER: u8 = 2;

/// Blank columns between two columns of a table.
const GAP: usize = 2;

/// `text` broken at spaces into lines of at most `width` characters (a word longer than the width
/// stands alone on its line, whole).
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
    /// between break points (a piece is never cut).
    fn floor(&self) -> usize {
        let piece = self.cells.iter().flat_map(|c| pieces(c)).map(|p| p.chars().count()).max().unwrap_or(0);
        piece.max(self.header.chars().count()).max(self.header2.chars().count()).max(1)
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
    /// What the keys of a keyed column stand for (`a: greedy,greedy,drawer,…`), said below the
    /// table.
    keys: Vec<String>,
    /// The width `fit` fitted the table into (a wider table is printed in parts).
    width: usize,
}

impl Table {
    pub fn new(cols: Vec<Column>) -> Table {
        Table { cols, keys: Vec::new(), width: usize::MAX }
    }

    fn total(&self) -> usize {
        total(self.cols.iter())
    }

    /// Fits the table into `width` columns: long names break onto two header lines, then the
    /// setting values wrap onto more lines (down to each column's floor, never inside a piece),
    /// and only if that is not enough the droppable columns go, highest rank first, then the
    /// widest setting values are replaced by keys. Returns the headers of the columns it left out.
    /// A table still too wide is printed in parts (`render`).
    pub fn fit(&mut self, width: usize) -> Vec<String> {
        self.width = width;
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
        // Keys only where printing in parts is not enough: the columns that tell the rows apart
        // and the widest estimate with its interval must fit side by side.
        while self.total() > width && !self.fits_in_parts(width) && self.key_widest(width) {
            self.narrow_settings(width);
        }
        dropped.reverse();
        dropped
    }

    /// Whether the leading setting columns and each estimate with its interval fit `width`.
    fn fits_in_parts(&self, width: usize) -> bool {
        let lead = self.cols.iter().take_while(|c| c.setting).count();
        let widest = (lead..self.cols.len())
            .map(|i| {
                let c = &self.cols[i];
                if c.spans_next && i + 1 < self.cols.len() {
                    c.width + self.cols[i + 1].gap + self.cols[i + 1].width
                } else {
                    c.width
                }
            })
            .max()
            .unwrap_or(0);
        total(self.cols[..lead].iter()) + GAP + widest <= width
    }

    /// Replaces the values of the setting column whose keys would save the most width by keys
    /// (`a`, `b`, …, one per distinct value), said below the table. False when no column gains.
    fn key_widest(&mut self, width: usize) -> bool {
        let keyable = |c: &Column| c.setting && c.cells.iter().any(|v| v.chars().count() > 3);
        let Some(i) =
            (0..self.cols.len()).filter(|&i| keyable(&self.cols[i])).max_by_key(|&i| self.cols[i].floor())
        else {
            return false;
        };
        let c = &mut self.cols[i];
        let mut distinct: Vec<String> = Vec::new();
        for v in &c.cells {
            if !distinct.contains(v) {
                distinct.push(v.clone());
            }
        }
        let key = |k: usize| {
            let letters = b"abcdefghijklmnopqrstuvwxyz";
            if k < letters.len() { (letters[k] as char).to_string() } else { format!("k{}", k + 1) }
        };
        let name = c.full_header();
        for (k, v) in distinct.iter().enumerate() {
            self.keys.push(format!("{} {}: {v}", if name.is_empty() { "key" } else { &name }, key(k)));
        }
        let keyed: Vec<String> =
            c.cells.iter().map(|v| key(distinct.iter().position(|d| d == v).unwrap_or(0))).collect();
        let header = c.full_header();
        *c = Column { drop: c.drop, ..Column::setting(&header, keyed) };
        c.header2.clear();
        if self.total() > width {
            self.cols[i].break_header();
        }
        true
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

    /// The table as text: in one piece when it fits its width, else in parts, each with the
    /// leading setting columns (what tells the rows apart) and as many of the others as fit; then
    /// the keys.
    pub fn render(&self) -> String {
        let lead = self.cols.iter().take_while(|c| c.setting).count();
        let mut out = String::new();
        if self.total() <= self.width || lead == self.cols.len() {
            out.push_str(&render_columns(&self.cols.iter().collect::<Vec<_>>()));
        } else {
            let mut parts: Vec<Vec<&Column>> = Vec::new();
            let mut i = lead;
            while i < self.cols.len() {
                // An estimate goes with the column after it (its ± or interval).
                let span = if self.cols[i].spans_next && i + 1 < self.cols.len() { 2 } else { 1 };
                let group: Vec<&Column> = self.cols[i..i + span].iter().collect();
                let fits = parts.last().is_some_and(|p| {
                    total(self.cols[..lead].iter().chain(p.iter().copied()).chain(group.iter().copied()))
                        <= self.width
                });
                match parts.last_mut() {
                    Some(p) if fits => p.extend(group),
                    _ => parts.push(group),
                }
                i += span;
            }
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                let cols: Vec<&Column> = self.cols[..lead].iter().chain(part.iter().copied()).collect();
                out.push_str(&render_columns(&cols));
            }
        }
        for k in &self.keys {
            out.push_str(&wrap(k, self.width.max(1)));
        }
        out
    }
}

/// The width of `cols` side by side.
fn total<'a>(cols: impl Iterator<Item = &'a Column>) -> usize {
    let mut sum = 0;
    for (i, c) in cols.enumerate() {
        sum += c.width + if i > 0 { c.gap } else { 0 };
    }
    sum
}

/// One line of a table of `cols`: `cell` gives each column's text.
fn line(cols: &[&Column], header: bool, cell: impl Fn(usize, &Column) -> String) -> String {
    let mut line = String::new();
    let mut i = 0;
    while i < cols.len() {
        let (c, at) = (cols[i], i);
        if i > 0 {
            line.push_str(&" ".repeat(c.gap));
        }
        let mut w = c.width;
        let mut left = c.left;
        if header && c.spans_next && i + 1 < cols.len() {
            i += 1;
            w += cols[i].gap + cols[i].width;
            left = false;
        }
        let text = cell(at, c);
        line.push_str(&if left { format!("{text:<w$}") } else { format!("{text:>w$}") });
        i += 1;
    }
    let mut line = line.trim_end().to_string();
    line.push('\n');
    line
}

/// The header lines and the rows of `cols`, a setting value wider than its column wrapped onto
/// the row's next lines.
fn render_columns(cols: &[&Column]) -> String {
    let rows = cols.first().map_or(0, |c| c.cells.len());
    let mut out = String::new();
    if cols.iter().any(|c| !c.header2.is_empty()) {
        out.push_str(&line(
            cols,
            true,
            |_, c| if c.header2.is_empty() { String::new() } else { c.header.clone() },
        ));
    }
    out.push_str(&line(
        cols,
        true,
        |_, c| if c.header2.is_empty() { c.header.clone() } else { c.header2.clone() },
    ));
    for r in 0..rows {
        let parts: Vec<Vec<String>> = cols
            .iter()
            .map(|c| if c.setting { break_value(&c.cells[r], c.width) } else { vec![c.cells[r].clone()] })
            .collect();
        let lines = parts.iter().map(Vec::len).max().unwrap_or(1);
        for l in 0..lines {
            out.push_str(&line(cols, false, |k, _| parts[k].get(l).cloned().unwrap_or_default()));
        }
    }
    out
}

/// Whether a value may break after its character `i` (of `chars`): after a `,` that is not a
/// thousands separator, a `+`, `_` or `/`, a hyphen between letters, or a space.
fn breaks_after(chars: &[char], i: usize) -> bool {
    let (c, before, after) = (chars[i], i.checked_sub(1).map(|j| chars[j]), chars.get(i + 1));
    let letter = |c: Option<&char>| c.is_some_and(|c| c.is_alphabetic());
    match c {
        ',' => !(before.is_some_and(|b| b.is_ascii_digit()) && after.is_some_and(|a| a.is_ascii_digit())),
        '+' | '_' | '/' | ' ' => true,
        '-' => letter(before.as_ref()) && letter(after),
        _ => false,
    }
}

/// The pieces of `value` between its break points, each with its break character.
fn pieces(value: &str) -> Vec<String> {
    let chars: Vec<char> = value.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..chars.len() {
        if breaks_after(&chars, i) || i + 1 == chars.len() {
            out.push(chars[start..=i].iter().collect());
            start = i + 1;
        }
    }
    out
}

/// `value` in lines of at most `width` characters, broken only between its pieces (a piece wider
/// than `width` is a line of its own, whole); a space at a break is dropped.
fn break_value(value: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for p in pieces(value) {
        if !line.is_empty() && line.chars().count() + p.trim_end().chars().count() > width {
            out.push(line.trim_end().to_string());
            line.clear();
        }
        line.push_str(&p);
    }
    out.push(line.trim_end().to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_break_only_between_their_pieces() {
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc\n");
        assert_eq!(break_value("greedy,greedy,drawer,random", 15), ["greedy,greedy,", "drawer,random"]);
        // A piece longer than the width stays whole.
        assert_eq!(break_value("abcdefgh", 3), ["abcdefgh"]);
        assert_eq!(break_value("cards/imbalance.toml", 19), ["cards/", "imbalance.toml"]);
        // No break inside a number's thousands, nor at a minus or a range.
        assert_eq!(
            pieces("of decided games (20,000 decided)"),
            ["of ", "decided ", "games ", "(20,000 ", "decided)"]
        );
        assert_eq!(pieces("9.4-12.4"), ["9.4-12.4"]);
        assert_eq!(pieces("lesser-spoils"), ["lesser-", "spoils"]);
        assert_eq!(
            break_value("of decided games (20,000 decided)", 20),
            ["of decided games", "(20,000 decided)"]
        );
        // The space between two pieces counts.
        assert_eq!(break_value("tidal-switch impact", 18), ["tidal-switch", "impact"]);
    }

    #[test]
    fn a_table_too_wide_keys_its_widest_values_then_prints_in_parts() {
        let long = "greedy,greedy,greedy,greedy,greedy,greedy,greedy,greedy,greedy".to_string();
        let cols = vec![
            Column::setting("lineup", vec![long.clone(), "random".into()]),
            Column::new("a", vec!["1.0".into(), "2.0".into()]),
        ];
        let mut t = Table::new(cols);
        t.fit(12);
        let text = t.render();
        assert!(text.lines().all(|l| l.chars().count() <= 12), "\n{text}");
        assert!(text.contains("greedy,"), "\n{text}");
        // A value with a piece wider than the room left: keyed, and the key said below.
        let cols = vec![
            Column::setting("deck", vec!["cards/averyveryverylongname.toml".into(), "b.toml".into()]),
            Column::new("rate", vec!["1.0".into(), "2.0".into()]),
        ];
        let mut t = Table::new(cols);
        t.fit(20);
        let text = t.render();
        assert!(text.lines().all(|l| l.chars().count() <= 20 || !l.contains(' ')), "\n{text}");
        assert!(text.contains("deck a:\ncards/averyveryverylongname.toml"), "\n{text}");
        let numbers: Vec<Column> =
            (0..6).map(|i| Column::new(&format!("n{i}"), vec!["12345.6".into(), "1.0".into()])).collect();
        let mut cols = vec![Column::setting("x", vec!["p".into(), "q".into()])];
        cols.extend(numbers);
        let mut t = Table::new(cols);
        t.fit(30);
        let text = t.render();
        assert!(text.lines().all(|l| l.chars().count() <= 30), "\n{text}");
        assert_eq!(text.matches("12345.6").count(), 6, "\n{text}");
    }
}
