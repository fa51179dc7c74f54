//! `stone-server`: the reference implementation of the stone push API.
//!
//! ```text
//! stone-server --data-dir DIR [--listen 127.0.0.1:8080] [--config FILE] [--public-host HOST]
//! ```
//!
//! The first line on stdout is `stone-server listening on http://ADDR` (the real port when
//! `--listen` asks for port 0); logs go to stderr (`STONE_SERVER_LOG` sets the filter).
//! Without configuration everything is embedded under the data directory: the push state
//! (`state.db`; `[database] url` puts it and the Iceberg catalog on PostgreSQL, shared by
//! replicas: see docs/scale-out.md), local staging (`staging/`), the Iceberg SQL catalog and warehouse
//! (`iceberg/`), the graph store (`graph/`) and the object store (`blobs/`).
//!
//! Exit codes: 0 after a clean shutdown, 1 when the server fails, 2 for a bad command line
//! or configuration.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use stone_server::app::App;
use stone_server::auth::Principal;
use stone_server::auth::Verifier;
use stone_server::authz::Authorizer;
use stone_server::config::{AuthModeOption, ConfigFile, Settings, StoreKind, env_vars};
use stone_server::engines::Engines;
use stone_server::gc::Sweeper;
use stone_server::guards::Guards;
use stone_server::jobs::JobRunner;
use stone_server::listener::ConnectionLimits;
use stone_server::routes::router;
use stone_server::staging::StagingStore;
use stone_server::staging::local::LocalStaging;
use stone_server::staging::s3::S3Staging;
use stone_server::state::{Backend, StateDb};
use tokio::sync::watch;

/// See the `mimalloc` line of Cargo.toml: a graph load's many small allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The reference stone server: the push API on real engines.
#[derive(Debug, Parser)]
#[command(name = "stone-server", version, about)]
struct ServerArgs {
    /// Directory of the server's state and embedded engines (created if missing).
    #[arg(long, env = "STONE_SERVER_DATA_DIR", value_name = "DIR")]
    data_dir: PathBuf,
    /// Address to listen on; port 0 picks a free port (printed on the first line).
    #[arg(long, env = "STONE_SERVER_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Configuration file (TOML).
    #[arg(long, env = "STONE_SERVER_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    /// Host of the https IRIs of datasets (`https://HOST/ns/name`).
    #[arg(long, env = "STONE_SERVER_PUBLIC_HOST", value_name = "HOST")]
    public_host: Option<String>,
}

/// How long running commits get to park at shutdown.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

