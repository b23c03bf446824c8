//! A small SVG writer: rectangles, lines, polylines, circles and horizontal text, with every
//! coordinate written to one decimal so the same plot gives the same bytes.
//!
//! The plots lay text out themselves, so this module also estimates how wide a text is: a
//! deliberately generous 0.62 of the font size per character (0.9 for wide ones such as `%` and
//! `m`), which bounds Helvetica, Arial and DejaVu Sans, whichever the reader's machine has.

use std::fmt::Write as _;

/// The font of every text: Helvetica-like first, a wide fallback last (which the width estimate
/// still covers).
pub const FONT: &str = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";

/// The width `text` takes at font size `size`, rounded up.
pub fn text_width(text: &str, size: f64) -> f64 {
    let ems: f64 = text.chars().map(|c| if "%mwMW—@±".contains(c) { 0.9 } else { 0.62 }).sum();
    (ems * size).ceil()
}

/// Where a text's `x` is: at its start, its middle or its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// How a text is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub size: f64,
    pub anchor: Anchor,
    pub bold: bool,
    pub colour: &'static str,
}

impl Style {
    pub const fn new(size: f64) -> Style {
        Style { size, anchor: Anchor::Start, bold: false, colour: "#222222" }
    }

    pub const fn at(self, anchor: Anchor) -> Style {
        Style { anchor, ..self }
    }

    pub const fn bold(self) -> Style {
        Style { bold: true, ..self }
    }

    pub const fn colour(self, colour: &'static str) -> Style {
        Style { colour, ..self }
    }
}

fn esc(s: &str) -> String {
    crate::untrusted::escape(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG document being drawn.
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg { width: width.ceil(), height: height.ceil(), body: String::new() }
    }

    pub fn width(&self) -> f64 {
        self.width
    }

    /// Makes the canvas `height` tall: a figure drawn top-down learns its height at the end.
    pub fn set_height(&mut self, height: f64) {
        self.height = height.ceil();
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"/>"#
        );
    }

    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width:.1}"/>"#
        );
    }

    pub fn dashed(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width:.1}" stroke-dasharray="4 3"/>"#
        );
    }

    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        self.polyline_with(points, stroke, width, "");
    }

    /// A dashed polyline, drawn over an identical line so both colours show.
    pub fn dashed_polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        self.polyline_with(points, stroke, width, r#" stroke-dasharray="6 4""#);
    }

    fn polyline_with(&mut self, points: &[(f64, f64)], stroke: &str, width: f64, extra: &str) {
        let mut p = String::new();
        for (i, (x, y)) in points.iter().enumerate() {
            let _ = write!(p, "{}{x:.1},{y:.1}", if i > 0 { " " } else { "" });
        }
        let _ = writeln!(
            self.body,
            r#"<polyline points="{p}" fill="none" stroke="{stroke}" stroke-width="{width:.1}" stroke-linejoin="round"{extra}/>"#
        );
    }

    pub fn circle(&mut self, (cx, cy): (f64, f64), r: f64, fill: &str) {
        let _ = writeln!(self.body, r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"/>"#);
    }

    /// `text` with its baseline at `y`.
    pub fn text(&mut self, x: f64, y: f64, text: &str, style: Style) {
        let anchor = match style.anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let weight = if style.bold { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{:.0}" text-anchor="{anchor}" fill="{}"{weight}>{}</text>"#,
            style.size,
            style.colour,
            esc(text)
        );
    }

    /// `text` centred vertically on `y`.
    pub fn text_mid(&mut self, x: f64, y: f64, text: &str, style: Style) {
        self.text(x, y + 0.35 * style.size, text, style);
    }

    pub fn finish(self) -> String {
        let (w, h) = (self.width, self.height);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"{}\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{}</svg>\n",
            FONT.replace('\'', "&apos;"),
            self.body
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_plain_deterministic_svg() {
        let mut s = Svg::new(100.0, 50.0);
        s.text(10.0, 20.0, "a < b & 5%", Style::new(12.0).at(Anchor::Middle).bold());
        s.polyline(&[(0.0, 1.0), (2.25, 3.0)], "#000000", 1.0);
        let svg = s.finish();
        let text = r##"<text x="10.0" y="20.0" font-size="12" text-anchor="middle" fill="#222222" font-weight="bold">a &lt; b &amp; 5%</text>"##;
        assert!(svg.contains(text), "{svg}");
        assert!(svg.contains(r#"points="0.0,1.0 2.2,3.0""#), "{svg}");
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert_eq!(text_width("ab", 10.0), 13.0);
        assert_eq!(text_width("5%", 10.0), 16.0);
    }
}
