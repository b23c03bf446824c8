//! Decision costs of a run: wall time per decision (ns), per policy name, in HDR histograms
//! (G. Tene's HdrHistogram, via the `hdrhistogram` crate: fixed relative precision over a huge
//! range, mergeable), merged across threads and games and read as p50/p90/p99/max.
//!
//! The one statistic outside the byte-identical contract: it measures the machine, not the game.
//! It is not saved in `state.json`, so a resumed or merged run reports the decisions timed by the
//! process that wrote the files.

use hdrhistogram::Histogram;

/// Longest decision a histogram tells apart from a longer one (an hour, in ns); longer ones are
/// recorded as this.
const HIGHEST_NS: u64 = 3_600_000_000_000;
/// Significant decimal digits kept: 2 gives values within 1%, in a 37 KB histogram.
const DIGITS: u8 = 2;

/// An empty histogram of decision times.
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_NS, DIGITS).expect("valid histogram bounds")
}

/// Decision costs by policy name, in the order the policies were first seen.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    policies: Vec<(String, Histogram<u64>)>,
}

impl Timings {
    pub fn new() -> Timings {
        Timings::default()
    }

    fn slot(&mut self, policy: &str) -> &mut Histogram<u64> {
        let i = match self.policies.iter().position(|(name, _)| name == policy) {
            Some(i) => i,
            None => {
                self.policies.push((policy.to_string(), histogram()));
                self.policies.len() - 1
            }
        };
        &mut self.policies[i].1
    }

    /// Records one decision of `policy` that took `ns` nanoseconds.
    pub fn record(&mut self, policy: &str, ns: u64) {
        self.slot(policy).saturating_record(ns.max(1));
    }

    /// Adds a histogram of `policy`'s decisions.
    pub fn add(&mut self, policy: &str, decisions: &Histogram<u64>) {
        if !decisions.is_empty() {
            self.slot(policy).add(decisions).expect("same bounds, so every value fits");
        }
    }

    /// Adds every policy of `other`.
    pub fn merge(&mut self, other: &Timings) {
        for (name, h) in &other.policies {
            self.add(name, h);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.policies.iter().all(|(_, h)| h.is_empty())
    }

    /// The policies with at least one timed decision, in first-seen order.
    pub fn policies(&self) -> impl Iterator<Item = &str> {
        self.policies.iter().filter(|(_, h)| !h.is_empty()).map(|(name, _)| name.as_str())
    }

    pub fn histogram(&self, policy: &str) -> Option<&Histogram<u64>> {
        self.policies.iter().find(|(name, h)| name == policy && !h.is_empty()).map(|(_, h)| h)
    }

    /// Decisions timed (not decisions played: cheap policies are sampled).
    pub fn timed(&self, policy: &str) -> u64 {
        self.histogram(policy).map_or(0, Histogram::len)
    }

    pub fn p50(&self, policy: &str) -> Option<u64> {
        self.quantile(policy, 0.50)
    }

    pub fn p90(&self, policy: &str) -> Option<u64> {
        self.quantile(policy, 0.90)
    }

    pub fn p99(&self, policy: &str) -> Option<u64> {
        self.quantile(policy, 0.99)
    }

    pub fn max(&self, policy: &str) -> Option<u64> {
        self.histogram(policy).map(Histogram::max)
    }

    fn quantile(&self, policy: &str, q: f64) -> Option<u64> {
        self.histogram(policy).map(|h| h.value_at_quantile(q))
    }
}