fn main() {
    // Everything the server creates (the data directory's files, temporary files) is its
    // owner's alone; set before any thread starts, as the umask is the process's.
    #[cfg(unix)]
    // SAFETY: umask only swaps the process's file-creation mask.
    unsafe {
        libc::umask(0o077);
    }
    let args = ServerArgs::parse();
    init_logs();
    let settings = match resolve(&args) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    if let Err(error) = runtime.block_on(serve(settings)) {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

fn init_logs() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env(env_vars::STONE_SERVER_LOG)
        .unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
}

fn resolve(args: &ServerArgs) -> anyhow::Result<Settings> {
    let config = match &args.config {
        Some(path) => ConfigFile::read(path)?,
        None => ConfigFile::default(),
    };
    let settings = Settings::resolve(
        &args.data_dir,
        args.listen,
        args.public_host.clone(),
        config,
    )?;
    // No identity provider: only this machine may talk to the server.
    if settings.config.auth.mode == AuthModeOption::Local && !settings.listen.ip().is_loopback() {
        anyhow::bail!(
            "refusing to listen on {}: without an identity provider (auth mode \"local\"), stone-server only listens on loopback addresses (127.0.0.1, ::1)",
            settings.listen
        );
    }
    Ok(settings)
}

async fn serve(settings: Settings) -> anyhow::Result<()> {
    stone_server::config::create_private_dir(&settings.data_dir)
        .with_context(|| format!("cannot create {}", settings.data_dir.display()))?;
    let lock_path = settings.path("server.lock");
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("cannot create {}", lock_path.display()))?;
    if !try_lock(&lock) {
        anyhow::bail!(
            "another stone-server uses the data directory {}",
            settings.data_dir.display()
        );
    }

    let listener = tokio::net::TcpListener::bind(settings.listen)
        .await
        .with_context(|| format!("cannot listen on {}", settings.listen))?;
    let address = listener.local_addr()?;

    let database = &settings.config.database;
    let db = match &database.url {
        None => StateDb::open(&settings.path("state.db")).await,
        Some(url) => StateDb::connect(url, database.max_connections).await,
    }
    .context("cannot open the push state")?
    .with_public_host(&settings.public_host);
    // The SQLite state belongs to this process alone (the data directory is locked), so
    // leases left by a crash are ours to take back now; in a shared database they may be
    // held by live replicas and run out by themselves.
    let backend = db.backend();
    let released = match backend {
        Backend::Sqlite => db.release_all_leases().await?,
        Backend::Postgres => 0,
    };
    let engines = Arc::new(Engines::open(&settings).await?);
    let staging_options = &settings.config.staging;
    let (staging, local_staging): (Arc<dyn StagingStore>, Option<Arc<LocalStaging>>) =
        match staging_options.store {
            StoreKind::Local => {
                let key =
                    stone_server::staging::signature::load_or_create(&settings.path("staging.key"))
                        .context("cannot read or create the staging key")?;
                let base_url = staging_options
                    .base_url
                    .clone()
                    .unwrap_or_else(|| format!("http://{address}"));
                let local = Arc::new(
                    LocalStaging::open(
                        &settings.path("staging"),
                        &base_url,
                        key,
                        db.clone(),
                        staging_options.part_size,
                    )?
                    .with_reserve(staging_options.reserve_bytes),
                );
                (local.clone(), Some(local))
            }
            StoreKind::S3 => {
                let s3 = staging_options
                    .s3
                    .as_ref()
                    .context("staging.store = \"s3\" needs [staging.s3]")?;
                let store = S3Staging::open(
                    s3,
                    db.clone(),
                    staging_options.part_size,
                    settings.path("cache/staging"),
                )?;
                (Arc::new(store), None)
            }
        };

    let (stop, stopping) = watch::channel(false);
    let runner = Arc::new(JobRunner::new(
        &settings,
        db.clone(),
        staging.clone(),
        engines.clone(),
        stopping,
    ));
    let local = &settings.config.local;
    let auth = &settings.config.auth;
    let (guards, verifier) = match auth.mode {
        AuthModeOption::Local => (Guards::new(&settings.config.guards), None),
        AuthModeOption::Oidc => (
            Guards::new(&settings.config.guards).with_step_up(auth.step_up.clone()),
            Some(Arc::new(
                Verifier::new(
                    auth.issuer.as_deref().unwrap_or_default(),
                    auth.audience.as_deref().unwrap_or_default(),
                    &auth.roles_claim,
                )
                .with_groups_claim(settings.config.authz.as_ref().and_then(|a| a.claim.clone()))
                .with_untyped_access_tokens(auth.untyped_access_tokens),
            )),
        ),
    };
    let authz = match &settings.config.authz {
        Some(options) => Authorizer::from_options(options, &auth.roles_claim),
        None => {
            if auth.mode == AuthModeOption::Oidc {
                tracing::warn!(
                    "no [authz] policy: any valid token may read, write and administer every namespace; see docs/server.md, \"Namespace permissions\""
                );
            }
            Authorizer::allow_all()
        }
    };
    let content_cache = stone_server::content_cache::ContentCache::new(
        &settings.data_dir,
        settings.config.gc.content_cache_bytes,
    );
    // Issue 58: webhooks. The operator's subscriptions are checked and stored (those gone
    // from the configuration are dropped), then the worker starts.
    let events = &settings.config.events;
    let target_policy = Arc::new(
        stone_server::events::target::TargetPolicy::new(&events.allow_targets)
            .map_err(|e| anyhow::anyhow!(e))?,
    );
    let configured = configure_subscriptions(&db, events, &target_policy).await?;
    let deliverer = Arc::new(stone_server::events::Deliverer::new(
        db.clone(),
        events,
        target_policy.clone(),
        &settings.public_host,
    )?);
    let app = Arc::new(App {
        target_policy,
        guards,
        authz,
        verifier: verifier.clone(),
        principal: Principal {
            user: local.user.clone(),
            roles: local.roles.clone(),
            groups: Vec::new(),
            acr: None,
            auth_time: None,
        },
        settings: settings.clone(),
        db,
        staging,
        local_staging,
        engines: engines.clone(),
        runner: runner.clone(),
        content_cache: content_cache.clone(),
    });
    let jobs = tokio::spawn(runner.clone().run(SHUTDOWN_GRACE));
    let delivering = tokio::spawn(deliverer.run(stop.subscribe()));
    let pruning = tokio::spawn(stone_server::events::retention::run(
        app.db.clone(),
        settings.config.events.retention(),
        stop.subscribe(),
    ));
    let sweeper = Sweeper::new(
        app.db.clone(),
        app.staging.clone(),
        settings.config.gc.clone(),
    )
    .with_engines(engines.clone())
    .with_content_cache(content_cache);
    let gc = tokio::spawn(sweeper.run(stop.subscribe()));

    match &verifier {
        None => tracing::warn!(
            user = %local.user,
            roles = ?local.roles,
            "no identity provider (auth mode \"local\"): every request acts as the configured local user; listening on loopback only"
        ),
        Some(verifier) => tracing::info!(
            issuer = %verifier.issuer(),
            step_up = ?auth.step_up,
            "bearer tokens of an OpenID provider (auth mode \"oidc\")"
        ),
    }
    tracing::info!(
        data_dir = %settings.data_dir.display(),
        public_host = %settings.public_host,
        graph = engines.graph.kind(),
        blob = engines.blob.description(),
        staging = ?settings.config.staging.store,
        state = ?backend,
        resumed_leases = released,
        webhook_subscriptions = configured,
        "stone-server ready"
    );
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "stone-server listening on http://{address}")?;
        stdout.flush()?;
    }

    let shutdown = async move {
        wait_for_signal().await;
        tracing::info!("shutting down: no new requests; running commits park");
        let _ = stop.send(true);
    };
    let server = &settings.config.server;
    let limits = ConnectionLimits {
        max_connections: server.max_connections,
        header_read_timeout: Duration::from_secs(server.header_read_timeout_seconds),
    };
    stone_server::listener::serve(listener, router(app), limits, shutdown).await;
    let _ = jobs.await;
    // A sweep under way is cut short: each of its deletions stands alone, and the next
    // sweep finishes the work.
    gc.abort();
    let _ = gc.await;
    // Deliveries under way are left to their leases: sent again by the next start.
    delivering.abort();
    let _ = delivering.await;
    pruning.abort();
    let _ = pruning.await;
    tracing::info!("stopped");
    drop(lock);
    Ok(())
}

