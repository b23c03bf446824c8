//! Reading a card-set file (`docs/cards.md`): TOML text in, a compiled `CardSet` out, or the
//! first problem as one line naming the file, line, column, card and key.
//!
//! The whole file is checked here, once, before any game: every key must be known, every value of
//! its type and range, every text within its rarity's length, and every trigger, selector,
//! condition and effect combined only as the format allows. Nothing is left for the game to
//! discover while it plays. Spans come from `toml::de::DeTable`, which keeps the byte range of
//! every key and value.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::card::{DECK, MAX_VALUE, POOL, SEATS};
use super::cardset::*;
use super::strength;

/// The `format` every card-set file declares.
pub const FORMAT: &str = "warsim-slots-cards";
/// The version of the format this parser reads.
pub const VERSION: i64 = 1;
/// Longest card name, in characters.
pub const NAME_LIMIT: usize = 30;
/// Largest integer a comparison or `to` may name.
pub const INT_LIMIT: i64 = 99;
/// Most cards a set may have: a design is numbered by 16 bits, and the largest number stands for
/// a textless card (`card::TEXTLESS`).
pub const MAX_DESIGNS: usize = u16::MAX as usize;
/// Most abilities a whole set may have: a design's abilities are found by 16-bit positions.
pub const MAX_ABILITIES: usize = u16::MAX as usize;

type Value<'i> = Spanned<DeValue<'i>>;

/// A problem in the file: where, which card, which key, what.
#[derive(Debug)]
struct Fault {
    at: usize,
    card: Option<String>,
    key: String,
    msg: String,
}

type R<T> = Result<T, Fault>;

/// Reads the card set `text` (from `file`, named in messages).
pub fn parse(file: &str, text: &str) -> Result<CardSet, String> {
    let doc = DeTable::parse(text).map_err(|e| {
        let (line, col) = line_col(text, e.span().map_or(0, |s| s.start));
        format!("card set {file}:{line}:{col}: not valid TOML: {}", e.message().trim())
    })?;
    read_set(doc.get_ref(), doc.span()).map_err(|f| {
        let (line, col) = line_col(text, f.at);
        let card = f.card.map_or_else(String::new, |c| format!("{c}, "));
        format!("card set {file}:{line}:{col}: {card}key '{}': {}", f.key, f.msg)
    })
}

/// 1-based line and column (in characters) of byte offset `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Where in the file a check is: the card (or pool) and the key path so far.
#[derive(Clone)]
struct At {
    card: Option<String>,
    key: String,
}

impl At {
    fn top(key: &str) -> At {
        At { card: None, key: key.into() }
    }

    fn key(&self, key: &str) -> At {
        let key = if self.key.is_empty() { key.to_string() } else { format!("{}.{key}", self.key) };
        At { card: self.card.clone(), key }
    }

    fn fault<T>(&self, span: &Range<usize>, msg: impl Into<String>) -> R<T> {
        Err(Fault { at: span.start, card: self.card.clone(), key: self.key.clone(), msg: msg.into() })
    }
}

fn type_name(v: &DeValue) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

fn string<'v>(v: &'v Value, at: &At) -> R<&'v str> {
    match v.get_ref() {
        DeValue::String(s) => Ok(s.as_ref()),
        other => at.fault(&v.span(), format!("expected a string, found {}", type_name(other))),
    }
}

fn int(v: &Value, at: &At, min: i64, max: i64) -> R<i64> {
    let n = match v.get_ref() {
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok(),
        other => return at.fault(&v.span(), format!("expected an integer, found {}", type_name(other))),
    };
    match n {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => at.fault(&v.span(), format!("out of range: allowed {min} to {max}")),
    }
}

fn boolean(v: &Value, at: &At) -> R<bool> {
    match v.get_ref() {
        DeValue::Boolean(b) => Ok(*b),
        other => at.fault(&v.span(), format!("expected true or false, found {}", type_name(other))),
    }
}

fn table<'v, 'i>(v: &'v Value<'i>, at: &At) -> R<&'v DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => Ok(t),
        other => at.fault(&v.span(), format!("expected a table, found {}", type_name(other))),
    }
}

fn array<'v, 'i>(v: &'v Value<'i>, at: &At) -> R<&'v [Value<'i>]> {
    match v.get_ref() {
        DeValue::Array(a) => Ok(a),
        other => at.fault(&v.span(), format!("expected an array, found {}", type_name(other))),
    }
}

/// One word of a closed list.
fn word<T: Copy>(v: &Value, at: &At, words: &[(&str, T)]) -> R<T> {
    let s = string(v, at)?;
    match words.iter().find(|(w, _)| *w == s) {
        Some(&(_, t)) => Ok(t),
        None => {
            let list: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
            at.fault(&v.span(), format!("unknown value '{s}' (allowed: {})", list.join(", ")))
        }
    }
}

