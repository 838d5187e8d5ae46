//! What a job folder holds when a run begins, and putting it back when the run ends.
//!
//! Scenario after scenario runs in the same folder (a fresh process each, or forks of one
//! loaded runner), and each must find it as the first one did: otherwise a scenario can tell
//! the next what it saw, and a submission can learn a test's answers from the tests before
//! it. The folder belongs to the student's user, so the channel is not only a file left
//! behind but a line appended to the submission's own source, a mode bit, a time set on the
//! folder or an extended attribute. A [`Snapshot`] records every entry (inode, kind, mode,
//! owner, size, times, `user.` attributes) and keeps a copy of each file where student
//! processes cannot reach it. [`Snapshot::restore`] removes what is new and puts back from the
//! record and the copies whatever changed.
//!
//! A change is seen in an entry's status change time (ctime), which no unprivileged process
//! can set, or in its access time, which reading moves without touching the ctime. The kernel
//! stamps both from a clock that moves once a tick (a few milliseconds), so a change made
//! within a tick of the moment the record settled can leave them equal. Such an entry, whose
//! ctime is within two ticks of that moment, is compared by content and attributes as well, as
//! git compares a racily clean file of its index.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rustix::fs::{AtFlags, FileType, IFlags, Mode, OFlags, Timespec, Timestamps, XattrFlags, CWD};

use crate::error::Error;

/// How far a timestamp the kernel stamps can lag the real time (in nanoseconds): twice the
/// step of the coarse clock it stamps from (one tick: 1 to 10 ms), at least a millisecond.
fn tick() -> i128 {
    static TICK: std::sync::OnceLock<i128> = std::sync::OnceLock::new();
    *TICK.get_or_init(|| {
        let mut step = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_getres only writes the struct it is given.
        let known = unsafe { libc::clock_getres(libc::CLOCK_REALTIME_COARSE, &mut step) } == 0;
        let step = if known {
            nanos(step.tv_sec, step.tv_nsec)
        } else {
            10_000_000
        };
        (2 * step).max(1_000_000)
    })
}

/// The attributes a process may set on its own files without privilege: its own, and the
/// access lists (ACLs) of a file and of what a folder's new entries get.
const KEPT_ATTRIBUTES: &[&[u8]] = &[b"user.", b"system.posix_acl_"];

/// A folder's entries as a run must find them, and copies of its files.
#[derive(Debug)]
pub struct Snapshot {
    root: PathBuf,
    /// Copies of the folder's files, in a folder only the grader can read (none: the folder
    /// holds no file, only folders).
    kept: Option<PathBuf>,
    /// The root's file system, where entries on another one (mounted there) are passed over.
    one_file_system: Option<u64>,
    /// Every entry, by path relative to the root (the root itself is the empty path); parents
    /// sort before what they hold.
    entries: BTreeMap<PathBuf, Recorded>,
    /// When the record last matched the folder (nanoseconds since the epoch).
    settled: i128,
    /// What the copies of its files hold together.
    bytes: u64,
}

/// Why a folder could not be put back as its snapshot has it.
#[derive(Debug, thiserror::Error)]
#[error("cannot put back {path}: {why}")]
pub struct RestoreError {
    path: PathBuf,
    why: String,
}

impl RestoreError {
    fn new(path: &Path, why: impl std::fmt::Display) -> RestoreError {
        RestoreError {
            path: path.to_path_buf(),
            why: why.to_string(),
        }
    }
}

/// The most a record of a folder may copy and look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Most {
    /// Bytes of its files, each counted whole.
    pub bytes: u64,
    /// Its entries, each link to a file one, the folder itself one.
    pub entries: usize,
}

impl Most {
    /// No bound.
    pub const ANY: Most = Most {
        bytes: u64::MAX,
        entries: usize::MAX,
    };
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    Link(PathBuf),
    /// A pipe, socket or device: kept if it stays, never made again.
    Other,
}

/// What [`Snapshot::restore`] found of an entry.
enum Examined {
    AsRecorded,
    /// There, with the recorded bytes, but maybe not the recorded status.
    Unsettled,
    /// Made again: missing, or holding other bytes.
    Remade,
}

/// What a status call tells of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Status {
    inode: u64,
    device: u64,
    mode: u32,
    uid: u32,
    gid: u32,
    size: u64,
    /// Room it takes: a file given room past its end (`fallocate`) keeps its size.
    blocks: u64,
    accessed: (i64, i64),
    modified: (i64, i64),
    changed: i128,
}

