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