/// A table's entries, after checking that every key is one of `allowed`.
struct Keys<'t, 'i> {
    table: &'t DeTable<'i>,
    span: Range<usize>,
}

impl<'t, 'i> Keys<'t, 'i> {
    fn check(table: &'t DeTable<'i>, span: Range<usize>, at: &At, allowed: &[&str]) -> R<Keys<'t, 'i>> {
        for (k, _) in table.iter() {
            if !allowed.contains(&k.get_ref().as_ref()) {
                let at = at.key(k.get_ref());
                return at.fault(&k.span(), format!("unknown key (keys here: {})", allowed.join(", ")));
            }
        }
        Ok(Keys { table, span })
    }

    fn get(&self, key: &str) -> Option<&'t Value<'i>> {
        self.table.iter().find(|(k, _)| k.get_ref() == key).map(|(_, v)| v)
    }

    fn need(&self, key: &str, at: &At) -> R<&'t Value<'i>> {
        match self.get(key) {
            Some(v) => Ok(v),
            None => at.key(key).fault(&self.span, "missing"),
        }
    }
}

fn read_set(doc: &DeTable, span: Range<usize>) -> R<CardSet> {
    let top = At::top("");
    let keys = Keys::check(doc, span, &top, &["format", "version", "name", "description", "card", "pool"])?;
    let at = At::top("format");
    let format = keys.need("format", &top)?;
    if string(format, &at)? != FORMAT {
        return at.fault(&format.span(), format!("expected \"{FORMAT}\""));
    }
    int(keys.need("version", &top)?, &At::top("version"), VERSION, VERSION)?;
    let name = string(keys.need("name", &top)?, &At::top("name"))?.to_string();
    if let Some(d) = keys.get("description") {
        string(d, &At::top("description"))?;
    }
    let cards = keys.need("card", &top)?;
    let mut set = CardSet {
        name,
        designs: Vec::new(),
        abilities: Vec::new(),
        fixed: [None, None],
        by_place: Default::default(),
        triggers: Vec::new(),
        heads: Vec::new(),
        own_statics: Shelf::default(),
        auras: Shelf::default(),
        has_aura: Vec::new(),
        fire: Vec::new(),
        last_words: Vec::new(),
        watches_values: false,
        hears_itself: Vec::new(),
        worth: Vec::new(),
    };
    let list = array(cards, &At::top("card"))?;
    if list.is_empty() {
        return At::top("card").fault(&cards.span(), "a set needs at least one card");
    }
    if list.len() > MAX_DESIGNS {
        let msg = format!("{} cards; a set holds at most {MAX_DESIGNS}", list.len());
        return At::top("card").fault(&cards.span(), msg);
    }
    // Each id's design, so that duplicates and pool cards are found without a search.
    let mut ids = std::collections::HashMap::with_capacity(list.len());
    for (i, card) in list.iter().enumerate() {
        read_card(&mut set, &mut ids, i, card)?;
    }
    if let Some(pools) = keys.get("pool") {
        for pool in array(pools, &At::top("pool"))? {
            read_pool(&mut set, &ids, pool)?;
        }
    }
    set.index();
    set.worth = (0..set.designs.len() as u16).map(|d| strength::text_worth(set.abilities_of(d))).collect();
    Ok(set)
}

/// The label of card `i` in messages: its id when it has a readable one.
fn card_label(t: &DeTable, i: usize) -> String {
    match t.iter().find(|(k, _)| k.get_ref() == "id").map(|(_, v)| v.get_ref()) {
        Some(DeValue::String(s)) => format!("card '{s}'"),
        _ => format!("card #{}", i + 1),
    }
}

const CARD_KEYS: &[&str] = &["id", "name", "rarity", "value", "text", "designer", "notes", "ability"];

