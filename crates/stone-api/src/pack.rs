//! Packed uploads (issue 27): many small contents in one request to the local staging
//! store, where one request per content would cost a round trip, a file sync and a
//! database write each.
//!
//! A pack body is a sequence of records and nothing else:
//!
//! ```text
//! {sha256} {size}\n{size bytes of the content}
//! ```
//!
//! `sha256` is 64 lowercase hex characters and `size` a decimal number without sign or
//! leading zeros. The writer is [`record_header`]; the reader is [`PackDecoder`], fed the
//! body as it arrives, which hands back each content once its bytes are complete and have
//! the announced digest, and refuses anything past its [`PackLimits`] before buffering it.
//! No I/O: the fuzz target `staging_pack` (`fuzz/`) feeds it arbitrary bytes.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Media type of a pack body.
pub const PACK_CONTENT_TYPE: &str = "application/vnd.stone.pack";

/// Longest record header: 64 hex characters, a space, 20 digits, a newline.
pub const MAX_HEADER_LEN: usize = 64 + 1 + 20 + 1;

/// The header of a record holding a content of `size` bytes with this `sha256`.
pub fn record_header(sha256: &str, size: u64) -> String {
    format!("{sha256} {size}\n")
}

/// Bytes a record of a content of `size` bytes takes in a pack.
pub fn record_len(sha256: &str, size: u64) -> u64 {
    record_header(sha256, size).len() as u64 + size
}

/// Issue 27: one URL that takes many small contents in one request (a pack, see
/// [the module](self)), offered by a server that stages uploads itself.
///
/// Any upload of the same answer that has a `url`, no `parts` and a size of at most
/// `max_member_size` may be sent in a pack instead of to its `url`, with others, as often
/// as needed: `PUT` the pack body (at most `max_members` contents and `max_bytes` bytes,
/// content type [`PACK_CONTENT_TYPE`]) to `url`, without the API token.
/// 200 ([`PacksStaged`]) means every content of the pack was verified and staged; any
/// refusal keeps none of them (400 `staging.digest_mismatch` names the content whose
/// bytes differ, 400 `staging.pack_invalid` a body that is not a pack or is past a
/// limit). Sending a pack again is harmless.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackUpload {
    /// Where to `PUT` packs.
    pub url: String,
    /// Contents in one pack, at most.
    pub max_members: u32,
    /// Bytes of one pack body (record headers included), at most.
    pub max_bytes: u64,
    /// Size of a content that may go in a pack, at most.
    pub max_member_size: u64,
    /// When the URL stops working (RFC 3339).
    pub expires_at: String,
}

/// Answer of a pack `PUT` (200): the contents it staged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PacksStaged {
    /// Contents of the pack, all verified and staged.
    pub staged: u32,
}

/// What a pack may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackLimits {
    /// Bytes of the whole body, headers included.
    pub max_bytes: u64,
    /// Records.
    pub max_members: u32,
    /// Bytes of one content.
    pub max_member_size: u64,
}

/// Why a pack body is refused. `at` is the offset of the record in the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackError {
    /// The body is longer than [`PackLimits::max_bytes`].
    TooLarge { max_bytes: u64 },
    /// More records than [`PackLimits::max_members`].
    TooManyMembers { max_members: u32 },
    /// A content larger than [`PackLimits::max_member_size`].
    MemberTooLarge {
        at: u64,
        size: u64,
        max_member_size: u64,
    },
    /// A record header that is not `{sha256} {size}\n`.
    BadHeader { at: u64, reason: &'static str },
    /// A content whose bytes do not have the sha256 its header announced.
    DigestMismatch {
        at: u64,
        expected: String,
        actual: String,
    },
    /// The body ended inside a record.
    Truncated { at: u64 },
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::TooLarge { max_bytes } => {
                write!(
                    f,
                    "the pack is larger than its URL allows ({max_bytes} bytes)"
                )
            }
            PackError::TooManyMembers { max_members } => {
                write!(f, "the pack holds more than {max_members} contents")
            }
            PackError::MemberTooLarge {
                at,
                size,
                max_member_size,
            } => write!(
                f,
                "the record at byte {at} announces {size} bytes; a pack takes contents of at most {max_member_size} bytes"
            ),
            PackError::BadHeader { at, reason } => write!(
                f,
                "the record at byte {at} does not start with `{{sha256}} {{size}}\\n`: {reason}"
            ),
            PackError::DigestMismatch {
                at,
                expected,
                actual,
            } => write!(
                f,
                "the content at byte {at} has sha256 {actual}, not {expected}"
            ),
            PackError::Truncated { at } => {
                write!(f, "the pack ends inside the record at byte {at}")
            }
        }
    }
}

