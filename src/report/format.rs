//! Number formatting. For files a spreadsheet opens as they are (`real`, `opt`): `.` as the decimal
//! point, no thousands separators, at most ten significant digits, no exponent, empty for undefined.
//! For people (`grouped`, `count`, `fixed`): thousands separators and singular or plural nouns.
//!
//! Rates for people (`rate`, `rate_cells`, `RateScale`, `precision_note`): every writer that shows
//! a rate to a reader (terminal, `report.html`, plots) says it here, so a rare event reads the same
//! everywhere. A rate of 1% or more is a percentage (`56.5% [54.7, 58.3]`), with as many decimals
//! as its interval's width needs; a rarer one is so many in a power of ten with two significant
//! digits (`2.2 in 100,000 [1.9, 2.5]`), never `0.0%`; no event at all is `none in 100,000 games
//! (at most 3.7 in 100,000)`, the bound being the exact one-sided 97.5% bound `1 - 0.025^(1/n)`
//! over the `n` independent units (games, or deals where the games of a deal are grouped), not an
//! interval `[0.0, 0.0]`.

/// Formats a real number with up to ten significant digits, trailing zeros trimmed.
pub fn real(x: f64) -> String {
    if !x.is_finite() {
        return String::new();
    }
    if x == 0.0 {
        return "0".into();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (9 - magnitude).clamp(0, 15) as usize;
    let mut s = format!("{x:.decimals$}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" { "0".into() } else { s }
}

/// An optional integer: empty when absent.
pub fn opt(x: Option<i64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// An integer with thousands separators: `1,234,567`.
pub fn grouped(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and its noun, singular for one: `1 point`, `32 points`, `1,000,000 games`.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{} {noun}s", grouped(n as i128)) }
}

/// A real number with `decimals` decimals and thousands separators (`1,674.3`); `-` if undefined.
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let s = format!("{:.decimals$}", x.abs());
    let (int, frac) = s.split_once('.').map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let mut out = grouped(int.parse::<i128>().unwrap_or(0));
    if x < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

/// The exact one-sided 97.5% upper bound on a rate after no event in `n` independent trials
/// (`1 - 0.025^(1/n)`, about `3.69 / n`; the upper end of the two-sided 95% Clopper-Pearson
/// interval): 1 for `n = 0`.
pub fn none_bound(n: u64) -> f64 {
    if n == 0 { 1.0 } else { -(0.025f64.ln() / n as f64).exp_m1() }
}

/// How rates are written: in percent, or so many in `10^k` (`k >= 3`) for rates below 1%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateScale {
    Percent,
    /// So many in `10^k`.
    In(u32),
}

impl RateScale {
    /// The scale that writes `p` with a leading digit: percent from 1%, else the smallest power
    /// of ten (from 1,000) in which `p` is at least 1.
    pub fn of(p: f64) -> RateScale {
        if !(p.is_finite() && p > 0.0) || p >= 0.01 {
            return RateScale::Percent;
        }
        let mut k = 3;
        while k < 15 && p * 10f64.powi(k as i32) < 1.0 {
            k += 1;
        }
        RateScale::In(k)
    }

    /// The factor a rate is multiplied by in this scale.
    pub fn factor(self) -> f64 {
        match self {
            RateScale::Percent => 100.0,
            RateScale::In(k) => 10f64.powi(k as i32),
        }
    }

    /// What follows a number in this scale: `%` or ` in 100,000`.
    pub fn suffix(self) -> String {
        match self {
            RateScale::Percent => "%".into(),
            RateScale::In(k) => format!(" in {}", grouped(10i128.pow(k))),
        }
    }

    /// A column header's unit: `%` or `per 100,000`.
    pub fn header(self) -> String {
        match self {
            RateScale::Percent => "%".into(),
            RateScale::In(k) => format!("per {}", grouped(10i128.pow(k))),
        }
    }
}

/// `x` with two significant digits (`28`, `3.7`, `0.88`), and no more decimals than `max`.
fn two_digits(x: f64, max: usize) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let magnitude = x.abs().log10().floor() as i32;
    fixed(x, ((1 - magnitude).max(0) as usize).min(max))
}

/// Decimals of a percentage whose interval has half-width `half` (in points): one, more when the
/// interval is narrower than ±0.1 so that it shows, and enough that a share near 100% is not
/// rounded to it (`99.998%`).
fn percent_decimals(p: f64, half: f64) -> usize {
    let mut d = 1;
    if half.is_finite() && half > 0.0 {
        d = d.max(-half.log10().floor() as i32);
    }
    let gap = 100.0 - p;
    if gap > 0.0 && gap < 1.0 {
        d = d.max(1 - gap.log10().floor() as i32);
    }
    d.clamp(1, 6) as usize
}

/// A rate's estimate and its interval or bound, each in words for a table cell, in `scale`:
/// (`2.2`, `[1.9, 2.5]`) in a column of rates per 100,000, (`none`, `at most 3.7`) when no event
/// happened. `units` are the interval's independent units (`Interval::units`).
pub fn rate_cells(estimate: f64, low: f64, high: f64, units: u64, scale: RateScale) -> (String, String) {
    if !estimate.is_finite() {
        return ("-".into(), String::new());
    }
    let f = scale.factor();
    let number = |x: f64| match scale {
        RateScale::Percent => fixed(100.0 * x, percent_decimals(100.0 * estimate, 50.0 * (high - low))),
        RateScale::In(_) => two_digits(x * f, 3),
    };
    if estimate == 0.0 {
        return ("none".into(), format!("at most {}", bound(none_bound(units), scale)));
    }
    if estimate == 1.0 {
        return ("all".into(), format!("at least {}", number(1.0 - none_bound(units))));
    }
    (number(estimate), format!("[{}, {}]", number(low), number(high)))
}

/// A bound written in `scale` with two significant digits.
fn bound(x: f64, scale: RateScale) -> String {
    let f = scale.factor();
    match scale {
        RateScale::Percent if x >= 0.1 => format!("{}%", fixed(100.0 * x, 0)),
        _ => format!("{}{}", two_digits(x * f, 6), if scale == RateScale::Percent { "%" } else { "" }),
    }
}

/// A rate for a sentence: `56.5% [54.7, 58.3]`, `2.2 in 100,000 [1.9, 2.5]`, `none in 2,000 games
/// (at most 1.8 in 1,000)` or `all 2,000 games (at least 99.82%)`. `trials` counts the `noun`s the
/// rate is a share of (games, decided games); the interval's `units` the independent units the
/// bound rests on, named when they are fewer (deals whose games are grouped).
pub fn rate(i: &crate::stats::Interval, trials: u64, noun: &str) -> String {
    let (estimate, low, high) = (i.estimate, i.low, i.high);
    if !estimate.is_finite() {
        return "not measured".into();
    }
    let units = if i.units > 0 { i.units } else { trials };
    let over = if units < trials {
        format!(", from {} independent deals", grouped(units as i128))
    } else {
        String::new()
    };
    if estimate == 0.0 {
        return format!("none in {} (at most {}{over})", count(trials, noun), at_most(units));
    }
    if estimate == 1.0 {
        let (_, at_least) = rate_cells(estimate, low, high, units, RateScale::Percent);
        let all =
            if trials == 1 { format!("the one {noun}") } else { format!("all {}", count(trials, noun)) };
        return format!("{all} ({at_least}%{over})");
    }
    let scale = RateScale::of(estimate);
    let (e, range) = rate_cells(estimate, low, high, units, scale);
    format!("{e}{} {range}", scale.suffix())
}

/// A rate in few words, for a plot's label: `56.5% [54.7, 58.3]`, `2.2 in 100,000 [1.9, 2.5]`,
/// `none (at most 3.7 in 100,000)`, `all (at least 99.82%)`.
pub fn rate_short(i: &crate::stats::Interval, trials: u64) -> String {
    if !i.estimate.is_finite() {
        return "-".into();
    }
    let units = if i.units > 0 { i.units } else { trials };
    match i.estimate {
        0.0 => format!("none (at most {})", at_most(units)),
        1.0 => {
            let (_, at_least) = rate_cells(1.0, i.low, i.high, units, RateScale::Percent);
            format!("all ({at_least}%)")
        }
        p => {
            let scale = RateScale::of(p);
            let (e, range) = rate_cells(p, i.low, i.high, units, scale);
            format!("{e}{} {range}", scale.suffix())
        }
    }
}

/// A rate with the interval a confidence sequence claims for it (its own bounds, not the fixed-n
/// bound of `rate`): `56.5% [54.7, 58.3]`, `1.5 in 10,000 [0.20, 12]`, `none (at most 10 in
/// 10,000)`, `all (at least 99.71%)`.
pub fn rate_claimed(i: &crate::stats::Interval) -> String {
    let (p, low, high) = (i.estimate, i.low, i.high);
    if !p.is_finite() {
        return "not measured".into();
    }
    if p == 0.0 {
        let scale = RateScale::of(high);
        return format!("none (at most {}{})", bound(high, scale), bound_suffix(scale));
    }
    if p == 1.0 {
        return format!(
            "all (at least {}%)",
            fixed(100.0 * low, percent_decimals(100.0 * low, 50.0 * (1.0 - low)))
        );
    }
    let scale = RateScale::of(p);
    let f = scale.factor();
    let number = |x: f64| match scale {
        RateScale::Percent => fixed(100.0 * x, percent_decimals(100.0 * p, 50.0 * (high - low))),
        RateScale::In(_) => two_digits(x * f, 3),
    };
    format!("{}{} [{}, {}]", number(p), scale.suffix(), number(low), number(high))
}

/// The exact bound after no event in `units` independent trials, in words: `3.7 in 100,000`, `17%`.
pub fn at_most(units: u64) -> String {
    let b = none_bound(units);
    let scale = RateScale::of(b);
    format!("{}{}", bound(b, scale), bound_suffix(scale))
}

/// What follows a bound written by `bound`: nothing for a percentage (it has its `%`).
fn bound_suffix(scale: RateScale) -> String {
    if scale == RateScale::Percent { String::new() } else { scale.suffix() }
}

/// A count rounded to two significant digits, in words past a million: `250,000`, `4.0 million`.
pub fn about(n: f64) -> String {
    if !n.is_finite() || n < 1.0 {
        return "1".into();
    }
    let magnitude = n.log10().floor() as i32;
    let step = 10f64.powi((magnitude - 1).max(0));
    let r = (n / step).round() * step;
    if r >= 1e9 {
        format!("{} billion", two_digits(r / 1e9, 1))
    } else if r >= 1e6 {
        format!("{} million", two_digits(r / 1e6, 1))
    } else {
        grouped(r as i128)
    }
}

/// The relative precision `precision_note` asks of a rare rate: ±10% of itself.
pub const TARGET_PRECISION: f64 = 0.1;
/// A rate measured more loosely than ± this share of itself is too rare for the games played.
pub const LOOSE: f64 = 0.25;

/// For a rate too rare for the `games` played (no event, or an interval wider than ±25% of the
/// rate), how many games would measure it to ±10% of itself: `about 4.0 million games would
/// give ±10%`; for no event, at least the games that would measure a rate at its upper bound so.
/// Nothing when the rate is measured well enough. Grouped games are scaled as the interval is:
/// the games needed grow as the square of the width wanted, from the width the games gave.
pub fn precision_note(i: &crate::stats::Interval, games: u64) -> Option<String> {
    if !i.estimate.is_finite() || games == 0 || i.estimate == 1.0 {
        return None;
    }
    let t = TARGET_PRECISION;
    if i.estimate == 0.0 {
        let units = if i.units > 0 { i.units } else { games };
        let p = none_bound(units);
        // n z² (1 - p) / (p t²) units, each `games / units` games.
        let n = crate::stats::interval::Z95.powi(2) * (1.0 - p) / (p * t * t) * games as f64 / units as f64;
        return Some(format!("measuring it to ±{:.0}% would take more than {} games", 100.0 * t, about(n)));
    }
    let half = i.half_width();
    let relative = half / i.estimate;
    if relative.is_nan() || relative <= LOOSE {
        return None;
    }
    let n = games as f64 * (relative / t).powi(2);
    Some(format!("about {} games would measure it to ±{:.0}%", about(n), 100.0 * t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Interval, Method, wilson};

    #[test]
    fn no_event_gives_the_exact_bound() {
        // 1 - 0.025^(1/n): 3.69 in 100,000 for n = 100,000; 0.3085 for n = 10.
        assert!((none_bound(100_000) * 1e5 - 3.6889).abs() < 1e-3, "{}", none_bound(100_000));
        assert!((none_bound(10) - 0.308_5).abs() < 1e-4, "{}", none_bound(10));
        assert!((none_bound(1) - 0.975).abs() < 1e-12);
        let none = wilson(0, 100_000);
        assert_eq!(rate(&none, 100_000, "game"), "none in 100,000 games (at most 3.7 in 100,000)");
        assert_eq!(rate(&wilson(0, 2000), 2000, "game"), "none in 2,000 games (at most 1.8 in 1,000)");
        assert_eq!(rate(&wilson(0, 20), 20, "game"), "none in 20 games (at most 17%)");
        // A bound below 0.1% among percentages keeps its two digits.
        assert_eq!(rate_cells(0.0, 0.0, 0.0, 200_000, RateScale::Percent).1, "at most 0.0018%");
        // Grouped games: the bound rests on the deals.
        let grouped_none = Interval { units: 1000, ..wilson(0, 1000) };
        assert_eq!(
            rate(&grouped_none, 2000, "game"),
            "none in 2,000 games (at most 3.7 in 1,000, from 1,000 independent deals)"
        );
        assert_eq!(
            rate_cells(0.0, 0.0, 0.0, 100_000, RateScale::In(5)),
            ("none".into(), "at most 3.7".into())
        );
    }

    #[test]
    fn short_rates_for_plots() {
        assert_eq!(rate_short(&wilson(0, 100_000), 100_000), "none (at most 3.7 in 100,000)");
        assert_eq!(rate_short(&wilson(22, 1_000_000), 1_000_000), "2.2 in 100,000 [1.5, 3.3]");
        assert_eq!(rate_short(&wilson(2000, 2000), 2000), "all (at least 99.82%)");
    }

    #[test]
    fn rare_rates_in_a_power_of_ten() {
        // 22 in 1,000,000 games: 2.2 in 100,000 with Wilson's [1.45, 3.33].
        let r = wilson(22, 1_000_000);
        assert_eq!(rate(&r, 1_000_000, "game"), "2.2 in 100,000 [1.5, 3.3]");
        let one = wilson(1, 2000);
        assert_eq!(rate(&one, 2000, "game"), "5.0 in 10,000 [0.88, 28]");
        assert_eq!(RateScale::of(0.005), RateScale::In(3));
        assert_eq!(RateScale::of(0.0099), RateScale::In(3));
        assert_eq!(RateScale::of(0.01), RateScale::Percent);
        assert_eq!(RateScale::of(1e-6), RateScale::In(6));
        assert_eq!(RateScale::In(5).header(), "per 100,000");
    }

    #[test]
    fn percentages_carry_the_decimals_of_their_interval() {
        let i = |estimate: f64, low: f64, high: f64| Interval {
            estimate,
            low,
            high,
            method: Method::Ratio,
            units: 1,
        };
        assert_eq!(rate(&i(0.565, 0.547, 0.583), 100, "game"), "56.5% [54.7, 58.3]");
        assert_eq!(rate(&i(0.5001, 0.4998, 0.5004), 100, "game"), "50.01% [49.98, 50.04]");
        assert_eq!(rate(&i(0.99998, 0.99995, 0.99999), 100, "game"), "99.9980% [99.9950, 99.9990]");
        assert_eq!(rate(&wilson(2000, 2000), 2000, "game"), "all 2,000 games (at least 99.82%)");
        assert_eq!(rate(&Interval::undefined(Method::Wilson), 0, "game"), "not measured");
    }

    #[test]
    fn rare_rates_say_the_games_that_would_measure_them() {
        assert_eq!(about(4_040_000.0), "4.0 million");
        assert_eq!(about(254_321.0), "250,000");
        assert_eq!(about(2.5e9), "2.5 billion");
        // 2 events in 10,000: ±(roughly) 100% of itself; ±10% takes about 100 times the games.
        let two = wilson(2, 10_000);
        let note = precision_note(&two, 10_000).unwrap();
        assert!(note.starts_with("about ") && note.ends_with(" games would measure it to ±10%"), "{note}");
        // No event in 100,000: a rate of 3.7 in 100,000 takes 3.84 (1 - p) / (p 0.01) = 10 million.
        assert_eq!(
            precision_note(&wilson(0, 100_000), 100_000).unwrap(),
            "measuring it to ±10% would take more than 10 million games"
        );
        // Well measured: nothing to add.
        assert_eq!(precision_note(&wilson(5000, 10_000), 10_000), None);
    }

    #[test]
    fn formats_plainly() {
        assert_eq!(real(0.5), "0.5");
        assert_eq!(real(261.123456789012), "261.1234568");
        assert_eq!(real(0.000012345), "0.000012345");
        assert_eq!(real(3.0), "3");
        assert_eq!(real(f64::NAN), "");
        assert_eq!(real(-0.0000000000001), "-0.0000000000001");
        assert_eq!(real(1e-20), "0");
    }

    #[test]
    fn formats_for_people() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(-7946240), "-7,946,240");
        assert_eq!(count(1, "point"), "1 point");
        assert_eq!(count(0, "thread"), "0 threads");
        assert_eq!(count(1_000_000, "game"), "1,000,000 games");
        assert_eq!(fixed(1674.26, 1), "1,674.3");
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-12345.0, 0), "-12,345");
        assert_eq!(fixed(f64::NAN, 2), "-");
    }

    #[test]
    fn a_claimed_rate_reads_its_own_bounds() {
        use crate::stats::{Interval, Method};
        let i =
            |estimate, low, high| Interval { estimate, low, high, method: Method::Betting, units: 20_000 };
        assert_eq!(rate_claimed(&i(0.00015, 0.0, 0.00123)), "1.5 in 10,000 [0, 12]");
        assert_eq!(rate_claimed(&i(0.0, 0.0, 0.00104)), "none (at most 1.0 in 1,000)");
        assert_eq!(rate_claimed(&i(0.565, 0.547, 0.583)), "56.5% [54.7, 58.3]");
        assert!(!rate_claimed(&i(0.0, 0.0, 0.00104)).contains("0.0"));
    }
}