fn read_card(
    set: &mut CardSet,
    ids: &mut std::collections::HashMap<String, u16>,
    i: usize,
    v: &Value,
) -> R<()> {
    let t = table(v, &At::top("card"))?;
    let at = At { card: Some(card_label(t, i)), key: String::new() };
    let keys = Keys::check(t, v.span(), &at, CARD_KEYS)?;
    let id_v = keys.need("id", &at)?;
    let id = string(id_v, &at.key("id"))?;
    let id_ok = !id.is_empty()
        && id.len() <= 40
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !id_ok {
        return at.key("id").fault(&id_v.span(), "1-40 characters: lower-case letters, digits and hyphens");
    }
    if vanilla(id).is_some() {
        return at.key("id").fault(&id_v.span(), "'vanilla-N' names a textless card; choose another id");
    }
    if ids.insert(id.to_string(), set.designs.len() as u16).is_some() {
        return at.key("id").fault(&id_v.span(), "another card already has this id");
    }
    let name_v = keys.need("name", &at)?;
    let name = string(name_v, &at.key("name"))?;
    let chars = name.chars().count();
    if chars == 0 || chars > NAME_LIMIT {
        return at
            .key("name")
            .fault(&name_v.span(), format!("{chars} characters; a name holds 1-{NAME_LIMIT}"));
    }
    let rarity_words = Rarity::ALL.map(|r| (r.name(), r));
    let rarity = word(keys.need("rarity", &at)?, &at.key("rarity"), &rarity_words)?;
    let value = int(keys.need("value", &at)?, &at.key("value"), 1, MAX_VALUE as i64)? as u8;
    let text = match keys.get("text") {
        Some(tv) => {
            let text = string(tv, &at.key("text"))?;
            let chars = text.chars().count();
            if chars > rarity.text_limit() {
                let msg = format!(
                    "{chars} characters, over the {} a {} card holds",
                    rarity.text_limit(),
                    rarity.name()
                );
                return at.key("text").fault(&tv.span(), msg);
            }
            text.to_string()
        }
        None => String::new(),
    };
    let mut designer = String::new();
    for k in ["designer", "notes"] {
        if let Some(x) = keys.get(k) {
            let v = string(x, &at.key(k))?;
            if k == "designer" {
                designer = v.to_string();
            }
        }
    }
    let first = set.abilities.len();
    if let Some(list) = keys.get("ability") {
        for (j, a) in array(list, &at.key("ability"))?.iter().enumerate() {
            let at = at.key(&format!("ability[{}]", j + 1));
            let ability = read_ability(a, &at)?;
            if set.abilities.len() == MAX_ABILITIES {
                return at.fault(
                    &a.span(),
                    format!("over {MAX_ABILITIES} abilities in the set; a set holds at most that many"),
                );
            }
            set.abilities.push(ability);
        }
    }
    let len = set.abilities.len() - first;
    set.designs.push(Design {
        id: id.to_string(),
        name: name.to_string(),
        rarity,
        value,
        text,
        designer,
        first: first as u16,
        len: len as u16,
    });
    Ok(())
}

/// `vanilla-N`: the printed value N of a textless card.
fn vanilla(id: &str) -> Option<u8> {
    let n: u8 = id.strip_prefix("vanilla-")?.parse().ok()?;
    (1..=MAX_VALUE).contains(&n).then_some(n)
}

fn read_pool(set: &mut CardSet, ids: &std::collections::HashMap<String, u16>, v: &Value) -> R<()> {
    let t = table(v, &At::top("pool"))?;
    let at = At { card: Some("pool".into()), key: String::new() };
    let keys = Keys::check(t, v.span(), &at, &["seat", "cards"])?;
    let seat_v = keys.need("seat", &at)?;
    let seat = int(seat_v, &at.key("seat"), 0, SEATS as i64 - 1)? as usize;
    let at = At { card: Some(format!("pool of seat {seat}")), key: String::new() };
    if set.fixed[seat].is_some() {
        return at.key("seat").fault(&seat_v.span(), "this seat's pool is already fixed");
    }
    let cards_v = keys.need("cards", &at)?;
    let list = array(cards_v, &at.key("cards"))?;
    if !(DECK..=POOL).contains(&list.len()) {
        let msg = format!("{} cards; a fixed pool holds {DECK}-{POOL}", list.len());
        return at.key("cards").fault(&cards_v.span(), msg);
    }
    let mut pool = Vec::with_capacity(list.len());
    for c in list {
        let id = string(c, &at.key("cards"))?;
        let card = match (vanilla(id), ids.get(id)) {
            (Some(n), _) => PoolCard::Vanilla(n),
            (None, Some(&d)) => PoolCard::Design(d),
            (None, None) => return at.key("cards").fault(&c.span(), format!("no card has the id '{id}'")),
        };
        pool.push(card);
    }
    set.fixed[seat] = Some(pool);
    Ok(())
}

const ABILITY_KEYS: &[&str] = &[
    "on", "turns", "watch", "if", "optional", "effect", "target", "a", "b", "amount", "to", "per", "player",
    "pick", "duration", "sign", "slot", "by", "face", "bottom",
];

/// The keys that are some effect's parameters.
const PARAMS: &[&str] = &[
    "target", "a", "b", "amount", "to", "per", "player", "pick", "duration", "sign", "slot", "by", "face",
    "bottom",
];