impl std::error::Error for PackError {}

/// A content read from a pack: its bytes have the digest its header announced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackMember {
    pub sha256: String,
    pub bytes: Vec<u8>,
}

/// Reads a pack body fed in pieces of any size; holds at most one content's bytes.
#[derive(Debug)]
pub struct PackDecoder {
    limits: PackLimits,
    /// Bytes fed so far.
    read: u64,
    /// Records started so far.
    members: u32,
    /// Offset of the current record.
    record_at: u64,
    state: State,
}

#[derive(Debug)]
enum State {
    /// Reading a header: the bytes of it so far.
    Header(Vec<u8>),
    /// Reading a content.
    Content {
        sha256: String,
        size: u64,
        hasher: Sha256,
        bytes: Vec<u8>,
    },
}

impl PackDecoder {
    pub fn new(limits: PackLimits) -> Self {
        Self {
            limits,
            read: 0,
            members: 0,
            record_at: 0,
            state: State::Header(Vec::new()),
        }
    }

    /// Feeds the next bytes of the body; each content they complete is appended to `out`.
    /// After an error the decoder must not be fed again.
    /// The error is the first problem in the body's order, however it is cut in pieces.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<PackMember>) -> Result<(), PackError> {
        // The bytes within the limit are read first: a problem there comes before the size.
        let room =
            usize::try_from(self.limits.max_bytes.saturating_sub(self.read)).unwrap_or(usize::MAX);
        let (within, past) = chunk.split_at(room.min(chunk.len()));
        self.read += within.len() as u64;
        self.feed_within(within, out)?;
        if !past.is_empty() {
            return Err(PackError::TooLarge {
                max_bytes: self.limits.max_bytes,
            });
        }
        Ok(())
    }

    fn feed_within(
        &mut self,
        mut chunk: &[u8],
        out: &mut Vec<PackMember>,
    ) -> Result<(), PackError> {
        while !chunk.is_empty() {
            match &mut self.state {
                State::Header(line) => {
                    let Some(end) = chunk.iter().position(|&b| b == b'\n') else {
                        line.extend_from_slice(chunk);
                        if line.len() >= MAX_HEADER_LEN {
                            return Err(self.bad_header("it is too long"));
                        }
                        return Ok(());
                    };
                    line.extend_from_slice(&chunk[..end]);
                    chunk = &chunk[end + 1..];
                    if line.len() >= MAX_HEADER_LEN {
                        return Err(self.bad_header("it is too long"));
                    }
                    let (sha256, size) = parse_header(line).map_err(|r| self.bad_header(r))?;
                    self.start(sha256, size, out)?;
                }
                State::Content {
                    size,
                    hasher,
                    bytes,
                    ..
                } => {
                    let missing = usize::try_from(*size - bytes.len() as u64).unwrap_or(usize::MAX);
                    let (now, rest) = chunk.split_at(missing.min(chunk.len()));
                    hasher.update(now);
                    bytes.extend_from_slice(now);
                    chunk = rest;
                    if bytes.len() as u64 == *size {
                        self.finish_member(out)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The body has ended: the number of contents it held, or an error if it ended inside
    /// a record.
    pub fn finish(self) -> Result<u32, PackError> {
        match &self.state {
            State::Header(line) if line.is_empty() => Ok(self.members),
            _ => Err(PackError::Truncated { at: self.record_at }),
        }
    }

    fn bad_header(&self, reason: &'static str) -> PackError {
        PackError::BadHeader {
            at: self.record_at,
            reason,
        }
    }

    /// A header was read: checks the limits, then expects the content.
    fn start(
        &mut self,
        sha256: String,
        size: u64,
        out: &mut Vec<PackMember>,
    ) -> Result<(), PackError> {
        if self.members >= self.limits.max_members {
            return Err(PackError::TooManyMembers {
                max_members: self.limits.max_members,
            });
        }
        if size > self.limits.max_member_size {
            return Err(PackError::MemberTooLarge {
                at: self.record_at,
                size,
                max_member_size: self.limits.max_member_size,
            });
        }
        self.members += 1;
        self.state = State::Content {
            sha256,
            size,
            hasher: Sha256::new(),
            // At most `max_member_size`, checked above.
            bytes: Vec::with_capacity(usize::try_from(size).unwrap_or(0)),
        };
        if size == 0 {
            self.finish_member(out)?;
        }
        Ok(())
    }

    /// A content's bytes are complete: verified, handed out, and the next header expected.
    fn finish_member(&mut self, out: &mut Vec<PackMember>) -> Result<(), PackError> {
        let State::Content {
            sha256,
            hasher,
            bytes,
            ..
        } = std::mem::replace(&mut self.state, State::Header(Vec::new()))
        else {
            return Ok(());
        };
        let actual = hex::encode(hasher.finalize());
        if actual != sha256 {
            return Err(PackError::DigestMismatch {
                at: self.record_at,
                expected: sha256,
                actual,
            });
        }
        self.record_at = self.read_so_far(&bytes, &sha256);
        out.push(PackMember { sha256, bytes });
        Ok(())
    }

    /// Offset of the record after the one that just ended.
    fn read_so_far(&self, bytes: &[u8], sha256: &str) -> u64 {
        self.record_at + record_len(sha256, bytes.len() as u64)
    }
}

/// `{sha256} {size}` (without its newline).
fn parse_header(line: &[u8]) -> Result<(String, u64), &'static str> {
    let text = std::str::from_utf8(line).map_err(|_| "it is not ASCII")?;
    let (sha256, size) = text
        .split_once(' ')
        .ok_or("no space between the sha256 and the size")?;
    if !crate::is_sha256(sha256) {
        return Err("the sha256 is not 64 lowercase hex characters");
    }
    let canonical = !size.is_empty()
        && size.bytes().all(|b| b.is_ascii_digit())
        && (size == "0" || !size.starts_with('0'));
    if !canonical {
        return Err("the size is not a decimal number without leading zeros");
    }
    let size = size.parse().map_err(|_| "the size is too large")?;
    Ok((sha256.to_owned(), size))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    fn pack(contents: &[&[u8]]) -> Vec<u8> {
        let mut body = Vec::new();
        for content in contents {
            body.extend_from_slice(record_header(&sha(content), content.len() as u64).as_bytes());
            body.extend_from_slice(content);
        }
        body
    }

    const LIMITS: PackLimits = PackLimits {
        max_bytes: 1 << 20,
        max_members: 10,
        max_member_size: 1000,
    };

    fn decode(body: &[u8], step: usize, limits: PackLimits) -> Result<Vec<PackMember>, PackError> {
        let mut decoder = PackDecoder::new(limits);
        let mut out = Vec::new();
        for chunk in body.chunks(step.max(1)) {
            decoder.feed(chunk, &mut out)?;
        }
        let count = decoder.finish()?;
        assert_eq!(count as usize, out.len());
        Ok(out)
    }

    #[test]
    fn contents_come_back_whatever_the_pieces() {
        let contents: [&[u8]; 4] = [b"first", b"", b"x", &[7u8; 1000]];
        let body = pack(&contents);
        for step in [1, 2, 3, 7, 64, 86, 87, body.len()] {
            let members = decode(&body, step, LIMITS).unwrap();
            let got: Vec<&[u8]> = members.iter().map(|m| m.bytes.as_slice()).collect();
            assert_eq!(got, contents, "in pieces of {step}");
            assert_eq!(members[3].sha256, sha(&[7u8; 1000]));
        }
        assert_eq!(decode(b"", 1, LIMITS).unwrap(), vec![]);
    }

    #[test]
    fn a_content_with_other_bytes_is_refused_with_where_it_is() {
        let mut body = pack(&[b"first", b"second"]);
        let last = body.len() - 1;
        body[last] = b'X';
        let second_at = record_len(&sha(b"first"), 5);
        match decode(&body, 5, LIMITS) {
            Err(PackError::DigestMismatch { at, expected, .. }) => {
                assert_eq!(at, second_at);
                assert_eq!(expected, sha(b"second"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn limits_are_kept_before_bytes_are_buffered() {
        let body = pack(&[b"a", b"b", b"c"]);
        let few = PackLimits {
            max_members: 2,
            ..LIMITS
        };
        assert_eq!(
            decode(&body, 100, few),
            Err(PackError::TooManyMembers { max_members: 2 })
        );
        let small = PackLimits {
            max_bytes: body.len() as u64 - 1,
            ..LIMITS
        };
        assert!(matches!(
            decode(&body, 100, small),
            Err(PackError::TooLarge { .. })
        ));
        // A header announcing more than a member may hold: refused at its header.
        let huge = format!("{} 18446744073709551615\n", sha(b""));
        assert!(matches!(
            decode(huge.as_bytes(), 100, LIMITS),
            Err(PackError::MemberTooLarge { at: 0, .. })
        ));
        let overflow = format!("{} 18446744073709551616\n", sha(b""));
        assert!(matches!(
            decode(overflow.as_bytes(), 100, LIMITS),
            Err(PackError::BadHeader { .. })
        ));
        // A header that never ends.
        assert!(matches!(
            decode(&[b'a'; 200], 7, LIMITS),
            Err(PackError::BadHeader { at: 0, .. })
        ));
    }

    #[test]
    fn the_error_is_the_first_problem_whatever_the_pieces() {
        // A line too long with its newline in the same piece, or not.
        let mut long = vec![b'a'; 100];
        long.push(b'\n');
        // A bad header early in a body longer than allowed.
        let mut early = b"not a header\n".to_vec();
        early.extend(vec![b'x'; 200]);
        let small = PackLimits {
            max_bytes: 100,
            ..LIMITS
        };
        for (body, limits) in [(long, LIMITS), (early, small)] {
            let whole = decode(&body, body.len(), limits);
            assert!(
                matches!(whole, Err(PackError::BadHeader { at: 0, .. })),
                "{whole:?}"
            );
            for step in [1, 5, 64, 99, 100] {
                assert_eq!(decode(&body, step, limits), whole, "in pieces of {step}");
            }
        }
    }

    #[test]
    fn headers_are_one_exact_form() {
        let digest = sha(b"a");
        for line in [
            format!("{digest} 01\n"),
            format!("{digest}  1\n"),
            format!("{digest} +1\n"),
            format!("{digest} \n"),
            format!("{} 1\n", digest.to_uppercase()),
            format!("{digest}\n"),
            format!("{digest} 1 \n"),
        ] {
            let mut body = line.into_bytes();
            body.push(b'a');
            assert!(
                matches!(decode(&body, 3, LIMITS), Err(PackError::BadHeader { .. })),
                "{:?}",
                String::from_utf8_lossy(&body)
            );
        }
    }

    #[test]
    fn a_body_ending_inside_a_record_is_truncated() {
        let body = pack(&[b"first", b"second"]);
        let second_at = record_len(&sha(b"first"), 5);
        for cut in [second_at as usize + 3, body.len() - 1] {
            assert_eq!(
                decode(&body[..cut], 4, LIMITS),
                Err(PackError::Truncated { at: second_at })
            );
        }
    }
}
