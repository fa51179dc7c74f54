//! The local fast path: on Linux, a local store links staged files into place with
//! `*at` calls on open directory handles (no path walk per file); elsewhere the
//! `object_store` path does the same work.

use super::*;

/// The file of a local store's key, when every segment is plain (letters, digits, `.`,
/// `_`, `-`: the store uses such keys as they are, without encoding).
pub(super) fn local_path(dir: &Path, key: &StorePath) -> Option<PathBuf> {
    let plain = key.parts().all(|part| plain_segment(part.as_ref()));
    // Plain segments joined by `/`: the key is a relative path as it is.
    plain.then(|| dir.join(key.as_ref()))
}

/// Whether a key's segment is plain: letters, digits, `.`, `_`, `-`, and not `.` or `..`.
fn plain_segment(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// A head document of a local store, `None` when the file does not exist.
pub(super) fn read_local_document(
    dir: &Path,
    key: &StorePath,
) -> Result<Option<HeadDocument>, BlobError> {
    let Some(path) = local_path(dir, key) else {
        return Ok(None);
    };
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Some(HeadDocument::parse(key, &bytes)?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(BlobError::LocalIo { path, source }),
    }
}

/// A put on a local store with every step in the calling (blocking) thread: the same
/// files as the general path writes through `object_store` (objects hard-linked from
/// staging, the head written to `head.json#N` and renamed over `head.json`), without a
/// thread hand-off per step: a commit of many small datasets is mostly such steps. The
/// dataset's directory is opened once and every file of it is reached from there (and a
/// staged file from its directory, kept open in `sources` across puts), so that each
/// step walks one or two path components instead of the whole path.
/// `Ok(None)`: a step needs the general path (an object already there with another
/// size, a link across file systems); nothing visible has changed then (objects are not
/// visible before the head lists them).
#[cfg(target_os = "linux")]
pub(super) fn put_local(
    dir: &Path,
    root: &StorePath,
    given: &BTreeMap<String, BlobFile>,
    replace: bool,
    keep: Option<&(String, StorePath)>,
    (dirs, known): (&mut OpenDirs, &KnownHeads),
) -> Result<Option<BlobOutcome>, BlobError> {
    use rustix::fs::{Mode, OFlags};

    let head_key = root.clone().join(layout::HEAD_NAME);
    let Some((dataset, dataset_fd)) = open_dataset(dir, root, dirs)? else {
        return Ok(None);
    };
    let head_path = || dataset.join(layout::HEAD_NAME);
    let io = |path: PathBuf| {
        move |errno: rustix::io::Errno| BlobError::LocalIo {
            path,
            source: errno.into(),
        }
    };

    let current = match rustix::fs::openat(
        &dataset_fd,
        layout::HEAD_NAME,
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::fs::File::from(fd), &mut bytes).map_err(
                |source| BlobError::LocalIo {
                    path: head_path(),
                    source,
                },
            )?;
            Some(HeadDocument::parse(&head_key, &bytes)?)
        }
        Err(rustix::io::Errno::NOENT) => None,
        Err(errno) => return Err(io(head_path())(errno)),
    };
    let target = target_files(current.as_ref(), given, replace);
    let summary = summarize(&target);
    if let Some((version, key)) = keep
        && let Some(named) = read_local_document(dir, key)?
        && named.files != target
    {
        return Err(BlobError::VersionExists {
            version: version.clone(),
            location: root.to_string(),
        });
    }
    if let Some(head) = &current
        && head.files == target
    {
        return Ok(Some(summary(BlobStatus::Unchanged, 0, 0)));
    }

    let Some((linked_files, linked_bytes)) = link_distinct(dirs, &dataset_fd, given.values())
    else {
        return Ok(None);
    };

    let document = HeadDocument::new(target);
    let body = serde_json::to_vec_pretty(&document).expect("a head document serializes");
    let status = match current {
        None => BlobStatus::Created,
        Some(_) => BlobStatus::Updated,
    };
    // The head written is remembered as it is (its identity from the file written, after
    // the rename): the next read of it is one `fstatat`.
    let remember = |stat: &rustix::fs::Stat| match local_path(dir, &head_key) {
        Some(path) => {
            let listing = listing_of_prefix(&body[..body.len().min(HEAD_PREFIX_LEN)]);
            known.wrote(
                known_heads::Identity::new(known, &path, stat),
                listing.as_deref(),
            );
        }
        // Not a path a read would name: the head written is not remembered, nor any other.
        None => known.changed(),
    };
    if status == BlobStatus::Created
        && let Some(stat) = use_prepared_head(&dataset_fd, &body)
    {
        remember(&stat);
        return Ok(Some(summary(status, linked_files, linked_bytes)));
    }
    // As object_store's local put: a new `head.json#N`, renamed over the head.
    let mut n = 1;
    let (mut file, temp) = loop {
        let mut temp = head_path().into_os_string();
        temp.push(format!("#{n}"));
        let temp = PathBuf::from(temp);
        match std::fs::File::create_new(&temp) {
            Ok(file) => break (file, temp),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(source) => return Err(BlobError::LocalIo { path: temp, source }),
        }
    };
    let written = std::io::Write::write_all(&mut file, &body)
        .and_then(|()| std::fs::rename(&temp, head_path()));
    if let Err(source) = written {
        let _ = std::fs::remove_file(&temp);
        known.changed();
        return Err(BlobError::LocalIo {
            path: head_path(),
            source,
        });
    }
    match rustix::fs::fstat(&file) {
        Ok(stat) => remember(&stat),
        Err(_) => known.changed(),
    }
    Ok(Some(summary(status, linked_files, linked_bytes)))
}

