//! The one rule for every name that becomes a file or an object key: a dataset's file
//! paths (client and server), the files of a folder resource, import targets under
//! `ext/<slug>/`, lock file entries and blob keys.
//!
//! A path is relative and `/`-separated; each segment is refused (never rewritten) when it
//! is empty, is `.` or `..` once trimmed (or holds nothing but dots), has leading or
//! trailing whitespace, holds a control character, a backslash or a Unicode direction
//! override, or starts with a drive letter (`C:`). Rewriting is how escapes happen: a
//! cleaner that trims `" .."` makes `..` out of a name that passed the check.

use std::fmt;

/// The longest path, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;
/// The longest segment, in bytes (what common file systems allow).
pub const MAX_SEGMENT_BYTES: usize = 255;

/// Why a path is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathProblem {
    /// The whole path is empty.
    Empty,
    /// Longer than [`MAX_PATH_BYTES`].
    TooLong,
    /// Starts with `/`.
    Absolute,
    /// A segment is empty (`a//b`, a trailing `/`).
    EmptySegment,
    /// A segment is `.` or `..` once trimmed, or only dots.
    DotSegment,
    /// A segment starts or ends with whitespace.
    Whitespace,
    /// A segment holds a control character.
    ControlCharacter,
    /// A segment holds a Unicode direction override (text shown differs from the name).
    DirectionOverride,
    /// A segment holds `\`.
    Backslash,
    /// A segment starts with a drive letter (`C:`).
    DriveLetter,
    /// A segment is longer than [`MAX_SEGMENT_BYTES`].
    SegmentTooLong,
    /// A file name holds `/`.
    Separator,
}

impl PathProblem {
    /// What is wrong, as the end of a sentence ("… is refused: it …").
    pub fn reason(self) -> &'static str {
        match self {
            PathProblem::Empty => "is empty",
            PathProblem::TooLong => "is longer than 1024 bytes",
            PathProblem::Absolute => "is absolute (starts with `/`); paths are relative",
            PathProblem::EmptySegment => "has an empty segment (`//`, or a `/` at either end)",
            PathProblem::DotSegment => "is `.`, `..` or only dots (once trimmed)",
            PathProblem::Whitespace => "starts or ends with whitespace",
            PathProblem::ControlCharacter => "holds a control character",
            PathProblem::DirectionOverride => "holds a Unicode direction override",
            PathProblem::Backslash => "holds `\\`; paths are `/`-separated",
            PathProblem::DriveLetter => "starts with a drive letter (`X:`)",
            PathProblem::SegmentTooLong => "is longer than 255 bytes",
            PathProblem::Separator => "holds `/`; a file name is one segment",
        }
    }
}

/// A refused path: the path, the segment at fault (when one is) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub path: String,
    /// The segment at fault; `None` when the path as a whole is (empty, too long, absolute).
    pub segment: Option<String>,
    pub problem: PathProblem,
}

impl fmt::Display for PathError {
    /// Control characters and the like are escaped: the text may reach a terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.segment {
            Some(segment) if segment.as_str() != self.path => write!(
                f,
                "the path \"{}\" is refused: its segment \"{}\" {}",
                self.path.escape_debug(),
                segment.escape_debug(),
                self.problem.reason()
            ),
            _ => write!(
                f,
                "the path \"{}\" is refused: it {}",
                self.path.escape_debug(),
                self.problem.reason()
            ),
        }
    }
}

impl std::error::Error for PathError {}

/// A path that passed [`check_relative_path`]: relative, `/`-separated, every segment a
/// plain name. Joining it below a folder stays in that folder (links aside: see the
/// confined writer of `stone data import`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RelativePath(String);

impl RelativePath {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its segments, in order.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }
}

impl fmt::Display for RelativePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for RelativePath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Checks `path` against the rule; the error names the segment at fault and why.
pub fn check_relative_path(path: &str) -> Result<RelativePath, PathError> {
    let whole = |problem| PathError {
        path: path.to_owned(),
        segment: None,
        problem,
    };
    if path.is_empty() {
        return Err(whole(PathProblem::Empty));
    }
    if path.len() > MAX_PATH_BYTES {
        return Err(whole(PathProblem::TooLong));
    }
    if path.starts_with('/') {
        return Err(whole(PathProblem::Absolute));
    }
    for segment in path.split('/') {
        segment_problem(segment).map_err(|problem| PathError {
            path: path.to_owned(),
            segment: Some(segment.to_owned()),
            problem,
        })?;
    }
    Ok(RelativePath(path.to_owned()))
}

/// Checks one file name: a path of one segment.
pub fn check_file_name(name: &str) -> Result<RelativePath, PathError> {
    let path = check_relative_path(name)?;
    if name.contains('/') {
        return Err(PathError {
            path: name.to_owned(),
            segment: None,
            problem: PathProblem::Separator,
        });
    }
    Ok(path)
}

