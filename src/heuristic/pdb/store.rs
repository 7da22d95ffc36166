/*!
The database file format, its checksum, and atomic writes.

A file is a header followed by the entries. Format version 4:

| bytes       | field                                                        |
| ----------- | ------------------------------------------------------------ |
| 0..8        | magic `NPZLPDB\0`                                            |
| 8..12       | format version, little-endian `u32` (4)                      |
| 12, 13      | board width, board height                                    |
| 14          | number of pattern tiles `k`                                  |
| 15          | the blank's goal cell                                        |
| 16          | kind: 0 blank-minimised, 1 zero-aware, 2 zero-aware in bits  |
| 17          | bits per entry: 8, or 1                                      |
| 18..24      | zeros                                                        |
| 24..32      | number of entries, little-endian `u64`                       |
| 32..40      | checksum of the entries (below), little-endian `u64`         |
| 40..40+n    | the goal: the tile at each of the board's `n` cells          |
| then `k`    | the pattern tiles in index order                             |
| then zeros  | to a multiple of 64 bytes                                    |
| then        | the entries: one byte each, or eight to a byte (entry `i` is |
|             | bit `i % 8` of byte `i / 8`), the last byte padded with 0s   |

Entries are indexed by placement (`index.rs`) in a blank-minimised table,
by placement and blank region (`region_index.rs`) in a zero-aware one.

A reader rebuilds the header it expects from what it was asked for and
compares it byte for byte (all but the checksum), checks the length, maps
the entries read-only and hashes them once, which is the one pass over
them a load makes (nothing is copied). The checksum is a hash of the
hashes of 16 MiB segments, so that pass runs on every core: version 2's
one sequential hash was a quarter of Korf's 100 15-puzzles' wall time. Any
flipped, missing or foreign byte is caught and the caller rebuilds the file
instead of trusting it. The checksum detects damage, not forgery: a file
written on purpose with wrong entries and a matching checksum is accepted
(IDA* then stays correct in the sense that it ends; see its docs). Files of
earlier versions (1: 16-cell boards only, 2: one sequential hash, 3: no
kind) fail the version check and are rebuilt. Files are written to a
temporary name in the same directory and renamed into place, so a killed
build never leaves a partial file under the real name; the temporary file
is one of those a signal removes ([`crate::files`]), and one a SIGKILL
left is removed by the next write.
*/

use super::TableKind;
use crate::board::Goal;
use crate::files::Temporary;
use crate::machine::cores;
use memmap2::{Mmap, MmapMut, MmapOptions};
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// Bumped whenever the layout or the meaning of the entries changes.
pub(crate) const VERSION: u32 = 4;

const MAGIC: [u8; 8] = *b"NPZLPDB\0";

/// Length of the fixed part of the header, before the goal.
const FIXED_LEN: usize = 40;

/// Offset of the checksum, the one field not fixed by the request.
const CHECKSUM_AT: usize = 32;

/// Bytes hashed on their own (see [`checksum`]): a multiple of the hash's
/// 32-byte stripes, and a few dozen per table so every core gets its share.
const SEGMENT: usize = 16 << 20;

/// Bytes written between two progress reports.
pub(crate) const IO_STEP: usize = 64 << 20;

/// What identifies one database file.
pub(crate) struct Identity<'a> {
    pub width: usize,
    pub height: usize,
    pub goal: &'a [u8],
    pub tiles: &'a [u8],
    pub blank: u8,
    pub kind: TableKind,
    pub entries: u64,
}

