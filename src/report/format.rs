//! Number formatting. For files a spreadsheet opens as they are (`real`, `opt`): `.` as the decimal
//! point, no thousands separators, at most ten significant digits, no exponent, empty for undefined.
//! For people (`grouped`, `count`, `fixed`): thousands separators and singular or plural nouns.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