/// The parameters each effect takes (beyond the keys every ability may have).
fn params(effect: &str) -> &'static [&'static str] {
    match effect {
        "modify" => &["target", "amount", "per", "duration"],
        "set" => &["target", "to", "duration"],
        "counter" => &["target", "amount", "per"],
        "clear_counters" => &["target", "sign"],
        "destroy" | "return" | "reveal" | "hide" => &["target"],
        "swap" => &["a", "b"],
        "lower_wins" | "win_ties" => &["slot"],
        "draw" => &["player", "amount"],
        "discard" => &["player", "amount", "pick"],
        "multiply" => &["target", "by", "duration"],
        "place" => &["player", "slot", "pick", "face"],
        "move" => &["target", "slot"],
        "look" => &["player", "bottom"],
        "recover" => &["player", "amount", "pick"],
        "shuffle" => &["player"],
        _ => &["player", "amount", "per"],
    }
}

/// What a selector is allowed to be, where it is read.
#[derive(Clone, Copy)]
struct Rules {
    /// In a static ability: no pick, no value reads, no event.
    is_static: bool,
    /// The trigger is about a card (`event` makes sense).
    has_event: bool,
    /// A pick is allowed (not in `per`, `count` or `watch`).
    pick: bool,
    /// A zone off the table may be counted (`per` and `count` only).
    zones: bool,
}

fn read_ability(v: &Value, at: &At) -> R<Ability> {
    let t = table(v, at)?;
    let keys = Keys::check(t, v.span(), at, ABILITY_KEYS)?;
    let on = match keys.get("on") {
        Some(x) => word(x, &at.key("on"), &Trigger::WORDS)?,
        None => Trigger::Reveal,
    };
    let is_static = on == Trigger::Static;
    let rules = Rules { is_static, has_event: on.watches(), pick: !is_static, zones: false };
    let turns = match keys.get("turns") {
        Some(x) if !on.per_turn() => {
            return at
                .key("turns")
                .fault(&x.span(), format!("only turn triggers take turns, not '{}'", on.name()));
        }
        Some(x) => {
            let (a, b) = slot_range(x, &at.key("turns"))?;
            (a, b)
        }
        None => (1, 9),
    };
    let watch = match (keys.get("watch"), on) {
        (Some(x), t) if t.watches() => {
            selector(x, &at.key("watch"), Rules { pick: false, has_event: false, ..rules })?
        }
        (Some(x), _) => {
            return at
                .key("watch")
                .fault(&x.span(), "only 'destroyed', 'revealed' and 'placed' abilities watch cards");
        }
        (None, Trigger::Destroyed) => Selector::SOURCE,
        (None, _) => Selector { other: true, ..Selector::ALL },
    };
    let mut conds = [None; MAX_CONDS];
    if let Some(list) = keys.get("if") {
        let items = array(list, &at.key("if"))?;
        if items.len() > MAX_CONDS {
            return at.key("if").fault(&list.span(), format!("at most {MAX_CONDS} conditions"));
        }
        for (k, c) in items.iter().enumerate() {
            conds[k] = Some(condition(c, &at.key("if"), on, rules)?);
        }
    }
    let optional = match keys.get("optional") {
        Some(x) => {
            let b = boolean(x, &at.key("optional"))?;
            if b && is_static {
                return at.key("optional").fault(&x.span(), "a static ability cannot be declined");
            }
            b
        }
        None => false,
    };
    let effect_v = keys.need("effect", at)?;
    let effect_words: Vec<(&str, &str)> = Effect::WORDS.iter().map(|w| (*w, *w)).collect();
    let name = word(effect_v, &at.key("effect"), &effect_words)?;
    if is_static && name != "modify" {
        return at.key("effect").fault(&effect_v.span(), "a static ability can only modify values");
    }
    let allowed = params(name);
    for (k, _) in t.iter() {
        let k_str: &str = k.get_ref();
        let param = PARAMS.contains(&k_str);
        if param && !allowed.contains(&k_str) {
            let msg = format!("not a parameter of effect '{name}' (its parameters: {})", allowed.join(", "));
            return at.key(k_str).fault(&k.span(), msg);
        }
    }
    let effect = effect(name, &keys, at, rules)?;
    Ok(Ability { on, turns, watch, conds, optional, effect })
}

