//! Walking a resource's files: the file itself, or every file under its directory in path
//! order, each checked to stay inside the package (symlinks included) and out of `ext/`;
//! [`FolderWalk`] walks a folder again, lazily, for a folder too large to list.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{LISTED_FILES, PackageError, PackageFile, Unlisted, check_zone};
use crate::codes;
use crate::descriptor::{DescriptorError, Location};

/// The files of a resource: the file itself, or every file under the directory, sorted;
/// each checked to stay inside the package (symlinks included) and out of `ext/`.
pub(super) fn collect_files(
    file: &Path,
    location: Option<Location>,
    root: &Path,
    root_canonical: &Path,
    rel: &str,
    parents: &mut HashMap<PathBuf, PathBuf>,
) -> Result<(Vec<PackageFile>, Option<Unlisted>), DescriptorError> {
    let fail = |msg: String| DescriptorError::at(file, location, msg);
    let absolute = root.join(rel);
    let meta = match fs::symlink_metadata(&absolute) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(fail(format!(
                "the resource file `{rel}` does not exist (looked for {})",
                absolute.display()
            ))
            .with_code(codes::FILE_MISSING));
        }
        Err(e) => return Err(fail(format!("cannot read `{rel}`: {e}")).with_code(codes::IO)),
    };
    let is_link = meta.file_type().is_symlink();
    let canonical_rel = if is_link {
        confined(root_canonical, &absolute, rel)
    } else {
        // Not a link itself: only its folders can lead elsewhere, and they are resolved once.
        confined_by_parent(root_canonical, &absolute, rel, parents)
    }
    .map_err(|msg| fail(msg).with_code(codes::PATH_REFUSED))?;
    // Where the resource really is decides its zone, whatever component of its path is a
    // link (`data/a.csv` with `data` a link to `ext/other`).
    let first = canonical_rel.split('/').next().unwrap_or_default();
    let shown = if canonical_rel == rel {
        format!("`{rel}`")
    } else if is_link {
        format!("`{rel}` (a link to `{canonical_rel}`)")
    } else {
        format!("`{rel}` (through a linked folder: `{canonical_rel}`)")
    };
    check_zone(first, &shown)
        .map_err(|(msg, code, hint)| fail(msg).with_code(code).with_hint(hint))?;
    let target = if is_link {
        fs::metadata(&absolute).map_err(|e| fail(format!("cannot read `{rel}`: {e}")))?
    } else {
        meta
    };
    if target.is_file() {
        return Ok((vec![package_file(rel.to_owned(), &target)], None));
    }
    if !target.is_dir() {
        return Err(fail(format!("`{rel}` is neither a file nor a directory"))
            .with_code(codes::PATH_REFUSED));
    }
    let mut walk = FolderWalk::open(file, location, absolute, root_canonical, rel)?;
    // Up to LISTED_FILES files are kept; past that, only their count and bytes (the
    // folder is walked again, in the same order, when its files are needed).
    let mut files = Vec::new();
    let (mut count, mut bytes) = (0usize, 0u64);
    for f in walk.by_ref() {
        let f = f?;
        count += 1;
        bytes += f.size;
        if count <= LISTED_FILES {
            files.push(f);
        } else if !files.is_empty() {
            files = Vec::new();
        }
    }
    if count == 0 {
        return Err(fail(format!("the directory `{rel}` holds no files")));
    }
    if count > LISTED_FILES {
        return Ok((
            Vec::new(),
            Some(Unlisted {
                files: count,
                bytes,
            }),
        ));
    }
    // Kept for the whole push: without the room the vector grew into.
    files.shrink_to_fit();
    Ok((files, None))
}

/// What a walked entry of a directory is (from the directory listing, no `stat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    File,
    Dir,
    Link,
    Other,
}

/// The order of two names of a directory as the order of the paths under them: a folder
/// `b` sorts as `b/` (after `b.txt`, before `b0`). Slices compared whole (`memcmp`): a
/// directory of a million names is sorted in a fraction of a second, even unoptimized.
fn path_order(a: &[u8], a_dir: bool, b: &[u8], b_dir: bool) -> std::cmp::Ordering {
    let n = a.len().min(b.len());
    a[..n].cmp(&b[..n]).then_with(|| {
        // One name is the start of the other (names hold no `/`): the next byte decides,
        // a folder's `/` included.
        let next = |name: &[u8], dir: bool| name.get(n).copied().or(dir.then_some(b'/'));
        next(a, a_dir).cmp(&next(b, b_dir))
    })
}

/// One directory being walked: its entries' names in one string, the entries sorted.
#[derive(Debug)]
struct Level {
    dir: PathBuf,
    /// The directory, open: its files' identities are read relative to it
    /// ([`file_in`]), not by walking their whole paths again.
    #[cfg(unix)]
    handle: Option<rustix::fd::OwnedFd>,
    rel: String,
    names: String,
    /// (start, length) of the name in `names`, and the kind; sorted so that the walk's
    /// paths come in the order of their strings (a folder `b` sorts as `b/`).
    entries: Vec<(u32, u32, EntryKind)>,
    next: usize,
}

