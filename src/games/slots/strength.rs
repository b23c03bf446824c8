//! A card's estimated strength, for the deck policy `strength` (`docs/policies.md`): its printed
//! value plus a static estimate of what its text can add or take, read from the compiled
//! abilities alone (no game is played for it). Measured in tenths of a point of value.
//!
//! An ability's worth is its effect's worth per card it touches, times the cards it can reach,
//! times how often its trigger fires, halved for each condition:
//! - `modify` and `counter`: the amount, for cards on the controller's side, against it on the
//!   opponent's (0 for both sides or an event's card); `set`: the value set less 5 (a middling
//!   printed value), the same way; `destroy`, `return` and `hide`: 5 for each opposing card,
//!   against it for one's own; `swap`: 1; `reveal` and `clear_counters`: 0;
//! - on players: a point is worth 3 (about a slot), a card drawn 1, a card the opponent discards 1
//!   (the opposite for the controller's own), nothing for both players;
//! - `per`: twice the amount (a typical count);
//! - reach: one card for `self`, `event`, the opposing card, a pick of `n` (`n` cards), `this`,
//!   `current`, `prev1` and `next1`; two for `adjacent`; four for `prev` and `next`; nine for all
//!   slots or one side; a range's slot count; halved for each filter on printed value, value, face
//!   or counters;
//! - trigger: once for `reveal`, `static`, the scoring triggers; per-turn triggers once per two
//!   turns they act on; `destroyed` and `revealed` watchers one half.

use super::cardset::{Ability, Base, Effect, Face, Player, Selector, Side, Slots, Trigger, ValueFrom};

/// Tenths of a point of value per point.
pub const TENTHS: i32 = 10;

/// The worth, in tenths, of a design's abilities.
pub fn text_worth(abilities: &[Ability]) -> i32 {
    abilities.iter().map(worth).sum::<f64>().round() as i32
}

/// One ability's worth in tenths.
fn worth(a: &Ability) -> f64 {
    let fires = match a.on {
        t if t.per_turn() => (a.turns.1.saturating_sub(a.turns.0) as f64 + 1.0) / 2.0,
        Trigger::Destroyed | Trigger::Revealed => 0.5,
        _ => 1.0,
    };
    let conds = 0.5f64.powi(a.conds().count() as i32);
    effect(&a.effect) * fires * conds * TENTHS as f64
}

/// An effect's worth to the controller, in points of value.
fn effect(e: &Effect) -> f64 {
    let per = |p: &Option<Selector>| if p.is_some() { 2.0 } else { 1.0 };
    match e {
        Effect::Modify { target, amount, per: p, .. } | Effect::Counter { target, amount, per: p } => {
            *amount as f64 * per(p) * side(target) * reach(target)
        }
        Effect::Set { target, to, from: ValueFrom::Fixed, .. } => {
            (*to as f64 - 5.0) * side(target) * reach(target)
        }
        Effect::Set { .. } => 0.0,
        Effect::Destroy { target } | Effect::Return { target } | Effect::Hide { target } => {
            -5.0 * side(target) * reach(target)
        }
        Effect::Swap { .. } | Effect::LowerWins { .. } | Effect::WinTies { .. } => 1.0,
        Effect::Reveal { .. } | Effect::ClearCounters { .. } => 0.0,
        Effect::Draw { player, amount } => *amount as f64 * whose(*player),
        Effect::Discard { player, amount, .. } => -(*amount as f64) * whose(*player),
        Effect::Points { player, amount, per: p } => 3.0 * *amount as f64 * per(p) * whose(*player),
        // Reading another card's value or multiplying: about a few points on average.
        Effect::Multiply { target, .. } => 3.0 * side(target) * reach(target),
        Effect::Place { player, .. } | Effect::Recover { player, .. } => whose(*player),
        Effect::Move { .. } => 1.0,
        Effect::Look { .. } | Effect::Shuffle { .. } => 0.0,
    }
}

/// +1 for the controller's own cards, -1 for the opponent's, 0 for either.
fn side(s: &Selector) -> f64 {
    match s.base {
        Base::Source => 1.0,
        Base::Event => 0.0,
        Base::Stacked => 1.0,
        Base::Filter | Base::Hand | Base::Pile | Base::Deck => match s.side {
            Side::You => 1.0,
            Side::Opp => -1.0,
            Side::Both => 0.0,
        },
    }
}

/// +1 for the controller, -1 for the opponent, 0 for both.
fn whose(p: Player) -> f64 {
    match p {
        Player::You => 1.0,
        Player::Opp => -1.0,
        Player::Both => 0.0,
    }
}

/// How many cards a selector can touch.
fn reach(s: &Selector) -> f64 {
    if s.base != Base::Filter {
        return 1.0;
    }
    let slots = match s.slots {
        _ if s.pick != super::cardset::Pick::All => return s.n as f64,
        Slots::This | Slots::Current | Slots::Prev1 | Slots::Next1 => 1.0,
        Slots::Adjacent => 2.0,
        Slots::Prev | Slots::Next => 4.0,
        Slots::All => 9.0,
        Slots::Range(a, b) => (b.saturating_sub(a) + 1) as f64,
    };
    let filters = [s.printed.is_some(), s.value.is_some(), s.face != Face::Any, s.counters.is_some()];
    slots * 0.5f64.powi(filters.iter().filter(|&&f| f).count() as i32)
}
