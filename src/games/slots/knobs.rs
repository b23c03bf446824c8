//! The numbers printed on a card set's designs that `warsim balance` may turn (`docs/balance.md`):
//! each ability's `amount`, a `set`'s fixed `to` and a `multiply`'s `by`, and (when asked) the
//! design's printed `value`; the set's text with some of them changed, each edited design's
//! `text` rewritten to say so where a plain number change can say it.
//!
//! The file is edited line by line, so its order, ids, names and comments are kept: a knob is a
//! `key = integer` line of a `[[card]]` (value) or `[[card.ability]]` (the others) table. Numbers
//! written any other way (inline ability tables) are not knobs; such a design "needs a redesign"
//! if it must change. Every edited text is compiled again (`cardfile::parse`), so a setting the
//! format does not allow is never proposed.

use super::cardfile;
use super::cardset::CardSet;

/// One turnable number of one design.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knob {
    /// The design's index in the set (file order).
    pub design: usize,
    /// The ability's index among the design's abilities (`None`: the printed value).
    pub ability: Option<usize>,
    /// `amount`, `to`, `by` or `value`.
    pub field: &'static str,
    /// The number as printed.
    pub value: i64,
    /// Its line in the file (0-based).
    line: usize,
}

impl Knob {
    /// What the knob is, in the file's words: `ability 2 amount`, `value`.
    pub fn name(&self) -> String {
        match self.ability {
            Some(a) => format!("ability {} {}", a + 1, self.field),
            None => self.field.to_string(),
        }
    }

    /// The settings the format allows for this knob, other than its own, nearest first (ties:
    /// the lower first). An amount keeps its sign (a bonus stays a bonus); `by` keeps its side of
    /// 1; `to` and `value` stay in the printed values 0-9 and 1-9.
    pub fn settings(&self) -> Vec<i64> {
        let v = self.value;
        let range: Vec<i64> = match self.field {
            "amount" if v < 0 => (-9..=-1).collect(),
            "amount" => (1..=9).collect(),
            "by" if v > 1 => (2..=9).collect(),
            "by" => (-9..=0).collect(),
            "to" => (0..=9).collect(),
            _ => (1..=9).collect(),
        };
        let mut out: Vec<i64> = range.into_iter().filter(|&x| x != v).collect();
        out.sort_by_key(|&x| ((x - v).abs(), x));
        out
    }
}

/// What a line of the file is, for the scan.
enum Line<'a> {
    Card,
    Ability,
    /// `key = rest` at the top of a table.
    Pair(&'a str, &'a str),
    Other,
}

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.starts_with("[[card.ability]]") {
        return Line::Ability;
    }
    if t.starts_with("[[card]]") {
        return Line::Card;
    }
    match t.split_once('=') {
        Some((k, rest))
            if !k.trim().is_empty() && k.trim().chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            Line::Pair(k.trim(), rest.trim())
        }
        _ => Line::Other,
    }
}

/// The integer a `key = ...` line holds (a comment may follow), or None when it holds anything else.
fn integer(rest: &str) -> Option<i64> {
    let body = rest.split('#').next()?.trim();
    let digits = body.strip_prefix('+').unwrap_or(body);
    digits.parse().ok()
}

/// Every knob of `text` (a card-set file `set` was compiled from), design by design in file
/// order; the printed value only with `values`. A design whose `[[card]]` table the scan cannot
/// match with `set` (another order, ids written another way) has no knobs.
pub fn knobs(text: &str, set: &CardSet, values: bool) -> Vec<Knob> {
    let mut out = Vec::new();
    let mut design: Option<usize> = None;
    let mut ability: Option<usize> = None;
    let mut cards = 0usize;
    let mut pending: Vec<Knob> = Vec::new();
    let mut id_ok = false;
    let flush = |pending: &mut Vec<Knob>, id_ok: bool, out: &mut Vec<Knob>| {
        if id_ok {
            out.append(pending);
        }
        pending.clear();
    };
    for (i, line) in text.lines().enumerate() {
        match classify(line) {
            Line::Card => {
                flush(&mut pending, id_ok, &mut out);
                design = Some(cards);
                cards += 1;
                ability = None;
                id_ok = false;
            }
            Line::Ability => ability = Some(ability.map_or(0, |a| a + 1)),
            Line::Pair(key, rest) => {
                let Some(d) = design else { continue };
                if key == "id" && ability.is_none() {
                    let id = rest.trim_matches(|c| c == '"' || c == '\'');
                    id_ok = set.designs.get(d).is_some_and(|x| x.id == id);
                    continue;
                }
                let field = match (key, ability) {
                    ("value", None) if values => "value",
                    ("amount", Some(_)) => "amount",
                    ("to", Some(_)) => "to",
                    ("by", Some(_)) => "by",
                    _ => continue,
                };
                if let Some(value) = integer(rest) {
                    pending.push(Knob { design: d, ability, field, value, line: i });
                }
            }
            Line::Other => {}
        }
    }
    flush(&mut pending, id_ok, &mut out);
    out
}

