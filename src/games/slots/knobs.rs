//! The numbers printed on a card set's designs that `warsim balance` may turn (`docs/balance.md`):
//! each ability's `amount`, a `set`'s fixed `to` and a `multiply`'s `by`, (when asked) the
//! design's printed `value`, and the bounds an ability tests: the number of every comparison
//! (`value = ">=7"`, `if = [ { hand = ">=2" } ]`), of `turns` and `slots`, and a pick's `n`. The
//! set's text with some of them changed, each edited design's `text` rewritten to say so where a
//! plain number change can say it.
//!
//! The file is edited in place, so its order, ids, names and comments are kept. A knob is a number
//! written on one line of a `[[card]]` table (value) or a `[[card.ability]]` table (the others):
//! `amount = 2`, or a number inside the inline tables and arrays of a line such as
//! `target = { side = "opp", value = ">=7" }`; an edit rewrites that number alone. Numbers written
//! any other way (inline ability tables, an array spread over several lines) are not knobs; such a
//! design "needs a redesign" if it must change. A comparison keeps its operator and a range its
//! order. Every edited text is compiled again (`cardfile::parse`), so a setting the format does
//! not allow is never proposed.

use std::collections::HashMap;
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::cardfile::{self, Op};
use super::cardset::CardSet;

/// One turnable number of one design.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knob {
    /// The design's index in the set (file order).
    pub design: usize,
    /// The ability's index among the design's abilities (`None`: the printed value).
    pub ability: Option<usize>,
    /// What the number is, in the file's words after the ability: `amount`, `to`, `by`, `value`,
    /// `turns`, `if hand`, `target value`, `target slots from` (see `Knob::name`).
    pub field: String,
    /// The number as printed.
    pub value: i64,
    /// What it means: the settings it takes and how a card's text writes it.
    kind: Kind,
    /// Where it is written.
    at: Spot,
    /// A printed value's settings: the values of the same designer's other designs of its rarity,
    /// each taken by exchanging the two (so every designer's sheet keeps its values).
    swaps: Vec<Swap>,
}

/// A printed value another design holds: setting a value knob to it gives that design this one's.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Swap {
    value: i64,
    design: usize,
    at: Spot,
}

/// Where a knob's number is written: a byte range of one line (0-based) of the file, its sign
/// included.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Spot {
    line: usize,
    bytes: Range<usize>,
}

/// What a knob's number means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An effect's `amount`: a bonus stays a bonus, a malus a malus (±1-9).
    Amount,
    /// A `set`'s fixed `to`: a printed value 0-9.
    To,
    /// A `multiply`'s `by`: stays on its side of 1.
    By,
    /// The design's printed value, 1-9.
    Value,
    /// A bound an ability tests: a quantity within `lo..=hi` in a test whose operator stays.
    Bound { quantity: Quantity, test: Test },
}

/// A quantity a bound counts: its sensible range and how a card's text writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Quantity {
    lo: i64,
    hi: i64,
    written: Written,
}

/// Turns of a round: 1-9, said in timing tags (`[BT5]`, `[D4-D9]`).
const TURNS: Quantity = Quantity { lo: 1, hi: 9, written: Written::Turn };
/// Slot numbers: 1-9, said as slot names (`S7`, `S1-S4`).
const SLOTS: Quantity = Quantity { lo: 1, hi: 9, written: Written::Slot };
/// Printed values: 1-9.
const PRINTED: Quantity = Quantity { lo: 1, hi: 9, written: Written::Plain };
/// Current values: 0-9 (modifiers may take a card below or above, but the tests printed on
/// cards ask about this range).
const CURRENT: Quantity = Quantity { lo: 0, hi: 9, written: Written::Plain };
/// Cards in a hand (5 at the start of a round, one placed and one drawn each turn; draws add).
const HAND: Quantity = Quantity { lo: 0, hi: 9, written: Written::Plain };
/// Your hand size minus your opponent's.
const HAND_DIFF: Quantity = Quantity { lo: -4, hi: 4, written: Written::Plain };
/// Your points minus your opponent's this round so far.
const LEAD: Quantity = Quantity { lo: -5, hi: 5, written: Written::Plain };
/// Cards a `count` finds.
const COUNT: Quantity = Quantity { lo: 0, hi: 9, written: Written::Plain };
/// Cards a pick takes (`n`, 1-9 in the format).
const PICK: Quantity = Quantity { lo: 1, hi: 9, written: Written::Plain };

/// The test a bound's number is part of. Its operator is never changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    /// The one number of a comparison ("!=9", ">=3", 5); never `Op::Range`.
    Compare(Op),
    /// The low end of a range whose high end is this.
    From(i64),
    /// The high end of a range whose low end is this.
    Upto(i64),
}

/// How a card's text writes a knob's number, so that `retext` finds the right one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    /// Not in the text (the printed value).
    Nowhere,
    /// An amount, `+2` or `-1` or `2`: its sign follows the new number.
    Signed,
    /// A bound, `value 7 or more`, `3+ cards`: a number with no `+` before it.
    Plain,
    /// A slot's name: `S7`, `S1-S4`.
    Slot,
    /// A turn in a timing tag: `[BT5]`, `[D4-D9]` (after a capital other than S).
    Turn,
}

impl Kind {
    fn written(self) -> Written {
        match self {
            Kind::Amount | Kind::To | Kind::By => Written::Signed,
            Kind::Value => Written::Nowhere,
            Kind::Bound { quantity, .. } => quantity.written,
        }
    }

