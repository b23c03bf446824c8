//! Small multiples for sweeps of 1 to 60 points: which points share a panel and which colour each
//! gets. A few points share one panel; a bigger sweep gets one panel per combination of its other
//! settings, with the setting of fewest values (at most six) drawn as coloured lines in every
//! panel, the same colour for the same value throughout.

use crate::report::labels::{Sweep, word};

/// At most this many points share a panel when they are not faceted.
pub const TOGETHER: usize = 6;
/// At most this many values of the series setting, so colours stay distinct.
const MAX_SERIES: usize = 6;

/// One panel: its title and its points, each with its series (colour) index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facet {
    pub title: String,
    pub members: Vec<(usize, usize)>,
}

/// The panels of a figure and the legend of its colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facets {
    /// The setting the colours stand for (empty when each colour is a point of its own).
    pub key: String,
    /// The legend: one label per colour (none when every panel holds one point).
    pub series: Vec<String>,
    pub panels: Vec<Facet>,
}

impl Facets {
    /// Every point in one panel, each its own colour.
    pub fn together(sweep: &Sweep) -> Facets {
        Facets {
            key: String::new(),
            series: sweep.shorts(),
            panels: vec![Facet { title: String::new(), members: (0..sweep.len()).map(|i| (i, i)).collect() }],
        }
    }

    /// One panel per point.
    pub fn each(sweep: &Sweep) -> Facets {
        let panels =
            (0..sweep.len()).map(|i| Facet { title: sweep.short(i), members: vec![(i, 0)] }).collect();
        Facets { key: String::new(), series: Vec::new(), panels }
    }

    /// The panels for `sweep`: together when there are few points, else faceted by setting.
    pub fn of(sweep: &Sweep) -> Facets {
        if sweep.len() <= TOGETHER {
            return Facets::together(sweep);
        }
        let Some(k) = series_key(sweep) else { return Facets::each(sweep) };
        let values = sweep.distinct(k);
        let mut panels: Vec<(Vec<Option<String>>, Facet)> = Vec::new();
        for (i, point) in sweep.values.iter().enumerate() {
            let rest: Vec<Option<String>> =
                point.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, v)| v.clone()).collect();
            let s = values.iter().position(|v| *v == point[k]).unwrap_or(0);
            match panels.iter_mut().find(|(r, _)| *r == rest) {
                Some((_, f)) => f.members.push((i, s)),
                None => {
                    let title = panel_title(sweep, k, &rest);
                    panels.push((rest, Facet { title, members: vec![(i, s)] }));
                }
            }
        }
        let key = sweep.keys[k].clone();
        let series = values.iter().map(|v| v.clone().unwrap_or_else(|| "unset".into())).collect();
        Facets { key, series, panels: panels.into_iter().map(|p| p.1).collect() }
    }
}

/// The setting drawn as colours: the one with the fewest values (two to six), preferring one every
/// point sets, then the one listed last (sweeps usually list their finest setting last).
fn series_key(sweep: &Sweep) -> Option<usize> {
    (0..sweep.keys.len())
        .map(|k| {
            let values = sweep.distinct(k);
            (k, values.len(), values.contains(&None))
        })
        .filter(|&(_, n, _)| (2..=MAX_SERIES).contains(&n))
        .min_by_key(|&(k, n, unset)| (n, unset, std::cmp::Reverse(k)))
        .map(|(k, _, _)| k)
}

/// A panel's title: the values of the settings other than the series one.
fn panel_title(sweep: &Sweep, series: usize, rest: &[Option<String>]) -> String {
    let keys = sweep.keys.iter().enumerate().filter(|&(j, _)| j != series).map(|(_, k)| k);
    let words: Vec<String> = keys.zip(rest).filter_map(|(k, v)| v.as_ref().map(|v| word(k, v))).collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_sweep_is_faceted_by_its_other_settings() {
        let mut labels = Vec::new();
        for v in ["standard", "peace", "jokers"] {
            for p in [2, 3, 4] {
                labels.push(format!("war variant={v} players={p}"));
            }
        }
        labels.push("war variant=equal-jokers players=2".into());
        let f = Facets::of(&Sweep::of(&labels));
        assert_eq!(f.key, "players");
        assert_eq!(f.series, ["2", "3", "4"]);
        assert_eq!(f.panels.len(), 4);
        assert_eq!(f.panels[1].title, "variant=peace");
        assert_eq!(f.panels[1].members, [(3, 0), (4, 1), (5, 2)]);
        assert_eq!(f.panels[3].members, [(9, 0)]);
    }

    #[test]
    fn few_points_share_a_panel_and_a_long_single_sweep_gets_a_panel_each() {
        let labels: Vec<String> = (2..=4).map(|d| format!("scourge decks={d}")).collect();
        let f = Facets::of(&Sweep::of(&labels));
        assert_eq!(f.panels.len(), 1);
        assert_eq!(f.series, ["decks=2", "decks=3", "decks=4"]);
        let labels: Vec<String> = (1..=20).map(|d| format!("war war_down={d}")).collect();
        let f = Facets::of(&Sweep::of(&labels));
        assert_eq!(f.panels.len(), 20);
        assert!(f.series.is_empty());
    }
}
