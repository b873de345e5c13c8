//! The faces a board can wear (docs/RULES.md §3.1): the two inscribed boards of the seed and a plain
//! one. Each row is split into two halves of six cells, and a word of six letters fills a half,
//! one letter per cell, so a client draws a face from the words alone.

use super::board::{Cell, Row};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Face {
    /// VIRTVS IMPERI / HOSTES VINCTI / LVDANT ROMANI: perhaps a victory over the Alamanni (268 or 271).
    VirtusImperi,
    /// LEVATE DALOCV / LVDERE NESCIS / IDIOTA RECEDE: "get up, give your place, you can't play,
    /// idiot, go away" (CIL XIV 4125; the seed's LEVEDE is a misprint of LVDERE).
    LevateDalocu,
    /// No inscription.
    Plain,
}

impl Face {
    pub const ALL: [Face; 3] = [Face::VirtusImperi, Face::LevateDalocu, Face::Plain];

    pub fn id(self) -> &'static str {
        match self {
            Face::VirtusImperi => "virtus-imperi",
            Face::LevateDalocu => "levate-dalocu",
            Face::Plain => "plain",
        }
    }

    /// The six words, top row first, left half before right half (from White's seat); none on
    /// the plain face.
    pub fn words(self) -> Option<[&'static str; 6]> {
        match self {
            Face::VirtusImperi => {
                Some(["VIRTVS", "IMPERI", "HOSTES", "VINCTI", "LVDANT", "ROMANI"])
            }
            Face::LevateDalocu => {
                Some(["LEVATE", "DALOCV", "LVDERE", "NESCIS", "IDIOTA", "RECEDE"])
            }
            Face::Plain => None,
        }
    }

    /// The letter inscribed on `cell`, if any.
    pub fn letter(self, cell: Cell) -> Option<char> {
        let row = match cell.row() {
            Row::Top => 0,
            Row::Middle => 1,
            Row::Bottom => 2,
        };
        let column = usize::from(cell.column() - 1);
        let word = self.words()?[row * 2 + column / 6];
        word.chars().nth(column % 6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_inscribed_face_has_six_words_of_six_letters_one_per_cell() {
        for face in [Face::VirtusImperi, Face::LevateDalocu] {
            for word in face.words().unwrap() {
                assert_eq!(word.chars().count(), 6, "{word}");
            }
        }
        let cell = |text: &str| Cell::parse(text).unwrap();
        assert_eq!(Face::VirtusImperi.letter(cell("T1")), Some('V'));
        assert_eq!(Face::VirtusImperi.letter(cell("M7")), Some('V'));
        assert_eq!(Face::VirtusImperi.letter(cell("B12")), Some('I'));
        assert_eq!(Face::LevateDalocu.letter(cell("M1")), Some('L'));
        assert_eq!(Face::Plain.letter(cell("M1")), None);
        assert_eq!(
            serde_json::to_string(&Face::VirtusImperi).unwrap(),
            "\"virtus-imperi\""
        );
    }
}