/// The files under a folder of the package, in the order of their paths (byte order of
/// the `/`-separated path: the order of the hash cache and of the push's listing), each
/// checked as when the package is loaded. Lazy: it holds one directory listing per level
/// of depth, never the folder's whole list of files (a folder of a million files would
/// otherwise be a million paths in memory, issue 27).
#[derive(Debug)]
pub struct FolderWalk {
    descriptor: PathBuf,
    location: Option<Location>,
    root_canonical: PathBuf,
    stack: Vec<Level>,
}

impl FolderWalk {
    fn open(
        descriptor: &Path,
        location: Option<Location>,
        absolute: PathBuf,
        root_canonical: &Path,
        rel: &str,
    ) -> Result<FolderWalk, DescriptorError> {
        let mut walk = FolderWalk {
            descriptor: descriptor.to_owned(),
            location,
            root_canonical: root_canonical.to_owned(),
            stack: Vec::new(),
        };
        let top = walk.level(absolute, rel.to_owned())?;
        walk.stack.push(top);
        Ok(walk)
    }

    fn fail(&self, message: String) -> DescriptorError {
        DescriptorError::at(&self.descriptor, self.location, message)
    }

    /// Lists `dir` (the package's `rel`) and sorts its entries.
    fn level(&self, dir: PathBuf, rel: String) -> Result<Level, DescriptorError> {
        let entries =
            fs::read_dir(&dir).map_err(|e| self.fail(format!("cannot list `{rel}`: {e}")))?;
        let mut names = String::new();
        let mut listed = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| self.fail(format!("cannot list `{rel}`: {e}")))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return Err(self.fail(format!(
                    "`{rel}` holds a file whose name is not UTF-8: {:?}",
                    entry.file_name()
                )));
            };
            // Each name becomes part of a path on the server and in other packages' `ext/`:
            // the one path rule.
            if let Err(e) = crate::path::check_file_name(name) {
                return Err(self
                    .fail(format!(
                        "`{rel}` holds a file whose name is not a plain name: {e}"
                    ))
                    .with_code(codes::PATH_REFUSED)
                    .with_hint("rename the file"));
            }
            let kind = entry
                .file_type()
                .map_err(|e| self.fail(format!("cannot read `{rel}/{name}`: {e}")))?;
            let kind = if kind.is_symlink() {
                EntryKind::Link
            } else if kind.is_dir() {
                EntryKind::Dir
            } else if kind.is_file() {
                EntryKind::File
            } else {
                EntryKind::Other
            };
            let (Ok(start), Ok(len)) = (u32::try_from(names.len()), u32::try_from(name.len()))
            else {
                return Err(self.fail(format!("`{rel}` holds too many files to list")));
            };
            names.push_str(name);
            listed.push((start, len, kind));
        }
        let name = |&(start, len, _): &(u32, u32, EntryKind)| {
            &names.as_bytes()[start as usize..(start + len) as usize]
        };
        listed.sort_unstable_by(|a, b| {
            path_order(
                name(a),
                a.2 == EntryKind::Dir,
                name(b),
                b.2 == EntryKind::Dir,
            )
        });
        listed.shrink_to_fit();
        Ok(Level {
            // Without a handle (it could not be opened), each file's path is read whole.
            #[cfg(unix)]
            handle: rustix::fs::open(
                &dir,
                rustix::fs::OFlags::RDONLY
                    | rustix::fs::OFlags::DIRECTORY
                    | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .ok(),
            dir,
            rel,
            names,
            entries: listed,
            next: 0,
        })
    }

    fn step(&mut self) -> Option<Result<PackageFile, DescriptorError>> {
        loop {
            let level = self.stack.last_mut()?;
            let Some(&(start, len, kind)) = level.entries.get(level.next) else {
                self.stack.pop();
                continue;
            };
            level.next += 1;
            let name = &level.names[start as usize..(start + len) as usize];
            let child_rel = format!("{}/{name}", level.rel);
            let child_abs = level.dir.join(name);
            match kind {
                EntryKind::Dir => match self.level(child_abs, child_rel) {
                    Ok(next) => self.stack.push(next),
                    Err(e) => return Some(Err(e)),
                },
                EntryKind::Link => {
                    let checked = (|| {
                        let target_rel = confined(&self.root_canonical, &child_abs, &child_rel)
                            .map_err(|msg| self.fail(msg).with_code(codes::PATH_REFUSED))?;
                        let first = target_rel.split('/').next().unwrap_or_default();
                        check_zone(first, &format!("`{child_rel}` (a link to `{target_rel}`)"))
                            .map_err(|(msg, code, hint)| {
                                self.fail(msg).with_code(code).with_hint(hint)
                            })?;
                        let meta = fs::metadata(&child_abs)
                            .map_err(|e| self.fail(format!("cannot read `{child_rel}`: {e}")))?;
                        if !meta.is_file() {
                            return Err(self.fail(format!("`{child_rel}` is a link to a directory; links to directories inside a resource are not followed"))
                                .with_code(codes::PATH_REFUSED));
                        }
                        Ok(meta)
                    })();
                    return Some(checked.map(|meta| package_file(child_rel, &meta)));
                }
                EntryKind::File => {
                    let name = &child_rel[child_rel.len() - len as usize..];
                    let found = match self.stack.last() {
                        Some(level) => file_in(level, name, &child_abs),
                        None => Err(std::io::ErrorKind::NotFound.into()),
                    };
                    return Some(match found {
                        Ok((size, modified_ns, inode)) => Ok(PackageFile {
                            path: child_rel,
                            size,
                            modified_ns,
                            inode,
                        }),
                        Err(e) => Err(self.fail(format!("cannot read `{child_rel}`: {e}"))),
                    });
                }
                EntryKind::Other => {
                    return Some(Err(self
                        .fail(format!("`{child_rel}` is not a regular file"))
                        .with_code(codes::PATH_REFUSED)));
                }
            }
        }
    }
}

