//! A card set spelled back for its designers (`warsim cards FILE`): each design's abilities as one
//! plain sentence each, the abilities that can never act, the numbers of a text its abilities do
//! not use, and a table of designs per rarity and value. Reads the compiled set only: what is
//! printed is what the games will play.

use std::fmt::Write;

use super::card::{MAX_STACK, MAX_VALUE, SEATS, SLOTS};
use super::cardset::{
    Ability, Base, CardSet, Cmp, Cond, Design, DiscardPick, Duration, Effect, Face, Factor, OcState, Order,
    Outcome, Pick, Player, Rarity, Selector, Side, Sign, Slots, Trigger, ValueFrom,
};

/// One design as read: its sentences and what is wrong with it.
pub struct Reading {
    pub sentences: Vec<String>,
    /// Abilities that can never act, and text numbers no ability uses, one line each.
    pub flags: Vec<String>,
    /// The design prints no text: with no abilities it does exactly what it says (nothing).
    pub blank: bool,
}

impl Reading {
    /// Whether the format expresses the design's text: it has abilities (or prints no text)
    /// and nothing is flagged.
    pub fn expressed(&self) -> bool {
        (!self.sentences.is_empty() || self.blank) && self.flags.is_empty()
    }
}

/// Reads design `d` of `set`.
pub fn read(set: &CardSet, d: u16) -> Reading {
    let design = &set.designs[d as usize];
    let abilities = set.abilities_of(d);
    let sentences: Vec<String> = abilities.iter().map(sentence).collect();
    let mut flags: Vec<String> = Vec::new();
    for (k, a) in abilities.iter().enumerate() {
        if let Some(why) = never_acts(a) {
            flags.push(format!("ability {} can never act: {why}", k + 1));
        }
    }
    let used = numbers_of(abilities);
    let missing: Vec<String> =
        numbers_in(&design.text).into_iter().filter(|n| !used.contains(n)).map(|n| n.to_string()).collect();
    if !missing.is_empty() {
        flags.push(format!("the text's number(s) {} appear in no ability", missing.join(", ")));
    }
    Reading { sentences, flags, blank: design.text.trim().is_empty() }
}

/// The whole report: plain text, or CSV (one row per design) for a spreadsheet.
pub fn report(set: &CardSet, csv: bool) -> String {
    let readings: Vec<Reading> = (0..set.designs.len() as u16).map(|d| read(set, d)).collect();
    if csv {
        return csv_report(set, &readings);
    }
    let mut out = String::new();
    let expressed = readings.iter().filter(|r| r.expressed()).count();
    let _ =
        writeln!(out, "card set {}: {} designs, {expressed} expressed", escape(&set.name), set.designs.len());
    for (design, r) in set.designs.iter().zip(&readings) {
        let _ = writeln!(
            out,
            "\n{} ({}, {} {}){}",
            escape(&design.name),
            escape(&design.id),
            design.rarity.name(),
            design.value,
            if r.expressed() { "" } else { " - NOT EXPRESSED" }
        );
        let _ = writeln!(out, "  text: {}", escape(&design.text));
        for s in &r.sentences {
            let _ = writeln!(out, "  - {s}");
        }
        for f in &r.flags {
            let _ = writeln!(out, "  ! {f}");
        }
    }
    out.push('\n');
    out.push_str(&table(set));
    out
}

