/*!
The database file format, its checksum, and atomic writes.

A file is a 64-byte header followed by one byte per placement:

| bytes  | field                                                        |
| ------ | ------------------------------------------------------------ |
| 0..8   | magic `NPZLPDB\0`                                            |
| 8..12  | format version, little-endian `u32`                          |
| 12     | board width                                                  |
| 13     | number of pattern tiles `k`                                  |
| 14     | the blank's goal cell                                        |
| 15     | zero                                                         |
| 16..32 | the goal: tile at each cell, `0xFF` past the last cell       |
| 32..48 | the pattern tiles in index order, `0xFF` past the `k`-th     |
| 48..56 | number of entries, little-endian `u64`                       |
| 56..64 | checksum of the entries (below), little-endian `u64`         |

A reader rebuilds the expected first 56 bytes from what it was asked for and
compares them byte for byte, checks the length, then hashes the entries: any
flipped, missing or foreign byte is caught, and the caller rebuilds the file
instead of trusting it. Files are written to a temporary name in the same
directory and renamed into place, so a killed build never leaves a partial
file under the real name.
*/

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Header length in bytes.
pub(crate) const HEADER_LEN: usize = 64;

/// Bumped whenever the layout or the meaning of the entries changes.
pub(crate) const VERSION: u32 = 1;

const MAGIC: [u8; 8] = *b"NPZLPDB\0";

/// Offset of the checksum: everything before it is fixed by the request.
const CHECKSUM_AT: usize = 56;

/// Bytes read or written between two progress reports.
pub(crate) const IO_STEP: usize = 64 << 20;

/// What identifies one database file.
pub(crate) struct Identity<'a> {
    pub width: usize,
    pub goal: &'a [u8],
    pub tiles: &'a [u8],
    pub blank: u8,
    pub entries: u64,
}

impl Identity<'_> {
    /// The header with the checksum field zeroed.
    pub(crate) fn header(&self, checksum: u64) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.width as u8;
        h[13] = self.tiles.len() as u8;
        h[14] = self.blank;
        h[16..32].fill(0xFF);
        h[16..16 + self.goal.len()].copy_from_slice(self.goal);
        h[32..48].fill(0xFF);
        h[32..32 + self.tiles.len()].copy_from_slice(self.tiles);
        h[48..56].copy_from_slice(&self.entries.to_le_bytes());
        h[CHECKSUM_AT..].copy_from_slice(&checksum.to_le_bytes());
        h
    }

    /// The file name: width, goal and tiles in hex, so different goals or
    /// patterns never share a file and a listing says what each file is.
    pub(crate) fn file_name(&self) -> String {
        let hex = |cells: &[u8]| -> String {
            cells.iter().map(|&t| char::from_digit(u32::from(t), 16).unwrap_or('?')).collect()
        };
        format!("pdb-{w}x{w}-goal-{}-tiles-{}.bin", hex(self.goal), hex(self.tiles), w = self.width)
    }
}

/// Why a file was not accepted.
#[derive(Debug)]
pub(crate) enum Rejected {
    /// It could not be read at all.
    Io(io::Error),
    /// It was read and is not what was asked for, or is damaged.
    Corrupt(&'static str),
}

impl From<io::Error> for Rejected {
    fn from(e: io::Error) -> Rejected {
        Rejected::Io(e)
    }
}

/// Reads and verifies the entries of `path` into `out` (exactly
/// `identity.entries` bytes). `progress` gets the bytes read so far.
pub(crate) fn read(
    path: &Path,
    identity: &Identity<'_>,
    out: &mut [u8],
    progress: &mut dyn FnMut(u64),
) -> Result<(), Rejected> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut header = [0u8; HEADER_LEN];
    if len < HEADER_LEN as u64 {
        return Err(Rejected::Corrupt("shorter than its header"));
    }
    file.read_exact(&mut header)?;
    let expected = identity.header(0);
    if header[..8] != expected[..8] {
        return Err(Rejected::Corrupt("not a pattern database file"));
    }
    if header[8..12] != expected[8..12] {
        return Err(Rejected::Corrupt("written by another format version"));
    }
    if header[..CHECKSUM_AT] != expected[..CHECKSUM_AT] {
        return Err(Rejected::Corrupt("built for another goal or pattern"));
    }
    if len != HEADER_LEN as u64 + identity.entries {
        return Err(Rejected::Corrupt("length does not match its entry count"));
    }
    debug_assert_eq!(out.len() as u64, identity.entries);
    let mut done = 0;
    for piece in out.chunks_mut(IO_STEP) {
        file.read_exact(piece)?;
        done += piece.len() as u64;
        progress(done);
    }
    let stored = u64::from_le_bytes(header[CHECKSUM_AT..].try_into().unwrap_or_default());
    if checksum(out) != stored {
        return Err(Rejected::Corrupt("checksum mismatch"));
    }
    Ok(())
}