    /// The numbers this knob may be set to, its own among them.
    fn range(self, v: i64) -> std::ops::RangeInclusive<i64> {
        match self {
            Kind::Amount if v < 0 => -9..=-1,
            Kind::Amount => 1..=9,
            Kind::By if v > 1 => 2..=9,
            Kind::By => -9..=0,
            Kind::To => 0..=9,
            Kind::Value => 1..=9,
            // Within the quantity's range, never so that the test holds always or never there:
            // `>= lo` and `<= hi` always hold. A range stays a range of at least two.
            Kind::Bound { quantity: Quantity { lo, hi, .. }, test } => match test {
                Test::Compare(Op::Eq | Op::Ne | Op::Range) => lo..=hi,
                Test::Compare(Op::Lt | Op::Ge) => lo + 1..=hi,
                Test::Compare(Op::Le | Op::Gt) => lo..=hi - 1,
                Test::From(b) => lo.max(0)..=b - 1,
                Test::Upto(a) => a + 1..=hi,
            },
        }
    }
}

impl Knob {
    /// What the knob is, in the file's words: `ability 2 amount`, `ability 1 if hand`,
    /// `ability 1 target slots to`, `value`.
    pub fn name(&self) -> String {
        match self.ability {
            Some(a) => format!("ability {} {}", a + 1, self.field),
            None => self.field.clone(),
        }
    }