fn effect(name: &str, keys: &Keys, at: &At, rules: Rules) -> R<Effect> {
    let target = || selector(keys.need("target", at)?, &at.key("target"), rules);
    let per = || -> R<Option<Selector>> {
        keys.get("per")
            .map(|x| selector(x, &at.key("per"), Rules { pick: false, zones: true, ..rules }))
            .transpose()
    };
    let signed = || -> R<i8> {
        let x = keys.need("amount", at)?;
        let n = int(x, &at.key("amount"), -9, 9)?;
        if n == 0 {
            return at.key("amount").fault(&x.span(), "0 does nothing: allowed -9 to -1 and 1 to 9");
        }
        Ok(n as i8)
    };
    let count = || -> R<u8> {
        keys.get("amount").map_or(Ok(1), |x| int(x, &at.key("amount"), 1, 9).map(|n| n as u8))
    };
    let player = || -> R<Player> {
        let words = [("you", Player::You), ("opp", Player::Opp), ("both", Player::Both)];
        keys.get("player").map_or(Ok(Player::You), |x| word(x, &at.key("player"), &words))
    };
    let duration = || -> R<Duration> {
        match keys.get("duration") {
            Some(x) if rules.is_static => {
                at.key("duration").fault(&x.span(), "a static modifier lasts while its source does")
            }
            Some(x) => {
                word(x, &at.key("duration"), &[("round", Duration::Round), ("source", Duration::Source)])
            }
            None => Ok(Duration::Round),
        }
    };
    Ok(match name {
        "modify" => {
            Effect::Modify { target: target()?, amount: signed()?, per: per()?, duration: duration()? }
        }
        "set" => {
            let x = keys.need("to", at)?;
            let (to, from) = match x.get_ref() {
                DeValue::String(_) => {
                    let words = [
                        ("oc", ValueFrom::Oc),
                        ("hand_highest", ValueFrom::HandHighest),
                        ("stacked", ValueFrom::Stacked),
                    ];
                    (0, word(x, &at.key("to"), &words)?)
                }
                _ => (int(x, &at.key("to"), -INT_LIMIT, INT_LIMIT)? as i16, ValueFrom::Fixed),
            };
            Effect::Set { target: target()?, to, from, duration: duration()? }
        }
        "multiply" => {
            let x = keys.need("by", at)?;
            let by = match x.get_ref() {
                DeValue::String(_) => word(x, &at.key("by"), &[("stacked", Factor::Stacked)])?,
                _ => {
                    let n = int(x, &at.key("by"), -9, 9)?;
                    if n == 1 {
                        return at
                            .key("by")
                            .fault(&x.span(), "1 does nothing: allowed -9 to 9 but 1, or \"stacked\"");
                    }
                    Factor::Number(n as i8)
                }
            };
            Effect::Multiply { target: target()?, by, duration: duration()? }
        }
        "place" => {
            let pick = keys
                .get("pick")
                .map_or(Ok(DiscardPick::Choose), |x| word(x, &at.key("pick"), &DISCARD_PICKS))?;
            let up = match keys.get("face") {
                Some(x) => word(x, &at.key("face"), &[("down", false), ("up", true)])?,
                None => false,
            };
            Effect::Place { player: player()?, slot: rule_slot(keys, at)?, pick, up }
        }
        "move" => {
            let x = keys.need("slot", at)?;
            let target = one_card(
                keys,
                "target",
                at,
                rules,
                "a move takes one card: self, oc, event, a pick of one, or one side and one slot",
            )?;
            let _ = x;
            Effect::Move { target, slot: rule_slot(keys, at)? }
        }
        "look" => {
            let bottom = cmp(keys.need("bottom", at)?, &at.key("bottom"))?;
            Effect::Look { player: player()?, bottom }
        }
        "recover" => {
            let words = [
                ("highest", DiscardPick::Highest),
                ("lowest", DiscardPick::Lowest),
                ("random", DiscardPick::Random),
            ];
            let pick =
                keys.get("pick").map_or(Ok(DiscardPick::Highest), |x| word(x, &at.key("pick"), &words))?;
            Effect::Recover { player: player()?, amount: count()?, pick }
        }
        "shuffle" => Effect::Shuffle { player: player()? },
        "counter" => Effect::Counter { target: target()?, amount: signed()?, per: per()? },
        "clear_counters" => {
            let words = [("any", Sign::Any), ("plus", Sign::Plus), ("minus", Sign::Minus)];
            let sign = keys.get("sign").map_or(Ok(Sign::Any), |x| word(x, &at.key("sign"), &words))?;
            Effect::ClearCounters { target: target()?, sign }
        }
        "destroy" => Effect::Destroy { target: target()? },
        "return" => Effect::Return { target: target()? },
        "reveal" => Effect::Reveal { target: target()? },
        "hide" => Effect::Hide { target: target()? },
        "swap" => {
            let why = "a swap needs one card on each side: self, oc, event, a pick of one, or one side and one slot";
            Effect::Swap { a: one_card(keys, "a", at, rules, why)?, b: one_card(keys, "b", at, rules, why)? }
        }
        "draw" => Effect::Draw { player: player()?, amount: count()? },
        "discard" => {
            let pick = keys
                .get("pick")
                .map_or(Ok(DiscardPick::Choose), |x| word(x, &at.key("pick"), &DISCARD_PICKS))?;
            Effect::Discard { player: player()?, amount: count()?, pick }
        }
        "lower_wins" | "win_ties" => {
            let slot = rule_slot(keys, at)?;
            if name == "lower_wins" { Effect::LowerWins { slot } } else { Effect::WinTies { slot } }
        }
        _ => Effect::Points { player: player()?, amount: signed()?, per: per()? },
    })
}

