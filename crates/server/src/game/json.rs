//! JSON written directly, for the texts the server writes at every version of every game (the
//! view's parts). The text values here never need escaping (enum names, ids, positions,
//! notations, hex), which serde would check byte by byte; a debug build asserts it. Text from
//! outside goes through `push_any_text`, which escapes it when it must. Each writer
//! is checked against serde's text of the same struct (`view.rs` tests), the struct the API's
//! schema is made from. The writers are inlined: each key is then a text of known length,
//! copied in place, where a call to copy each one was a tenth of writing a version's texts.

/// The fields of one JSON object, written one after another without its braces.
pub struct Fields<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Fields<'a> {
    /// Fields appended to `out`; the first is preceded by a comma unless `out` is to start
    /// an object with it (`first`).
    pub fn new(out: &'a mut String, first: bool) -> Fields<'a> {
        Fields { out, first }
    }

    #[inline]
    fn key(&mut self, key: &str) -> &mut String {
        if !std::mem::take(&mut self.first) {
            self.out.push(',');
        }
        push_text(self.out, key);
        self.out.push(':');
        self.out
    }

    #[inline]
    pub fn text(&mut self, key: &str, value: &str) {
        let out = self.key(key);
        push_text(out, value);
    }

    /// A text, or `null`.
    #[inline]
    pub fn maybe_text(&mut self, key: &str, value: Option<&str>) {
        let out = self.key(key);
        match value {
            Some(value) => push_text(out, value),
            None => out.push_str("null"),
        }
    }

    #[inline]
    pub fn integer(&mut self, key: &str, value: impl itoa::Integer) {
        let out = self.key(key);
        out.push_str(itoa::Buffer::new().format(value));
    }

    #[inline]
    pub fn boolean(&mut self, key: &str, value: bool) {
        let out = self.key(key);
        out.push_str(if value { "true" } else { "false" });
    }

    #[inline]
    pub fn null(&mut self, key: &str) {
        self.key(key).push_str("null");
    }

    /// JSON text written as it is.
    #[inline]
    pub fn raw(&mut self, key: &str, json: &str) {
        self.key(key).push_str(json);
    }

    /// An object whose fields `write` writes.
    #[inline]
    pub fn object(&mut self, key: &str, write: impl FnOnce(&mut Fields<'_>)) {
        let out = self.key(key);
        out.push('{');
        write(&mut Fields::new(out, true));
        out.push('}');
    }
}

/// `text` as a JSON string: text that needs no escaping.
#[inline]
pub fn push_text(out: &mut String, text: &str) {
    debug_assert!(
        !text.contains(|c: char| c == '"' || c == '\\' || c.is_control()),
        "{text:?} needs escaping"
    );
    out.push('"');
    out.push_str(text);
    out.push('"');
}

/// `text` as a JSON string, escaped where JSON needs it: for text from outside (a client's id).
/// Text that needs no escape, the usual case, is copied as it is: checking its bytes costs less
/// than serde's writer and the UTF-8 check of what it wrote.
pub fn push_any_text(out: &mut String, text: &str) {
    if text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push_str(&serde_json::to_string(text).expect("a text serialises"));
    } else {
        out.push('"');
        out.push_str(text);
        out.push('"');
    }
}