    /// The settings the format allows for this knob, other than its own, nearest first (ties:
    /// the lower first). An amount keeps its sign (a bonus stays a bonus); `by` keeps its side of
    /// 1; `to` and `value` stay in the printed values 0-9 and 1-9; a bound stays within its
    /// quantity's range (`Quantity`), keeps its test meaningful there (`>=` never at the bottom,
    /// `<=` never at the top) and a range's end never meets the other end.
    pub fn settings(&self) -> Vec<i64> {
        let v = self.value;
        let mut out: Vec<i64> = match self.kind {
            Kind::Value => self.swaps.iter().map(|w| w.value).filter(|&x| x != v).collect(),
            kind => kind.range(v).filter(|&x| x != v).collect(),
        };
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

/// The byte range of the integer a `key = ...` line holds (a comment may follow), or None when
/// it holds anything else.
fn integer(line: &str) -> Option<Range<usize>> {
    let eq = line.find('=')?;
    let body = line[eq + 1..].split('#').next()?;
    let start = eq + 1 + (body.len() - body.trim_start().len());
    let digits = body.trim();
    cardfile::decimal(digits)?;
    Some(start..start + digits.len())
}

/// The ability keys whose value may hold bounds.
const BOUND_KEYS: &[&str] = &["turns", "if", "target", "a", "b", "per", "watch", "bottom"];

/// A bound found on a line: its name after the ability, number, meaning and bytes on the line.
struct Found {
    field: String,
    value: i64,
    quantity: Quantity,
    test: Test,
    bytes: Range<usize>,
}

/// Every bound on the ability line `line` (parsed alone: one that is not a whole TOML line, as
/// the first line of an array spread over several, has none), in the order written.
fn bounds(line: &str) -> Vec<Found> {
    let mut out = Vec::new();
    let Ok(doc) = DeTable::parse(line) else { return out };
    for (k, v) in doc.get_ref().iter() {
        let key: &str = k.get_ref();
        match key {
            "turns" => number(line, v, key, TURNS, &mut out),
            "bottom" => number(line, v, key, PRINTED, &mut out),
            "target" | "a" | "b" | "per" | "watch" => selector(line, v, key, &mut out),
            "if" => conditions(line, v, &mut out),
            _ => {}
        }
    }
    out.sort_by_key(|f| f.bytes.start);
    out
}

/// The bounds of a selector table: `slots`, `printed`, `value` and `n`.
fn selector(line: &str, v: &Spanned<DeValue>, name: &str, out: &mut Vec<Found>) {
    let DeValue::Table(t) = v.get_ref() else { return };
    for (k, x) in t.iter() {
        let key: &str = k.get_ref();
        let quantity = match key {
            "slots" => SLOTS,
            "printed" => PRINTED,
            "value" => CURRENT,
            "n" => PICK,
            _ => continue,
        };
        number(line, x, &format!("{name} {key}"), quantity, out);
    }
}

/// The bounds of an `if` list: `if hand`, `if count is`, `if count printed`; numbered (`if 2
/// lead`) when the list holds more than one condition.
fn conditions(line: &str, v: &Spanned<DeValue>, out: &mut Vec<Found>) {
    let DeValue::Array(list) = v.get_ref() else { return };
    for (j, c) in list.iter().enumerate() {
        let DeValue::Table(t) = c.get_ref() else { continue };
        let name = if list.len() > 1 { format!("if {}", j + 1) } else { "if".to_string() };
        for (k, x) in t.iter() {
            let key: &str = k.get_ref();
            let quantity = match key {
                "slot" => SLOTS,
                "oc_printed" => PRINTED,
                "oc_value" | "self_value" => CURRENT,
                "hand" => HAND,
                "hand_diff" => HAND_DIFF,
                "lead" => LEAD,
                "is" => COUNT,
                "count" => {
                    selector(line, x, &format!("{name} count"), out);
                    continue;
                }
                _ => continue,
            };
            let field = if key == "is" { format!("{name} count is") } else { format!("{name} {key}") };
            number(line, x, &field, quantity, out);
        }
    }
}

/// The numbers of a comparison, slot range or count `v` (an integer or a string without
/// escapes), named `name`.
fn number(line: &str, v: &Spanned<DeValue>, name: &str, quantity: Quantity, out: &mut Vec<Found>) {
    let span = v.span();
    let Some(raw) = line.get(span.clone()) else { return };
    let found = match v.get_ref() {
        DeValue::Integer(_) => {
            cardfile::decimal(raw).map(|n| (Test::Compare(Op::Eq), vec![(n, 0..raw.len())]))
        }
        DeValue::String(_) => {
            let quoted = raw.len() >= 2
                && (raw.starts_with('"') && raw.ends_with('"')
                    || raw.starts_with('\'') && raw.ends_with('\''))
                && !raw[1..].starts_with(['"', '\''])
                && !raw.contains('\\');
            if !quoted {
                return;
            }
            cardfile::written_comparison(&raw[1..raw.len() - 1]).map(|(op, ns)| {
                (test(op, &ns), ns.into_iter().map(|(n, r)| (n, r.start + 1..r.end + 1)).collect())
            })
        }
        _ => None,
    };
    let Some((test, numbers)): Option<(Test, Vec<cardfile::Written>)> = found else { return };
    let shift = |r: Range<usize>| span.start + r.start..span.start + r.end;
    match numbers[..] {
        [(n, ref r)] => {
            out.push(Found { field: name.to_string(), value: n, quantity, test, bytes: shift(r.clone()) })
        }
        [(a, ref ra), (b, ref rb)] => {
            out.push(Found {
                field: format!("{name} from"),
                value: a,
                quantity,
                test: Test::From(b),
                bytes: shift(ra.clone()),
            });
            out.push(Found {
                field: format!("{name} to"),
                value: b,
                quantity,
                test: Test::Upto(a),
                bytes: shift(rb.clone()),
            });
        }
        _ => {}
    }
}

/// What a comparison's number means to its knob: a range's low end keeps below its high end.
fn test(op: Op, numbers: &[cardfile::Written]) -> Test {
    match op {
        Op::Range => Test::From(numbers.last().map_or(0, |n| n.0)),
        op => Test::Compare(op),
    }
}

/// Every knob of `text` (a card-set file `set` was compiled from), design by design in file
/// order; within a design its `amount`, `to`, `by` (and `value`, with `values`) lines first, then
/// its bounds, each in the order written. A design whose `[[card]]` table the scan cannot match
/// with `set` (another order, ids written another way) has no knobs.
pub fn knobs(text: &str, set: &CardSet, values: bool) -> Vec<Knob> {
    let mut out = Vec::new();
    let mut design: Option<usize> = None;
    let mut ability: Option<usize> = None;
    let mut cards = 0usize;
    let mut pending: Vec<Knob> = Vec::new();
    let mut extra: Vec<Knob> = Vec::new();
    let mut id_ok = false;
    let flush = |pending: &mut Vec<Knob>, extra: &mut Vec<Knob>, id_ok: bool, out: &mut Vec<Knob>| {
        if id_ok {
            out.append(pending);
            out.append(extra);
        }
        pending.clear();
        extra.clear();
    };
    for (i, line) in text.lines().enumerate() {
        match classify(line) {
            Line::Card => {
                flush(&mut pending, &mut extra, id_ok, &mut out);
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
                if ability.is_some() && BOUND_KEYS.contains(&key) {
                    extra.extend(bounds(line).into_iter().map(|f| Knob {
                        design: d,
                        ability,
                        field: f.field,
                        value: f.value,
                        kind: Kind::Bound { quantity: f.quantity, test: f.test },
                        at: Spot { line: i, bytes: f.bytes },
                        swaps: Vec::new(),
                    }));
                    continue;
                }
                let kind = match (key, ability) {
                    ("value", None) if values => Kind::Value,
                    ("amount", Some(_)) => Kind::Amount,
                    ("to", Some(_)) => Kind::To,
                    ("by", Some(_)) => Kind::By,
                    _ => continue,
                };
                if let Some(bytes) = integer(line) {
                    let value = cardfile::decimal(&line[bytes.clone()]).expect("integer() read a decimal");
                    let at = Spot { line: i, bytes };
                    let (field, swaps) = (key.to_string(), Vec::new());
                    pending.push(Knob { design: d, ability, field, value, kind, at, swaps });
                }
            }
            Line::Other => {}
        }
    }
    flush(&mut pending, &mut extra, id_ok, &mut out);
    let values: Vec<(usize, i64, Spot)> =
        out.iter().filter(|k| k.kind == Kind::Value).map(|k| (k.design, k.value, k.at.clone())).collect();
    for k in out.iter_mut().filter(|k| k.kind == Kind::Value) {
        let (me, v) = (&set.designs[k.design], k.value);
        k.swaps = values
            .iter()
            .filter(|&&(e, w, _)| {
                let other = &set.designs[e];
                e != k.design && w != v && other.designer == me.designer && other.rarity == me.rarity
            })
            .map(|(e, w, at)| Swap { value: *w, design: *e, at: at.clone() })
            .collect();
    }
    out
}

/// One knob turned to a new setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub knob: Knob,
    pub to: i64,
}

/// `text` with `edits` made (each a different knob), each edited design's `text` line rewritten
/// where the number change can be said in it (`retext`); and, per edit, whether its text was
/// rewritten. Several edits of one design are said one after the other, each in the text the one
/// before it left.
pub fn apply(text: &str, set: &CardSet, edits: &[Edit]) -> (String, Vec<bool>) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The numbers, right to left on each line, so that a replacement moves no other's bytes; a
    // printed value exchanged writes the other design's too.
    let mut order: Vec<(&Spot, i64)> = Vec::new();
    for e in edits {
        order.push((&e.knob.at, e.to));
        order.extend(e.knob.swaps.iter().filter(|w| w.value == e.to).map(|w| (&w.at, e.knob.value)));
    }
    order.sort_by_key(|(at, _)| (at.line, std::cmp::Reverse(at.bytes.start)));
    for (at, to) in order {
        lines[at.line].replace_range(at.bytes.clone(), &to.to_string());
    }
    let mut texts: HashMap<usize, String> = HashMap::new();
    let mut said = Vec::with_capacity(edits.len());
    for e in edits {
        said.push(text_line(&lines, e.knob.at.line).is_some_and(|t| {
            let d = &set.designs[e.knob.design];
            let now = texts.get(&e.knob.design).unwrap_or(&d.text);
            match retext(now, e.knob.value, e.to, e.knob.kind.written()) {
                Some(new) if new.chars().count() <= d.rarity.text_limit() => {
                    lines[t] = rewrite_text_line(&lines[t], &new);
                    texts.insert(e.knob.design, new);
                    true
                }
                _ => false,
            }
        }));
    }
    // The file's own line endings: a set saved with CRLF stays CRLF (`lines` drops the `\r`).
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = lines.join(eol);
    if text.ends_with('\n') {
        out.push_str(eol);
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

impl Written {
    /// Whether the number at `s..` of `text` (standing alone) is written this way, for a knob of
    /// value `old`.
    fn reads(self, text: &[u8], s: usize, old: i64) -> bool {
        let before = s.checked_sub(1).map(|i| text[i]);
        let capital = before.is_some_and(|c| c.is_ascii_uppercase());
        match self {
            Written::Nowhere => false,
            // `S2: +1.`: the 2 names a slot, the 1 is the amount.
            Written::Signed => !capital,
            Written::Slot => before == Some(b'S'),
            Written::Turn => capital && before != Some(b'S'),
            Written::Plain => {
                // A minus after a digit joins a range ("2-4"); otherwise it is a sign.
                let minus = before == Some(b'-');
                let joins = minus && s >= 2 && text[s - 2].is_ascii_digit();
                let sign = minus && !joins;
                !capital && before != Some(b'+') && sign == (old < 0)
            }
        }
    }
}

/// The nouns whose plural `retext` makes agree with a changed number ("1 point", "2 points").
const NOUNS: &[&str] = &["point", "card", "counter", "pt", "slot", "turn", "time"];

/// The printed text with one number changed from `old` to `new`: the number must stand alone once
/// in the text (no digit beside it), written as `written` says (a slot's name for a slot, a
/// timing tag for a turn, otherwise neither), so the change is unambiguous; a printed value is
/// never in the text (None: the text is kept and the change flagged). Signs of amounts follow the
/// new number: "+6" becomes "+2", "-2" becomes "-3". A plain noun right after the number agrees
/// with it ("+1 point" becomes "+3 points"); "point(s)" stays as written, and so does the noun
/// after an article ("a -1 counter" is one counter of that size).
fn retext(text: &str, old: i64, new: i64, written: Written) -> Option<String> {
    if written == Written::Nowhere {
        return Some(text.to_string());
    }
    let want = old.unsigned_abs().to_string();
    let bytes = text.as_bytes();
    let mut found = None;
    let mut i = 0;
    while let Some(off) = text[i..].find(&want) {
        let (s, e) = (i + off, i + off + want.len());
        i = e;
        let alone =
            (s == 0 || !bytes[s - 1].is_ascii_digit()) && (e == bytes.len() || !bytes[e].is_ascii_digit());
        if alone && written.reads(bytes, s, old) {
            if found.is_some() {
                return None;
            }
            found = Some((s, e));
        }
    }
    let (s, e) = found?;
    let signed = s > 0 && matches!(bytes[s - 1], b'+' | b'-');
    let (start, number) = match written {
        Written::Signed if signed => {
            (s - 1, format!("{}{}", if new < 0 { '-' } else { '+' }, new.unsigned_abs()))
        }
        Written::Signed if (old < 0) != (new < 0) => return None,
        Written::Signed => (s, new.unsigned_abs().to_string()),
        Written::Plain if old < 0 => (s - 1, new.to_string()),
        _ => (s, new.to_string()),
    };
    // "a -2 counter": one counter of that size; the article keeps the noun singular.
    let before = text[..start].to_ascii_lowercase();
    let article = [" a ", " an "].iter().any(|a| format!(" {before}").ends_with(a));
    let tail = if article { text[e..].to_string() } else { agree(&text[e..], old, new) };
    Some(format!("{}{number}{tail}", &text[..start]))
}

/// `rest` (the text after a changed number) with the noun right after the number made singular
/// or plural to agree with `new` when `old` and `new` differ in that.
fn agree(rest: &str, old: i64, new: i64) -> String {
    let one = |n: i64| n.unsigned_abs() == 1;
    if one(old) == one(new) {
        return rest.to_string();
    }
    let Some(after) = rest.strip_prefix(' ') else { return rest.to_string() };
    let len = after.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (word, tail) = after.split_at(len);
    // "point(s)" says both already.
    if tail.starts_with('(') {
        return rest.to_string();
    }
    let fixed = if one(new) {
        word.strip_suffix('s').filter(|w| NOUNS.contains(w)).map(str::to_string)
    } else {
        NOUNS.contains(&word).then(|| format!("{word}s"))
    };
    match fixed {
        Some(w) => format!(" {w}{tail}"),
        None => rest.to_string(),
    }
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
    let knobs = knobs(text, &set, values).into_iter().collect::<Vec<Knob>>();
    // A value's exchange names the other design's value knob, whose number changes with it.
    let value_knob = |e: usize| knobs.iter().position(|k| k.kind == Kind::Value && k.design == e);
    let knobs = knobs
        .iter()
        .map(|k| SheetKnob {
            design: k.design,
            name: k.name(),
            value: k.value,
            settings: k.settings(),
            swaps: k.swaps.iter().filter_map(|w| Some((w.value, value_knob(w.design)?))).collect(),
        })
        .collect();
    Ok(Sheet { designs, knobs })
}

/// `text` with knob `k` (of `sheet`'s list) set to `v` for each `(k, v)`, compiled
/// (`games::Balancing::edit`). A knob named twice is refused.
pub fn edit(
    file: &str,
    text: &str,
    values: bool,
    edits: &[(usize, i64)],
) -> Result<(String, Vec<bool>), String> {
    let set = cardfile::parse(file, text)?;
    let all = knobs(text, &set, values);
    // A knob is one number: edited once, whether by itself or by an exchange of values.
    let touched = |&(k, to): &(usize, i64)| {
        let swapped = all.get(k).and_then(|x| x.swaps.iter().find(|w| w.value == to));
        std::iter::once(all.get(k).map(|x| x.at.clone())).chain(swapped.map(|w| Some(w.at.clone())))
    };
    let spots: Vec<Option<Spot>> = edits.iter().flat_map(touched).collect();
    for (i, at) in spots.iter().enumerate() {
        if at.is_some() && spots[..i].contains(at) {
            return Err("a number is edited twice".into());
        }
    }
    if ends_meet(&all, edits) {
        return Err("a range's two ends would meet".into());
    }
    let edits: Vec<Edit> = edits
        .iter()
        .map(|&(k, to)| all.get(k).map(|knob| Edit { knob: knob.clone(), to }).ok_or("no such knob"))
        .collect::<Result<_, _>>()?;
    let (edited, said) = apply(text, &set, &edits);
    cardfile::parse(file, &edited)?;
    Ok((edited, said))
}

/// Whether `edits` turn both ends of one range until they meet: each end's settings keep it on
/// its side of the other end as printed, but the two turned together (a second race on top of a
/// first) could make "S8-S8" of "S4-S9", a range of one.
fn ends_meet(all: &[Knob], edits: &[(usize, i64)]) -> bool {
    let now = |k: usize| edits.iter().find(|e| e.0 == k).map(|e| e.1);
    edits.iter().any(|&(k, from)| {
        let Some(Kind::Bound { test: Test::From(to), .. }) = all.get(k).map(|x| x.kind) else { return false };
        // A range's high end is the knob found right after its low end.
        from >= now(k + 1).unwrap_or(to)
    })
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

    /// One design of each kind of bound.
    const BOUNDS: &str = r#"format = "warsim-slots-cards"
version = 1
name = "bounds"

[[card]]
id = "hider"
name = "Hider"
rarity = "uncommon"
value = 4
text = "[SSCORE]: Hide every opp. card of value 7 or more."
  [[card.ability]]
  on = "score_start"
  effect = "hide"
  target = { side = "opp", value = ">=7" }  # the tall ones

[[card]]
id = "drawer"
name = "Drawer"
rarity = "common"
value = 3
text = "[BT5]: Draw a card."
  [[card.ability]]
  on = "turn_start"
  turns = 5
  effect = "draw"

[[card]]
id = "hoarder"
name = "Hoarder"
rarity = "uncommon"
value = 6
text = "[D4-D9]: +1 point if you hold 2 or more cards."
  [[card.ability]]
  on = "after_draw"
  turns = "4-9"
  if = [ { hand = ">=2" } ]
  effect = "points"
  amount = 1

[[card]]
id = "early"
name = "Early"
rarity = "uncommon"
value = 2
text = "[SSCORE]: Your cards in S1-S4 get +1."
  [[card.ability]]
  on = "score_start"
  effect = "modify"
  target = { side = "you", slots = "1-4" }
  amount = 1

[[card]]
id = "leader"
name = "Leader"
rarity = "rare"
value = 7
text = "If you lead: a -1 counter on 3 random opp. cards with 2+ of theirs printed 5."
  [[card.ability]]
  if = [ { lead = ">0" }, { count = { side = "opp", printed = 5 }, is = ">=2" } ]
  effect = "counter"
  target = { side = "opp", pick = "random", n = 3 }
  amount = -1
"#;

    fn bounds_set() -> CardSet {
        cardfile::parse("bounds.toml", BOUNDS).expect("the bounds set compiles")
    }

    /// The knob named `name` of design `design`.
    fn knob(all: &[Knob], design: usize, name: &str) -> (usize, Knob) {
        let i = all.iter().position(|k| k.design == design && k.name() == name).expect(name);
        (i, all[i].clone())
    }

    #[test]
    fn finds_each_abilitys_numbers_and_the_value_only_when_asked() {
        let s = set();
        let k = knobs(SET, &s, false);
        assert_eq!(
            k.iter().map(|k| (k.design, k.field.as_str(), k.value)).collect::<Vec<_>>(),
            [(0, "amount", 6), (1, "amount", 1)]
        );
        assert_eq!(k[0].name(), "ability 1 amount");
        let with_values = knobs(SET, &s, true);
        assert_eq!(with_values.iter().filter(|k| k.field == "value").count(), 2);
    }

    /// Designer X's commons 3 and 7, designer Y's common 3.
    const SHEET: &str = r#"format = "warsim-slots-cards"
version = 1
name = "t"

[[card]]
id = "x3"
name = "X3"
rarity = "common"
value = 3
text = "+2 while face up."
designer = "X"
  [[card.ability]]
  on = "static"
  effect = "modify"
  target = "self"
  amount = 2

[[card]]
id = "x7"
name = "X7"
rarity = "common"
value = 7 # kept
text = "+1 while face up."
designer = "X"
  [[card.ability]]
  on = "static"
  effect = "modify"
  target = "self"
  amount = 1

[[card]]
id = "y3"
name = "Y3"
rarity = "common"
value = 3
text = "+1 while face up."
designer = "Y"
  [[card.ability]]
  on = "static"
  effect = "modify"
  target = "self"
  amount = 1
"#;

    #[test]
    fn a_printed_value_is_exchanged_within_its_designers_rarity_so_each_sheet_keeps_its_values() {
        let read = sheet("t.toml", SHEET, true).unwrap();
        type Seen<'a> = (usize, &'a str, i64, Vec<i64>, Vec<(i64, usize)>);
        let values: Vec<Seen> = read
            .knobs
            .iter()
            .filter(|k| k.name == "value")
            .map(|k| (k.design, k.name.as_str(), k.value, k.settings.clone(), k.swaps.clone()))
            .collect();
        // Knobs: x3 value (0), x3 amount (1), x7 value (2), x7 amount (3), y3 value (4), y3 amount.
        assert_eq!(
            values,
            [
                (0, "value", 3, vec![7], vec![(7, 2)]),
                (1, "value", 7, vec![3], vec![(3, 0)]),
                (2, "value", 3, vec![], vec![]),
            ]
        );
        let (edited, said) = edit("t.toml", SHEET, true, &[(0, 7)]).unwrap();
        assert_eq!(said, [true]);
        let differ: Vec<(&str, &str)> = SHEET.lines().zip(edited.lines()).filter(|(a, b)| a != b).collect();
        assert_eq!(differ, [("value = 3", "value = 7"), ("value = 7 # kept", "value = 3 # kept")]);
        // Both sides of one exchange named as edits is one number edited twice.
        assert!(edit("t.toml", SHEET, true, &[(0, 7), (2, 3)]).is_err());
        // An exchange and another number of the other design are two numbers.
        assert!(edit("t.toml", SHEET, true, &[(0, 7), (3, 2)]).is_ok());
        // Without values, no value knob.
        assert!(sheet("t.toml", SHEET, false).unwrap().knobs.iter().all(|k| k.name != "value"));
    }

    #[test]
    fn settings_keep_the_sign_and_come_nearest_first() {
        let at = Spot { line: 0, bytes: 0..1 };
        let k = Knob {
            design: 0,
            ability: Some(0),
            field: "amount".into(),
            value: 6,
            kind: Kind::Amount,
            at,
            swaps: vec![],
        };
        assert_eq!(k.settings(), [5, 7, 4, 8, 3, 9, 2, 1]);
        let neg = Knob { value: -2, ..k.clone() };
        assert!(neg.settings().iter().all(|&x| x < 0) && neg.settings()[0] == -3);
        let by = Knob { field: "by".into(), value: 2, kind: Kind::By, ..k };
        assert_eq!(by.settings()[0], 3);
    }

    #[test]
    fn finds_every_bound_with_its_name_value_and_settings_after_the_amounts() {
        let s = bounds_set();
        let all = knobs(BOUNDS, &s, false);
        let got: Vec<(usize, String, i64, Vec<i64>)> =
            all.iter().map(|k| (k.design, k.name(), k.value, k.settings())).collect();
        let want: Vec<(usize, &str, i64, Vec<i64>)> = vec![
            // `>=7` of a current value (0-9): never `>=0`, which always holds.
            (0, "ability 1 target value", 7, vec![6, 8, 5, 9, 4, 3, 2, 1]),
            (1, "ability 1 turns", 5, vec![4, 6, 3, 7, 2, 8, 1, 9]),
            // The amount first, then the bounds in the order written.
            (2, "ability 1 amount", 1, vec![2, 3, 4, 5, 6, 7, 8, 9]),
            (2, "ability 1 turns from", 4, vec![3, 5, 2, 6, 1, 7, 8]),
            (2, "ability 1 turns to", 9, vec![8, 7, 6, 5]),
            (2, "ability 1 if hand", 2, vec![1, 3, 4, 5, 6, 7, 8, 9]),
            (3, "ability 1 amount", 1, vec![2, 3, 4, 5, 6, 7, 8, 9]),
            (3, "ability 1 target slots from", 1, vec![2, 3]),
            (3, "ability 1 target slots to", 4, vec![3, 5, 2, 6, 7, 8, 9]),
            (4, "ability 1 amount", -1, vec![-2, -3, -4, -5, -6, -7, -8, -9]),
            // A lead (-5 to 5) `> 0`: never `> 5`, which never holds.
            (4, "ability 1 if 1 lead", 0, vec![-1, 1, -2, 2, -3, 3, -4, 4, -5]),
            (4, "ability 1 if 2 count printed", 5, vec![4, 6, 3, 7, 2, 8, 1, 9]),
            (4, "ability 1 if 2 count is", 2, vec![1, 3, 4, 5, 6, 7, 8, 9]),
            (4, "ability 1 target n", 3, vec![2, 4, 1, 5, 6, 7, 8, 9]),
        ];
        let want: Vec<(usize, String, i64, Vec<i64>)> =
            want.into_iter().map(|(d, n, v, s)| (d, n.to_string(), v, s)).collect();
        assert_eq!(got, want);
        // The same text gives the same list.
        assert_eq!(knobs(BOUNDS, &s, false), all);
    }

    /// The lines of `a` and `b` that differ, as (line number, line of b).
    fn changed(a: &str, b: &str) -> Vec<(usize, String)> {
        assert_eq!(a.lines().count(), b.lines().count());
        a.lines()
            .zip(b.lines())
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(i, (_, y))| (i, y.to_string()))
            .collect()
    }