/// How a discard or a `place` takes a hand card.
const DISCARD_PICKS: [(&str, DiscardPick); 4] = [
    ("choose", DiscardPick::Choose),
    ("random", DiscardPick::Random),
    ("highest", DiscardPick::Highest),
    ("lowest", DiscardPick::Lowest),
];

/// The slot an effect names: a slot number 1-9, or "this" (the default, 0): the source's slot
/// when it acts.
fn rule_slot(keys: &Keys, at: &At) -> R<u8> {
    Ok(match keys.get("slot") {
        Some(x) if matches!(x.get_ref(), DeValue::String(s) if s.as_ref() == "this") => 0,
        Some(x) if matches!(x.get_ref(), DeValue::String(_)) => {
            let s = string(x, &at.key("slot"))?;
            return at
                .key("slot")
                .fault(&x.span(), format!("'{s}' is not a slot: allowed 1 to 9 or \"this\""));
        }
        Some(x) => int(x, &at.key("slot"), 1, 9)? as u8,
        None => 0,
    })
}

/// A swap's side or a move's card: a selector that can name one card only (`why` says so).
fn one_card(keys: &Keys, key: &str, at: &At, rules: Rules, why: &str) -> R<Selector> {
    let x = keys.need(key, at)?;
    let sel = selector(x, &at.key(key), rules)?;
    if !sel.names_one() {
        return at.key(key).fault(&x.span(), why);
    }
    Ok(sel)
}

/// A slot number or range: 5, "5" or "3-6", within 1-9.
fn slot_range(v: &Value, at: &At) -> R<(u8, u8)> {
    if let DeValue::Integer(_) = v.get_ref() {
        let n = int(v, at, 1, 9)? as u8;
        return Ok((n, n));
    }
    let s = string(v, at)?.trim();
    let parse = |p: &str| p.trim().parse::<u8>().ok().filter(|n| (1..=9).contains(n));
    let range = match s.split_once('-') {
        Some((a, b)) => parse(a).zip(parse(b)),
        None => parse(s).map(|n| (n, n)),
    };
    match range {
        Some((a, b)) if a <= b => Ok((a, b)),
        _ => at.fault(
            &v.span(),
            format!("'{s}' is not a slot or slot range within 1-9 (e.g. \"3\" or \"3-6\")"),
        ),
    }
}

/// A comparison's operator as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// "2-4": both ends included.
    Range,
}

/// A number as written in a string: its value and its bytes there.
pub type Written = (i64, Range<usize>);

