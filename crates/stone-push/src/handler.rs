//! The `PackagePushHandler` trait and the registry that picks a handler for a destination.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::folder::PreparedPackage;
use crate::{PushError, PushOptions, PushPackage, PushResult};

/// A boxed future, so handlers can live behind `dyn` in the registry.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The package-push protocol. Bundled handlers implement it in-process; external plugins
/// (`stone-plugin-<name>` executables speaking JSON-RPC over stdio) are adapted to it.
pub trait PackagePushHandler: Send + Sync {
    /// A short name shown to users (`service`, `blob-store`, a plugin's name).
    fn name(&self) -> &str;

    /// True if this handler claims the destination URL. Must be cheap and side-effect free.
    fn can_handle(&self, destination: &str) -> bool;

    /// Uploads the package's resources and metadata, then waits for the server's result.
    fn push<'a>(
        &'a self,
        package: &'a PushPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>>;

    /// [`PackagePushHandler::push`] of a prepared package, whose large folders' files are
    /// not listed in the record. A handler that takes them as a stream (the service
    /// handler, in batches) overrides it; by default every folder's files are listed into
    /// the record first, which the handler then takes whole (blob stores, plugins: the
    /// plugin protocol's record lists every file). The package's checks run first: a
    /// handler that overrides this runs them too ([`crate::checks`]).
    fn push_prepared<'a>(
        &'a self,
        prepared: &'a PreparedPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>> {
        Box::pin(async move {
            crate::checks::Checking::start(prepared.checks.clone())
                .wait()
                .await?;
            if prepared.is_listed() {
                return self.push(&prepared.package, options, progress).await;
            }
            let package = prepared.listed()?;
            self.push(&package, options, progress).await
        })
    }
}

/// What a push reports as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ProgressEvent {
    /// The push exists on the server (new or resumed).
    Created {
        push_id: String,
        resumed: bool,
        to_upload: u64,
        files: usize,
        already_staged: usize,
    },
    /// More bytes went up.
    Uploaded { bytes: u64 },
    /// All uploads are done; the commit was accepted.
    Committing { push_id: String },
    /// A dataset changed state on the server.
    Dataset {
        name: String,
        state: String,
        status: Option<String>,
    },
    /// Something worth a line (a retry, a renewed URL).
    Note(String),
}

pub trait PushProgress: Send + Sync {
    fn event(&self, event: ProgressEvent);
}

/// Reports nothing.
pub struct NoProgress;

impl PushProgress for NoProgress {
    fn event(&self, _: ProgressEvent) {}
}

/// Handlers in priority order: plugins first, then the bundled handlers, built-ins last.
#[derive(Default)]
pub struct Registry {
    handlers: Vec<Box<dyn PackagePushHandler>>,
}

impl Registry {
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a handler after those already registered (lower priority).
    pub fn register(&mut self, handler: Box<dyn PackagePushHandler>) {
        self.handlers.push(handler);
    }

    /// Puts `handler` in the place of the registered handler of the same name (keeping the
    /// order); adds it last if there is none.
    pub fn replace(&mut self, handler: Box<dyn PackagePushHandler>) {
        match self
            .handlers
            .iter()
            .position(|h| h.name() == handler.name())
        {
            Some(i) => self.handlers[i] = handler,
            None => self.handlers.push(handler),
        }
    }

    /// The first handler that claims `destination`.
    pub fn select(&self, destination: &str) -> Option<&dyn PackagePushHandler> {
        self.handlers
            .iter()
            .map(|h| h.as_ref())
            .find(|h| h.can_handle(destination))
    }

    pub fn handlers(&self) -> impl Iterator<Item = &dyn PackagePushHandler> {
        self.handlers.iter().map(|h| h.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Claims(&'static str, &'static str);

    impl PackagePushHandler for Claims {
        fn name(&self) -> &str {
            self.0
        }
        fn can_handle(&self, destination: &str) -> bool {
            destination.starts_with(self.1)
        }
        fn push<'a>(
            &'a self,
            _: &'a PushPackage,
            _: &'a PushOptions,
            _: Arc<dyn PushProgress>,
        ) -> BoxFuture<'a, Result<PushResult, PushError>> {
            Box::pin(async { Err(PushError::Destination("not in this test".into())) })
        }
    }

    #[test]
    fn first_claimant_wins() {
        let mut registry = Registry::new();
        registry.register(Box::new(Claims("plugin", "s3://")));
        registry.register(Box::new(Claims("service", "stone:")));
        registry.register(Box::new(Claims("blob-store", "s3://")));
        assert_eq!(
            registry.select("s3://bucket").map(|h| h.name()),
            Some("plugin")
        );
        assert_eq!(
            registry.select("stone:demo").map(|h| h.name()),
            Some("service")
        );
        assert!(registry.select("ftp://x").is_none());
    }
}