/// The directory of the dataset at `root` (created with its `objects` directory if
/// missing), opened from the namespace's directory in `dirs`; `None` when the store has
/// no such path.
#[cfg(target_os = "linux")]
fn open_dataset(
    dir: &Path,
    root: &StorePath,
    dirs: &mut OpenDirs,
) -> Result<Option<(PathBuf, rustix::fd::OwnedFd)>, BlobError> {
    use rustix::fs::{Mode, OFlags};
    let Some(dataset) = local_path(dir, root) else {
        return Ok(None);
    };
    let io = |path: PathBuf| {
        move |errno: rustix::io::Errno| BlobError::LocalIo {
            path,
            source: errno.into(),
        }
    };
    // `{ns}/{dataset}/{branch}`: opened from the namespace's directory.
    let Some(ns_dir) = dataset.parent().and_then(Path::parent) else {
        return Ok(None);
    };
    let below = dataset.strip_prefix(ns_dir).unwrap_or(&dataset);
    let open_dir = |dirs: &mut OpenDirs| {
        rustix::fs::openat(
            dirs.namespace(ns_dir)?,
            below,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
    };
    let dataset_fd = match open_dir(dirs) {
        Err(rustix::io::Errno::NOENT) => {
            let objects = dataset.join(layout::OBJECTS_DIR);
            std::fs::create_dir_all(&objects).map_err(|source| BlobError::LocalIo {
                path: objects,
                source,
            })?;
            // The namespace's directory may be new too.
            dirs.namespace = None;
            open_dir(dirs)
        }
        opened => opened,
    }
    .map_err(io(dataset.clone()))?;
    Ok(Some((dataset, dataset_fd)))
}

/// Issue 27: hard-links the verified staged files of one page of a paged put (see
/// `paged.rs`) into the dataset at `root`, each distinct content once, as [`put_local`]
/// does: `Some((objects linked, their bytes))`, or `None` when one needs the general path
/// (nothing visible has changed: objects are not visible before a head lists them).
#[cfg(target_os = "linux")]
pub(super) fn link_page(
    dir: &Path,
    root: &StorePath,
    files: &[BlobFile],
    dirs: &mut OpenDirs,
) -> Result<Option<(u64, u64)>, BlobError> {
    let Some((_, dataset_fd)) = open_dataset(dir, root, dirs)? else {
        return Ok(None);
    };
    Ok(link_distinct(dirs, &dataset_fd, files))
}

/// Elsewhere, the general path.
#[cfg(not(target_os = "linux"))]
pub(super) fn link_page(
    _dir: &Path,
    _root: &StorePath,
    _files: &[BlobFile],
    _dirs: &mut OpenDirs,
) -> Result<Option<(u64, u64)>, BlobError> {
    Ok(None)
}

/// [`link_at`] of each distinct content of `files` once: `Some((objects linked, their
/// bytes))`, `None` as soon as one needs the general path.
#[cfg(target_os = "linux")]
fn link_distinct<'a>(
    dirs: &mut OpenDirs,
    dataset: &rustix::fd::OwnedFd,
    files: impl IntoIterator<Item = &'a BlobFile>,
) -> Option<(u64, u64)> {
    let (mut linked_files, mut linked_bytes) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    for file in files.into_iter().filter(|f| seen.insert(f.sha256.as_str())) {
        if link_at(dirs, dataset, file)? {
            linked_files += 1;
            linked_bytes += file.size;
        }
    }
    Some((linked_files, linked_bytes))
}