impl Status {
    fn of(stat: &rustix::fs::Stat) -> Status {
        Status {
            inode: stat.st_ino,
            device: stat.st_dev,
            mode: stat.st_mode,
            uid: stat.st_uid,
            gid: stat.st_gid,
            size: stat.st_size as u64,
            blocks: stat.st_blocks as u64,
            accessed: (stat.st_atime, stat.st_atime_nsec as i64),
            modified: (stat.st_mtime, stat.st_mtime_nsec as i64),
            changed: nanos(stat.st_ctime, stat.st_ctime_nsec as i64),
        }
    }

    /// The status of `path` itself (a link, not what it points to).
    fn of_path(path: &Path) -> io::Result<Status> {
        Ok(Status::of(&rustix::fs::lstat(path)?))
    }

    fn file_type(&self) -> FileType {
        FileType::from_raw_mode(self.mode)
    }
}

/// One entry as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Recorded {
    kind: Kind,
    status: Status,
    attributes: Vec<(Vec<u8>, Vec<u8>)>,
    /// A file's or folder's inode flags, where its file system has them: an owner may set
    /// some (`chattr +d`, `+A`), and setting them moves the ctime, as every change does.
    flags: Option<IFlags>,
}

impl Recorded {
    fn read(path: &Path, status: Status) -> io::Result<Recorded> {
        let kind = match status.file_type() {
            FileType::Directory => Kind::Folder,
            FileType::RegularFile => Kind::File,
            FileType::Symlink => Kind::Link(std::fs::read_link(path)?),
            _ => Kind::Other,
        };
        let flags = match kind {
            Kind::File | Kind::Folder => inode_flags(path, kind == Kind::Folder)?,
            Kind::Link(_) | Kind::Other => None,
        };
        Ok(Recorded {
            kind,
            status,
            attributes: kept_attributes(path)?,
            flags,
        })
    }
}

