//! The progress bar on stderr: games (or tournaments) done, per second, ETA. Shown only when stderr is a
//! terminal and the user did not ask for `--quiet`; updated once per chunk, never per game.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar of `total_games` units, named `units` (`games`, `tournaments`).
    pub fn new(total_games: u64, units: &str, quiet: bool) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(total_games), ProgressDrawTarget::stderr_with_hz(4));
        // Two lines, so that a long point label never wraps the bar: the label, cut to the width,
        // then the bar, which shrinks first when the terminal is narrow (80 columns leave it ~20).
        let template = format!(
            "{{wide_msg}}\n{{spinner}} {{elapsed_precise}} {{wide_bar}} {{human_pos}}/{{human_len}} {units} {{per_sec:0}} ETA {{eta}}"
        );
        let style = ProgressStyle::with_template(&template).expect("valid template");
        bar.set_style(style);
        Progress { bar: Some(bar) }
    }

    pub fn message(&self, msg: String) {
        if let Some(b) = &self.bar {
            b.set_message(crate::untrusted::one_line(&msg).into_owned());
        }
    }

    /// Starts the bar again for a new step of a longer command: `total` units at most, and what
    /// the step is.
    pub fn restart(&self, total: u64, msg: String) {
        if let Some(b) = &self.bar {
            b.set_length(total);
            b.set_position(0);
            b.reset_eta();
            b.set_message(crate::untrusted::one_line(&msg).into_owned());
        }
    }

    pub fn add(&self, games: u64) {
        if let Some(b) = &self.bar {
            b.inc(games);
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
