//! The only way `stone data import` touches the disk: a folder (the package's `ext/`)
//! opened once, and every file below it named by a [`RelativePath`] (the one path rule)
//! and reached without following a link. A link planted in `ext/` (by a cloned
//! repository, say) is an error, not a way out; so is a path the rule refuses, so no
//! later bug in building a name can write above `ext/`.
//!
//! On Linux each lookup is one `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`;
//! where that is missing (other unix systems, old kernels, seccomp filters) the path is
//! walked a segment at a time with `O_NOFOLLOW`; elsewhere each component is checked not
//! to be a link before the operation (a checked fallback, racy by nature).

use std::io;
use std::path::{Path, PathBuf};

use stone_package::RelativePath;

/// A folder that every operation stays beneath.
#[derive(Debug)]
pub struct Confined {
    root: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

fn link_refused(path: &Path) -> io::Error {
    io::Error::other(format!(
        "{} is a link (or passes through one); imports never write through links",
        path.display()
    ))
}

impl Confined {
    /// Opens `base/name`, creating it when missing; `name` itself may not be a link.
    /// `base` (the package directory the user named) is taken as it is.
    pub fn open(base: &Path, name: &RelativePath) -> io::Result<Confined> {
        let root = base.join(name.as_str());
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let base_fd = rustix::fs::open(
                base,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            let base = Confined {
                root: base.to_owned(),
                fd: base_fd,
            };
            base.create_dir_all(name)?;
            let fd = base.open_beneath(
                name.as_str(),
                OFlags::RDONLY | OFlags::DIRECTORY,
                Mode::empty(),
            )?;
            Ok(Confined { root, fd })
        }
        #[cfg(not(unix))]
        {
            let base = Confined {
                root: base.to_owned(),
            };
            base.create_dir_all(name)?;
            Ok(Confined { root })
        }
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `rel` is, for messages.
    pub fn display(&self, rel: &RelativePath) -> PathBuf {
        self.root.join(rel.as_str())
    }

    /// Creates `rel` and the folders above it that are missing.
    pub fn create_dir_all(&self, rel: &RelativePath) -> io::Result<()> {
        let mut prefix = String::new();
        for segment in rel.segments() {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(segment);
            let at = stone_package::check_relative_path(&prefix).map_err(io::Error::other)?;
            match self.create_dir(&at) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if !self.is_dir(&at)? {
                        return Err(io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            format!("{} exists and is not a folder", self.display(&at).display()),
                        ));
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Creates the folder `rel` (its parent must exist).
    pub fn create_dir(&self, rel: &RelativePath) -> io::Result<()> {
        #[cfg(unix)]
        {
            let (parent, name) = self.parent(rel)?;
            Ok(rustix::fs::mkdirat(
                &parent,
                name,
                rustix::fs::Mode::from_raw_mode(0o777),
            )?)
        }
        #[cfg(not(unix))]
        {
            std::fs::create_dir(self.checked(rel)?)
        }
    }

    /// Whether `rel` is a folder (not a link to one); `false` when missing.
    pub fn is_dir(&self, rel: &RelativePath) -> io::Result<bool> {
        #[cfg(unix)]
        {
            let (parent, name) = match self.parent(rel) {
                Ok(found) => found,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
                Err(e) => return Err(e),
            };
            match rustix::fs::statat(&parent, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) => Ok(rustix::fs::FileType::from_raw_mode(stat.st_mode)
                    == rustix::fs::FileType::Directory),
                Err(rustix::io::Errno::NOENT) => Ok(false),
                Err(e) => Err(e.into()),
            }
        }
        #[cfg(not(unix))]
        {
            Ok(std::fs::symlink_metadata(self.checked(rel)?).is_ok_and(|m| m.is_dir()))
        }
    }

    /// Creates the new file `rel` for writing; an existing file (or link) is an error.
    pub fn create_new(&self, rel: &RelativePath) -> io::Result<std::fs::File> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let (parent, name) = self.parent(rel)?;
            let fd = rustix::fs::openat(
                &parent,
                name,
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o666),
            )?;
            Ok(std::fs::File::from(fd))
        }
        #[cfg(not(unix))]
        {
            std::fs::File::create_new(self.checked(rel)?)
        }
    }