/// The inode flags of the file or folder at `path`; none where its file system has none.
fn inode_flags(path: &Path, folder: bool) -> io::Result<Option<IFlags>> {
    match rustix::fs::ioctl_getflags(open_quietly(path, folder)?) {
        Ok(flags) => Ok(Some(flags)),
        Err(rustix::io::Errno::NOTTY | rustix::io::Errno::OPNOTSUPP | rustix::io::Errno::INVAL) => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

impl Snapshot {
    /// Records `root` as it is now, keeping copies of its files in `kept` (made afresh,
    /// readable by the grader alone). An error, once at most `most` is copied, where the
    /// copies would hold more than that: a sparse file, or each link of a file, is copied
    /// whole, so a folder of little room could otherwise fill the grader's disk, and each
    /// entry, a link to an empty file too, is looked at each time the folder is put back.
    pub fn of_folder(root: &Path, kept: &Path, most: Most) -> Result<Snapshot, Error> {
        let cannot =
            |what: &Path, e: io::Error| Error::io(format!("cannot record {}", what.display()), e);
        if kept.exists() {
            std::fs::remove_dir_all(kept).map_err(|e| cannot(kept, e))?;
        }
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(kept)
            .map_err(|e| cannot(kept, e))?;
        Snapshot::take(root, Some((kept, most)), false)
    }

    /// Records `root`, a sandbox's own temporary folder, as it is now: only what is on its
    /// file system (what the sandbox mounted there is its own), and no file, only folders.
    pub fn of_private_folder(root: &Path) -> Result<Snapshot, Error> {
        Snapshot::take(root, None, true)
    }

    fn take(
        root: &Path,
        kept: Option<(&Path, Most)>,
        one_file_system: bool,
    ) -> Result<Snapshot, Error> {
        let cannot =
            |what: &Path, e: io::Error| Error::io(format!("cannot record {}", what.display()), e);
        let device = Status::of_path(root).map_err(|e| cannot(root, e))?.device;
        let (
            kept,
            Most {
                bytes: most,
                entries: most_entries,
            },
        ) = match kept {
            Some((kept, most)) => (Some(kept), most),
            None => (None, Most::ANY),
        };
        // Counted by size as the walk goes, before each copy: a sparse file, or each link of
        // a file, is copied whole. Past `most` the record fails, having copied at most that.
        let mut sizes: u64 = 0;
        let mut bytes = 0;
        let mut entries = BTreeMap::new();
        let mut walk = walkdir::WalkDir::new(root).follow_links(false).into_iter();
        while let Some(entry) = walk.next() {
            let entry = entry.map_err(|e| Error::path(root, format!("cannot record: {e}")))?;
            let status = Status::of_path(entry.path()).map_err(|e| cannot(entry.path(), e))?;
            if one_file_system && status.device != device {
                walk.skip_current_dir();
                continue;
            }
            if entries.len() >= most_entries {
                return Err(Error::path(
                    root,
                    format!("it holds more than the {most_entries} entries a copy may take"),
                ));
            }
            let relative = entry.path().strip_prefix(root).unwrap_or(Path::new(""));
            let recorded =
                Recorded::read(entry.path(), status).map_err(|e| cannot(entry.path(), e))?;
            let copy = kept.map(|kept| kept.join(relative));
            match (&recorded.kind, copy) {
                (Kind::Folder, Some(copy)) if !relative.as_os_str().is_empty() => {
                    std::fs::DirBuilder::new()
                        .mode(0o700)
                        .create(&copy)
                        .map_err(|e| cannot(&copy, e))?
                }
                (Kind::File, Some(copy)) => {
                    sizes = sizes.saturating_add(recorded.status.size);
                    if sizes > most {
                        return Err(Error::path(
                            root,
                            format!("its files hold more than the {most} bytes a copy may take"),
                        ));
                    }
                    bytes += copy_file(entry.path(), &copy).map_err(|e| cannot(entry.path(), e))?;
                }
                (Kind::File, None) => {
                    return Err(Error::path(
                        entry.path(),
                        "a file where only folders may be",
                    ))
                }
                _ => {}
            }
            entries.insert(relative.to_path_buf(), recorded);
        }
        let mut snapshot = Snapshot {
            root: root.to_path_buf(),
            kept: kept.map(Path::to_path_buf),
            one_file_system: one_file_system.then_some(device),
            entries,
            settled: now(),
            bytes,
        };
        // Reading the folder moved access times after they were recorded: the first run
        // finds it as every later one will.
        snapshot
            .restore()
            .map_err(|e| Error::path(root, e.to_string()))?;
        Ok(snapshot)
    }

    /// The folder recorded.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What the copies of its files hold together.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// How many entries it recorded (the folder itself among them).
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    /// Puts the folder back as recorded (call it once no process can write to it): what is
    /// new goes, what went comes back, and what changed is made as it was. An error names
    /// the first entry that could not be put back; the folder is then not to be used again.
    pub fn restore(&mut self) -> Result<(), RestoreError> {
        let found = self.survey()?;
        let racy_since = self.settled - tick();
        // First what is missing or holds other bytes is made again, folders before what they
        // hold; then statuses are set, what a folder holds before the folder (making an entry
        // moves its folder's times).
        let mut unsettled: Vec<PathBuf> = Vec::new();
        let mut remade = false;
        for (relative, recorded) in &self.entries {
            let status = found.get(relative.as_path());
            match self.examine(relative, recorded, status, racy_since)? {
                Examined::AsRecorded => {}
                Examined::Unsettled => unsettled.push(relative.clone()),
                Examined::Remade => {
                    remade = true;
                    unsettled.push(relative.clone());
                }
            }
        }
        if remade {
            let folders = self.entries.iter().filter(|(_, r)| r.kind == Kind::Folder);
            unsettled.extend(folders.map(|(relative, _)| relative.clone()));
            unsettled.sort();
            unsettled.dedup();
        }
        for relative in unsettled.iter().rev() {
            self.settle(relative)?;
        }
        self.settled = now();
        Ok(())
    }

    /// Reads the folder (each folder once, by descriptor, without moving its access time):
    /// removes every entry that is not recorded, or is another inode than the recorded one,
    /// and returns the status of every recorded one found.
    fn survey(&self) -> Result<HashMap<PathBuf, Status>, RestoreError> {
        let mut found = HashMap::with_capacity(self.entries.len());
        // Folders still to read, by path: one descriptor is open at a time, however many
        // folders there are.
        let mut pending = vec![PathBuf::new()];
        while let Some(folder) = pending.pop() {
            let path = self.root.join(&folder);
            let fail = |e: rustix::io::Errno| RestoreError::new(&path, e);
            let fd = open_quietly(&path, true).map_err(|e| RestoreError::new(&path, e))?;
            if folder.as_os_str().is_empty() {
                found.insert(
                    folder.clone(),
                    Status::of(&rustix::fs::fstat(&fd).map_err(fail)?),
                );
            }
            let mut dir = rustix::fs::Dir::new(fd).map_err(fail)?;
            while let Some(entry) = dir.read() {
                let fd = dir.fd().map_err(fail)?;
                let entry = entry.map_err(fail)?;
                let name = entry.file_name();
                if matches!(name.to_bytes(), b"." | b"..") {
                    continue;
                }
                let relative = folder.join(OsStr::from_bytes(name.to_bytes()));
                let full = || self.root.join(&relative);
                let recorded = self.entries.get(&relative);
                // A recorded entry's status is needed; another's only where the folder does
                // not tell its kind.
                let status = match (recorded, entry.file_type()) {
                    (None, kind) if kind != FileType::Unknown => None,
                    _ => Some(Status::of(
                        &rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)
                            .map_err(|e| RestoreError::new(&full(), e))?,
                    )),
                };
                let is_dir = match status {
                    Some(status) => status.file_type() == FileType::Directory,
                    None => entry.file_type() == FileType::Directory,
                };
                if let (Some(device), Some(status)) = (self.one_file_system, status) {
                    if status.device != device {
                        continue;
                    }
                }
                match (recorded, status) {
                    (Some(recorded), Some(status))
                        if recorded.status.inode == status.inode
                            && (recorded.kind == Kind::Folder) == is_dir =>
                    {
                        if is_dir {
                            pending.push(relative.clone());
                        }
                        found.insert(relative, status);
                    }
                    _ => self.remove(&full(), is_dir)?,
                }
            }
        }
        Ok(found)
    }

    /// Removes `path`, an entry the record does not have (passed over where it is on
    /// another file system, mounted there).
    fn remove(&self, path: &Path, is_dir: bool) -> Result<(), RestoreError> {
        if let Some(device) = self.one_file_system {
            let status = Status::of_path(path).map_err(|e| RestoreError::new(path, e))?;
            if status.device != device {
                return Ok(());
            }
        }
        remove_entry(path, is_dir).map_err(|e| RestoreError::new(path, e))
    }

    /// Whether the entry at `relative`, found with `status` (none: missing), is as recorded;
    /// made again if it is missing or holds other bytes (a file whose ctime is within a tick
    /// of the record is read to know).
    fn examine(
        &self,
        relative: &Path,
        recorded: &Recorded,
        status: Option<&Status>,
        racy_since: i128,
    ) -> Result<Examined, RestoreError> {
        let path = self.root.join(relative);
        let fail = |e: io::Error| RestoreError::new(&path, e);
        let racy = recorded.status.changed >= racy_since;
        let Some(now) = status else {
            self.make(relative, &path)?;
            return Ok(Examined::Remade);
        };
        let differs = recorded.status != *now;
        if !differs && !racy {
            return Ok(Examined::AsRecorded);
        }
        // A link the run put in the place of a recorded one, given the same inode by the
        // file system (it reuses a freed one at once), points where the run chose.
        // Reading a link moves its access time: it is then put back as it was recorded.
        if let Kind::Link(target) = &recorded.kind {
            if std::fs::read_link(&path).map_err(fail)? != *target {
                std::fs::remove_file(&path).map_err(fail)?;
                self.make(relative, &path)?;
                return Ok(Examined::Remade);
            }
            return Ok(Examined::Unsettled);
        }
        if recorded.kind == Kind::File {
            let Some(kept) = &self.kept else {
                return Err(RestoreError::new(&path, "no copy of it is kept"));
            };
            if now.size != recorded.status.size
                || now.blocks != recorded.status.blocks
                || !same_content(&kept.join(relative), &path).map_err(fail)?
            {
                std::fs::remove_file(&path).map_err(fail)?;
                self.make(relative, &path)?;
                return Ok(Examined::Remade);
            }
        }
        // Setting a status moves the ctime, and would keep the entry within a tick of the
        // record: an entry whose status is as recorded is left as it is.
        if differs || kept_attributes(&path).map_err(fail)? != recorded.attributes {
            Ok(Examined::Unsettled)
        } else {
            Ok(Examined::AsRecorded)
        }
    }

    /// Gives the entry at `relative` its recorded status, and records the inode and ctime it
    /// has now.
    fn settle(&mut self, relative: &Path) -> Result<(), RestoreError> {
        let path = self.root.join(relative);
        let fail = |e: io::Error| RestoreError::new(&path, e);
        let recorded = &self.entries[relative];
        set_status(&path, recorded).map_err(fail)?;
        let now = Status::of_path(&path).map_err(fail)?;
        let was = recorded.status;
        if (now.mode, now.size, now.accessed, now.modified)
            != (was.mode, was.size, was.accessed, was.modified)
        {
            return Err(RestoreError::new(&path, "it stayed changed"));
        }
        if let Some(recorded) = self.entries.get_mut(relative) {
            recorded.status = now;
        }
        Ok(())
    }

    /// Makes the missing entry at `relative` again: a folder, a copy of the kept file, or a
    /// link.
    fn make(&self, relative: &Path, path: &Path) -> Result<(), RestoreError> {
        let fail = |e: io::Error| RestoreError::new(path, e);
        match &self.entries[relative].kind {
            Kind::Folder => std::fs::DirBuilder::new()
                .mode(0o700)
                .create(path)
                .map_err(fail),
            Kind::File => match &self.kept {
                Some(kept) => copy_file(&kept.join(relative), path)
                    .map(drop)
                    .map_err(fail),
                None => Err(RestoreError::new(path, "no copy of it is kept")),
            },
            Kind::Link(target) => std::os::unix::fs::symlink(target, path).map_err(fail),
            Kind::Other => Err(RestoreError::new(path, "it cannot be made again")),
        }
    }
}

/// Removes the entry at `path` (links not followed): a folder with all it holds, or anything
/// else.
pub(super) fn remove_entry(path: &Path, is_dir: bool) -> io::Result<()> {
    if is_dir {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

/// Gives the entry at `path` the owner, mode, `user.` attributes and times `recorded` has.
fn set_status(path: &Path, recorded: &Recorded) -> io::Result<()> {
    let now = Status::of_path(path)?;
    let want = recorded.status;
    if (now.uid, now.gid) != (want.uid, want.gid) {
        std::os::unix::fs::lchown(path, Some(want.uid), Some(want.gid))?;
    }
    // The mode and the inode flags are set through the entry itself (opened once), never a
    // link put in its place since it was looked at.
    let is_link = matches!(recorded.kind, Kind::Link(_));
    let entry = if !is_link && (now.mode != want.mode || recorded.flags.is_some()) {
        Some(open_quietly(path, recorded.kind == Kind::Folder)?)
    } else {
        None
    };
    if let Some(entry) = entry.as_ref().filter(|_| now.mode != want.mode) {
        rustix::fs::fchmod(entry, Mode::from_raw_mode(want.mode & 0o7777))?;
    }
    let attributes = kept_attributes(path)?;
    if attributes != recorded.attributes {
        for (name, _) in &attributes {
            rustix::fs::lremovexattr(path, name.as_slice())?;
        }
        for (name, value) in &recorded.attributes {
            rustix::fs::lsetxattr(path, name.as_slice(), value, XattrFlags::empty())?;
        }
    }
    if let (Some(entry), Some(want)) = (&entry, recorded.flags) {
        if rustix::fs::ioctl_getflags(entry)? != want {
            rustix::fs::ioctl_setflags(entry, want)?;
        }
    }
    let time = |(seconds, nanoseconds): (i64, i64)| Timespec {
        tv_sec: seconds,
        tv_nsec: nanoseconds as _,
    };
    let times = Timestamps {
        last_access: time(want.accessed),
        last_modification: time(want.modified),
    };
    rustix::fs::utimensat(CWD, path, &times, AtFlags::SYMLINK_NOFOLLOW)?;
    Ok(())
}

/// The extended attributes of `path` a process may set ([`KEPT_ATTRIBUTES`]) and their
/// values, sorted (none where the file system has none).
fn kept_attributes(path: &Path) -> io::Result<Vec<(Vec<u8>, Vec<u8>)>> {
    let size = match rustix::fs::llistxattr_query(path) {
        Ok(0) => return Ok(Vec::new()),
        Ok(size) => size,
        Err(rustix::io::Errno::OPNOTSUPP) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut names = vec![0u8; size];
    let length = rustix::fs::llistxattr(path, &mut names[..])?;
    names.truncate(length);
    let mut attributes = Vec::new();
    for name in names.split(|&b| b == 0) {
        if !KEPT_ATTRIBUTES.iter().any(|kept| name.starts_with(kept)) {
            continue;
        }
        let size = rustix::fs::lgetxattr_query(path, name)?;
        let mut value = vec![0u8; size];
        let length = rustix::fs::lgetxattr(path, name, &mut value[..])?;
        value.truncate(length);
        attributes.push((name.to_vec(), value));
    }
    attributes.sort();
    Ok(attributes)
}

/// Opens `path` (a folder, or a file) to read, without moving its access time where the
/// grader may (its own reads would otherwise look like a student's, to be set back each time).
fn open_quietly(path: &Path, folder: bool) -> io::Result<OwnedFd> {
    // Not blocking: a pipe put where a file was opens at once (and is then refused).
    let mut flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if folder {
        flags |= OFlags::DIRECTORY;
    }
    match rustix::fs::open(path, flags | OFlags::NOATIME, Mode::empty()) {
        Err(rustix::io::Errno::PERM) => Ok(rustix::fs::open(path, flags, Mode::empty())?),
        opened => Ok(opened?),
    }
}

/// Copies the file `from` to a new file `to`, as the grader (root, maybe) in a folder a
/// student's processes may have written: neither end is followed if it is a link, and `to`
/// must not exist (a link, a pipe or a file put there is refused, never written through).
/// Its mode is the owner's alone until its status is set. The bytes copied.
fn copy_file(from: &Path, to: &Path) -> io::Result<u64> {
    let mut source = std::fs::File::from(open_quietly(from, false)?);
    if !source.metadata()?.is_file() {
        return Err(io::Error::other("it is no longer a plain file"));
    }
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut target = std::fs::File::from(rustix::fs::open(to, flags, Mode::RUSR | Mode::WUSR)?);
    io::copy(&mut source, &mut target)
}

/// Whether the files at `a` and `b` hold the same bytes.
fn same_content(a: &Path, b: &Path) -> io::Result<bool> {
    let (mut a, mut b) = (
        std::fs::File::from(open_quietly(a, false)?),
        std::fs::File::from(open_quietly(b, false)?),
    );
    let (mut left, mut right) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = read_full(&mut a, &mut left)?;
        let m = read_full(&mut b, &mut right)?;
        if left[..n] != right[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

/// Reads until `buffer` is full or the file ends: how many bytes were read.
fn read_full(file: &mut std::fs::File, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

fn nanos(seconds: i64, nanoseconds: i64) -> i128 {
    i128::from(seconds) * 1_000_000_000 + i128::from(nanoseconds)
}

fn now() -> i128 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    since.as_nanos() as i128
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    /// Every entry below `root` with its kind, mode, size, times, content and attributes,
    /// read without moving an access time (the status first, then with `O_NOATIME`).
    fn state(root: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut pending = vec![root.to_path_buf()];
        while let Some(path) = pending.pop() {
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let mut content = String::new();
            if meta.is_file() || meta.is_dir() {
                let flags = rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NOATIME;
                let fd = rustix::fs::open(&path, flags, rustix::fs::Mode::empty()).unwrap();
                if meta.is_dir() {
                    for entry in rustix::fs::Dir::read_from(&fd).unwrap() {
                        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                        if name != "." && name != ".." {
                            pending.push(path.join(name));
                        }
                    }
                } else {
                    std::fs::File::from(fd)
                        .read_to_string(&mut content)
                        .unwrap();
                }
            }
            found.push(format!(
                "{} {:o} {} {}.{} {}.{} {content:?} {:?}",
                path.strip_prefix(root).unwrap().display(),
                meta.mode(),
                if meta.is_dir() { 0 } else { meta.size() },
                meta.atime(),
                meta.atime_nsec(),
                meta.mtime(),
                meta.mtime_nsec(),
                kept_attributes(&path).unwrap(),
            ));
        }
        found.sort();
        found
    }

    fn folder() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().join("job");
        std::fs::create_dir_all(root.join("helpers")).unwrap();
        std::fs::write(root.join("chess.py"), "print('board')\n").unwrap();
        std::fs::write(root.join("helpers/moves.py"), "KNIGHT = 2\n").unwrap();
        std::os::unix::fs::symlink("chess.py", root.join("main.py")).unwrap();
        let kept = scratch.path().join("job.kept");
        (scratch, root, kept)
    }

    fn set_times(path: &Path, seconds: i64) {
        let time = Timespec {
            tv_sec: seconds,
            tv_nsec: 0,
        };
        let times = Timestamps {
            last_access: time,
            last_modification: time,
        };
        rustix::fs::utimensat(CWD, path, &times, AtFlags::SYMLINK_NOFOLLOW).unwrap();
    }

    #[test]
    fn what_a_run_adds_goes_and_what_it_changes_or_removes_comes_back() {
        let (_scratch, root, kept) = folder();
        let mut snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        let before = state(&root);
        // A run leaves a mark of every kind it can.
        std::fs::write(root.join("left.txt"), "seen").unwrap();
        std::fs::create_dir(root.join("helpers/left")).unwrap();
        let mut source = std::fs::OpenOptions::new()
            .append(true)
            .open(root.join("chess.py"))
            .unwrap();
        std::io::Write::write_all(&mut source, b"# seen\n").unwrap();
        drop(source);
        std::fs::set_permissions(root.join("helpers"), std::fs::Permissions::from_mode(0o701))
            .unwrap();
        std::fs::remove_file(root.join("helpers/moves.py")).unwrap();
        std::fs::remove_file(root.join("main.py")).unwrap();
        std::os::unix::fs::symlink("helpers", root.join("main.py")).unwrap();
        // Extended attributes where the file system has them.
        let _ = rustix::fs::lsetxattr(&root, "user.seen", b"1", XattrFlags::empty());
        set_times(&root, 1_234_567);
        set_times(&root.join("chess.py"), 7_654_321);
        assert_ne!(state(&root), before);

        snapshot.restore().unwrap();
        assert_eq!(state(&root), before);
        // Restored again with nothing changed, it stays as it is.
        snapshot.restore().unwrap();
        assert_eq!(state(&root), before);
    }

    #[test]
    fn a_link_pointed_elsewhere_with_the_same_inode_is_made_again() {
        let (_scratch, root, kept) = folder();
        let mut snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        let before = state(&root);
        // A target as long as the recorded one (`chess.py`), in a link the file system gave
        // the inode of the link it replaced, as it often does.
        let link = root.join("main.py");
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink("helpers/", &link).unwrap();
        let inode = Status::of_path(&link).unwrap().inode;
        let recorded = snapshot.entries.get_mut(Path::new("main.py")).unwrap();
        recorded.status.inode = inode;

        snapshot.restore().unwrap();
        assert_eq!(state(&root), before);
        assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("chess.py"));
    }

    #[test]
    fn a_change_the_clock_did_not_see_is_found_by_content() {
        let (_scratch, root, kept) = folder();
        let mut snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        let before = state(&root);
        // The same size, the same times, and a record that happens to match the status, as
        // when the change falls in the clock tick of the record.
        let path = root.join("helpers/moves.py");
        std::fs::write(&path, "KNIGHT = 3\n").unwrap();
        let recorded = snapshot.entries[Path::new("helpers/moves.py")].status;
        let time = |(tv_sec, tv_nsec): (i64, i64)| Timespec {
            tv_sec,
            tv_nsec: tv_nsec as _,
        };
        let times = Timestamps {
            last_access: time(recorded.accessed),
            last_modification: time(recorded.modified),
        };
        rustix::fs::utimensat(CWD, &path, &times, AtFlags::empty()).unwrap();
        let status = Status::of_path(&path).unwrap();
        let entry = snapshot
            .entries
            .get_mut(Path::new("helpers/moves.py"))
            .unwrap();
        entry.status.changed = status.changed;
        assert_eq!(entry.status, status);

        // Long after the record, an entry whose status matches is not read...
        let settled = snapshot.settled;
        snapshot.settled = status.changed + 10 * tick();
        snapshot.restore().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "KNIGHT = 3\n");
        // ...but within a tick of it, it is, and put back.
        snapshot.settled = settled;
        let entry = snapshot
            .entries
            .get_mut(Path::new("helpers/moves.py"))
            .unwrap();
        entry.status.changed = status.changed;
        snapshot.settled = status.changed;
        snapshot.restore().unwrap();
        assert_eq!(state(&root), before);
    }

    #[test]
    fn a_link_put_where_an_entry_was_is_never_written_through() {
        let (scratch, root, kept) = folder();
        std::fs::write(root.join("board.py"), "BOARD = []\n").unwrap();
        std::fs::set_permissions(
            root.join("board.py"),
            std::fs::Permissions::from_mode(0o640),
        )
        .unwrap();
        let snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        let outside = scratch.path().join("outside");
        std::fs::write(&outside, "the grader's own\n").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).unwrap();
        // Between the look at the folder and the making of what it misses, a link took the
        // file's place (a process left running could do so): neither making the file nor
        // setting its mode goes through it.
        std::fs::remove_file(root.join("board.py")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("board.py")).unwrap();
        let path = root.join("board.py");
        assert!(snapshot.make(Path::new("board.py"), &path).is_err());
        let recorded = &snapshot.entries[Path::new("board.py")];
        assert!(set_status(&path, recorded).is_err());
        assert_eq!(
            std::fs::read_to_string(&outside).unwrap(),
            "the grader's own\n"
        );
        let mode = std::fs::metadata(&outside).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o600);
    }

    #[test]
    fn an_access_list_or_room_past_a_files_end_goes_with_the_run() {
        let (_scratch, root, kept) = folder();
        let mut snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        let before = state(&root);
        let file = root.join("chess.py");
        // An access list naming user 1234 (its mask as the group's bits, so the mode stays
        // as it was), and the folder's list for what is made in it.
        let entry = |tag: u16, perm: u16, id: u32| {
            [
                &tag.to_le_bytes()[..],
                &perm.to_le_bytes(),
                &id.to_le_bytes(),
            ]
            .concat()
        };
        let list = [
            2u32.to_le_bytes().to_vec(),
            entry(0x01, 6, u32::MAX),
            entry(0x02, 4, 1234),
            entry(0x04, 4, u32::MAX),
            entry(0x10, 4, u32::MAX),
            entry(0x20, 4, u32::MAX),
        ]
        .concat();
        rustix::fs::setxattr(&file, "system.posix_acl_access", &list, XattrFlags::empty()).unwrap();
        rustix::fs::setxattr(
            &root,
            "system.posix_acl_default",
            &list,
            XattrFlags::empty(),
        )
        .unwrap();
        // Room past its end: its size and bytes stay.
        let opened = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
        rustix::fs::fallocate(&opened, rustix::fs::FallocateFlags::KEEP_SIZE, 0, 1 << 20).unwrap();
        drop(opened);
        assert_ne!(state(&root), before);
        snapshot.restore().unwrap();
        assert_eq!(state(&root), before);
        let blocks = std::fs::metadata(&file).unwrap().blocks();
        assert!(blocks < 64, "{blocks} blocks");
    }

    #[test]
    fn an_inode_flag_an_owner_sets_goes_with_the_run() {
        let (_scratch, root, kept) = folder();
        let file = root.join("chess.py");
        let flags_of = |path: &Path, folder: bool| inode_flags(path, folder).unwrap().unwrap();
        let (file_before, root_before) = (flags_of(&file, false), flags_of(&root, true));
        let mut snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        for (path, folder) in [(&file, false), (&root, true)] {
            let entry = open_quietly(path, folder).unwrap();
            let with = flags_of(path, folder) | IFlags::NODUMP | IFlags::NOATIME;
            rustix::fs::ioctl_setflags(&entry, with).unwrap();
        }
        assert_ne!(flags_of(&file, false), file_before);
        snapshot.restore().unwrap();
        assert_eq!(flags_of(&file, false), file_before);
        assert_eq!(flags_of(&root, true), root_before);
    }

    #[test]
    fn a_record_holds_at_most_its_entries() {
        let (_scratch, root, kept) = folder();
        std::fs::write(root.join("one.py"), "").unwrap();
        for n in 0..5 {
            std::fs::hard_link(root.join("one.py"), root.join(format!("link{n}.py"))).unwrap();
        }
        let most = |entries| Most {
            bytes: u64::MAX,
            entries,
        };
        // The folder, the four entries it was made with and the six of one file.
        let error = Snapshot::of_folder(&root, &kept, most(10)).unwrap_err();
        assert!(
            error.to_string().contains("more than the 10 entries"),
            "{error}"
        );
        assert!(Snapshot::of_folder(&root, &kept, most(11)).is_ok());
    }

    #[test]
    fn what_cannot_be_made_again_is_named() {
        let (_scratch, root, kept) = folder();
        rustix::fs::mknodat(
            CWD,
            root.join("pipe"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let mut snapshot = Snapshot::of_folder(&root, &kept, Most::ANY).unwrap();
        std::fs::remove_file(root.join("pipe")).unwrap();
        let error = snapshot.restore().unwrap_err().to_string();
        assert!(
            error.contains("pipe") && error.contains("cannot be made again"),
            "{error}"
        );
    }

    #[test]
    fn a_private_folder_holds_folders_only() {
        let (_scratch, root, _kept) = folder();
        let error = Snapshot::of_private_folder(&root).unwrap_err().to_string();
        assert!(
            error.contains("a file where only folders may be"),
            "{error}"
        );
        std::fs::remove_file(root.join("chess.py")).unwrap();
        std::fs::remove_file(root.join("main.py")).unwrap();
        std::fs::remove_file(root.join("helpers/moves.py")).unwrap();
        let mut snapshot = Snapshot::of_private_folder(&root).unwrap();
        let before = state(&root);
        std::fs::write(root.join("helpers/left"), "").unwrap();
        set_times(&root.join("helpers"), 1_234_567);
        snapshot.restore().unwrap();
        assert_eq!(state(&root), before);
    }
}