/// Hard-links the verified staged file of `file` to its object in the dataset directory
/// `dataset` (as [`link_blocking`], each step from an open directory): `Some(true)` when
/// linked, `Some(false)` when the object is there with the right size, `None` when the
/// general path must do it.
#[cfg(target_os = "linux")]
fn link_at(dirs: &mut OpenDirs, dataset: &rustix::fd::OwnedFd, file: &BlobFile) -> Option<bool> {
    use rustix::fs::{AtFlags, Mode};
    use rustix::io::Errno;
    if !plain_segment(&file.sha256) {
        return None;
    }
    let (parent, name) = (file.local.parent()?, file.local.file_name()?);
    let source_dir = dirs.staged(parent)?;
    let size_at = |fd, name: &std::ffi::OsStr| {
        rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .map(|stat| stat.st_size as u64)
    };
    if size_at(source_dir, name) != Some(file.size) {
        return None;
    }
    let object = format!("{}/{}", layout::OBJECTS_DIR, file.sha256);
    let link = || rustix::fs::linkat(source_dir, name, dataset, &object, AtFlags::empty());
    let mut linked = link();
    if linked == Err(Errno::NOENT) {
        match rustix::fs::mkdirat(dataset, layout::OBJECTS_DIR, Mode::from(0o755)) {
            Ok(()) | Err(Errno::EXIST) => linked = link(),
            Err(_) => return None,
        }
    }
    match linked {
        Ok(()) => Some(true),
        Err(Errno::EXIST) => {
            (size_at(dataset, object.as_ref()) == Some(file.size)).then_some(false)
        }
        Err(_) => None,
    }
}

/// Makes `body` the head of a new dataset (its directory `dataset`) from its prepared
/// head (see [`BlobEngine::prepare`]), if it has one no longer than `body`: rewritten in
/// place (a document's length does not depend on its time, so this allocates nothing) and
/// renamed over the head, which must then be the file written (not one that replaced the
/// prepared head meanwhile); the file's `stat` after the rename. `None` otherwise: the
/// caller writes the head the usual way, over whatever the rename left.
#[cfg(target_os = "linux")]
fn use_prepared_head(dataset: &rustix::fd::OwnedFd, body: &[u8]) -> Option<rustix::fs::Stat> {
    use rustix::fs::{AtFlags, Mode, OFlags};
    use std::os::unix::fs::{FileExt, MetadataExt};
    let prepared = format!("{}{PREPARED_SUFFIX}", layout::HEAD_NAME);
    let Ok(fd) = rustix::fs::openat(
        dataset,
        prepared.as_str(),
        OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return None;
    };
    let file = std::fs::File::from(fd);
    let before = file.metadata().ok()?;
    let used = before.len() <= body.len() as u64
        && file.write_all_at(body, 0).is_ok()
        && rustix::fs::renameat(dataset, prepared.as_str(), dataset, layout::HEAD_NAME).is_ok()
        && rustix::fs::statat(dataset, layout::HEAD_NAME, AtFlags::SYMLINK_NOFOLLOW).is_ok_and(
            |after| {
                after.st_ino == before.ino()
                    && after.st_dev == before.dev()
                    && after.st_size as u64 == body.len() as u64
            },
        );
    if !used {
        return None;
    }
    rustix::fs::fstat(&file).ok()
}

/// Elsewhere (no `O_PATH` descriptors), every put takes the general path.
#[cfg(not(target_os = "linux"))]
fn put_local(
    _dir: &Path,
    _root: &StorePath,
    _given: &BTreeMap<String, BlobFile>,
    _replace: bool,
    _keep: Option<&(String, StorePath)>,
    _dirs: (&mut OpenDirs, &KnownHeads),
) -> Result<Option<BlobOutcome>, BlobError> {
    Ok(None)
}

/// Directories that a blocking task's local puts reach files from, kept open across the
/// puts: where staged files are (a commit's contents are all in one), so that a link walks
/// only the file's name, and the namespace's directory (a commit's datasets are all in
/// one), so that opening a dataset walks only its name and branch.
#[derive(Default)]
pub(super) struct OpenDirs {
    #[cfg(target_os = "linux")]
    staged: Option<(PathBuf, rustix::fd::OwnedFd)>,
    #[cfg(target_os = "linux")]
    namespace: Option<(PathBuf, rustix::fd::OwnedFd)>,
}