fn csv_report(set: &CardSet, readings: &[Reading]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["id", "name", "rarity", "value", "text", "abilities", "expressed", "flags"]);
    for (design, r) in set.designs.iter().zip(readings) {
        let row = [
            escape(&design.id),
            escape(&design.name),
            design.rarity.name().to_string(),
            design.value.to_string(),
            escape(&design.text),
            r.sentences.join(" / "),
            r.expressed().to_string(),
            r.flags.join(" / "),
        ];
        let _ = w.write_record(&row);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Designs per rarity (rows) and printed value (columns).
fn table(set: &CardSet) -> String {
    let mut out = String::from("designs per rarity and value\n  rarity  ");
    for v in 1..=MAX_VALUE {
        let _ = write!(out, "{v:>4}");
    }
    out.push_str(" total\n");
    for rarity in Rarity::ALL {
        let of = |v: u8| set.designs.iter().filter(|d: &&Design| d.rarity == rarity && d.value == v).count();
        let _ = write!(out, "  {:<8}", rarity.name());
        for v in 1..=MAX_VALUE {
            let _ = write!(out, "{:>4}", of(v));
        }
        let _ = writeln!(out, "{:>6}", set.designs.iter().filter(|d| d.rarity == rarity).count());
    }
    out
}

/// Untrusted text with its control characters written as escapes (`\n`, `\u{1b}`).
pub fn escape(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

// ---------------------------------------------------------------------------------------------
// Sentences

/// One ability as one plain sentence: "When revealed: put a -1 counter on the opposing card."
pub fn sentence(a: &Ability) -> String {
    let mut s = trigger(a);
    let conds: Vec<String> = a.conds().map(cond).collect();
    if !conds.is_empty() {
        let _ = write!(s, " if {}", conds.join(" and "));
    }
    s.push_str(": ");
    if a.optional {
        s.push_str("you may ");
    }
    s.push_str(&effect(&a.effect, a.on == Trigger::Static));
    s.push('.');
    s
}

fn trigger(a: &Ability) -> String {
    let turns = |what: &str| match a.turns {
        (1, 9) => format!("{what} each turn"),
        (x, y) if x == y => format!("{what} turn {x}"),
        (x, y) => format!("{what} turns {x}-{y}"),
    };
    match a.on {
        Trigger::Reveal => "When revealed".into(),
        Trigger::Static => "While face up on the table".into(),
        Trigger::TurnStart => turns("At the start of"),
        Trigger::AfterPlace => turns("After the placement of"),
        Trigger::AfterReveal => turns("After the reveal of"),
        Trigger::AfterDraw => turns("After the draw of"),
        Trigger::ScoreStart => "At the start of scoring".into(),
        Trigger::SlotScored => "When this card's slot is scored".into(),
        Trigger::ScoreEnd => "At the end of scoring".into(),
        Trigger::Destroyed if a.watch == Selector::SOURCE => "When this card is destroyed".into(),
        Trigger::Destroyed => format!("When {} is destroyed", cards(&a.watch, false)),
        Trigger::Revealed => format!("When {} is revealed", cards(&a.watch, false)),
        Trigger::Placed => format!("When {} is placed from a hand", cards(&a.watch, false)),
        Trigger::Drawn => "Each time you draw a card".into(),
        Trigger::Discarded => "Each time you discard a card".into(),
        Trigger::SlotLost => "When your opponent takes this card's slot".into(),
    }
}

fn cmp(c: Cmp) -> String {
    match c {
        Cmp::Eq(a) => format!("{a}"),
        Cmp::Ne(a) => format!("not {a}"),
        Cmp::Lt(a) => format!("below {a}"),
        Cmp::Le(a) => format!("{a} or less"),
        Cmp::Gt(a) => format!("above {a}"),
        Cmp::Ge(a) => format!("{a} or more"),
        Cmp::In(a, b) => format!("{a} to {b}"),
    }
}

fn cond(c: &Cond) -> String {
    match *c {
        Cond::Slot(x) => format!("it lies in slot {}", cmp(x)),
        Cond::Count(sel, x) => format!("the number of {} is {}", cards(&sel, true), cmp(x)),
        Cond::Oc(OcState::Empty) => "no card opposes it".into(),
        Cond::Oc(OcState::Present) => "a card opposes it".into(),
        Cond::Oc(OcState::Up) => "the opposing card is face up".into(),
        Cond::Oc(OcState::Down) => "the opposing card is face down".into(),
        Cond::OcPrinted(x) => format!("the opposing card's printed value is {}", cmp(x)),
        Cond::OcValue(x) => format!("the opposing card's value is {}", cmp(x)),
        Cond::SelfValue(x) => format!("its value is {}", cmp(x)),
        Cond::VsOc(o) => {
            let rel = match o {
                Order::Lt => "below",
                Order::Le => "at most",
                Order::Eq => "equal to",
                Order::Ne => "not equal to",
                Order::Ge => "at least",
                Order::Gt => "above",
            };
            format!("its value is {rel} the opposing card's")
        }
        Cond::Hand(x) => format!("you hold {} card(s)", cmp(x)),
        Cond::HandDiff(x) => format!("you hold {} card(s) more than your opponent", cmp(x)),
        Cond::Lead(x) => format!("your lead in points is {}", cmp(x)),
        Cond::Result(Outcome::Won) => "you won its slot".into(),
        Cond::Result(Outcome::Lost) => "you lost its slot".into(),
        Cond::Result(Outcome::Tied) => "its slot was tied".into(),
    }
}

/// Who an effect on players names, and its verb agreeing with it ("you draw", "each player draws").
fn player(p: Player, verb: &str) -> String {
    match p {
        Player::You => format!("you {verb}"),
        Player::Opp => format!("your opponent {verb}s"),
        Player::Both => format!("each player {verb}s"),
    }
}

/// Whose, agreeing with `player`: "your", "their".
fn poss(p: Player) -> &'static str {
    if p == Player::You { "your" } else { "their" }
}

/// "1 card", "2 cards".
fn count(n: impl std::fmt::Display + PartialEq<u8> + Copy, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// What an effect does; a static one holds while its source is face up, so it says no duration.
fn effect(e: &Effect, is_static: bool) -> String {
    // "for each face-up card of yours", not "for each of every face-up card of yours".
    let per = |p: &Option<Selector>| {
        p.map_or(String::new(), |p| match cards(&p, true) {
            c if c.starts_with("every ") => format!(" for each {}", &c["every ".len()..]),
            c => format!(" for each of {c}"),
        })
    };
    let lasting = |d: Duration| match d {
        _ if is_static => "",
        Duration::Round => " this round",
        Duration::Source => " while this card stays face up on the table",
    };
    // The verb agrees with the words: "every card of yours gets", "2 chosen cards get".
    let gets = |t: &Selector| {
        let words = cards(t, true);
        let one = ["every ", "a ", "an ", "another ", "this ", "that ", "the opposing "];
        if t.names_one() || one.iter().any(|w| words.starts_with(w)) { "gets" } else { "get" }
    };
    match *e {
        Effect::Modify { target, amount, per: p, duration } => {
            format!("{} {} {amount:+}{}{}", cards(&target, true), gets(&target), per(&p), lasting(duration))
        }
        Effect::Set { target, to, from, duration } => {
            let value = match from {
                ValueFrom::Fixed => format!("{to}"),
                ValueFrom::Oc => "the opposing card's value".into(),
                ValueFrom::HandHighest => "the highest printed value in your hand".into(),
                ValueFrom::Stacked => "the highest value among the cards stacked with this card".into(),
            };
            format!("set {} to {value}{}", cards(&target, true), lasting(duration))
        }
        Effect::Multiply { target, by, duration } => {
            let by = match by {
                Factor::Number(n) => format!("{n}"),
                Factor::Stacked => "the highest value among the cards stacked with this card".into(),
            };
            format!("multiply the value of {} by {by}{}", cards(&target, true), lasting(duration))
        }
        Effect::Place { player: p, slot, pick, up } => {
            let how = picked(pick, p);
            let slot = slot_named(slot);
            let face = if up { "face up" } else { "face down" };
            format!("{} a card from hand {how} {face} onto {} side of {slot}", player(p, "put"), poss(p))
        }
        Effect::Move { target, slot } => {
            let slot = slot_named(slot);
            format!("move {} onto its side of {slot}", cards(&target, false))
        }
        Effect::Look { player: p, bottom } => {
            let whose = match p {
                Player::You => "your deck",
                Player::Opp => "your opponent's deck",
                Player::Both => "each deck",
            };
            format!(
                "look at the top card of {whose} and put it on the bottom if its printed value is {}, else back",
                cmp(bottom)
            )
        }
        Effect::Recover { player: p, amount, pick } => {
            let how = match pick {
                DiscardPick::Random => "at random",
                DiscardPick::Lowest => "with the lowest printed value",
                _ => "with the highest printed value",
            };
            let (of, w) = (poss(p), count(amount, "card"));
            format!("{} {w} {how} from {of} pile into {of} hand", player(p, "take"))
        }
        Effect::Shuffle { player: p } => format!("{} their deck", player(p, "shuffle")),
        Effect::Counter { target, amount, per: p } => {
            let one = if amount < 0 { "-1" } else { "+1" };
            let n = amount.unsigned_abs();
            let what = if n == 1 { format!("a {one} counter") } else { format!("{n} {one} counters") };
            format!("put {what} on {}{}", cards(&target, true), per(&p))
        }
        Effect::ClearCounters { target, sign } => {
            let which = match sign {
                Sign::Any => "the counters",
                Sign::Plus => "the + counters",
                Sign::Minus => "the - counters",
            };
            format!("remove {which} from {}", cards(&target, true))
        }
        Effect::Destroy { target } => format!("destroy {}", cards(&target, true)),
        Effect::Return { target } => format!("return {} to its owner's hand", cards(&target, true)),
        Effect::Swap { a, b } => format!("swap {} with {}", cards(&a, false), cards(&b, false)),
        Effect::Reveal { target } => format!("reveal {}", cards(&target, true)),
        Effect::Hide { target } => format!("turn {} face down", cards(&target, true)),
        Effect::Draw { player: p, amount } => format!("{} {}", player(p, "draw"), count(amount, "card")),
        Effect::Discard { player: p, amount, pick } => {
            let how = picked(pick, p);
            format!("{} {} {how}", player(p, "discard"), count(amount, "card"))
        }
        Effect::LowerWins { slot: 0 } => "the lower card wins this slot this round".into(),
        Effect::LowerWins { slot } => format!("the lower card wins slot {slot} this round"),
        Effect::WinTies { slot: 0 } => "a tie in this slot goes to you this round".into(),
        Effect::WinTies { slot } => format!("a tie in slot {slot} goes to you this round"),
        Effect::Points { player: p, amount, per: pp } => {
            let pts = if amount.abs() == 1 { "point" } else { "points" };
            format!("{} {amount:+} {pts}{}", player(p, "get"), per(&pp))
        }
    }
}

/// The cards a selector names, in words ("every face-up card of your opponent in slots 3-5").
pub fn cards(sel: &Selector, plural: bool) -> String {
    match sel.base {
        Base::Source => return "this card".into(),
        Base::Event => return "that card".into(),
        Base::Stacked => return "the cards stacked with this card".into(),
        Base::Hand | Base::Pile | Base::Deck => {
            let zone = match sel.base {
                Base::Hand => "hand",
                Base::Pile => "pile",
                _ => "deck",
            };
            return match sel.side {
                Side::You => format!("the cards in your {zone}"),
                Side::Opp => format!("the cards in your opponent's {zone}"),
                Side::Both => format!("the cards in both players' {zone}s"),
            };
        }
        Base::Filter => {}
    }
    if *sel == Selector::OC {
        return "the opposing card".into();
    }
    let mut s = match sel.pick {
        Pick::All if plural => "every".to_string(),
        Pick::All => "a".to_string(),
        Pick::Choose if sel.n == 1 => "a chosen".to_string(),
        Pick::Random if sel.n == 1 => "a random".to_string(),
        Pick::Highest if sel.n == 1 => "the highest".to_string(),
        Pick::Lowest if sel.n == 1 => "the lowest".to_string(),
        Pick::Choose => format!("{} chosen", sel.n),
        Pick::Random => format!("{} random", sel.n),
        Pick::Highest => format!("the {} highest", sel.n),
        Pick::Lowest => format!("the {} lowest", sel.n),
    };
    match sel.face {
        Face::Any => {}
        Face::Up => s.push_str(" face-up"),
        Face::Down => s.push_str(" face-down"),
    }
    if s == "a" && sel.other {
        s = "another".to_string();
    }
    // A pick of two or more names cards, and the clauses after agree with it.
    let many = sel.pick != Pick::All && sel.n > 1;
    s.push_str(match (sel.other && s != "another", many) {
        (true, true) => " other cards",
        (true, false) => " other card",
        (false, true) => " cards",
        (false, false) => " card",
    });
    s.push_str(match sel.side {
        Side::Both => "",
        Side::You => " of yours",
        Side::Opp => " of your opponent",
    });
    if let Some(p) = sel.printed {
        let _ = write!(s, " with printed value {}", cmp(p));
    }
    if let Some(v) = sel.value {
        let _ = write!(s, " with value {}", cmp(v));
    }
    match sel.counters {
        Some(true) => s.push_str(if many { " that carry a counter" } else { " that carries a counter" }),
        Some(false) => s.push_str(if many { " that carry no counter" } else { " that carries no counter" }),
        None => {}
    }
    s.push_str(&match sel.slots {
        Slots::All => String::new(),
        Slots::This => " in this slot".into(),
        Slots::Current => " in the current slot".into(),
        Slots::Adjacent => " in the adjacent slots".into(),
        Slots::Prev => " in the previous slots".into(),
        Slots::Next => " in the next slots".into(),
        Slots::Prev1 => " in the slot before this one".into(),
        Slots::Next1 => " in the slot after this one".into(),
        Slots::Range(a, b) if a == b => format!(" in slot {a}"),
        Slots::Range(a, b) => format!(" in slots {a}-{b}"),
    });
    s
}

// ---------------------------------------------------------------------------------------------
// Checks

/// Why an ability can never act, if it cannot.
pub fn never_acts(a: &Ability) -> Option<String> {
    if matches!(a.on, Trigger::Revealed | Trigger::Placed) && a.watch.base == Base::Source {
        // A card is face down (without text) as it is placed, and its own turning up is its
        // `reveal` trigger: these triggers answer other cards only.
        return Some(format!("'{}' answers other cards only, never this card", a.on.name()));
    }
    if a.on.watches() && a.watch != Selector::SOURCE {
        if let Some(why) = empty(&a.watch) {
            return Some(format!("its watch matches no card ({why})"));
        }
        if a.on == Trigger::Revealed && a.watch.face == Face::Down {
            return Some("a revealed card is face up, and the watch wants it face down".into());
        }
        if a.on == Trigger::Placed && (a.watch.face == Face::Up || a.watch.printed.is_some()) {
            return Some("a card is placed face down, and the watch wants it face up".into());
        }
    }
    match a.effect {
        Effect::Look { bottom, .. } if !(1..=MAX_VALUE as i32).any(|v| bottom.holds(v)) => {
            return Some("no printed value 1-9 goes to the bottom".into());
        }
        Effect::Move { target, slot: 0 } if target.base == Base::Source => {
            return Some("this card already lies in this slot".into());
        }
        _ => {}
    }
    for c in a.conds() {
        if let Some(why) = never_holds(c) {
            return Some(format!("a condition never holds ({why})"));
        }
    }
    let per = match a.effect {
        Effect::Modify { per, .. } | Effect::Counter { per, .. } | Effect::Points { per, .. } => per,
        _ => None,
    };
    if let Some(p) = per
        && let Some(why) = empty(&p)
    {
        return Some(format!("its `per` counts no card ({why})"));
    }
    None
}

/// Why a selector can match no card, if it cannot.
fn empty(sel: &Selector) -> Option<&'static str> {
    if sel.base != Base::Filter {
        return None;
    }
    if sel.printed.is_some() && sel.face == Face::Down {
        return Some("a face-down card never matches a printed value");
    }
    if let Some(p) = sel.printed
        && !(1..=MAX_VALUE as i32).any(|v| p.holds(v))
    {
        return Some("no printed value 1-9 passes");
    }
    if let Slots::Range(a, b) = sel.slots
        && (a > b || a > 9)
    {
        return Some("the slot range is empty");
    }
    None
}

/// The most a count can find: every place of the table holding a full stack (more than any hand,
/// pile or deck holds).
const COUNT_MAX: i32 = (SLOTS * SEATS * MAX_STACK) as i32;

/// Why a condition can never hold, if it cannot: its comparison fails on every value its subject
/// can take.
fn never_holds(c: &Cond) -> Option<&'static str> {
    let none = |x: Cmp, mut range: std::ops::RangeInclusive<i32>| !range.any(|v| x.holds(v));
    match *c {
        Cond::Slot(x) if none(x, 1..=9) => Some("slots are 1-9"),
        Cond::Count(sel, _) if empty(&sel).is_some() => Some("its count selector matches no card"),
        Cond::Count(_, x) if none(x, 0..=COUNT_MAX) => Some("a count is 0-72"),
        Cond::OcPrinted(x) if none(x, 1..=9) => Some("printed values are 1-9"),
        Cond::Hand(x) if none(x, 0..=30) => Some("a hand holds 0-30 cards"),
        _ => None,
    }
}

