//! Text from outside (card names and texts, scenario descriptions, setting values, file paths) on
//! its way to a terminal, a page or a CSV file. A control character in it (ESC, BEL, a C1 control
//! such as U+009B, which terminals read as the start of a command) is written as a visible escape,
//! `\u{1b}`, so a card set cannot recolour, retitle or rewrite a terminal, nor hide text in a file.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal as it is: a C0 or C1 control or DEL, but for the line
/// breaks and tabs that text is laid out with.
fn hostile(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `s` with every control character but line breaks and tabs written as `\u{..}`.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hostile) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars().map(|c| if hostile(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect(),
    )
}

/// `s` as one line: `escape`, and line breaks and tabs written as `\n` and `\t` too.
pub fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| match c {
                '\n' => "\\n".to_string(),
                '\t' => "\\t".to_string(),
                c if c.is_control() => c.escape_unicode().to_string(),
                c => c.to_string(),
            })
            .collect(),
    )
}

/// A writer of UTF-8 text that escapes control characters (as `escape`) on the way through, for
/// files whose fields hold outside text (CSV). Line breaks and tabs pass.
pub struct Escaping<W: std::io::Write> {
    inner: W,
    /// A 0xC2 byte (the lead byte of a C1 control in UTF-8) waiting for the next write.
    pending: bool,
}

impl<W: std::io::Write> Escaping<W> {
    pub fn new(inner: W) -> Self {
        Escaping { inner, pending: false }
    }
}

impl<W: std::io::Write> std::io::Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = Vec::with_capacity(buf.len());
        for &b in buf {
            if self.pending {
                self.pending = false;
                if (0x80..0xa0).contains(&b) {
                    out.extend_from_slice(format!("\\u{{{b:x}}}").as_bytes());
                    continue;
                }
                out.push(0xc2);
            }
            match b {
                0xc2 => self.pending = true,
                b'\n' | b'\t' => out.push(b),
                b if b < 0x20 || b == 0x7f => out.extend_from_slice(format!("\\u{{{b:x}}}").as_bytes()),
                b => out.push(b),
            }
        }
        self.inner.write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if std::mem::take(&mut self.pending) {
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn controls_become_visible_escapes() {
        assert_eq!(escape("plain é\n\tline"), "plain é\n\tline");
        assert_eq!(escape("a\x1b[31mb\x07c\u{9b}2Jd\x7f"), "a\\u{1b}[31mb\\u{7}c\\u{9b}2Jd\\u{7f}");
        assert_eq!(one_line("a\nb\tc\x1b"), "a\\nb\\tc\\u{1b}");
    }

    #[test]
    fn the_writer_escapes_across_writes_and_keeps_other_text() {
        let mut out = Vec::new();
        {
            let mut w = Escaping::new(&mut out);
            let text = "é,a\x1bb\u{9b}c\n";
            let bytes = text.as_bytes();
            for b in bytes {
                w.write_all(std::slice::from_ref(b)).unwrap();
            }
            w.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "é,a\\u{1b}b\\u{9b}c\n");
    }
}