fn segment_problem(segment: &str) -> Result<(), PathProblem> {
    if segment.is_empty() {
        return Err(PathProblem::EmptySegment);
    }
    if segment.len() > MAX_SEGMENT_BYTES {
        return Err(PathProblem::SegmentTooLong);
    }
    if segment.chars().any(char::is_control) {
        return Err(PathProblem::ControlCharacter);
    }
    if segment.chars().any(is_direction_override) {
        return Err(PathProblem::DirectionOverride);
    }
    if segment.contains('\\') {
        return Err(PathProblem::Backslash);
    }
    let trimmed = segment.trim();
    if trimmed.is_empty() || trimmed.chars().all(|c| c == '.') {
        return Err(PathProblem::DotSegment);
    }
    if trimmed.len() != segment.len() {
        return Err(PathProblem::Whitespace);
    }
    let mut chars = segment.chars();
    if let (Some(letter), Some(':')) = (chars.next(), chars.next())
        && letter.is_ascii_alphabetic()
    {
        return Err(PathProblem::DriveLetter);
    }
    Ok(())
}

/// Unicode bidirectional controls: they make a name read differently from what it is.
fn is_direction_override(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_paths_pass_unchanged() {
        for ok in [
            "a.csv",
            "dir/sub/b.png",
            "with space.txt",
            "ü.bin",
            "a..b",
            ".hidden",
            "ab:c",
        ] {
            assert_eq!(check_relative_path(ok).unwrap().as_str(), ok);
        }
    }

    #[test]
    fn each_problem_is_named_with_its_segment() {
        for (bad, segment, problem) in [
            ("", None, PathProblem::Empty),
            ("/etc/passwd", None, PathProblem::Absolute),
            ("a//b", Some(""), PathProblem::EmptySegment),
            ("dir/", Some(""), PathProblem::EmptySegment),
            ("./a", Some("."), PathProblem::DotSegment),
            ("a/../b", Some(".."), PathProblem::DotSegment),
            ("a/ ../b", Some(" .."), PathProblem::DotSegment),
            ("a/.. /b", Some(".. "), PathProblem::DotSegment),
            ("a/.../b", Some("..."), PathProblem::DotSegment),
            ("a/ /b", Some(" "), PathProblem::DotSegment),
            (" a.csv", Some(" a.csv"), PathProblem::Whitespace),
            ("a.csv\u{a0}", Some("a.csv\u{a0}"), PathProblem::Whitespace),
            ("a\nb", Some("a\nb"), PathProblem::ControlCharacter),
            (
                "a\u{1b}[31m",
                Some("a\u{1b}[31m"),
                PathProblem::ControlCharacter,
            ),
            ("a\\..\\b", Some("a\\..\\b"), PathProblem::Backslash),
            ("C:/x", Some("C:"), PathProblem::DriveLetter),
            ("d/c:evil", Some("c:evil"), PathProblem::DriveLetter),
            (
                "gpj.\u{202e}exe",
                Some("gpj.\u{202e}exe"),
                PathProblem::DirectionOverride,
            ),
        ] {
            let e = check_relative_path(bad).unwrap_err();
            assert_eq!(e.problem, problem, "{bad:?}");
            assert_eq!(e.segment.as_deref(), segment, "{bad:?}");
            assert!(!e.to_string().contains('\n'), "{e}");
            assert!(!e.to_string().contains('\u{1b}'), "{e}");
        }
        let long = "a".repeat(MAX_PATH_BYTES + 1);
        assert_eq!(
            check_relative_path(&long).unwrap_err().problem,
            PathProblem::TooLong
        );
        let segment = "a".repeat(MAX_SEGMENT_BYTES + 1);
        assert_eq!(
            check_relative_path(&segment).unwrap_err().problem,
            PathProblem::SegmentTooLong
        );
    }

    #[test]
    fn messages_say_which_segment_and_why() {
        let e = check_relative_path("photos/ ../x.jpg").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the path \"photos/ ../x.jpg\" is refused: its segment \" ..\" is `.`, `..` or only dots (once trimmed)"
        );
        let e = check_relative_path("/abs").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the path \"/abs\" is refused: it is absolute (starts with `/`); paths are relative"
        );
    }

    #[test]
    fn a_file_name_is_one_segment() {
        assert_eq!(check_file_name("a.csv").unwrap().as_str(), "a.csv");
        for bad in ["a/b", "/a", "..", " ..", "", "a/../b"] {
            assert!(check_file_name(bad).is_err(), "{bad:?}");
        }
    }

    proptest! {
        /// Whatever passes stays below the folder it is joined to: no segment a component
        /// other than a plain name, on this platform's own parsing.
        #[test]
        fn what_passes_stays_below(s in any::<String>()) {
            if let Ok(p) = check_relative_path(&s) {
                prop_assert_eq!(p.as_str(), s.as_str());
                for component in std::path::Path::new(p.as_str()).components() {
                    prop_assert!(matches!(component, std::path::Component::Normal(_)), "{:?}", s);
                }
                for segment in p.segments() {
                    prop_assert_ne!(segment.trim(), "..");
                    prop_assert_ne!(segment.trim(), ".");
                }
            }
        }

        #[test]
        fn what_passes_joined_with_slashes_passes(a in "[a-z .]{1,8}", b in "[a-z .]{1,8}") {
            let joined = format!("{a}/{b}");
            prop_assert_eq!(
                check_relative_path(&joined).is_ok(),
                check_relative_path(&a).is_ok() && check_relative_path(&b).is_ok()
            );
        }
    }
}