/// The numbers a design's abilities use: amounts, values set, picks, slots, turns and comparisons.
fn numbers_of(abilities: &[Ability]) -> Vec<i32> {
    let mut out = Vec::new();
    let cmp_n = |c: Cmp, out: &mut Vec<i32>| match c {
        Cmp::Eq(a) | Cmp::Ne(a) | Cmp::Lt(a) | Cmp::Le(a) | Cmp::Gt(a) | Cmp::Ge(a) => out.push(a as i32),
        // A range names every number in it: "S7, S8 or S9" is the range 7-9.
        Cmp::In(a, b) => out.extend(a as i32..=b as i32),
    };
    let sel_n = |s: &Selector, out: &mut Vec<i32>| {
        out.push(s.n as i32);
        if let Slots::Range(a, b) = s.slots {
            out.extend(a as i32..=b as i32);
        }
        for c in [s.printed, s.value].into_iter().flatten() {
            cmp_n(c, out);
        }
    };
    for a in abilities {
        out.extend([a.turns.0 as i32, a.turns.1 as i32]);
        sel_n(&a.watch, &mut out);
        for c in a.conds() {
            match *c {
                Cond::Slot(x)
                | Cond::OcPrinted(x)
                | Cond::OcValue(x)
                | Cond::SelfValue(x)
                | Cond::Hand(x)
                | Cond::HandDiff(x)
                | Cond::Lead(x) => cmp_n(x, &mut out),
                Cond::Count(s, x) => {
                    sel_n(&s, &mut out);
                    cmp_n(x, &mut out);
                }
                _ => {}
            }
        }
        match a.effect {
            Effect::Modify { target, amount, per, .. } | Effect::Counter { target, amount, per } => {
                out.push(amount as i32);
                sel_n(&target, &mut out);
                if let Some(p) = per {
                    sel_n(&p, &mut out);
                }
            }
            Effect::Set { target, to, from, .. } => {
                if from == ValueFrom::Fixed {
                    out.push(to as i32);
                }
                sel_n(&target, &mut out);
            }
            Effect::ClearCounters { target, .. }
            | Effect::Destroy { target }
            | Effect::Return { target }
            | Effect::Reveal { target }
            | Effect::Hide { target } => sel_n(&target, &mut out),
            Effect::Swap { a, b } => {
                sel_n(&a, &mut out);
                sel_n(&b, &mut out);
            }
            Effect::Draw { amount, .. } | Effect::Discard { amount, .. } => out.push(amount as i32),
            Effect::LowerWins { slot } | Effect::WinTies { slot } => out.push(slot as i32),
            Effect::Multiply { target, by, .. } => {
                if let Factor::Number(n) = by {
                    out.push(n as i32);
                }
                sel_n(&target, &mut out);
            }
            Effect::Place { slot, .. } => out.push(slot as i32),
            Effect::Move { target, slot } => {
                out.push(slot as i32);
                sel_n(&target, &mut out);
            }
            Effect::Look { bottom, .. } => cmp_n(bottom, &mut out),
            Effect::Recover { amount, .. } => out.push(amount as i32),
            Effect::Shuffle { .. } => {}
            Effect::Points { amount, per, .. } => {
                out.push(amount as i32);
                if let Some(p) = per {
                    sel_n(&p, &mut out);
                }
            }
        }
    }
    // A text writes sizes, not signs: "-2" and "2" are the same number to it.
    out.iter_mut().for_each(|n| *n = n.abs());
    out
}