    /// Opens the file `rel` for reading; a link is an error.
    pub fn open_file(&self, rel: &RelativePath) -> io::Result<std::fs::File> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let fd = self.open_beneath(rel.as_str(), OFlags::RDONLY, Mode::empty())?;
            Ok(std::fs::File::from(fd))
        }
        #[cfg(not(unix))]
        {
            std::fs::File::open(self.checked(rel)?)
        }
    }

    /// Renames `from` to `to` (both beneath this folder); an existing `to` is replaced
    /// when it is a file or an empty folder.
    pub fn rename(&self, from: &RelativePath, to: &RelativePath) -> io::Result<()> {
        #[cfg(unix)]
        {
            let (from_parent, from_name) = self.parent(from)?;
            let (to_parent, to_name) = self.parent(to)?;
            Ok(rustix::fs::renameat(
                &from_parent,
                from_name,
                &to_parent,
                to_name,
            )?)
        }
        #[cfg(not(unix))]
        {
            std::fs::rename(self.checked(from)?, self.checked(to)?)
        }
    }

    /// A hard link `to` of the file `from`; a link at `from` is linked as a link, never
    /// followed.
    pub fn hard_link(&self, from: &RelativePath, to: &RelativePath) -> io::Result<()> {
        #[cfg(unix)]
        {
            let (from_parent, from_name) = self.parent(from)?;
            let (to_parent, to_name) = self.parent(to)?;
            Ok(rustix::fs::linkat(
                &from_parent,
                from_name,
                &to_parent,
                to_name,
                rustix::fs::AtFlags::empty(),
            )?)
        }
        #[cfg(not(unix))]
        {
            std::fs::hard_link(self.checked(from)?, self.checked(to)?)
        }
    }

    /// Removes the file (or link) `rel`.
    pub fn remove_file(&self, rel: &RelativePath) -> io::Result<()> {
        #[cfg(unix)]
        {
            let (parent, name) = self.parent(rel)?;
            Ok(rustix::fs::unlinkat(
                &parent,
                name,
                rustix::fs::AtFlags::empty(),
            )?)
        }
        #[cfg(not(unix))]
        {
            std::fs::remove_file(self.checked(rel)?)
        }
    }

    /// Removes the folder `rel` if it is empty.
    pub fn remove_dir(&self, rel: &RelativePath) -> io::Result<()> {
        #[cfg(unix)]
        {
            let (parent, name) = self.parent(rel)?;
            Ok(rustix::fs::unlinkat(
                &parent,
                name,
                rustix::fs::AtFlags::REMOVEDIR,
            )?)
        }
        #[cfg(not(unix))]
        {
            std::fs::remove_dir(self.checked(rel)?)
        }
    }

    /// Removes the folder `rel` and everything in it; links in it are removed, not
    /// followed.
    pub fn remove_dir_all(&self, rel: &RelativePath) -> io::Result<()> {
        if !self.is_dir(rel)? {
            // A file, or a link (to a folder or not): the entry itself goes.
            return self.remove_file(rel);
        }
        for (name, is_dir) in self.list(rel)? {
            let child = join(rel, &name)?;
            if is_dir {
                self.remove_dir_all(&child)?;
            } else {
                self.remove_file(&child)?;
            }
        }
        self.remove_dir(rel)
    }

    /// The entries of the folder itself: name and whether it is a folder (a link is not).
    /// Names the path rule refuses are left out.
    pub fn list_root(&self) -> io::Result<Vec<(String, bool)>> {
        self.list_at(None)
    }

    /// The entries of the folder `rel`, as [`Confined::list_root`].
    pub fn list(&self, rel: &RelativePath) -> io::Result<Vec<(String, bool)>> {
        self.list_at(Some(rel))
    }

    fn list_at(&self, rel: Option<&RelativePath>) -> io::Result<Vec<(String, bool)>> {
        #[cfg(unix)]
        {
            use rustix::fs::{FileType, Mode, OFlags};
            let fd = match rel {
                Some(rel) => self.open_beneath(
                    rel.as_str(),
                    OFlags::RDONLY | OFlags::DIRECTORY,
                    Mode::empty(),
                )?,
                None => rustix::fs::openat(
                    &self.fd,
                    ".",
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                )?,
            };
            let mut entries = Vec::new();
            for entry in rustix::fs::Dir::new(fd)? {
                let entry = entry?;
                let Ok(name) = entry.file_name().to_str() else {
                    continue;
                };
                if name == "." || name == ".." {
                    continue;
                }
                if stone_package::check_file_name(name).is_err() {
                    continue;
                }
                let is_dir = match entry.file_type() {
                    FileType::Unknown => {
                        let at = match rel {
                            Some(rel) => join(rel, name)?,
                            None => {
                                stone_package::check_file_name(name).map_err(io::Error::other)?
                            }
                        };
                        self.is_dir(&at)?
                    }
                    kind => kind == FileType::Directory,
                };
                entries.push((name.to_owned(), is_dir));
            }
            Ok(entries)
        }
        #[cfg(not(unix))]
        {
            let dir = match rel {
                Some(rel) => self.checked(rel)?,
                None => self.root.clone(),
            };
            let mut entries = Vec::new();
            for entry in std::fs::read_dir(dir)? {
                let entry = entry?;
                let Ok(name) = entry.file_name().into_string() else {
                    continue;
                };
                if stone_package::check_file_name(&name).is_err() {
                    continue;
                }
                entries.push((name, entry.file_type()?.is_dir()));
            }
            Ok(entries)
        }
    }

    /// The folder holding `rel`, opened beneath the root, and `rel`'s last segment.
    #[cfg(unix)]
    fn parent<'a>(&self, rel: &'a RelativePath) -> io::Result<(std::os::fd::OwnedFd, &'a str)> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY;
        match rel.as_str().rsplit_once('/') {
            Some((parent, name)) => Ok((self.open_beneath(parent, flags, Mode::empty())?, name)),
            None => Ok((
                rustix::fs::openat(&self.fd, ".", flags | OFlags::CLOEXEC, Mode::empty())?,
                rel.as_str(),
            )),
        }
    }

    /// Opens `rel` (a path that passed the rule) beneath the root, following no link.
    #[cfg(unix)]
    fn open_beneath(
        &self,
        rel: &str,
        flags: rustix::fs::OFlags,
        mode: rustix::fs::Mode,
    ) -> io::Result<std::os::fd::OwnedFd> {
        use rustix::fs::OFlags;
        let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let refused = |errno: rustix::io::Errno| -> io::Error {
            // A link on the way: ELOOP (O_NOFOLLOW, RESOLVE_NO_SYMLINKS) or EXDEV
            // (RESOLVE_BENEATH); ENOTDIR for a link to a folder opened with O_DIRECTORY.
            if errno == rustix::io::Errno::LOOP || errno == rustix::io::Errno::XDEV {
                link_refused(&self.root.join(rel))
            } else {
                errno.into()
            }
        };
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use rustix::fs::ResolveFlags;
            match rustix::fs::openat2(
                &self.fd,
                rel,
                flags,
                mode,
                ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS,
            ) {
                Ok(fd) => return Ok(fd),
                // No openat2 here (kernel before 5.6, a seccomp filter): walk.
                Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM) => {}
                Err(errno) => return Err(refused(errno)),
            }
        }
        let mut segments = rel.split('/').peekable();
        let mut dir: Option<std::os::fd::OwnedFd> = None;
        while let Some(segment) = segments.next() {
            if segment.is_empty() || segment == "." || segment == ".." {
                return Err(link_refused(&self.root.join(rel)));
            }
            let last = segments.peek().is_none();
            let (segment_flags, segment_mode) = if last {
                (flags, mode)
            } else {
                (
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                    rustix::fs::Mode::empty(),
                )
            };
            let next = match &dir {
                Some(fd) => rustix::fs::openat(fd, segment, segment_flags, segment_mode),
                None => rustix::fs::openat(&self.fd, segment, segment_flags, segment_mode),
            }
            .map_err(refused)?;
            dir = Some(next);
        }
        dir.ok_or_else(|| link_refused(&self.root.join(rel)))
    }

    /// Elsewhere: the path, once no component below the root is a link.
    #[cfg(not(unix))]
    fn checked(&self, rel: &RelativePath) -> io::Result<PathBuf> {
        let mut path = self.root.clone();
        for segment in rel.segments() {
            path.push(segment);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(link_refused(&path));
            }
        }
        Ok(path)
    }
}

