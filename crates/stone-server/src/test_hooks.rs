//! Test hooks (feature `test-hooks`): points where a server waits while a test arranges
//! what happens meanwhile. Below every other module, so that any of them can hold one.

#[cfg(feature = "test-hooks")]
use std::path::PathBuf;
#[cfg(feature = "test-hooks")]
use std::time::Duration;

/// Test hook (feature `test-hooks`; see
/// [`crate::config::env_vars::STONE_SERVER_TEST_PAUSE_AT`]): when that directory holds a
/// file `pause-<point>`, writes `paused-<point>` and waits until `pause-<point>` is
/// removed. Tests use it to force the interleaving of a sweep and a push (on two replicas, or
/// in one server).
pub(crate) async fn test_pause(point: &str) {
    test_pause_with(point, point).await;
}

/// [`test_pause`], writing `detail` into `paused-<point>` (what the test needs to know of
/// the paused work).
pub(crate) async fn test_pause_with(point: &str, detail: &str) {
    #[cfg(feature = "test-hooks")]
    {
        use crate::config::env_vars::STONE_SERVER_TEST_PAUSE_AT;
        static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
        let Some(dir) = DIR.get_or_init(|| {
            std::env::var_os(STONE_SERVER_TEST_PAUSE_AT)
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from)
        }) else {
            return;
        };
        let pause = dir.join(format!("pause-{point}"));
        if !pause.exists() {
            return;
        }
        let paused = dir.join(format!("paused-{point}"));
        let _ = std::fs::write(&paused, detail);
        tracing::warn!(
            point,
            "test hook: paused until {} is removed",
            pause.display()
        );
        while pause.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = std::fs::remove_file(&paused);
        tracing::warn!(point, "test hook: resumed");
    }
    #[cfg(not(feature = "test-hooks"))]
    let _ = (point, detail);
}