/// One knob turned to a new setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub knob: Knob,
    pub to: i64,
}

/// `text` with `edits` made, each edited design's `text` line rewritten where the number change
/// can be said in it (`retext`); and, per edit, whether its text was rewritten.
pub fn apply(text: &str, set: &CardSet, edits: &[Edit]) -> (String, Vec<bool>) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut said = Vec::with_capacity(edits.len());
    // Each design's text as rewritten so far: a second edit of one design says its number in the
    // text the first left.
    let mut texts: Vec<Option<String>> = vec![None; set.designs.len()];
    for e in edits {
        let old = &lines[e.knob.line];
        let (key, _) = old.split_once('=').expect("a knob's line holds key = value");
        let comment = old.find('#').map(|c| format!(" {}", &old[c..])).unwrap_or_default();
        lines[e.knob.line] = format!("{key}= {}{comment}", e.to);
        said.push(text_line(&lines, e.knob.line).is_some_and(|t| {
            let d = &set.designs[e.knob.design];
            let now = texts[e.knob.design].as_deref().unwrap_or(&d.text);
            match retext(now, e.knob.value, e.to, e.knob.field) {
                Some(new) if new.chars().count() <= d.rarity.text_limit() => {
                    lines[t] = rewrite_text_line(&lines[t], &new);
                    texts[e.knob.design] = Some(new);
                    true
                }
                _ => false,
            }
        }));
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    (out, said)
}

/// The `text = "..."` line of the design whose knob is on line `at`.
fn text_line(lines: &[String], at: usize) -> Option<usize> {
    let start = (0..=at).rev().find(|&i| matches!(classify(&lines[i]), Line::Card))?;
    (start..lines.len())
        .take_while(|&i| i == start || !matches!(classify(&lines[i]), Line::Card | Line::Ability))
        .find(|&i| matches!(classify(&lines[i]), Line::Pair("text", _)))
}

/// The `text` line with its string replaced, its indent and any comment after it kept.
fn rewrite_text_line(line: &str, text: &str) -> String {
    let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
    let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
    let tail = line.rfind('"').map_or("", |q| &line[q + 1..]);
    format!("{indent}text = \"{escaped}\"{tail}")
}

/// The printed text with one number changed from `old` to `new`: the number must stand alone
/// once in the text (no digit beside it), so the change is unambiguous; a printed value is never
/// in the text (None: the text is kept and the change flagged). Signs follow the new number:
/// "+6" becomes "+2", "-2" becomes "-3".
pub fn retext(text: &str, old: i64, new: i64, field: &str) -> Option<String> {
    if field == "value" {
        return Some(text.to_string());
    }
    let want = old.unsigned_abs().to_string();
    let bytes = text.as_bytes();
    let mut found = None;
    let mut i = 0;
    while let Some(off) = text[i..].find(&want) {
        let (s, e) = (i + off, i + off + want.len());
        let alone =
            (s == 0 || !bytes[s - 1].is_ascii_digit()) && (e == bytes.len() || !bytes[e].is_ascii_digit());
        // `S1`, `S9`: a slot's name, not an amount.
        let slot = s > 0 && bytes[s - 1] == b'S';
        if alone && !slot {
            if found.is_some() {
                return None;
            }
            found = Some((s, e));
        }
        i = e;
    }
    let (s, e) = found?;
    let signed = s > 0 && matches!(bytes[s - 1], b'+' | b'-');
    let start = if signed { s - 1 } else { s };
    let number = if signed {
        format!("{}{}", if new < 0 { '-' } else { '+' }, new.unsigned_abs())
    } else if (old < 0) == (new < 0) {
        new.unsigned_abs().to_string()
    } else {
        return None;
    };
    // "x 2 point(s)" style plurals stay as written; "1 point"/"2 points" are not guessed.
    Some(format!("{}{number}{}", &text[..start], &text[e..]))
}

/// `text` compiled with `edits` made: the edited set, or why the format refuses it.
#[cfg(test)]
fn compile(file: &str, text: &str, set: &CardSet, edits: &[Edit]) -> Result<(String, CardSet), String> {
    let (edited, _) = apply(text, set, edits);
    let compiled = cardfile::parse(file, &edited)?;
    Ok((edited, compiled))
}

/// The set in `text` as `warsim balance` reads it (`games::Balancing::sheet`).
pub fn sheet(file: &str, text: &str, values: bool) -> Result<crate::games::Sheet, String> {
    use crate::games::{Sheet, SheetDesign, SheetKnob};
    let set = cardfile::parse(file, text)?;
    let designs = set
        .designs
        .iter()
        .enumerate()
        .map(|(d, x)| SheetDesign {
            id: x.id.clone(),
            name: x.name.clone(),
            designer: x.designer.clone(),
            rarity: x.rarity.name(),
            value: x.value,
            text: x.text.clone(),
            has_text: !set.abilities_of(d as u16).is_empty(),
        })
        .collect();
    let knobs = knobs(text, &set, values)
        .into_iter()
        .map(|k| SheetKnob { design: k.design, name: k.name(), value: k.value, settings: k.settings() })
        .collect();
    Ok(Sheet { designs, knobs })
}