    #[test]
    fn an_edit_of_a_bound_changes_that_number_in_place_and_says_it() {
        let s = bounds_set();
        let all = knobs(BOUNDS, &s, false);
        let cases = [
            (
                0,
                "ability 1 target value",
                9,
                "  target = { side = \"opp\", value = \">=9\" }  # the tall ones",
                "[SSCORE]: Hide every opp. card of value 9 or more.",
            ),
            (1, "ability 1 turns", 7, "  turns = 7", "[BT7]: Draw a card."),
            (
                2,
                "ability 1 turns from",
                6,
                "  turns = \"6-9\"",
                "[D6-D9]: +1 point if you hold 2 or more cards.",
            ),
            (
                2,
                "ability 1 turns to",
                8,
                "  turns = \"4-8\"",
                "[D4-D8]: +1 point if you hold 2 or more cards.",
            ),
            (
                2,
                "ability 1 if hand",
                4,
                "  if = [ { hand = \">=4\" } ]",
                "[D4-D9]: +1 point if you hold 4 or more cards.",
            ),
            (
                3,
                "ability 1 target slots to",
                3,
                "  target = { side = \"you\", slots = \"1-3\" }",
                "[SSCORE]: Your cards in S1-S3 get +1.",
            ),
            (
                3,
                "ability 1 target slots from",
                2,
                "  target = { side = \"you\", slots = \"2-4\" }",
                "[SSCORE]: Your cards in S2-S4 get +1.",
            ),
            (
                4,
                "ability 1 target n",
                2,
                "  target = { side = \"opp\", pick = \"random\", n = 2 }",
                "If you lead: a -1 counter on 2 random opp. cards with 2+ of theirs printed 5.",
            ),
            (
                4,
                "ability 1 if 2 count printed",
                6,
                "  if = [ { lead = \">0\" }, { count = { side = \"opp\", printed = 6 }, is = \">=2\" } ]",
                "If you lead: a -1 counter on 3 random opp. cards with 2+ of theirs printed 6.",
            ),
        ];
        for (design, name, to, line, text) in cases {
            let (k, _) = knob(&all, design, name);
            let (edited, said) = edit("bounds.toml", BOUNDS, false, &[(k, to)]).expect(name);
            assert_eq!(said, [true], "{name}");
            let again = cardfile::parse("bounds.toml", &edited).unwrap();
            assert_eq!(again.designs[design].text, text, "{name}");
            // Exactly two lines change: the number's and the text's.
            let lines = changed(BOUNDS, &edited);
            assert_eq!(lines.len(), 2, "{name}: {lines:?}");
            assert_eq!(lines[1].1, line, "{name}");
            // The edited number is read back as the knob's new value.
            let now = knobs(&edited, &again, false);
            assert_eq!(now[k].value, to, "{name}");
        }
    }