/// `rel/name`, by the path rule.
pub fn join(rel: &RelativePath, name: &str) -> io::Result<RelativePath> {
    stone_package::check_relative_path(&format!("{rel}/{name}")).map_err(io::Error::other)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn rel(s: &str) -> RelativePath {
        stone_package::check_relative_path(s).unwrap()
    }

    #[test]
    fn writes_stay_beneath_and_never_follow_links() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let ext = Confined::open(dir.path(), &rel("ext")).unwrap();
        ext.create_dir_all(&rel("a/b")).unwrap();
        ext.create_new(&rel("a/b/f.txt"))
            .unwrap()
            .write_all(b"hi")
            .unwrap();
        let mut text = String::new();
        ext.open_file(&rel("a/b/f.txt"))
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "hi");
        ext.rename(&rel("a/b/f.txt"), &rel("a/g.txt")).unwrap();
        ext.hard_link(&rel("a/g.txt"), &rel("a/h.txt")).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("ext/a/h.txt")).unwrap(),
            b"hi"
        );

        // A planted link to a folder outside: neither written through nor listed into.
        std::os::unix::fs::symlink(&outside, dir.path().join("ext/a/out")).unwrap();
        assert!(ext.create_new(&rel("a/out/x")).is_err());
        assert!(ext.create_dir_all(&rel("a/out/y")).is_err());
        assert!(ext.open_file(&rel("a/out")).is_err());
        // A planted link to a file outside: not opened.
        std::fs::write(outside.join("secret"), b"s").unwrap();
        std::os::unix::fs::symlink(outside.join("secret"), dir.path().join("ext/a/s")).unwrap();
        assert!(ext.open_file(&rel("a/s")).is_err());
        assert!(ext.create_new(&rel("a/s")).is_err());
        // Removing the folder removes the links, never what they point to.
        ext.remove_dir_all(&rel("a")).unwrap();
        assert!(!dir.path().join("ext/a").exists());
        assert_eq!(std::fs::read(outside.join("secret")).unwrap(), b"s");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);

        // `ext` itself a link: refused.
        let other = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(&outside, other.path().join("ext")).unwrap();
        assert!(Confined::open(other.path(), &rel("ext")).is_err());
    }
}