impl Iterator for FolderWalk {
    type Item = Result<PackageFile, DescriptorError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.step();
        if matches!(item, Some(Err(_))) {
            // An error ends the walk.
            self.stack.clear();
        }
        item
    }
}

/// A folder resource of more than [`LISTED_FILES`] files: everything needed to walk it
/// again ([`Folder::walk`]), and what its first walk counted.
#[derive(Debug, Clone)]
pub struct Folder {
    /// The package directory.
    pub root: PathBuf,
    pub descriptor: PathBuf,
    pub location: Option<Location>,
    /// The resource's path, relative to the package.
    pub path: String,
    /// Files and bytes when the package was loaded.
    pub files: usize,
    pub bytes: u64,
}

impl Folder {
    /// Walks the folder again: its files in path order, checked as when it was loaded.
    pub fn walk(&self) -> Result<FolderWalk, PackageError> {
        let root_canonical = fs::canonicalize(&self.root).map_err(|source| PackageError::Io {
            path: self.root.clone(),
            source,
        })?;
        Ok(FolderWalk::open(
            &self.descriptor,
            self.location,
            self.root.join(&self.path),
            &root_canonical,
            &self.path,
        )?)
    }
}

/// The path of `absolute` relative to the package once every link is followed; an error if
/// that leaves the package.
fn confined(root_canonical: &Path, absolute: &Path, rel: &str) -> Result<String, String> {
    let canonical =
        fs::canonicalize(absolute).map_err(|e| format!("cannot resolve `{rel}`: {e}"))?;
    relative_inside(root_canonical, &canonical, rel)
}

fn relative_inside(root_canonical: &Path, canonical: &Path, rel: &str) -> Result<String, String> {
    match canonical.strip_prefix(root_canonical) {
        Ok(inside) => Ok(inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")),
        Err(_) => Err(format!(
            "`{rel}` points outside the package (to {}): a resource must stay inside the package",
            canonical.display()
        )),
    }
}

/// [`confined`] for a path that is not a link itself: its canonical form is its folder's,
/// resolved once per folder, joined with its name.
fn confined_by_parent(
    root_canonical: &Path,
    absolute: &Path,
    rel: &str,
    parents: &mut HashMap<PathBuf, PathBuf>,
) -> Result<String, String> {
    let (Some(parent), Some(name)) = (absolute.parent(), absolute.file_name()) else {
        return confined(root_canonical, absolute, rel);
    };
    let canonical_parent = match parents.get(parent) {
        Some(p) => p.clone(),
        None => {
            let p = fs::canonicalize(parent).map_err(|e| format!("cannot resolve `{rel}`: {e}"))?;
            parents.insert(parent.to_owned(), p.clone());
            p
        }
    };
    relative_inside(root_canonical, &canonical_parent.join(name), rel)
}

/// (size, modification time in ns, inode) of the file `name` of the walk's directory
/// `level` (at `path`), not following a link: read relative to the directory's handle
/// where there is one, so that a folder of a million files is not a million walks of
/// every component of their paths (a quarter of a warm dry run's time, issue 27).
fn file_in(level: &Level, name: &str, path: &Path) -> std::io::Result<(u64, i128, u64)> {
    #[cfg(unix)]
    if let Some(handle) = &level.handle {
        let stat = rustix::fs::statat(handle, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)?;
        return Ok((
            u64::try_from(stat.st_size).unwrap_or(0),
            i128::from(stat.st_mtime) * 1_000_000_000 + i128::from(stat.st_mtime_nsec),
            stat.st_ino,
        ));
    }
    #[cfg(not(unix))]
    let _ = (level, name);
    let meta = fs::symlink_metadata(path)?;
    let (modified_ns, inode) = file_identity(&meta);
    Ok((meta.len(), modified_ns, inode))
}

pub(super) fn package_file(path: String, meta: &fs::Metadata) -> PackageFile {
    let (modified_ns, inode) = file_identity(meta);
    PackageFile {
        path,
        size: meta.len(),
        modified_ns,
        inode,
    }
}

/// (modification time in ns, inode) of a file: what tells an unchanged file.
pub(crate) fn file_identity(meta: &fs::Metadata) -> (i128, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (
            meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128,
            meta.ino(),
        )
    }
    #[cfg(not(unix))]
    {
        let ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        (ns, 0)
    }
}