    #[test]
    fn a_bound_that_cannot_be_said_alone_is_flagged() {
        let s = bounds_set();
        let all = knobs(BOUNDS, &s, false);
        // `> 0`: "If you lead" has no 0 in it.
        let (k, _) = knob(&all, 4, "ability 1 if 1 lead");
        let (edited, said) = edit("bounds.toml", BOUNDS, false, &[(k, 1)]).unwrap();
        assert_eq!(said, [false]);
        assert!(edited.contains("{ lead = \">1\" }"));
        // `is >= 2` where "2+" ... stands once, but the amount's "-1" is a sign, not a bound.
        let (k, _) = knob(&all, 4, "ability 1 if 2 count is");
        let (_, said) = edit("bounds.toml", BOUNDS, false, &[(k, 3)]).unwrap();
        assert_eq!(said, [true]);
        assert_eq!(
            retext("+2 point(s) if you hold 2 or more cards.", 2, 3, Written::Plain).as_deref(),
            Some("+2 point(s) if you hold 3 or more cards.")
        );
        assert_eq!(retext("Value 2 or 2.", 2, 3, Written::Plain), None);
    }

    #[test]
    fn every_setting_proposed_compiles_and_a_range_stays_ordered() {
        let s = bounds_set();
        let all = knobs(BOUNDS, &s, false);
        for (i, k) in all.iter().enumerate() {
            for &to in &k.settings() {
                edit("bounds.toml", BOUNDS, false, &[(i, to)])
                    .unwrap_or_else(|e| panic!("{} = {to}: {e}", k.name()));
            }
        }
        let (from, f) = knob(&all, 2, "ability 1 turns from");
        let (upto, u) = knob(&all, 2, "ability 1 turns to");
        assert!(f.settings().iter().all(|&x| x < u.value) && u.settings().iter().all(|&x| x > f.value));
        // What the format refuses, and the settings leave out: a range out of order, a turn 10.
        assert!(edit("bounds.toml", BOUNDS, false, &[(upto, 5), (from, 7)]).is_err());
        assert!(edit("bounds.toml", BOUNDS, false, &[(upto, 10)]).is_err());
        // Both ends at once, in order, are one edit each.
        let (edited, said) = edit("bounds.toml", BOUNDS, false, &[(upto, 8), (from, 2)]).unwrap();
        assert_eq!(said, [true, true]);
        assert!(edited.contains("  turns = \"2-8\"\n") && edited.contains("[D2-D8]"), "{edited}");
        assert!(edit("bounds.toml", BOUNDS, false, &[(from, 2), (from, 3)]).is_err());
        // Each end within its settings, but together a range of one: no candidate.
        let meet = edit("bounds.toml", BOUNDS, false, &[(from, 6), (upto, 6)]);
        assert_eq!(meet.unwrap_err(), "a range's two ends would meet");
        assert!(edit("bounds.toml", BOUNDS, false, &[(upto, 7), (from, 6)]).is_ok());
    }

