//! `ext/stone-lock.json`, read and written by `stone data import` through the confined
//! writer. The model and its checks are `stone_package::lock`: a lock file from a cloned
//! package is not trusted (every path it names must be in its entry's own `ext/<slug>/`).

use std::io::{Read as _, Write as _};

use anyhow::Context as _;
pub use stone_package::lock::{LOCK_FILE, LockEntry, LockFile, LockedFile};

use super::confined::Confined;
use super::error::{ImportError, ImportErrorKind as Kind};

/// Loads the lock file of `ext`; a missing one is empty.
pub fn load(ext: &Confined) -> anyhow::Result<LockFile> {
    let name = stone_package::check_file_name(LOCK_FILE)?;
    let shown = ext.display(&name);
    let mut text = Vec::new();
    match ext.open_file(&name) {
        Ok(mut file) => {
            file.read_to_end(&mut text)
                .with_context(|| format!("cannot read {}", shown.display()))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LockFile::default()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", shown.display())),
    }
    LockFile::parse(&text).map_err(|e| {
        ImportError::new(
            Kind::LockInvalid,
            format!("{} is refused: {e}", shown.display()),
        )
        .hint("fix it, or remove it to import everything again")
        .into()
    })
}

/// Writes the lock file of `ext` through a temporary file and a rename.
pub fn save(lock: &LockFile, ext: &Confined) -> anyhow::Result<()> {
    let mut text = serde_json::to_vec_pretty(lock)?;
    text.push(b'\n');
    let name = stone_package::check_file_name(LOCK_FILE)?;
    let tmp = stone_package::check_file_name(&format!(
        "{}{}-{}.json.tmp",
        super::PART_PREFIX,
        std::process::id(),
        fastrand::u32(..)
    ))?;
    let shown = ext.display(&name);
    let written = ext
        .create_new(&tmp)
        .and_then(|mut file| file.write_all(&text).and_then(|()| file.sync_all()))
        .and_then(|()| ext.rename(&tmp, &name));
    if written.is_err() {
        let _ = ext.remove_file(&tmp);
    }
    written.with_context(|| format!("cannot write {}", shown.display()))
}

/// Now, as RFC 3339 in UTC (`2026-11-23T18:30:00Z`).
pub fn now_rfc3339() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(seconds)
}

/// Unix seconds as RFC 3339 (days to civil date: H. Hinnant's algorithm).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_372_245), "2026-11-22T18:30:45Z");
    }
}
