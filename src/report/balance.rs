//! What `warsim balance` found, as a designer reads it (`docs/balance.md`): the answer sentence,
//! `changes.csv` (one row per edit, and one per design that needs a redesign) and `report.html`
//! (the answer, each edited design before and after beside its peers' median, the designs left
//! alone). The inputs are plain rows: this module plays nothing and names no game.

use std::fmt::Write as _;
use std::path::Path;

use std::io::Write as _;

use super::WrittenFile;
use super::html::esc as escape_html;

/// A signed number with `digits` decimals: `+0.120`, `-0.031`.
fn signed(x: f64, digits: usize) -> String {
    format!("{x:+.digits$}")
}

/// One design as the proof measured it, before and after.
pub struct DesignRow {
    pub id: String,
    pub name: String,
    pub designer: String,
    pub rarity: String,
    pub value: u8,
    pub text_before: String,
    pub text_after: String,
    /// Impact (games won per tournament) with its 95% interval, as given and as edited.
    pub before: Option<(f64, f64, f64)>,
    pub after: Option<(f64, f64, f64)>,
    /// The peers' median, as given and as edited.
    pub reference_before: f64,
    pub reference_after: f64,
    /// +1 too strong, -1 too weak, 0 in line (at 95% over the whole set).
    pub verdict_before: i8,
    pub verdict_after: i8,
}

/// One change proposed: an edit, or a redesign (no edit brought the design within its band).
pub struct ChangeRow {
    pub design: usize,
    /// `ability 1 amount`, `value`; empty for a redesign with no number to turn.
    pub field: String,
    pub old: Option<i64>,
    pub new: Option<i64>,
    /// `edited`, `edited_text_not_rewritten`, `needs_redesign`.
    pub status: &'static str,
    pub pass: usize,
    /// For a redesign: the closest setting raced, and its impact.
    pub closest: Option<String>,
}

pub struct BalanceResult {
    pub set_name: String,
    pub designs: Vec<DesignRow>,
    pub changes: Vec<ChangeRow>,
    pub passes: usize,
    pub ended: String,
    pub events: u64,
    pub within: f64,
    pub settings: String,
    pub tournaments_played: u64,
    pub seconds: f64,
}

impl BalanceResult {
    pub fn flagged(&self) -> (usize, usize) {
        let n = |f: fn(&DesignRow) -> i8| self.designs.iter().filter(|d| f(d) != 0).count();
        (n(|d| d.verdict_before), n(|d| d.verdict_after))
    }

    fn edits(&self) -> usize {
        self.changes.iter().filter(|c| c.new.is_some()).count()
    }

    /// The answer, in one or two sentences.
    pub fn answer(&self) -> String {
        let (before, after) = self.flagged();
        let redesign = self.changes.iter().filter(|c| c.status == "needs_redesign").count();
        let edits = self.edits();
        let mut s = if before == 0 {
            format!(
                "No design of {} is out of line with its peers (same rarity and printed value) at 95% over {} tournaments: nothing to change.",
                self.set_name,
                super::format::grouped(self.events as i128)
            )
        } else {
            format!(
                "{} bring{} the designs flagged as out of line with their peers from {} to {} (fresh seeds, {} tournaments each, 95% over the whole set).",
                super::format::count(edits as u64, "edit"),
                if edits == 1 { "s" } else { "" },
                before,
                after,
                super::format::grouped(self.events as i128)
            )
        };
        // The first three designs edited, each with all its edits (two when one number was not
        // enough).
        let mut named: Vec<String> = Vec::new();
        let mut shown = 0;
        for c in self.changes.iter().filter(|c| c.new.is_some()) {
            let d = &self.designs[c.design];
            let edit = format!("{} {} to {}", c.field, c.old.unwrap_or_default(), c.new.unwrap_or_default());
            let head = format!("{} ({}): ", d.name, d.designer);
            let full = named.len() == 3;
            match named.last_mut() {
                Some(last) if last.starts_with(&head) => *last = format!("{last} and {edit}"),
                _ if full => break,
                _ => named.push(format!("{head}{edit}")),
            }
            shown += 1;
        }
        if !named.is_empty() {
            let more = edits.saturating_sub(shown);
            let _ = write!(
                s,
                " {}{}.",
                named.join("; "),
                if more > 0 { format!("; and {more} more") } else { String::new() }
            );
        }
        if redesign > 0 {
            let _ = write!(
                s,
                " {} need{} a redesign (no number {} in line){}.",
                super::format::count(redesign as u64, "design"),
                if redesign == 1 { "s" } else { "" },
                if redesign == 1 { "it prints brings it" } else { "they print brings them" },
                self.redesigns_still_flagged(redesign, after)
            );
        }
        s
    }