/// The numbers written in a text, as sizes ("a -1 counter" gives 1, "S3-S6" gives 3 and 6).
fn numbers_in(text: &str) -> Vec<i32> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
        } else if !digits.is_empty() {
            out.push(digits.parse().unwrap_or(i32::MAX));
            digits.clear();
        }
    }
    out
}

/// How a card is picked from a hand, in words: "of your choice", "at random", ...
fn picked(pick: DiscardPick, p: Player) -> &'static str {
    match pick {
        DiscardPick::Choose if p == Player::You => "of your choice",
        DiscardPick::Choose => "of their choice",
        DiscardPick::Random => "at random",
        DiscardPick::Highest => "with the highest printed value",
        DiscardPick::Lowest => "with the lowest printed value",
    }
}

/// A slot an effect names: 0 is the source's own slot.
fn slot_named(slot: u8) -> String {
    if slot == 0 { "this slot".to_string() } else { format!("slot {slot}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &str) -> CardSet {
        let text = format!("format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{cards}");
        super::super::cardfile::parse("t.toml", &text).expect("the test set parses")
    }

    const CARD: &str = "[[card]]\nid = \"x\"\nname = \"X\"\nrarity = \"rare\"\nvalue = 3\n";

    #[test]
    fn the_verb_agrees_and_a_count_reads_for_each() {
        let s = set(&format!(
            "{CARD}text = \"Your adj. cards get +1 for each of your face-up cards.\"\n[[card.ability]]\non = \"static\"\neffect = \"modify\"\ntarget = {{ side = \"you\", slots = \"adjacent\" }}\namount = 1\nper = {{ side = \"you\", face = \"up\" }}\n"
        ));
        let r = read(&s, 0);
        let said = r.sentences.join(" ");
        assert!(
            said.contains("every card of yours in the adjacent slots gets +1 for each face-up card"),
            "{said}"
        );
        assert!(!said.contains("for each of every"), "{said}");
    }

    #[test]
    fn an_ability_reads_back_as_one_sentence() {
        let s = set(&format!(
            "{CARD}text = \"Your adj. cards get a +1 counter.\"\n[[card.ability]]\neffect = \"counter\"\ntarget = {{ side = \"you\", slots = \"adjacent\" }}\namount = 1\n"
        ));
        let r = read(&s, 0);
        assert_eq!(
            r.sentences,
            ["When revealed: put a +1 counter on every card of yours in the adjacent slots."]
        );
        assert!(r.expressed());
    }

    #[test]
    fn a_design_without_text_or_abilities_is_expressed_and_a_text_without_abilities_is_not() {
        let blank = set(&format!("{CARD}text = \"\"\n"));
        assert!(read(&blank, 0).expressed());
        let unwritten = set(&format!("{CARD}text = \"Draw a card.\"\n"));
        assert!(!read(&unwritten, 0).expressed());
    }

    #[test]
    fn a_number_inside_a_range_of_the_abilities_is_used() {
        let s = set(&format!(
            "{CARD}text = \"+2 while in S7, S8 or S9.\"\n[[card.ability]]\non = \"static\"\nif = [ {{ slot = \"7-9\" }} ]\neffect = \"modify\"\ntarget = \"self\"\namount = 2\n"
        ));
        assert!(read(&s, 0).expressed(), "{:?}", read(&s, 0).flags);
    }

    #[test]
    fn a_discard_by_choice_names_whose_choice() {
        let s = set(&format!(
            "{CARD}[[card.ability]]\neffect = \"discard\"\n[[card.ability]]\neffect = \"discard\"\nplayer = \"opp\"\n"
        ));
        assert_eq!(
            read(&s, 0).sentences,
            [
                "When revealed: you discard 1 card of your choice.",
                "When revealed: your opponent discards 1 card of their choice."
            ]
        );
    }

    #[test]
    fn a_text_number_missing_from_the_abilities_is_flagged() {
        let s = set(&format!(
            "{CARD}text = \"OC gets -3.\"\n[[card.ability]]\neffect = \"modify\"\ntarget = \"oc\"\namount = -2\n"
        ));
        let r = read(&s, 0);
        assert_eq!(r.flags, ["the text's number(s) 3 appear in no ability"]);
        assert!(!r.expressed());
    }

    #[test]
    fn abilities_that_can_never_act_are_flagged() {
        let cases = [
            ("on = \"revealed\"\nwatch = { face = \"down\" }\neffect = \"draw\"", "face down"),
            ("if = [ { slot = \">9\" } ]\neffect = \"draw\"", "slots are 1-9"),
            ("if = [ { hand = \"<0\" } ]\neffect = \"draw\"", "a hand holds"),
            ("effect = \"points\"\namount = 1\nper = { printed = 3, face = \"down\" }", "per"),
            ("on = \"revealed\"\nwatch = \"self\"\neffect = \"draw\"", "other cards only"),
            ("on = \"placed\"\nwatch = \"self\"\neffect = \"draw\"", "other cards only"),
        ];
        for (ability, why) in cases {
            let s = set(&format!("{CARD}[[card.ability]]\n{ability}\n"));
            let r = read(&s, 0);
            assert_eq!(r.flags.len(), 1, "{ability}: {:?}", r.flags);
            assert!(r.flags[0].contains(why), "{ability}: {:?}", r.flags);
        }
        let fine =
            set(&format!("{CARD}[[card.ability]]\nif = [ {{ slot = \">=9\" }} ]\neffect = \"draw\"\n"));
        assert!(read(&fine, 0).flags.is_empty());
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape("a\u{1b}[31mb\nc"), "a\\u{1b}[31mb\\nc");
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn the_table_counts_designs_per_rarity_and_value() {
        let s = set(&format!("{CARD}\n[[card]]\nid = \"y\"\nname = \"Y\"\nrarity = \"common\"\nvalue = 3\n"));
        let t = table(&s);
        assert!(
            t.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["rare", "0", "0", "1", "0", "0", "0", "0", "0", "0", "1"]),
            "{t}"
        );
        assert!(t.lines().any(|l| l.starts_with("  common ") && l.trim_end().ends_with('1')), "{t}");
    }

    #[test]
    fn the_tournament_set_is_expressed_in_full() {
        let text = include_str!("../../../scenarios/cards/tournament.toml");
        let s = super::super::cardfile::parse("tournament.toml", text).expect("the tournament set parses");
        assert_eq!(s.designs.len(), 189);
        let not: Vec<&str> = (0..189u16)
            .filter(|&d| !read(&s, d).expressed())
            .map(|d| s.designs[d as usize].id.as_str())
            .collect();
        assert!(not.is_empty(), "not expressed: {not:?}");
    }
}