/// Writes header and entries to a temporary file in `path`'s directory and
/// renames it to `path`. `progress` gets the bytes written so far.
pub(crate) fn write(
    path: &Path,
    identity: &Identity<'_>,
    entries: &[u8],
    progress: &mut dyn FnMut(u64),
) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    remove_stale_temporaries(dir, &name);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = write_file(&temp, identity, entries, progress).and_then(|()| fs::rename(&temp, path));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Deletes temporary files of `name` left by writers that were killed (their
/// process no longer exists): each can be half a gigabyte. Where process
/// ids cannot be checked (no `/proc`), nothing is deleted.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(listing) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in listing.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .filter(|pid| pid.parse::<u32>().is_ok())
        else {
            continue;
        };
        if !proc.join(pid).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Creates `dir` if needed and checks that a file can be written there.
pub(crate) fn ensure_writable(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".probe.{}.tmp", std::process::id()));
    File::create(&probe)?;
    fs::remove_file(&probe)
}

fn write_file(
    temp: &PathBuf,
    identity: &Identity<'_>,
    entries: &[u8],
    progress: &mut dyn FnMut(u64),
) -> io::Result<()> {
    let mut file = File::create(temp)?;
    file.write_all(&identity.header(checksum(entries)))?;
    let mut done = 0;
    for piece in entries.chunks(IO_STEP) {
        file.write_all(piece)?;
        done += piece.len() as u64;
        progress(done);
    }
    // The rename must not become visible before the data is on disk.
    file.sync_all()
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline]
fn round(acc: u64, word: u64) -> u64 {
    acc.wrapping_add(word.wrapping_mul(P2)).rotate_left(31).wrapping_mul(P1)
}

#[inline]
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

/// A 64-bit checksum in the style of XXH64 (four independent multiply-rotate
/// lanes over 32-byte stripes, then an avalanche). Written here rather than
/// pulled in: it only guards against damage, and at several GB/s it keeps
/// verifying the 0.5 GB 7-8 set well inside the one-second load budget,
/// where byte-at-a-time FNV-1a would not.
pub(crate) fn checksum(data: &[u8]) -> u64 {
    let mut lanes = [P1.wrapping_add(P2), P2, 0, 0u64.wrapping_sub(P1)];
    let mut stripes = data.chunks_exact(32);
    for stripe in &mut stripes {
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = round(*lane, word(&stripe[8 * i..]));
        }
    }
    let mut h = lanes[0]
        .rotate_left(1)
        .wrapping_add(lanes[1].rotate_left(7))
        .wrapping_add(lanes[2].rotate_left(12))
        .wrapping_add(lanes[3].rotate_left(18));
    for lane in lanes {
        h = (h ^ round(0, lane)).wrapping_mul(P1).wrapping_add(P4);
    }
    h = h.wrapping_add(data.len() as u64).wrapping_add(P5);
    let mut tail = stripes.remainder().chunks_exact(8);
    for w in &mut tail {
        h = (h ^ round(0, word(w))).rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
    }
    for &b in tail.remainder() {
        h = (h ^ u64::from(b).wrapping_mul(P5)).rotate_left(11).wrapping_mul(P1);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_sees_every_byte_and_the_length() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let base = checksum(&data);
        for at in [0, 1, 31, 32, 500, 990, 999] {
            let mut d = data.clone();
            d[at] ^= 1;
            assert_ne!(checksum(&d), base, "flip at {at}");
        }
        assert_ne!(checksum(&data[..999]), base);
        assert_ne!(checksum(&[]), checksum(&[0]));
        assert_eq!(checksum(&data), base, "deterministic");
    }
}