/// Stores the subscriptions of `[[events.subscriptions]]` (ID `config-<name>`), each
/// target checked as an API subscription's is, and drops the configuration's former ones.
async fn configure_subscriptions(
    db: &StateDb,
    events: &stone_server::config::EventOptions,
    policy: &stone_server::events::target::TargetPolicy,
) -> anyhow::Result<usize> {
    use stone_server::state::{Filters, SubscriptionRecord};
    let mut ids = Vec::new();
    for options in &events.subscriptions {
        let id = format!("config-{}", options.name);
        anyhow::ensure!(
            !ids.contains(&id),
            "[[events.subscriptions]]: the name {:?} is used twice",
            options.name
        );
        policy.check_url(&options.url).await.map_err(|refusal| {
            anyhow::anyhow!(
                "[[events.subscriptions]] {}: the target {} is refused: {refusal}",
                options.name,
                options.url
            )
        })?;
        stone_server::events::envelope::check_secret(&options.secret)
            .map_err(|e| anyhow::anyhow!("[[events.subscriptions]] {}: {e}", options.name))?;
        match options.format {
            stone_api::TargetFormat::Unknown => anyhow::bail!(
                "[[events.subscriptions]] {}: format is cloudevents (the default) or openlineage",
                options.name
            ),
            stone_api::TargetFormat::Openlineage
                if options.types.iter().any(|t| t.starts_with("dataset.")) =>
            {
                anyhow::bail!(
                    "[[events.subscriptions]] {}: an openlineage target receives push.committed and push.failed only (one RunEvent per push outcome)",
                    options.name
                )
            }
            _ => {}
        }
        let types = options
            .types
            .iter()
            .map(|t| {
                stone_api::EventType::parse(t).ok_or_else(|| {
                    anyhow::anyhow!(
                        "[[events.subscriptions]] {}: {t:?} is not an event type",
                        options.name
                    )
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        db.put_subscription(&SubscriptionRecord {
            id: id.clone(),
            namespace: options.namespace.clone(),
            url: options.url.clone(),
            secret: options.secret.clone(),
            format: options.format,
            filters: Filters {
                types,
                branches: options.branches.clone(),
                datasets: options.datasets.clone(),
            },
            origin: "config".into(),
            created_by: None,
            created_at: stone_server::state::now(),
            cursor: 0,
        })
        .await?;
        ids.push(id);
    }
    db.drop_config_subscriptions_except(&ids).await?;
    Ok(ids.len())
}

/// An exclusive advisory lock on the file, held until it is closed (the kernel drops it
/// when the process dies, so a crash never leaves the data directory locked).
#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor we own, for the lifetime of `file`.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(not(unix))]
fn try_lock(_file: &std::fs::File) -> bool {
    true
}

async fn wait_for_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}
