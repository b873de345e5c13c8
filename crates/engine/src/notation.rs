//! What every notation parser shares: one error type that says what is wrong and where, and a
//! bound on input length so that no parser ever works on an unbounded string.

/// Longer inputs are refused before parsing; the longest real position (Duodecim) is ~200 bytes.
pub const MAX_NOTATION_LEN: usize = 512;

/// A position, move or square that does not parse, with a message for people.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

impl NotationError {
    pub fn new(message: impl Into<String>) -> NotationError {
        NotationError(message.into())
    }
}

/// Refuses inputs longer than [`MAX_NOTATION_LEN`], naming what was expected.
pub fn check_length(text: &str, what: &str) -> Result<(), NotationError> {
    if text.len() > MAX_NOTATION_LEN {
        Err(NotationError::new(format!(
            "the {what} is {} bytes long; at most {MAX_NOTATION_LEN} are accepted",
            text.len()
        )))
    } else {
        Ok(())
    }
}

/// A short, printable excerpt of user input for error messages.
pub fn excerpt(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}