    /// How many of the designs still flagged need a redesign: what no edit of numbers can bring
    /// lower, said so that a designer sees where the rest of the work lies.
    fn redesigns_still_flagged(&self, redesign: usize, after: usize) -> String {
        let mut still: Vec<usize> = self
            .changes
            .iter()
            .filter(|c| c.status == "needs_redesign" && self.designs[c.design].verdict_after != 0)
            .map(|c| c.design)
            .collect();
        still.sort_unstable();
        still.dedup();
        let n = still.len();
        match (n == after, after, redesign) {
            _ if n == 0 => String::new(),
            (true, 1, 1) => "; it is the one design still flagged".into(),
            (true, 1, _) => "; the one design still flagged is one of them".into(),
            (true, ..) => "; every design still flagged is one of them".into(),
            (false, _, 1) => format!("; it is one of the {after} designs still flagged"),
            (false, ..) => {
                format!(
                    "; {n} of the {after} designs still flagged {} among them",
                    if n == 1 { "is" } else { "are" }
                )
            }
        }
    }
}

const CHANGES_HEADER: &[&str] = &[
    "design",
    "designer",
    "rarity",
    "value",
    "field",
    "old",
    "new",
    "status",
    "pass",
    "impact_before",
    "impact_before_low",
    "impact_before_high",
    "impact_after",
    "impact_after_low",
    "impact_after_high",
    "reference",
    "closest",
    "text_before",
    "text_after",
];

fn num(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite()).map_or(String::new(), |v| format!("{v:.4}"))
}

/// Writes `changes.csv` (control characters of the set's texts escaped, as every file does).
fn write_changes(r: &BalanceResult, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let mut escaping = crate::untrusted::Escaping::new(out);
    {
        let mut w =
            csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(&mut escaping);
        w.write_record(CHANGES_HEADER)?;
        for c in &r.changes {
            let d = &r.designs[c.design];
            let (b, a) = (d.before, d.after);
            w.write_record([
                d.id.clone(),
                d.designer.clone(),
                d.rarity.clone(),
                d.value.to_string(),
                c.field.clone(),
                c.old.map_or(String::new(), |v| v.to_string()),
                c.new.map_or(String::new(), |v| v.to_string()),
                c.status.to_string(),
                (c.pass + 1).to_string(),
                num(b.map(|x| x.0)),
                num(b.map(|x| x.1)),
                num(b.map(|x| x.2)),
                num(a.map(|x| x.0)),
                num(a.map(|x| x.1)),
                num(a.map(|x| x.2)),
                num(Some(d.reference_before)),
                c.closest.clone().unwrap_or_default(),
                d.text_before.clone(),
                d.text_after.clone(),
            ])?;
        }
        w.flush()?;
    }
    Ok(escaping.flush()?)
}

/// A before/after strip of one design: its peers' median band, then its interval before (grey)
/// and after (blue), on one scale.
fn strip(d: &DesignRow, within: f64, lo: f64, hi: f64) -> String {
    let (w, h, pad) = (420.0, 60.0, 12.0);
    let x = |v: f64| pad + (v - lo) / (hi - lo) * (w - 2.0 * pad);
    let mut s = format!("<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">");
    let r = d.reference_before;
    if r.is_finite() {
        let _ = write!(
            s,
            "<rect x=\"{:.1}\" y=\"4\" width=\"{:.1}\" height=\"{}\" fill=\"#e8f3e8\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"4\" y2=\"{}\" stroke=\"#3a7d3a\"/>",
            x(r - within),
            (x(r + within) - x(r - within)).max(1.0),
            h - 8.0,
            x(r),
            x(r),
            h - 4.0
        );
    }
    for (row, (m, colour)) in [(d.before, "#888"), (d.after, "#1f5fbf")].into_iter().enumerate() {
        let Some((e, l, u)) = m else { continue };
        let y = 18.0 + row as f64 * 18.0;
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"3\"/><circle cx=\"{:.1}\" cy=\"{y}\" r=\"4\" fill=\"{colour}\"/>",
            x(l),
            x(u),
            x(e)
        );
    }
    // The scale's two ends, so the strip reads without the table beside it.
    let _ = write!(
        s,
        "<text x=\"{pad}\" y=\"{h}\" font-size=\"9\" fill=\"#555\">{}</text><text x=\"{}\" y=\"{h}\" font-size=\"9\" fill=\"#555\" text-anchor=\"end\">{}</text>",
        signed(lo, 2),
        w - pad,
        signed(hi, 2)
    );
    s.push_str("</svg>");
    s
}