/// `text` with knob `k` (of `sheet`'s list) set to `v` for each `(k, v)`, compiled
/// (`games::Balancing::edit`).
pub fn edit(
    file: &str,
    text: &str,
    values: bool,
    edits: &[(usize, i64)],
) -> Result<(String, Vec<bool>), String> {
    let set = cardfile::parse(file, text)?;
    let all = knobs(text, &set, values);
    let edits: Vec<Edit> = edits
        .iter()
        .map(|&(k, to)| all.get(k).map(|knob| Edit { knob: knob.clone(), to }).ok_or("no such knob"))
        .collect::<Result<_, _>>()?;
    let (edited, said) = apply(text, &set, &edits);
    cardfile::parse(file, &edited)?;
    Ok((edited, said))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: &str = r#"format = "warsim-slots-cards"
version = 1
name = "t"

[[card]]
id = "a"
name = "A"
rarity = "common"
value = 5
text = "+6 while face up." # strong
designer = "X"
  [[card.ability]]
  on = "static"
  effect = "modify"
  target = "self"
  amount = 6

[[card]]
id = "b"
name = "B"
rarity = "common"
value = 5
text = "S2: +1."
designer = "Y"
  [[card.ability]]
  on = "static"
  effect = "modify"
  target = "self"
  amount = 1
"#;

    fn set() -> CardSet {
        cardfile::parse("t.toml", SET).expect("the test set compiles")
    }

    #[test]
    fn finds_each_abilitys_numbers_and_the_value_only_when_asked() {
        let s = set();
        let k = knobs(SET, &s, false);
        assert_eq!(
            k.iter().map(|k| (k.design, k.field, k.value)).collect::<Vec<_>>(),
            [(0, "amount", 6), (1, "amount", 1)]
        );
        assert_eq!(k[0].name(), "ability 1 amount");
        let with_values = knobs(SET, &s, true);
        assert_eq!(with_values.iter().filter(|k| k.field == "value").count(), 2);
    }

    #[test]
    fn settings_keep_the_sign_and_come_nearest_first() {
        let k = Knob { design: 0, ability: Some(0), field: "amount", value: 6, line: 0 };
        assert_eq!(k.settings(), [5, 7, 4, 8, 3, 9, 2, 1]);
        let neg = Knob { value: -2, ..k.clone() };
        assert!(neg.settings().iter().all(|&x| x < 0) && neg.settings()[0] == -3);
        let by = Knob { field: "by", value: 2, ..k };
        assert_eq!(by.settings()[0], 3);
    }

    #[test]
    fn an_edit_changes_the_number_and_the_text_and_keeps_the_rest() {
        let s = set();
        let k = knobs(SET, &s, false);
        let (edited, said) = apply(SET, &s, &[Edit { knob: k[0].clone(), to: 2 }]);
        assert_eq!(said, [true]);
        assert!(edited.contains("text = \"+2 while face up.\" # strong\n"), "{edited}");
        assert!(edited.contains("  amount = 2\n"));
        // The other design, the comment on the text line aside, is untouched.
        assert_eq!(edited.lines().count(), SET.lines().count());
        let (_, again) = compile("t.toml", SET, &s, &[Edit { knob: k[0].clone(), to: 2 }]).unwrap();
        assert_eq!(again.designs[0].text, "+2 while face up.");
    }

    #[test]
    fn two_edits_of_one_design_are_both_said_in_its_text() {
        let two = SET.replace("text = \"S2: +1.\"", "text = \"S2: +1, then +4.\"").replace(
            "  amount = 1\n",
            "  amount = 1\n  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = \"self\"\n  amount = 4\n",
        );
        let s = cardfile::parse("t.toml", &two).expect("the two-ability set compiles");
        let k = knobs(&two, &s, false);
        assert_eq!(k.iter().map(|k| (k.design, k.value)).collect::<Vec<_>>(), [(0, 6), (1, 1), (1, 4)]);
        let edits = [Edit { knob: k[1].clone(), to: 2 }, Edit { knob: k[2].clone(), to: 3 }];
        let (edited, said) = apply(&two, &s, &edits);
        assert_eq!(said, [true, true]);
        assert!(edited.contains("text = \"S2: +2, then +3.\""), "{edited}");
    }

    #[test]
    fn a_slot_name_is_not_the_amount() {
        assert_eq!(retext("S2: +1.", 1, 3, "amount").as_deref(), Some("S2: +3."));
        assert_eq!(retext("+1 and +1", 1, 3, "amount"), None);
        assert_eq!(retext("Gets 12 points", 1, 3, "amount"), None);
    }
}
