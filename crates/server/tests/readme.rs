//! The README works as written: every `cargo run --release -- <command>` line it shows is run
//! against the built `ludus` binary, its arguments split as a shell would split them, and must
//! succeed.

use std::process::Command;

const README: &str = include_str!("../../../README.md");
const CARGO_RUN: &str = "cargo run --release -- ";

/// Commands the README shows that take minutes by design; each with why it is not run here.
const LONG_RUNNING: &[(&str, &str)] = &[(
    "arena",
    "a 300-game calibration match between the strongest levels takes many minutes; \
     arena::run is tested on short matches in crates/ai/src/arena.rs",
)];

/// Splits a command line as a POSIX shell does for the forms the README uses: words separated by
/// blanks, single and double quotes (backslash escapes inside double quotes), and a `#` that
/// starts a word begins a comment.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '#' if word.is_none() => break,
            '\'' => {
                let quoted = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => quoted.push(c),
                        None => return Err(format!("unclosed ' in {line:?}")),
                    }
                }
            }
            '"' => {
                let quoted = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => quoted.push(c),
                            Some(c) => quoted.extend(['\\', c]),
                            None => return Err(format!("unclosed \" in {line:?}")),
                        },
                        Some(c) => quoted.push(c),
                        None => return Err(format!("unclosed \" in {line:?}")),
                    }
                }
            }
            '\\' => {
                if let Some(c) = chars.next() {
                    word.get_or_insert_with(String::new).push(c);
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The `ludus` arguments of every `cargo run --release -- …` line of the README.
fn readme_commands() -> Vec<Vec<String>> {
    README
        .lines()
        .filter_map(|line| line.trim().strip_prefix(CARGO_RUN))
        .map(|rest| shell_words(rest).expect("the README's command lines are well quoted"))
        .collect()
}

#[test]
fn shell_words_splits_like_a_shell() {
    assert_eq!(
        shell_words(r#"analyze --position "-/-/- t r:5,5" --dice 3   # a comment"#).unwrap(),
        ["analyze", "--position", "-/-/- t r:5,5", "--dice", "3"]
    );
    assert_eq!(
        shell_words(r#"a 'b "c"' "d \"e\" \x" f#g ''"#).unwrap(),
        ["a", r#"b "c""#, r#"d "e" \x"#, "f#g", ""]
    );
    assert!(shell_words("verify 'record.txt").is_err());
}

#[test]
fn every_ludus_command_in_the_readme_succeeds() {
    let mut ran = Vec::new();
    for words in readme_commands() {
        if let Some((_, why)) = LONG_RUNNING.iter().find(|(name, _)| *name == words[0]) {
            eprintln!("not run: {} ({why})", words.join(" "));
            continue;
        }
        let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(&words)
            .output()
            .expect("the binary runs");
        assert!(
            output.status.success(),
            "`ludus {}` failed ({}): {}",
            words.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            !output.stdout.is_empty(),
            "`ludus {}` printed nothing",
            words.join(" ")
        );
        ran.push(words);
    }
    assert!(ran.iter().any(|w| w[0] == "analyze") && ran.iter().any(|w| w[0] == "perft"));
    // The example that once failed ("unexpected argument '-/'"): a Pente Grammai position that
    // begins with an empty point.
    assert!(
        ran.iter()
            .any(|w| w.iter().any(|arg| arg.starts_with("-/"))),
        "the README's Kidd example ran"
    );
}