/// The page.
fn page(r: &BalanceResult) -> String {
    let (before, after) = r.flagged();
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Balancing {}</title><style>\
         body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45}}\
         table{{border-collapse:collapse}}td,th{{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}}\
         .num{{text-align:right;font-variant-numeric:tabular-nums}}.key span{{margin-right:1.5em}}</style></head><body>",
        escape_html(&r.set_name)
    );
    let _ = write!(
        h,
        "<h1>Balancing {}</h1><p><b>{}</b></p>",
        escape_html(&r.set_name),
        escape_html(&r.answer())
    );
    let _ = write!(
        h,
        "<p>A design's impact is the number of games its holders win in a tournament because of its text \
         (each tournament is played again with the text removed from the holder's copies, on the same deal). \
         It is judged against its peers (the other designs of its rarity and printed value) by their median, \
         at 95% over the whole set; the band is ±{} games per tournament. Flagged: {before} before, {after} after. \
         Passes: {} ({}). Tournaments: {}, settings: {}.</p>",
        r.within,
        r.passes,
        escape_html(&r.ended),
        super::format::grouped(r.tournaments_played as i128),
        escape_html(&r.settings)
    );
    let edited: Vec<&ChangeRow> = r.changes.iter().filter(|c| c.new.is_some()).collect();
    if !edited.is_empty() {
        h.push_str("<h2>What to print differently</h2><p class=\"key\"><span style=\"color:#888\">● before</span><span style=\"color:#1f5fbf\">● after</span><span style=\"color:#3a7d3a\">▮ peers' median ± band</span></p><table><tr><th>design</th><th>change</th><th>impact before → after</th><th></th></tr>");
        for c in &edited {
            let d = &r.designs[c.design];
            let vals: Vec<f64> = [d.before, d.after]
                .iter()
                .flatten()
                .flat_map(|x| [x.1, x.2])
                .chain([d.reference_before - r.within, d.reference_before + r.within])
                .filter(|v| v.is_finite())
                .collect();
            let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max).max(lo + 1e-9);
            let show = |m: Option<(f64, f64, f64)>| {
                m.map_or("not measured".into(), |(e, l, u)| {
                    format!("{} [{}, {}]", signed(e, 3), signed(l, 3), signed(u, 3))
                })
            };
            let _ = write!(
                h,
                "<tr><td><b>{}</b> ({}, {} {})<br><small>{}<br>→ {}</small></td><td>{} {} → {}{}</td><td>{}<br>→ {}<br><small>peers' median {}</small></td><td>{}</td></tr>",
                escape_html(&d.name),
                escape_html(&d.designer),
                escape_html(&d.rarity),
                d.value,
                escape_html(&d.text_before),
                escape_html(&d.text_after),
                escape_html(&c.field),
                c.old.unwrap_or_default(),
                c.new.unwrap_or_default(),
                if c.status == "edited" {
                    ""
                } else {
                    "<br><small>the printed text still says the old number: reword it</small>"
                },
                show(d.before),
                show(d.after),
                signed(d.reference_before, 3),
                strip(d, r.within, lo, hi)
            );
        }
        h.push_str("</table>");
    }
    let redesign: Vec<&ChangeRow> = r.changes.iter().filter(|c| c.status == "needs_redesign").collect();
    if !redesign.is_empty() {
        h.push_str("<h2>Needs a redesign</h2><table><tr><th>design</th><th>impact</th><th>peers' median</th><th>closest setting raced</th></tr>");
        for c in redesign {
            let d = &r.designs[c.design];
            let _ = write!(
                h,
                "<tr><td>{} ({})</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                escape_html(&d.name),
                escape_html(&d.designer),
                d.before.map_or(String::new(), |x| signed(x.0, 3)),
                signed(d.reference_before, 3),
                escape_html(c.closest.as_deref().unwrap_or("no number to turn"))
            );
        }
        h.push_str("</table>");
    }
    let alone: Vec<&DesignRow> = r
        .designs
        .iter()
        .enumerate()
        .filter(|(i, _)| !r.changes.iter().any(|c| c.design == *i))
        .map(|(_, d)| d)
        .collect();
    let _ = write!(
        h,
        "<h2>Left alone ({})</h2><p>Designs within their band, or not shown out of line at 95%, are not touched. \
         Still flagged after the edits: {}.</p>",
        alone.len(),
        {
            let still: Vec<String> =
                alone.iter().filter(|d| d.verdict_after != 0).map(|d| escape_html(&d.name)).collect();
            if still.is_empty() { "none".to_string() } else { still.join(", ") }
        }
    );
    h.push_str("<p>changes.csv has every change with its numbers; balanced.toml is the edited set.</p></body></html>\n");
    h
}

