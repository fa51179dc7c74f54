//! The package-push protocol: the records a push is made of ([`PushPackage`],
//! [`PushOptions`], [`PushResult`]), the [`PackagePushHandler`] trait every handler
//! implements (bundled ones in-process, external plugins through an adapter), the
//! [`Registry`] that picks one for a destination, and the bundled service handler that talks
//! to the platform's push API; external plugins ([`external`]) and the built-in blob-store
//! and HTTP handlers ([`blob_store`]). Before a handler runs: the [`plan`] (what each
//! resource becomes, where, through which handler) and [`prepare`] (tables converted to
//! Parquet and checked, graphs listed for the RDF [`checks`] a handler runs beside its
//! uploads), for the [`environment`] the push goes to. And
//! the other way, [`import`]: data from a dataset, a URL or an object store into a
//! package's `ext/` zone (`stone data import`).

pub mod blob_store;
pub mod checks;
pub mod environment;
pub mod error;
pub mod external;
pub mod folder;
pub mod handler;
pub mod identity;
pub mod import;
pub mod memory;
pub mod plan;
pub mod prepare;
pub mod record;
pub mod resume;
pub mod service;

pub use blob_store::{BlobStoreHandler, HttpHandler, store_from_url};
pub use error::{Phase, PushError};
pub use folder::PreparedPackage;
pub use handler::{NoProgress, PackagePushHandler, ProgressEvent, PushProgress, Registry};
pub use identity::TokenSource;
pub use record::{DatasetOutcome, PushFile, PushOptions, PushPackage, PushResource, PushResult};
pub use service::{ServiceHandler, ServiceTarget};