impl Identity<'_> {
    /// Header length: the fixed part, goal and tiles, padded to 64 bytes.
    pub(crate) fn header_len(&self) -> usize {
        (FIXED_LEN + self.goal.len() + self.tiles.len()).next_multiple_of(64)
    }

    /// The header, with `checksum` in its field.
    pub(crate) fn header(&self, checksum: u64) -> Vec<u8> {
        let mut h = vec![0u8; self.header_len()];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.width as u8;
        h[13] = self.height as u8;
        h[14] = self.tiles.len() as u8;
        h[15] = self.blank;
        h[16] = self.kind.code();
        h[17] = self.kind.bits();
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[CHECKSUM_AT..FIXED_LEN].copy_from_slice(&checksum.to_le_bytes());
        let goal_end = FIXED_LEN + self.goal.len();
        h[FIXED_LEN..goal_end].copy_from_slice(self.goal);
        h[goal_end..goal_end + self.tiles.len()].copy_from_slice(self.tiles);
        h
    }

    /// The file name: shape, goal and tiles in hex (one digit a value up to
    /// 16 cells, two beyond), so different goals or patterns never share a
    /// file and a listing says what each file is.
    pub(crate) fn file_name(&self) -> String {
        let digits = if self.goal.len() <= 16 { 1 } else { 2 };
        let hex = |values: &[u8]| -> String {
            values.iter().fold(String::new(), |mut out, v| {
                let _ = write!(out, "{v:0digits$x}");
                out
            })
        };
        let (width, height, kind) = (self.width, self.height, self.kind.suffix());
        format!("pdb-{width}x{height}-goal-{}-tiles-{}{kind}.bin", hex(self.goal), hex(self.tiles))
    }

    /// Bytes of entries.
    pub(crate) fn payload(&self) -> u64 {
        self.kind.bytes(self.entries)
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

/// Maps the entries of `path` (exactly `identity.payload()` bytes) after
/// checking its header, and verifies them against the checksum on every
/// core. `progress` gets the bytes verified so far.
///
/// Mapping the file rather than reading it into fresh memory spares the
/// kernel allocating and zeroing half a gigabyte per run (measured as most
/// of a load), and processes that use the same tables share one copy in the
/// page cache. With `huge`, the entries are read into memory in huge pages
/// instead, for searches long enough to repay the copy.
pub(crate) fn map(
    path: &Path,
    identity: &Identity<'_>,
    huge: bool,
    progress: &mut dyn FnMut(u64),
) -> Result<Mmap, Rejected> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let expected = identity.header(0);
    if len < FIXED_LEN as u64 {
        return Err(Rejected::Corrupt("shorter than its header"));
    }
    let mut fixed = [0u8; FIXED_LEN];
    file.read_exact(&mut fixed)?;
    if fixed[..8] != expected[..8] {
        return Err(Rejected::Corrupt("not a pattern database file"));
    }
    if fixed[8..12] != expected[8..12] {
        return Err(Rejected::Corrupt("written by another format version"));
    }
    if fixed[12..CHECKSUM_AT] != expected[12..CHECKSUM_AT] {
        return Err(Rejected::Corrupt("built for another shape, pattern or size"));
    }
    if len < expected.len() as u64 {
        return Err(Rejected::Corrupt("shorter than its header"));
    }
    let mut rest = vec![0u8; expected.len() - FIXED_LEN];
    file.read_exact(&mut rest)?;
    if rest[..] != expected[FIXED_LEN..] {
        return Err(Rejected::Corrupt("built for another goal or pattern"));
    }
    if len != expected.len() as u64 + identity.payload() {
        return Err(Rejected::Corrupt("length does not match its entry count"));
    }
    let entries = usize::try_from(identity.payload()).map_err(|_| Rejected::Corrupt("too large to map"))?;
    let map = if huge {
        copy_entries(&mut file, expected.len() as u64, entries, true)?
    } else {
        map_entries(&mut file, expected.len() as u64, entries)?
    };
    let stored = u64::from_le_bytes(fixed[CHECKSUM_AT..FIXED_LEN].try_into().unwrap_or_default());
    if checksum_with(&map, SEGMENT, cores(), progress) != stored {
        return Err(Rejected::Corrupt("checksum mismatch"));
    }
    Ok(map)
}

/// The `len` bytes of `file` from `offset`, mapped; where the file system
/// cannot map files, read into anonymous memory instead.
fn map_entries(file: &mut File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: the mapping is private and read-only, and files in the cache
    // are only ever replaced by renaming a new file over them, which leaves
    // this one's pages intact. Truncating the file in place while a search
    // runs (nothing here does) would end the process with SIGBUS.
    let mapped = unsafe { MmapOptions::new().offset(offset).len(len).populate().map(&*file) };
    mapped.or_else(|_| copy_entries(file, offset, len, false))
}

/// The `len` bytes of `file` from `offset`, read into anonymous memory;
/// with `huge`, memory asked to come in transparent huge pages before it
/// is written (a file's own pages are 4 KiB ones).
fn copy_entries(file: &mut File, offset: u64, len: usize, huge: bool) -> io::Result<Mmap> {
    let mut copy = anonymous(len, huge)?;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(&mut copy)?;
    copy.make_read_only()
}

/// `entries` copied into anonymous memory in transparent huge pages, where
/// the kernel has them.
pub(crate) fn copy_into_huge_pages(entries: &[u8]) -> io::Result<Mmap> {
    let mut copy = anonymous(entries.len(), true)?;
    copy.copy_from_slice(entries);
    copy.make_read_only()
}