/// Writes `balanced.toml` (the edited set's text), `changes.csv` and `report.html` into `out`.
pub fn write_all(out: &Path, r: &BalanceResult, balanced: &str) -> anyhow::Result<Vec<WrittenFile>> {
    let toml = super::write_atomic(&out.join("balanced.toml"), |w| Ok(w.write_all(balanced.as_bytes())?))?;
    let csv = super::write_atomic(&out.join("changes.csv"), |w| write_changes(r, w))?;
    let html = page(r);
    let page = super::write_atomic(&out.join("report.html"), |w| Ok(w.write_all(html.as_bytes())?))?;
    Ok(vec![
        WrittenFile::new("balanced.toml", toml),
        WrittenFile::new("changes.csv", csv),
        WrittenFile::new("report.html", page),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(name: &str, before: i8, after: i8) -> DesignRow {
        DesignRow {
            id: name.to_lowercase(),
            name: name.into(),
            designer: "Ed".into(),
            rarity: "common".into(),
            value: 5,
            text_before: "+4 while face up.".into(),
            text_after: "+1 while face up.".into(),
            before: Some((0.9, 0.8, 1.0)),
            after: Some((0.5, 0.4, 0.6)),
            reference_before: 0.2,
            reference_after: 0.2,
            verdict_before: before,
            verdict_after: after,
        }
    }

    fn change(design: usize, field: &str, new: Option<i64>, status: &'static str) -> ChangeRow {
        ChangeRow { design, field: field.into(), old: new.map(|_| 4), new, status, pass: 0, closest: None }
    }

    fn result(changes: Vec<ChangeRow>) -> BalanceResult {
        BalanceResult {
            set_name: "set.toml".into(),
            designs: vec![design("Crown", 1, 1), design("Seal", 1, 1), design("Gate", 1, 0)],
            changes,
            passes: 2,
            ended: String::new(),
            events: 2000,
            within: 0.02,
            settings: String::new(),
            tournaments_played: 1,
            seconds: 1.0,
        }
    }

    #[test]
    fn the_answer_counts_the_edits_names_each_design_once_and_agrees_in_number() {
        let two = result(vec![
            change(2, "ability 1 amount", Some(1), "edited"),
            change(2, "ability 2 amount", Some(2), "edited"),
            change(0, "", None, "needs_redesign"),
            change(1, "", None, "needs_redesign"),
        ]);
        assert_eq!(
            two.answer(),
            "2 edits bring the designs flagged as out of line with their peers from 3 to 2 (fresh seeds, \
             2,000 tournaments each, 95% over the whole set). Gate (Ed): ability 1 amount 4 to 1 and \
             ability 2 amount 4 to 2. 2 designs need a redesign (no number they print brings them in line); \
             every design still flagged is one of them."
        );
        let mut some =
            result(vec![change(0, "", None, "needs_redesign"), change(1, "", None, "needs_redesign")]);
        some.designs[2].verdict_after = -1;
        some.designs[1].verdict_after = 0;
        assert!(
            some.answer().ends_with("in line); 1 of the 2 designs still flagged is among them."),
            "{}",
            some.answer()
        );
        some.designs[2].verdict_after = 0;
        assert!(
            some.answer().ends_with("in line); the one design still flagged is one of them."),
            "{}",
            some.answer()
        );
        some.designs[0].verdict_after = 0;
        assert!(some.answer().ends_with("brings them in line)."), "none still flagged: {}", some.answer());
        let mut alone = result(vec![change(0, "", None, "needs_redesign")]);
        alone.designs.truncate(1);
        assert!(alone.answer().ends_with("it is the one design still flagged."), "{}", alone.answer());
        let one = result(vec![
            change(2, "ability 1 amount", Some(1), "edited"),
            change(1, "", None, "needs_redesign"),
        ]);
        assert!(one.answer().starts_with("1 edit brings the designs"), "{}", one.answer());
        assert!(one.answer().ends_with("1 design needs a redesign (no number it prints brings it in line); it is one of the 2 designs still flagged."), "{}", one.answer());
    }
}