#[cfg(target_os = "linux")]
impl OpenDirs {
    /// The open directory `path` of staged files; `None` when it cannot be opened.
    fn staged(&mut self, path: &Path) -> Option<&rustix::fd::OwnedFd> {
        open_cached(&mut self.staged, path).ok()
    }

    /// The open namespace directory `path`.
    fn namespace(&mut self, path: &Path) -> rustix::io::Result<&rustix::fd::OwnedFd> {
        open_cached(&mut self.namespace, path)
    }
}

/// The directory `path` opened (`O_PATH`) in `slot`, unless it holds it already.
#[cfg(target_os = "linux")]
fn open_cached<'a>(
    slot: &'a mut Option<(PathBuf, rustix::fd::OwnedFd)>,
    path: &Path,
) -> rustix::io::Result<&'a rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    if slot.as_ref().is_none_or(|(open, _)| open != path) {
        *slot = None;
        let fd = rustix::fs::open(
            path,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        *slot = Some((path.to_path_buf(), fd));
    }
    Ok(slot.as_ref().map(|(_, fd)| fd).expect("just opened"))
}

/// The name of a dataset's prepared head next to `head` (see [`BlobEngine::prepare`]), and
/// of the file it is written to first. Both end in `#<digits>`, as the store's own
/// temporary files do (which start at `#1`), so that leftovers are collected with them.
fn prepared_head_paths(head: &Path) -> (PathBuf, PathBuf) {
    let with = |suffix: &str| {
        let mut path = head.as_os_str().to_owned();
        path.push(suffix);
        PathBuf::from(path)
    };
    (with(PREPARED_SUFFIX), with("#00"))
}

/// What names a dataset's prepared head after its head (see [`prepared_head_paths`]).
const PREPARED_SUFFIX: &str = "#0";

/// Writes `body` as the prepared head of `head`, unless there is one already: written
/// whole under another name first and then given its name without replacing anything,
/// so that a commit that uses a prepared head never has it changed under it.
pub(super) fn prepare_head(head: &Path, body: &[u8]) -> std::io::Result<()> {
    let (prepared, temporary) = prepared_head_paths(head);
    if prepared.exists() {
        return Ok(());
    }
    std::fs::write(&temporary, body)?;
    let named = rename_no_replace(&temporary, &prepared);
    let _ = std::fs::remove_file(&temporary);
    match named {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        named => named,
    }
}

/// `rename` that fails with `AlreadyExists` instead of replacing `to`.
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
        let (from, to) = (c(from)?, c(to)?);
        // SAFETY: two NUL-terminated paths that outlive the call.
        let done = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        // A hard link never replaces either; the first name goes after.
        std::fs::hard_link(from, to)
    }
}

/// Local store: hard-links a verified staged file to its object's path; `false` when that
/// is not possible (the caller copies instead). The object path is used only when every
/// part is plain (letters, digits, `.`, `_`, `-`), so that it is the path the store itself
/// uses.
pub(super) async fn link_verified(dir: &Path, object: &StorePath, file: &BlobFile) -> bool {
    let Some(target) = local_path(dir, object) else {
        return false;
    };
    let (source, size) = (file.local.clone(), file.size);
    tokio::task::spawn_blocking(move || link_blocking(&source, size, &target).is_some())
        .await
        .unwrap_or(false)
}

/// Hard-links the staged file `source` (of `size` bytes) to `target`, creating its
/// directory if needed: `Some(true)` when linked, `Some(false)` when `target` already
/// holds `size` bytes, `None` when that is not possible (a staged file of another size, an
/// object there with another size, a link across file systems).
fn link_blocking(source: &Path, size: u64, target: &Path) -> Option<bool> {
    let size_of = |path: &Path| std::fs::metadata(path).map(|m| m.len()).ok();
    if size_of(source) != Some(size) {
        return None;
    }
    let mut linked = std::fs::hard_link(source, target);
    if matches!(&linked, Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
        std::fs::create_dir_all(target.parent()?).ok()?;
        linked = std::fs::hard_link(source, target);
    }
    match linked {
        Ok(()) => Some(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            (size_of(target) == Some(size)).then_some(false)
        }
        Err(_) => None,
    }
}