    #[test]
    fn a_set_saved_with_crlf_keeps_its_line_endings() {
        let crlf = SET.replace('\n', "\r\n");
        let s = cardfile::parse("t.toml", &crlf).expect("the CRLF set compiles");
        let k = knobs(&crlf, &s, false);
        let (edited, said) = apply(&crlf, &s, &[Edit { knob: k[0].clone(), to: 2 }]);
        assert_eq!(said, [true]);
        assert_eq!(edited.matches("\r\n").count(), crlf.matches("\r\n").count());
        assert!(!edited.replace("\r\n", "").contains('\n'), "a bare LF crept in");
        assert_eq!(
            edited.replace("\r\n", "\n"),
            apply(SET, &set(), &[Edit { knob: knobs(SET, &set(), false)[0].clone(), to: 2 }]).0
        );
    }

    #[test]
    fn several_edits_of_one_design_are_all_said() {
        let s = bounds_set();
        let all = knobs(BOUNDS, &s, false);
        let (amount, _) = knob(&all, 2, "ability 1 amount");
        let (hand, _) = knob(&all, 2, "ability 1 if hand");
        let (edited, said) = edit("bounds.toml", BOUNDS, false, &[(amount, 3), (hand, 3)]).unwrap();
        assert_eq!(said, [true, true]);
        let again = cardfile::parse("bounds.toml", &edited).unwrap();
        assert_eq!(again.designs[2].text, "[D4-D9]: +3 points if you hold 3 or more cards.");
    }

