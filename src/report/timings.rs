//! `timings.csv`: what each policy's decisions cost, per point, from the decision clocks of
//! decision games (`stats::Timings`). The one file outside the byte-identical contract: its figures
//! measure the machine. Cheap policies are sampled (one decision in 64), so `decisions_timed` counts
//! the decisions measured, not all decisions made.

use std::io::Write;

use super::{Export, RunResult};

pub struct TimingsCsv;

impl Export for TimingsCsv {
    fn file_name(&self) -> &'static str {
        "timings.csv"
    }

    fn applies(&self, run: &RunResult) -> bool {
        run.timings.iter().any(|t| !t.is_empty())
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
        w.write_record(["scenario", "policy", "decisions_timed", "p50_ns", "p90_ns", "p99_ns", "max_ns"])?;
        for (point, timings) in run.points.iter().zip(&run.timings) {
            for policy in timings.policies() {
                let q = |v: Option<u64>| v.map_or_else(String::new, |x| x.to_string());
                w.write_record([
                    point.label.clone(),
                    policy.to_string(),
                    timings.timed(policy).to_string(),
                    q(timings.p50(policy)),
                    q(timings.p90(policy)),
                    q(timings.p99(policy)),
                    q(timings.max(policy)),
                ])?;
            }
        }
        w.flush()?;
        Ok(())
    }
}