/// A decimal integer as a card file writes it (`7`, `+7`, `-1`; not `0x7` or `1_0`).
pub fn decimal(s: &str) -> Option<i64> {
    let d = s.strip_prefix(['+', '-']).unwrap_or(s);
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A comparison or slot range as written in a string ("5", "!=9", ">=3", "<0", "-1", "2-4"):
/// its operator and each number with its bytes in `s` (a range gives two). The one reader of
/// the form: `cmp` compiles it, and the balancer's knobs rewrite its numbers where they stand.
pub fn written_comparison(s: &str) -> Option<(Op, Vec<Written>)> {
    // A number in `s[at..end]`, spaces around it allowed.
    let num = |at: usize, end: usize| -> Option<Written> {
        let p = &s[at..end];
        let start = at + (p.len() - p.trim_start().len());
        let t = p.trim();
        Some((decimal(t)?, start..start + t.len()))
    };
    let lead = s.len() - s.trim_start().len();
    let end = lead + s.trim().len();
    let t = &s[lead..end];
    let ops = [("!=", Op::Ne), ("<=", Op::Le), (">=", Op::Ge), ("<", Op::Lt), (">", Op::Gt), ("=", Op::Eq)];
    if let Some(&(op, test)) = ops.iter().find(|(op, _)| t.starts_with(op)) {
        return Some((test, vec![num(lead + op.len(), end)?]));
    }
    if let Some(n) = num(lead, end) {
        return Some((Op::Eq, vec![n]));
    }
    // A range of two naturals.
    let dash = lead + t.find('-')?;
    let (a, b) = (num(lead, dash)?, num(dash + 1, end)?);
    (a.0 >= 0 && a.0 <= b.0).then(|| (Op::Range, vec![a, b]))
}

/// A comparison: 5 (equal), "5", "!=9", ">=3", "<0", "-1", "2-4".
fn cmp(v: &Value, at: &At) -> R<Cmp> {
    if let DeValue::Integer(_) = v.get_ref() {
        return Ok(Cmp::Eq(int(v, at, -INT_LIMIT, INT_LIMIT)? as i16));
    }
    let s = string(v, at)?.trim();
    let parsed = written_comparison(s).and_then(|(op, numbers)| {
        let small: Option<Vec<i16>> =
            numbers.iter().map(|&(n, _)| (n.abs() <= INT_LIMIT).then_some(n as i16)).collect();
        Some(match (op, &small?[..]) {
            (Op::Eq, &[n]) => Cmp::Eq(n),
            (Op::Ne, &[n]) => Cmp::Ne(n),
            (Op::Lt, &[n]) => Cmp::Lt(n),
            (Op::Le, &[n]) => Cmp::Le(n),
            (Op::Gt, &[n]) => Cmp::Gt(n),
            (Op::Ge, &[n]) => Cmp::Ge(n),
            (Op::Range, &[a, b]) => Cmp::In(a, b),
            _ => return None,
        })
    });
    match parsed {
        Some(c) => Ok(c),
        None => at.fault(
            &v.span(),
            format!("'{s}' is not a comparison (e.g. 5, \"!=9\", \">=3\", \"-1\", \"2-4\"; numbers within ±{INT_LIMIT})"),
        ),
    }
}

const SELECTOR_KEYS: &[&str] =
    &["side", "slots", "printed", "value", "face", "counters", "other", "pick", "n", "zone"];

/// A selector: a shortcut word or a table of filter keys.
fn selector(v: &Value, at: &At, rules: Rules) -> R<Selector> {
    let sel = match v.get_ref() {
        DeValue::String(s) => match s.as_ref() {
            "self" => Selector::SOURCE,
            "oc" => Selector::OC,
            "mine" => Selector { side: Side::You, ..Selector::ALL },
            "theirs" => Selector { side: Side::Opp, ..Selector::ALL },
            "all" => Selector::ALL,
            "adjacent" => Selector { slots: Slots::Adjacent, ..Selector::ALL },
            "stacked" => Selector { base: Base::Stacked, ..Selector::ALL },
            "event" if !rules.has_event => {
                return at.fault(&v.span(), "'event' exists only in 'destroyed' and 'revealed' abilities");
            }
            "event" => Selector::EVENT,
            other => {
                return at.fault(
                    &v.span(),
                    format!("unknown selector '{other}' (shortcuts: self, oc, mine, theirs, all, adjacent, stacked, event; or a table)"),
                );
            }
        },
        DeValue::Table(t) => filter(t, v.span(), at, rules)?,
        other => {
            return at.fault(
                &v.span(),
                format!("expected a selector (a word or a table), found {}", type_name(other)),
            );
        }
    };
    Ok(sel)
}

fn filter(t: &DeTable, span: Range<usize>, at: &At, rules: Rules) -> R<Selector> {
    let keys = Keys::check(t, span, at, SELECTOR_KEYS)?;
    let mut sel = Selector::ALL;
    if let Some(x) = keys.get("side") {
        sel.side = word(x, &at.key("side"), &[("both", Side::Both), ("you", Side::You), ("opp", Side::Opp)])?;
    }
    if let Some(x) = keys.get("zone") {
        if !rules.zones {
            return at.key("zone").fault(&x.span(), "a zone is only counted: in 'per' and 'count'");
        }
        let words =
            [("table", Base::Filter), ("hand", Base::Hand), ("pile", Base::Pile), ("deck", Base::Deck)];
        sel.base = word(x, &at.key("zone"), &words)?;
        if let Some((k, _)) = t.iter().find(|(k, _)| !["zone", "side"].contains(&k.get_ref().as_ref()))
            && sel.base.is_zone()
        {
            return at.key(k.get_ref()).fault(&k.span(), "a hand, pile or deck is counted by 'side' alone");
        }
    }
    if let Some(x) = keys.get("slots") {
        sel.slots = slots(x, &at.key("slots"))?;
    }
    if let Some(x) = keys.get("printed") {
        sel.printed = Some(cmp(x, &at.key("printed"))?);
    }
    if let Some(x) = keys.get("value") {
        if rules.is_static {
            return at.key("value").fault(&x.span(), "a static ability cannot read current values");
        }
        sel.value = Some(cmp(x, &at.key("value"))?);
    }
    if let Some(x) = keys.get("face") {
        sel.face = word(x, &at.key("face"), &[("any", Face::Any), ("up", Face::Up), ("down", Face::Down)])?;
    }
    if let Some(x) = keys.get("counters") {
        sel.counters = Some(boolean(x, &at.key("counters"))?);
    }
    if let Some(x) = keys.get("other") {
        sel.other = boolean(x, &at.key("other"))?;
    }
    if let Some(x) = keys.get("pick") {
        let words = [
            ("all", Pick::All),
            ("choose", Pick::Choose),
            ("random", Pick::Random),
            ("highest", Pick::Highest),
            ("lowest", Pick::Lowest),
        ];
        sel.pick = word(x, &at.key("pick"), &words)?;
        if sel.pick != Pick::All && !rules.pick {
            let why = if rules.is_static {
                "a static ability takes every match"
            } else {
                "a count takes every match"
            };
            return at.key("pick").fault(&x.span(), format!("no pick here: {why}"));
        }
    }
    if let Some(x) = keys.get("n") {
        if sel.pick == Pick::All {
            return at.key("n").fault(&x.span(), "n needs a pick (choose, random, highest or lowest)");
        }
        sel.n = int(x, &at.key("n"), 1, 9)? as u8;
    }
    Ok(sel)
}

fn slots(v: &Value, at: &At) -> R<Slots> {
    let words = [
        ("all", Slots::All),
        ("this", Slots::This),
        ("current", Slots::Current),
        ("adjacent", Slots::Adjacent),
        ("prev", Slots::Prev),
        ("next", Slots::Next),
        ("prev1", Slots::Prev1),
        ("next1", Slots::Next1),
    ];
    if let DeValue::String(s) = v.get_ref()
        && let Some(&(_, w)) = words.iter().find(|(w, _)| *w == s.as_ref())
    {
        return Ok(w);
    }
    if let DeValue::String(s) = v.get_ref()
        && !s.starts_with(|c: char| c.is_ascii_digit())
    {
        let list: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        return at.fault(
            &v.span(),
            format!("unknown slots '{s}' (allowed: {}, or \"N\" / \"N-M\")", list.join(", ")),
        );
    }
    let (a, b) = slot_range(v, at)?;
    Ok(Slots::Range(a, b))
}

const COND_KEYS: &[&str] = &[
    "slot",
    "count",
    "is",
    "oc",
    "oc_printed",
    "oc_value",
    "self_value",
    "vs_oc",
    "hand",
    "hand_diff",
    "lead",
    "result",
];

/// One condition: a table with one subject key (and `is` with `count`).
fn condition(v: &Value, at: &At, on: Trigger, rules: Rules) -> R<Cond> {
    let t = table(v, at)?;
    let keys = Keys::check(t, v.span(), at, COND_KEYS)?;
    let subjects: Vec<&str> =
        t.iter().map(|(k, _)| k.get_ref().as_ref()).filter(|k| *k != "is").collect::<Vec<_>>();
    let [subject] = subjects[..] else {
        return at.fault(&v.span(), "a condition names exactly one subject (slot, count, oc, ...)");
    };
    let x = keys.need(subject, at)?;
    let at = at.key(subject);
    if let Some(is) = keys.get("is")
        && subject != "count"
    {
        return at.key("is").fault(&is.span(), "'is' goes with 'count' only");
    }
    let cond = match subject {
        "slot" => Cond::Slot(cmp(x, &at)?),
        "count" => {
            let sel = selector(x, &at, Rules { pick: false, zones: true, ..rules })?;
            let Some(is) = keys.get("is") else {
                return at.fault(&x.span(), "a count needs 'is' (e.g. is = \">=3\")");
            };
            Cond::Count(sel, cmp(is, &at.key("is"))?)
        }
        "oc" => {
            let words = [
                ("empty", OcState::Empty),
                ("present", OcState::Present),
                ("up", OcState::Up),
                ("down", OcState::Down),
            ];
            Cond::Oc(word(x, &at, &words)?)
        }
        "oc_printed" => Cond::OcPrinted(cmp(x, &at)?),
        "oc_value" => Cond::OcValue(cmp(x, &at)?),
        "self_value" => Cond::SelfValue(cmp(x, &at)?),
        "vs_oc" => Cond::VsOc(word(x, &at, &Order::WORDS)?),
        "hand" => Cond::Hand(cmp(x, &at)?),
        "hand_diff" => Cond::HandDiff(cmp(x, &at)?),
        "lead" => Cond::Lead(cmp(x, &at)?),
        _ => {
            if on != Trigger::SlotScored {
                return at.fault(&x.span(), "'result' exists only in 'slot_scored' abilities");
            }
            let words = [("won", Outcome::Won), ("lost", Outcome::Lost), ("tied", Outcome::Tied)];
            Cond::Result(word(x, &at, &words)?)
        }
    };
    if rules.is_static && cond.reads_values() {
        return at.fault(&x.span(), "a static ability cannot read current values");
    }
    Ok(cond)
}