    #[test]
    fn a_noun_after_a_changed_number_agrees_with_it() {
        let say = |t: &str, old, new| retext(t, old, new, Written::Signed);
        assert_eq!(
            say("+1 point if your hand is bigger.", 1, 5).as_deref(),
            Some("+5 points if your hand is bigger.")
        );
        assert_eq!(say("Draw 2 cards.", 2, 1).as_deref(), Some("Draw 1 card."));
        assert_eq!(say("OC gets a -1 counter.", -1, -2).as_deref(), Some("OC gets a -2 counter."));
        assert_eq!(say("Put -1 counter on it.", -1, -2).as_deref(), Some("Put -2 counters on it."));
        assert_eq!(say("+2 counters", 2, 3).as_deref(), Some("+3 counters"));
        // "point(s)" says both; an unknown word is left alone.
        assert_eq!(say("+1 point(s) if you lead.", 1, 3).as_deref(), Some("+3 point(s) if you lead."));
        assert_eq!(say("Put 1 random card.", 1, 3).as_deref(), Some("Put 3 random card."));
        assert_eq!(retext("Hold 2+ cards", 2, 1, Written::Plain).as_deref(), Some("Hold 1+ cards"));
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
    fn a_slot_name_is_said_only_for_a_slot_and_a_timing_tag_only_for_a_turn() {
        let amount = |t: &str, old, new| retext(t, old, new, Written::Signed);
        assert_eq!(amount("S2: +1.", 1, 3).as_deref(), Some("S2: +3."));
        assert_eq!(amount("+1 and +1", 1, 3), None);
        assert_eq!(amount("Gets 12 points", 1, 3), None);
        assert_eq!(amount("[BT5]: +5.", 5, 3).as_deref(), Some("[BT5]: +3."));
        let text = "[SSCORE]: Your cards in S1-S4 get +1.";
        assert_eq!(
            retext(text, 1, 2, Written::Slot).as_deref(),
            Some("[SSCORE]: Your cards in S2-S4 get +1.")
        );
        assert_eq!(
            retext(text, 4, 3, Written::Slot).as_deref(),
            Some("[SSCORE]: Your cards in S1-S3 get +1.")
        );
        assert_eq!(amount(text, 1, 2).as_deref(), Some("[SSCORE]: Your cards in S1-S4 get +2."));
        assert_eq!(
            retext("[BT6-BT9]: S6 gets +6.", 6, 7, Written::Turn).as_deref(),
            Some("[BT7-BT9]: S6 gets +6.")
        );
        assert_eq!(
            retext("[BT6-BT9]: S6 gets +6.", 6, 7, Written::Slot).as_deref(),
            Some("[BT6-BT9]: S7 gets +6.")
        );
        assert_eq!(retext("S3 or S3", 3, 4, Written::Slot), None);
        // The printed value is not in the text.
        assert_eq!(retext("S3", 3, 4, Written::Nowhere).as_deref(), Some("S3"));
    }

    #[test]
    fn an_array_over_several_lines_has_no_bound() {
        let text = BOUNDS.replace("  if = [ { hand = \">=2\" } ]", "  if = [\n    { hand = \">=2\" },\n  ]");
        let s = cardfile::parse("bounds.toml", &text).unwrap();
        let all = knobs(&text, &s, false);
        assert!(all.iter().all(|k| k.name() != "ability 1 if hand"));
        assert!(all.iter().any(|k| k.design == 2 && k.name() == "ability 1 turns to"));
    }
}
