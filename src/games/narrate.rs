//! The narrator every engine plays with: `Silent` in runs (it compiles to nothing, so the hot
//! loop pays nothing for the story), `Story` for `warsim play`. Because both are the same engine
//! code, the narrated game is the played game.

/// Something that hears the story of a game. `Silent` compiles to nothing.
pub trait Narrator {
    const ON: bool;
    fn line(&mut self, text: std::fmt::Arguments);
}

pub struct Silent;

impl Narrator for Silent {
    const ON: bool = false;
    #[inline(always)]
    fn line(&mut self, _: std::fmt::Arguments) {}
}

/// Writes the story into a string, one line per call.
pub struct Story<'a>(pub &'a mut String);

impl Narrator for Story<'_> {
    const ON: bool = true;
    fn line(&mut self, text: std::fmt::Arguments) {
        use std::fmt::Write;
        let _ = writeln!(self.0, "{text}");
    }
}

/// The closing line of every narrative: each counter that fired in the game, as `name=value`, in
/// the layout's order, so a reader can check the story against the run's `events.csv`.
pub fn counters_line<S: AsRef<str>>(names: &[S], values: &[u64]) -> String {
    let fired: Vec<String> = names
        .iter()
        .zip(values)
        .filter(|(_, v)| **v > 0)
        .map(|(k, v)| format!("{}={v}", k.as_ref()))
        .collect();
    format!("Counters: {}", fired.join(" "))
}

#[cfg(test)]
mod tests {
    use super::counters_line;

    #[test]
    fn counters_line_lists_what_fired_in_order() {
        assert_eq!(
            counters_line(&["wars", "double_wars", "cards_killed"], &[3, 0, 2]),
            "Counters: wars=3 cards_killed=2"
        );
        assert_eq!(counters_line(&["wars"], &[0]), "Counters: ");
    }
}
