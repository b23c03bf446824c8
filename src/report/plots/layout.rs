//! The parts every figure is built of: a title with notes above the plot (never clipped: it wraps),
//! a legend in its own band (never over the data), and a grid of small panels.

use super::palette::{INK, MUTED};
use super::svg::{Anchor, Style, Svg, text_width};

/// Space around a figure.
pub const MARGIN: f64 = 16.0;
/// The widest a figure gets: it fits the report page at full size.
pub const MAX_WIDTH: f64 = 1200.0;
pub const TITLE: Style = Style::new(17.0).bold();
pub const NOTE: Style = Style::new(12.0).colour(MUTED);
pub const PANEL_TITLE: Style = Style::new(12.0).bold();
pub const LABEL: Style = Style::new(11.0).colour(INK);

/// The distance between two lines of text of `size`.
pub fn line_height(size: f64) -> f64 {
    (size * 1.3).ceil()
}

/// `text` in lines at most `width` pixels wide at `size`: broken at spaces, and a word too long for
/// a line after a `,`, `=`, `_` or `+` (or anywhere, as a last resort).
pub fn wrap(text: &str, width: f64, size: f64) -> Vec<String> {
    let fits = |s: &str| text_width(s, size) <= width;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if fits(&candidate) {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest: Vec<char> = word.chars().collect();
        while !fits(&rest.iter().collect::<String>()) && rest.len() > 1 {
            let longest =
                (1..rest.len()).rev().find(|&i| fits(&rest[..i].iter().collect::<String>())).unwrap_or(1);
            let at = (1..=longest)
                .rev()
                .find(|&i| matches!(rest[i - 1], ',' | '=' | '_' | '+'))
                .unwrap_or(longest);
            lines.push(rest.drain(..at).collect());
        }
        line = rest.into_iter().collect();
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Draws lines of text from `y` (the top of the first line) down; returns the y under the last.
pub fn lines(svg: &mut Svg, x: f64, y: f64, lines: &[String], style: Style) -> f64 {
    let h = line_height(style.size);
    for (i, l) in lines.iter().enumerate() {
        svg.text(x, y + i as f64 * h + style.size, l, style);
    }
    y + lines.len() as f64 * h
}

/// The figure's title and notes, wrapped to its width; returns the y where the plot starts.
pub fn header(svg: &mut Svg, title: &str, notes: &[String]) -> f64 {
    let width = svg.width() - 2.0 * MARGIN;
    let mut y = lines(svg, MARGIN, MARGIN, &wrap(title, width, TITLE.size), TITLE);
    for note in notes {
        y = lines(svg, MARGIN, y + 2.0, &wrap(note, width, NOTE.size), NOTE);
    }
    y + 10.0
}

/// A legend band from `y`: `title` then a swatch and a label per entry, flowing onto more lines
/// when the figure is narrow; returns the y under it.
pub fn legend(svg: &mut Svg, y: f64, title: &str, entries: &[(&str, String)]) -> f64 {
    let right = svg.width() - MARGIN;
    let h = line_height(LABEL.size) + 4.0;
    let mut x = MARGIN;
    let mut y = y;
    if !title.is_empty() {
        let t = format!("{title}:");
        svg.text(x, y + LABEL.size, &t, LABEL.bold());
        x += text_width(&t, LABEL.size) + 10.0;
    }
    for (colour, label) in entries {
        let w = 22.0 + text_width(label, LABEL.size) + 16.0;
        if x + w > right && x > MARGIN {
            x = MARGIN;
            y += h;
        }
        let mid = y + LABEL.size * 0.65;
        svg.line((x, mid), (x + 18.0, mid), colour, 3.0);
        svg.text(x + 22.0, y + LABEL.size, label, LABEL.at(Anchor::Start));
        x += w;
    }
    y + h + 6.0
}

/// Panels laid out left to right, then top to bottom; each row of panels as tall as it needs.
#[derive(Clone, Debug)]
pub struct Grid {
    pub x: f64,
    pub cols: usize,
    pub cell_w: f64,
    /// The top of each row, and the bottom of the last.
    tops: Vec<f64>,
}

impl Grid {
    /// A grid of `n` panels at most `max_cols` across, each at least `min_w` wide, in a figure
    /// `width` wide, from `y` down; row `r` is `row_h(panels of row r)` tall.
    pub fn new(
        n: usize,
        max_cols: usize,
        min_w: f64,
        width: f64,
        y: f64,
        row_h: impl Fn(std::ops::Range<usize>) -> f64,
    ) -> Grid {
        let room = width - 2.0 * MARGIN;
        let cols = n.clamp(1, max_cols).min(((room / min_w).floor() as usize).max(1));
        let mut tops = vec![y];
        for r in 0..n.div_ceil(cols) {
            let last = tops[r];
            tops.push(last + row_h(r * cols..((r + 1) * cols).min(n)));
        }
        Grid { x: MARGIN, cols, cell_w: room / cols as f64, tops }
    }

    /// How many panels across a grid of `n` gets (before the rows' heights are known).
    pub fn columns(n: usize, max_cols: usize, min_w: f64, width: f64) -> (usize, f64) {
        let g = Grid::new(n, max_cols, min_w, width, 0.0, |_| 0.0);
        (g.cols, g.cell_w)
    }

    /// The top-left corner of panel `i` and the height of its row.
    pub fn cell(&self, i: usize) -> (f64, f64, f64) {
        let r = i / self.cols;
        (self.x + (i % self.cols) as f64 * self.cell_w, self.tops[r], self.tops[r + 1] - self.tops[r])
    }

    /// The y under the last row.
    pub fn bottom(&self) -> f64 {
        *self.tops.last().unwrap_or(&0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_words_break_after_commas() {
        let w = wrap("players=6 policies=greedy,greedy,drawer,drawer,random,random", 160.0, 12.0);
        assert!(w.iter().all(|l| text_width(l, 12.0) <= 160.0), "{w:?}");
        assert_eq!(
            w.concat().replace(' ', ""),
            "players=6policies=greedy,greedy,drawer,drawer,random,random"
        );
        assert_eq!(wrap("a b", 500.0, 12.0), ["a b"]);
        assert_eq!(wrap("", 500.0, 12.0), [""]);
    }
}
