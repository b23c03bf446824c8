//! What tells scenario points apart, for the terminal table, the report page and the plots.
//!
//! A point's label is `game key=value key=value …` (with ` #2` for a repeated point). A sweep varies
//! some keys and shares the rest: the shared words are said once (in a title or a heading) and each
//! key that varies gets its own column or facet, so no row is told apart by a cut-off label.

/// The key under which the game's name goes (the label's first word).
pub const GAME: &str = "game";
/// The key of a repeated point's number (`#2`).
pub const REPEAT: &str = "#";

/// The `(key, value)` words of one label, in the label's order.
pub fn words(label: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, w) in label.split_whitespace().enumerate() {
        match w.split_once('=') {
            _ if i == 0 => out.push((GAME.into(), w.into())),
            Some((k, v)) => out.push((k.into(), v.into())),
            None if w.starts_with('#') => out.push((REPEAT.into(), w.into())),
            // A value with a space in it: the word belongs to the previous value.
            None => {
                if let Some(last) = out.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(w);
                }
            }
        }
    }
    out
}

/// A `(key, value)` word as the label writes it.
pub fn word(key: &str, value: &str) -> String {
    if key == GAME || key == REPEAT { value.to_string() } else { format!("{key}={value}") }
}

/// The points of a run as a table: the words they share, and a column per key that varies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The words every point shares, in the first point's order (`war players=2`).
    pub common: String,
    /// The keys whose value is not the same at every point, in order of first appearance.
    pub keys: Vec<String>,
    /// Per point, the value of each key of `keys` (`None`: the point does not set it).
    pub values: Vec<Vec<Option<String>>>,
}

impl Sweep {
    pub fn of(labels: &[String]) -> Sweep {
        let parsed: Vec<Vec<(String, String)>> = labels.iter().map(|l| words(l)).collect();
        let value = |p: &[(String, String)], k: &str| p.iter().find(|w| w.0 == k).map(|w| w.1.clone());
        let mut all_keys: Vec<String> = Vec::new();
        for p in &parsed {
            for (k, _) in p {
                if !all_keys.contains(k) {
                    all_keys.push(k.clone());
                }
            }
        }
        let shared = |k: &str| {
            let first = parsed.first().and_then(|p| value(p, k));
            first.is_some() && parsed.iter().all(|p| value(p, k) == first)
        };
        let common: Vec<String> = parsed
            .first()
            .map(|p| p.iter().filter(|(k, _)| shared(k)).map(|(k, v)| word(k, v)).collect())
            .unwrap_or_default();
        let keys: Vec<String> = all_keys.into_iter().filter(|k| !shared(k)).collect();
        let values = parsed.iter().map(|p| keys.iter().map(|k| value(p, k)).collect()).collect();
        Sweep { common: common.join(" "), keys, values }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// What tells point `i` apart: its words for the keys that vary (its whole label's words when
    /// nothing varies, e.g. a run of one point).
    pub fn short(&self, i: usize) -> String {
        let w: Vec<String> = self
            .keys
            .iter()
            .zip(&self.values[i])
            .filter_map(|(k, v)| v.as_ref().map(|v| word(k, v)))
            .collect();
        if w.is_empty() { self.common.clone() } else { w.join(" ") }
    }

    /// Every point's `short` words.
    pub fn shorts(&self) -> Vec<String> {
        (0..self.len()).map(|i| self.short(i)).collect()
    }

    /// The values key `k` (an index into `keys`) takes, in order of first appearance.
    pub fn distinct(&self, k: usize) -> Vec<Option<String>> {
        let mut out: Vec<Option<String>> = Vec::new();
        for v in &self.values {
            if !out.contains(&v[k]) {
                out.push(v[k].clone());
            }
        }
        out
    }

    /// `what — common words`, or `what` alone when the points share nothing.
    pub fn title(&self, what: &str) -> String {
        if self.common.is_empty() { what.to_string() } else { format!("{what} — {}", self.common) }
    }
}

/// The baseline's words that differ from the point's (`standard` for `variant=peace players=3`
/// against `variant=standard players=3`): a key the point also sets is shown by its value alone.
pub fn baseline_words(point: &str, baseline: &str) -> String {
    let pw = words(point);
    let differing: Vec<String> = words(baseline)
        .into_iter()
        .filter(|w| !pw.contains(w))
        .map(|(k, v)| if pw.iter().any(|p| p.0 == k) { v } else { word(&k, &v) })
        .collect();
    if differing.is_empty() { baseline.to_string() } else { differing.join(" ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(l: &[&str]) -> Vec<String> {
        l.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_sweep_shares_some_words_and_varies_the_others() {
        let s = Sweep::of(&labels(&[
            "territories players=2 rotate_seats=true version=A policies=random",
            "territories players=2 rotate_seats=true search_budget=50 version=A policies=search,random",
            "territories rotate_seats=true version=B players=3 policies=greedy",
        ]));
        assert_eq!(s.common, "territories rotate_seats=true");
        assert_eq!(s.keys, ["players", "version", "policies", "search_budget"]);
        assert_eq!(s.values[0][3], None);
        assert_eq!(s.values[1][3].as_deref(), Some("50"));
        assert_eq!(s.short(1), "players=2 version=A policies=search,random search_budget=50");
        assert_eq!(s.distinct(0), [Some("2".to_string()), Some("3".to_string())]);
        assert_eq!(s.title("Outcomes"), "Outcomes — territories rotate_seats=true");
    }

    #[test]
    fn one_point_is_told_by_its_whole_label_and_repeats_by_their_number() {
        let s = Sweep::of(&labels(&["war"]));
        assert!(s.keys.is_empty());
        assert_eq!(s.short(0), "war");
        let s = Sweep::of(&labels(&["war players=3", "war players=3 #2", "scourge"]));
        assert_eq!(s.keys, [GAME, "players", REPEAT]);
        assert_eq!(s.shorts(), ["war players=3", "war players=3 #2", "scourge"]);
    }

    #[test]
    fn the_baseline_says_only_what_differs() {
        assert_eq!(
            baseline_words("war variant=peace players=3", "war variant=standard players=3"),
            "standard"
        );
        assert_eq!(baseline_words("war players=3", "war variant=standard players=3"), "variant=standard");
        assert_eq!(baseline_words("war", "war"), "war");
    }
}
