//! Many lookups under one directory, each from the directory opened once: a commit of
//! thousands of datasets asks, for each, whether its head exists and whether its staged
//! content is in place. From a descriptor of the common directory a lookup walks only the
//! few components below it, instead of the whole path from `/` (the data directory is
//! often a dozen components deep): on Linux, `perf` showed the path walks as a tenth of
//! such a commit's CPU.

use std::io;
use std::path::Path;

/// The size of each file `dir/name` (`None`: no such file), in order. `names` are
/// relative paths below `dir` (no `..`); a missing `dir` means every file is missing. An
/// error is the error of that one lookup.
pub(crate) fn sizes_under<N: AsRef<Path>>(dir: &Path, names: &[N]) -> Vec<io::Result<Option<u64>>> {
    #[cfg(unix)]
    {
        use rustix::fs::{AtFlags, Mode, OFlags};
        #[cfg(target_os = "linux")]
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        #[cfg(not(target_os = "linux"))]
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        match rustix::fs::open(dir, flags, Mode::empty()) {
            Ok(fd) => {
                return names
                    .iter()
                    .map(|name| {
                        match rustix::fs::statat(&fd, name.as_ref(), AtFlags::SYMLINK_NOFOLLOW) {
                            Ok(stat) => Ok(Some(stat.st_size as u64)),
                            Err(rustix::io::Errno::NOENT) => Ok(None),
                            Err(errno) => Err(errno.into()),
                        }
                    })
                    .collect();
            }
            Err(rustix::io::Errno::NOENT) => return names.iter().map(|_| Ok(None)).collect(),
            // Anything else: each lookup by its whole path, which tells its own error.
            Err(_) => {}
        }
    }
    names
        .iter()
        .map(|name| match std::fs::symlink_metadata(dir.join(name)) {
            Ok(metadata) => Ok(Some(metadata.len())),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        })
        .collect()
}

/// Sets the modification time of each file `dir/name` to now, skipping a missing one
/// (one `utimensat` from the directory opened once, where `open` + `futimens` + `close`
/// by whole path took three calls and a path walk: a batch of a paged push touches
/// 10,000 staged contents). `Err((name's index, error))` for the first that fails;
/// `None` when `dir` cannot be opened (the caller goes file by file).
pub(crate) fn touch_under<N: AsRef<Path>>(
    dir: &Path,
    names: &[N],
) -> Option<Result<(), (usize, io::Error)>> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{AtFlags, Mode, OFlags, Timespec, Timestamps, UTIME_NOW, UTIME_OMIT};
        let fd = rustix::fs::open(
            dir,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        let times = Timestamps {
            last_access: Timespec {
                tv_sec: 0,
                tv_nsec: UTIME_OMIT,
            },
            last_modification: Timespec {
                tv_sec: 0,
                tv_nsec: UTIME_NOW,
            },
        };
        for (i, name) in names.iter().enumerate() {
            match rustix::fs::utimensat(&fd, name.as_ref(), &times, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(()) | Err(rustix::io::Errno::NOENT) => {}
                Err(errno) => return Some(Err((i, errno.into()))),
            }
        }
        Some(Ok(()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (dir, names);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_of_present_and_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/c"), b"12345").unwrap();
        std::fs::write(dir.path().join("d"), b"").unwrap();
        let sizes = sizes_under(dir.path(), &["a/b/c", "d", "a/missing", "x/y/z"]);
        let sizes: Vec<Option<u64>> = sizes.into_iter().map(Result::unwrap).collect();
        assert_eq!(sizes, [Some(5), Some(0), None, None]);

        let gone = dir.path().join("gone");
        let sizes = sizes_under(&gone, &["a", "b"]);
        assert!(sizes.iter().all(|s| matches!(s, Ok(None))), "{sizes:?}");
    }

    #[test]
    fn files_are_touched_and_missing_ones_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        std::fs::write(&file, b"x").unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        std::fs::File::open(&file)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let touched = touch_under(dir.path(), &["missing", "a"]);
        if cfg!(target_os = "linux") {
            assert!(matches!(touched, Some(Ok(()))), "{touched:?}");
            let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
            assert!(modified > old + std::time::Duration::from_secs(1_000_000));
        }
    }

    #[test]
    fn a_lookup_through_a_file_is_that_lookups_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("file"), b"x").unwrap();
        let sizes = sizes_under(dir.path(), &["file/below", "file"]);
        assert!(sizes[0].is_err(), "{:?}", sizes[0]);
        assert_eq!(sizes[1].as_ref().unwrap(), &Some(1));
    }
}
