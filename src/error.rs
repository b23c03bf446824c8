//! The one error type that means "the user asked for something we do not allow": it is printed as
//! one line and exits with code 2. Every other failure is an `anyhow::Error` and exits with 1.

/// Bad input: an unknown game, setting, value or preset, an impossible combination, a malformed
/// scenario file, an unusable output folder. The message names the problem and what is allowed.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl UsageError {
    pub fn new(msg: impl Into<String>) -> Self {
        UsageError(msg.into())
    }
}

/// Shorthand for returning a usage error from anything that returns `anyhow::Result`.
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        ::anyhow::Error::from($crate::error::UsageError(format!($($arg)*)))
    };
}