/// `len` bytes of anonymous memory; with `huge`, asked to come in huge
/// pages before it is written.
fn anonymous(len: usize, huge: bool) -> io::Result<MmapMut> {
    let map = MmapOptions::new().len(len).map_anon()?;
    if huge {
        // Only a hint: without huge pages lookups are slower, not wrong.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    Ok(map)
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
    let (mut temp, file) =
        Temporary::create(temp, OpenOptions::new().write(true).create(true).truncate(true))?;
    write_file(file, identity, entries, progress)?;
    fs::rename(temp.path(), path)?;
    temp.placed();
    Ok(())
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
    mut file: File,
    identity: &Identity<'_>,
    entries: &[u8],
    progress: &mut dyn FnMut(u64),
) -> io::Result<()> {
    file.write_all(&identity.header(checksum_with(entries, SEGMENT, cores(), &mut |_| {})))?;
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
/// lanes over 32-byte stripes, then an avalanche), fed a chunk at a time.
/// Written here rather than pulled in: it only guards against damage, and
/// at several GB/s it verifies the 0.5 GB tables in about a tenth of a second,
/// where byte-at-a-time FNV-1a would not.
pub(crate) struct Checksum {
    lanes: [u64; 4],
    len: u64,
    /// The last chunk's bytes past its whole stripes; only the final chunk
    /// may leave any.
    tail: Vec<u8>,
}

impl Checksum {
    pub(crate) fn new() -> Checksum {
        Checksum { lanes: [P1.wrapping_add(P2), P2, 0, 0u64.wrapping_sub(P1)], len: 0, tail: Vec::new() }
    }

    /// Adds `data`; every chunk but the last must be whole stripes (a
    /// multiple of 32 bytes).
    pub(crate) fn update(&mut self, data: &[u8]) {
        debug_assert!(self.tail.is_empty(), "only the last chunk may end mid-stripe");
        let mut stripes = data.chunks_exact(32);
        for stripe in &mut stripes {
            for (i, lane) in self.lanes.iter_mut().enumerate() {
                *lane = round(*lane, word(&stripe[8 * i..]));
            }
        }
        self.tail.extend_from_slice(stripes.remainder());
        self.len += data.len() as u64;
    }

    pub(crate) fn finish(&self) -> u64 {
        let lanes = self.lanes;
        let mut h = lanes[0]
            .rotate_left(1)
            .wrapping_add(lanes[1].rotate_left(7))
            .wrapping_add(lanes[2].rotate_left(12))
            .wrapping_add(lanes[3].rotate_left(18));
        for lane in lanes {
            h = (h ^ round(0, lane)).wrapping_mul(P1).wrapping_add(P4);
        }
        h = h.wrapping_add(self.len).wrapping_add(P5);
        let mut tail = self.tail.chunks_exact(8);
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
}

/// [`Checksum`] of one slice.
pub(crate) fn checksum(data: &[u8]) -> u64 {
    let mut hasher = Checksum::new();
    hasher.update(data);
    hasher.finish()
}

/// The file checksum of `data`: the [`checksum`] of each `segment`-byte
/// piece, on up to `threads` threads taking pieces as they come free, then
/// the [`checksum`] of those sums in order. The same for any thread count.
/// `progress` (called on this thread only) gets the bytes hashed so far.
fn checksum_with(data: &[u8], segment: usize, threads: usize, progress: &mut dyn FnMut(u64)) -> u64 {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
    let pieces: Vec<&[u8]> = data.chunks(segment).collect();
    let sums: Vec<AtomicU64> = pieces.iter().map(|_| AtomicU64::new(0)).collect();
    let (next, done) = (AtomicUsize::new(0), AtomicU64::new(0));
    let hash = |report: &mut dyn FnMut(u64)| loop {
        let i = next.fetch_add(1, Relaxed);
        let Some(piece) = pieces.get(i) else { break };
        sums[i].store(checksum(piece), Relaxed);
        report(done.fetch_add(piece.len() as u64, Relaxed) + piece.len() as u64);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(pieces.len()) {
            scope.spawn(|| hash(&mut |_| {}));
        }
        hash(progress);
    });
    progress(data.len() as u64);
    let joined: Vec<u8> = sums.iter().flat_map(|sum| sum.load(Relaxed).to_le_bytes()).collect();
    checksum(&joined)
}

/// The goal's tiles as bytes, as databases store them: boards of at most 64
/// cells, so every tile fits.
pub(super) fn goal_bytes(goal: &Goal) -> Vec<u8> {
    goal.tiles().cells().iter().map(|&t| t as u8).collect()
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

    #[test]
    fn the_file_checksum_is_the_same_on_any_number_of_threads_and_sees_every_byte() {
        let data: Vec<u8> = (0..5_000u32).map(|i| (i * 31 % 253) as u8).collect();
        let one = checksum_with(&data, 256, 1, &mut |_| {});
        for threads in [2, 3, 8] {
            let mut seen = 0;
            assert_eq!(checksum_with(&data, 256, threads, &mut |done| seen = seen.max(done)), one);
            assert!(seen <= data.len() as u64);
        }
        for at in [0, 255, 256, 2_000, 4_999] {
            let mut d = data.clone();
            d[at] ^= 0x40;
            assert_ne!(checksum_with(&d, 256, 2, &mut |_| {}), one, "flip at {at}");
        }
        assert_ne!(checksum_with(&data[..4_999], 256, 2, &mut |_| {}), one, "one byte short");
        assert_ne!(checksum_with(&data[..4_864], 256, 2, &mut |_| {}), one, "a whole segment short");
    }

    #[test]
    fn chunks_of_whole_stripes_hash_like_the_whole() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 13 % 241) as u8).collect();
        for chunk in [32, 64, 1024, 4096] {
            let mut hasher = Checksum::new();
            for piece in data.chunks(chunk) {
                hasher.update(piece);
            }
            assert_eq!(hasher.finish(), checksum(&data), "chunks of {chunk}");
        }
    }
}
