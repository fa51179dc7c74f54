//! `stone package push`.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Arc;
use stone_package::digest::HashProgress;

use anyhow::Context as _;
use stone_package::branch::protecting_pattern;
use stone_package::{Destination, resolve_branch};
use stone_push::{ProgressEvent, PushOptions, PushProgress, PushResult, TokenSource as _};

use crate::cli::{GlobalArgs, PushArgs};
use crate::codes;
use crate::config::{Config, DEFAULT_ENV, Environment, EnvironmentOptions, config_path};
use crate::diagnostics::CliError;
use crate::env_vars;
use crate::handler;
use crate::identity;
use crate::plan::{PlanOptions, PushPlan, build_plan, load_for_push};
use crate::prepare::{Preparation, PrepareProgress, prepare};

pub fn run(args: &PushArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let flag_to = args
        .to
        .as_deref()
        .map(|t| {
            t.parse::<Destination>()
                .map_err(|e| CliError::new(codes::USAGE_INVALID_DESTINATION, format!("--to: {e}")))
        })
        .transpose()?;
    let (package, to) = load_for_push(&args.path, flag_to.as_ref())?;
    let config = Config::load(config_path(global.config.as_deref())?)?;
    if let Destination::Stone(_) = to {
        // The platform needs a configured environment: say so before anything else.
        config.environment(&args.env)?;
    }
    // Asked for only when the destination has branches (see push_with).
    let branch = resolve_branch(
        args.branch.as_deref(),
        |name| std::env::var(name).ok(),
        &args.path,
    );
    let jobs = args.jobs.map(usize::from).unwrap_or_else(default_jobs);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let destination = to.to_string();
    let mut handlers = runtime.block_on(handler::registry(&config, Some(&destination)))?;
    handler::warn_skipped(&handlers, global.quiet);
    let outcome = push_with(
        args,
        global,
        &config,
        &package,
        &to,
        branch,
        jobs,
        &runtime,
        &mut handlers,
    );
    runtime.block_on(handlers.shutdown());
    outcome
}

#[allow(clippy::too_many_arguments)]
fn push_with(
    args: &PushArgs,
    global: &GlobalArgs,
    config: &Config,
    package: &stone_package::Package,
    to: &Destination,
    branch: Result<stone_package::Branch, stone_package::BranchError>,
    jobs: usize,
    runtime: &tokio::runtime::Runtime,
    handlers: &mut handler::Handlers,
) -> anyhow::Result<()> {
    let destination = to.to_string();
    let choice = handler::choose(&*handlers, &destination).ok_or_else(|| {
        CliError::new(
            codes::PUSH_NO_HANDLER,
            format!("no handler claims the destination {destination}"),
        )
        .hint(no_handler_hint(handlers, to.scheme()))
    })?;
    let is_service = choice.name == handler::SERVICE;
    let outside = handler::pushes_outside_platform(&choice.name);
    let environment = if is_service {
        (config.environment(&args.env)?, false)
    } else {
        match config.environment(&args.env) {
            Ok(env) => (env, false),
            Err(_) => (unconfigured_environment(&args.env), true),
        }
    };
    let namespace = match to {
        Destination::Stone(url) => Some(url.namespace.clone()),
        Destination::Url(url) if is_service => Some(namespace_of(url)?),
        Destination::Url(_) => None,
    };
    let branch = match branch {
        Ok(branch) => branch,
        // A blob store or an HTTP server has no branches: nothing to ask for.
        Err(_) if outside => stone_package::Branch {
            name: String::new(),
            given: String::new(),
            source: stone_package::branch::BranchSource::Unused,
        },
        Err(e) => return Err(e.into()),
    };
    if outside && !args.dry_run {
        prod_guard(&environment, args.yes, args.device, &destination, runtime)?;
    }
    // The platform and plugins get graphs validated as RDF: a build without RDF support
    // says so now, before hashing or sending anything (blob stores take files as they are).
    if !outside {
        crate::rdf_build::require_rdf(package)?;
    }

    // Before hashing anything: what the server protects, and whether it wants a token.
    // The request is retried; a server that still does not answer fails the push before
    // anything is sent (running the command again is all it takes), rather than later as
    // a push without the token the server wants.
    // (That error waits until the package is checked and converted: a mistake in the
    // package is worth hearing about even while the server is away.)
    let (info, info_error) = if !args.dry_run && is_service {
        let quiet = global.quiet;
        match runtime.block_on(identity::fetch_info_retrying(
            &environment.0.options.api,
            http_retries()?,
            |line| {
                if !quiet {
                    eprintln!("{}", crate::diagnostics::terminal_safe(&line));
                }
            },
        )) {
            Ok(info) => (Some(info), None),
            Err(e) => (None, Some(e)),
        }
    } else {
        (None, None)
    };
    if let Some(info) = &info {
        if !identity::in_ci()
            && !args.yes
            && let Some(pattern) = protecting_pattern(&info.protected_refs, &branch.name)
        {
            return Err(CliError::new(
                codes::PUSH_CONFIRMATION_REQUIRED,
                format!(
                    "{} is a protected ref of `{}` (pattern `{pattern}`): a manual push to it needs --yes",
                    branch.name, environment.0.name
                ),
            )
            .hint("check that this is the branch you mean, then run the same command with --yes")
            .into());
        }
        if identity::needs_token(info) {
            let tokens = identity::CliTokens::new(
                identity::identity_of(&environment.0, Some(info))?,
                args.device,
            );
            // Log in or refresh now, not after hashing.
            runtime.block_on(tokens.token(&environment.0.name))?;
            handlers.registry.replace(Box::new(
                handler::service_handler(config)?.with_tokens(tokens),
            ));
        }
    }

    let quiet = global.quiet;
    let progress = Progress::new(
        !(quiet || args.json),
        package.resources.iter().map(|r| r.size()).sum(),
    );
    let mut plan = build_plan(
        package,
        to,
        namespace,
        choice,
        environment,
        branch,
        PlanOptions {
            yes: args.yes,
            force: args.force,
            replace: args.replace,
        },
        jobs,
        &progress,
    )?;
    progress.finish();

    if args.dry_run {
        if args.json {
            #[derive(serde::Serialize)]
            struct DryRun<'a> {
                dry_run: bool,
                plan: &'a PushPlan,
            }
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            serde_json::to_writer_pretty(
                &mut out,
                &DryRun {
                    dry_run: true,
                    plan: &plan,
                },
            )?;
            writeln!(out)?;
            out.flush()?;
        } else {
            print!("{}", render_plan(&plan));
        }
        return Ok(());
    }

    let lines = Lines { quiet };
    let preparation = if outside {
        Preparation::AsIs
    } else {
        Preparation::Converted
    };
    let push_package = prepare(&plan, package, preparation, &lines)?;
    // Each file is in the package to push now: its digest in the plan goes (issue 27).
    plan.datasets.iter_mut().for_each(|d| d.files = Vec::new());
    if let Some(e) = info_error {
        return Err(e.into());
    }
    let options = PushOptions {
        env: plan.environment.name.clone(),
        branch: plan.branch.name.clone(),
        yes: args.yes,
        force: args.force,
        replace: args.replace,
        manual: !identity::in_ci(),
        jobs,
        retries: http_retries()?,
    };
    let handler = handlers
        .registry
        .select(&plan.destination)
        .expect("the handler chosen above");
    let reporter: Arc<dyn PushProgress> = Arc::new(PushLines::new(quiet));
    let result = runtime
        .block_on(handler.push(&push_package, &options, reporter.clone()))
        .with_context(|| {
            format!(
                "the push of {} to {} ({}) failed",
                plan.package.root, plan.destination, plan.environment.name
            )
        })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&result)?);
    } else {
        print!("{}", render_result(&result));
    }
    Ok(())
}

/// What to do when no handler claims a destination: the schemes the built-ins take and
/// the plugins that were asked (none of which claimed it).
fn no_handler_hint(handlers: &handler::Handlers, scheme: &str) -> String {
    let asked: Vec<&str> = handlers.claims.keys().map(String::as_str).collect();
    let plugins = if asked.is_empty() {
        "no plugin is installed".to_owned()
    } else {
        format!(
            "installed plugins, none of which claims it: {}",
            asked.join(", ")
        )
    };
    format!(
        "the built-ins take `stone:<namespace>`, https URLs and blob stores ({}://…); {plugins}; install a plugin for `{scheme}:` (see `stone plugin list`)",
        stone_push::blob_store::BLOB_STORE_SCHEMES.join("://…, "),
    )
}

/// An environment named by `--env` but not in the config: enough for a push outside the
/// platform, where it only decides which guard applies.
fn unconfigured_environment(name: &str) -> Environment {
    Environment {
        name: name.to_owned(),
        options: EnvironmentOptions {
            host: String::new(),
            api: String::new(),
            issuer: None,
            client_id: None,
            step_up: None,
        },
    }
}

/// The namespace of an https destination on a platform host: `https://HOST/<namespace>`.
fn namespace_of(url: &str) -> anyhow::Result<stone_package::Label> {
    let parsed = url::Url::parse(url).ok();
    let segments: Vec<&str> = parsed
        .as_ref()
        .and_then(|u| u.path_segments())
        .map(|s| s.filter(|p| !p.is_empty()).collect())
        .unwrap_or_default();
    let bad = |why: String| {
        CliError::new(codes::PUSH_DESTINATION, why).hint(
            "on a platform host, push to `https://HOST/<namespace>` or write `stone:<namespace>`",
        )
    };
    match segments.as_slice() {
        [ns] => stone_package::Label::parse(ns)
            .map_err(|why| bad(format!("{url}: the namespace `{ns}` {why}")).into()),
        _ => Err(bad(format!(
            "{url} is on a platform host but does not name one namespace"
        ))
        .into()),
    }
}

/// The prod guard of pushes outside the platform: a blob store or HTTP server checks no
/// ref, no role and no confirmation, so stone does, before any upload.
fn prod_guard(
    environment: &(Environment, bool),
    yes: bool,
    device: bool,
    destination: &str,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<()> {
    let env = environment.0.name.as_str();
    if env != DEFAULT_ENV {
        return Ok(());
    }
    if !yes {
        return Err(CliError::new(
            codes::PUSH_PROD_CONFIRMATION_REQUIRED,
            format!(
                "refusing to push to {destination} with --env {DEFAULT_ENV} without --yes: a blob store or HTTP server has no guard of its own, so stone guards prod itself (nothing was uploaded)"
            ),
        )
        .hint(format!(
            "confirm with --yes (prod also needs an authentication step-up with the `{PROD_WRITE_ROLE}` role), or pass --env <other> for a push that is not prod (the default environment is `{DEFAULT_ENV}`)"
        ))
        .into());
    }
    ensure_prod_identity(environment, device, destination, runtime)
}

/// The role a token needs for a push outside the platform with `--env prod`.
const PROD_WRITE_ROLE: &str = "protected-write";
/// How fresh the authentication of such a push must be when the environment's config names
/// no step-up `max_age` (`stone env add prod … --max-age`).
const PROD_DEFAULT_MAX_AGE: u64 = 600;

/// The second half of the prod guard: a token from prod's identity provider with a fresh
/// step-up (the environment's `acr_values`/`max_age`) that carries the `protected-write`
/// role. `STONE_TOKEN` is taken as it is (CI: it must already have both); otherwise the
/// stored login is used when it is enough, else a new login with the step-up runs.
///
/// No server checks such a push, so the token is verified here before its roles and `acr`
/// count: its signature against the keys the environment's issuer publishes, `iss`, `aud`
/// (the audience the environment's server names in its `/info`, the one request this guard
/// makes to the platform), `exp`/`nbf`, and that it is an access token
/// ([`stone_auth::verify`], the server's own check).
fn ensure_prod_identity(
    environment: &(Environment, bool),
    device: bool,
    destination: &str,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<()> {
    let (env, unconfigured) = environment;
    let Some(issuer) = env.options.issuer.as_deref().filter(|_| !*unconfigured) else {
        return Err(CliError::new(
            codes::AUTH_NO_ISSUER,
            format!(
                "a push to {destination} with --env {} needs an authentication step-up, but the environment `{}` names no identity provider (nothing was uploaded)",
                env.name, env.name
            ),
        )
        .hint(format!(
            "configure it: `stone env add {} --host HOST --api URL --issuer URL [--client-id ID] [--acr-values …] [--max-age SECONDS]` (add --replace if it exists), or push with --env <other>",
            env.name
        ))
        .into());
    };
    let info = runtime
        .block_on(identity::fetch_info_retrying(
            &env.options.api,
            http_retries()?,
            |line| eprintln!("{}", crate::diagnostics::terminal_safe(&line)),
        ))
        .with_context(|| {
            format!(
                "the prod guard asks the server of `{}` ({}) which audience its tokens carry (nothing was uploaded)",
                env.name, env.options.api
            )
        })?;
    if let Some(oidc) = &info.oidc
        && oidc.issuer.trim_end_matches('/') != issuer.trim_end_matches('/')
    {
        return Err(CliError::new(
            codes::AUTH_ISSUER_MISMATCH,
            format!(
                "the environment `{}` names the issuer {issuer}, but its server {} trusts {} (nothing was uploaded)",
                env.name, env.options.api, oidc.issuer
            ),
        )
        .hint(format!(
            "fix the environment: `stone env add {} --host … --api … --issuer {} --replace`",
            env.name, oidc.issuer
        ))
        .into());
    }
    let identity = identity::identity_of(env, Some(&info))?;
    if identity.audience.is_none() {
        // Before any login: a token could not be checked anyway.
        return Err(stone_auth::AuthError::NoAudience {
            env: env.name.clone(),
        }
        .into());
    }
    let mut step_up = identity::step_up_of(env);
    step_up.max_age.get_or_insert(PROD_DEFAULT_MAX_AGE);
    let (token, origin) = match identity::static_token() {
        Some(token) => (token, stone_auth::STONE_TOKEN),
        None => (
            runtime
                .block_on(identity.token_with_step_up(&step_up, &identity::interaction(device)))?
                .token,
            "the stored login",
        ),
    };
    let claims = runtime.block_on(identity.verified_claims(&token, origin))?;
    if let Some(lack) = step_up.lack(&claims, stone_auth::oidc::now(), 0) {
        return Err(stone_auth::AuthError::StepUpRequired {
            env: env.name.clone(),
            lack,
        }
        .into());
    }
    if !claims.roles.iter().any(|r| r == PROD_WRITE_ROLE) {
        return Err(CliError::new(
            codes::PUSH_PROTECTED_REF,
            format!(
                "{} may not push to {destination} with --env {}: the token lacks the `{PROD_WRITE_ROLE}` role (nothing was uploaded)",
                claims.subject.as_deref().unwrap_or("this login"),
                env.name
            ),
        )
        .hint("ask the platform's administrators for the role, then log in again with `stone login --env prod`")
        .into());
    }
    Ok(())
}

fn http_retries() -> anyhow::Result<u32> {
    match std::env::var(env_vars::STONE_HTTP_RETRIES) {
        Err(_) => Ok(stone_push::record::DEFAULT_RETRIES),
        Ok(v) => v.trim().parse().map_err(|_| {
            CliError::new(
                codes::USAGE_INVALID_ENV,
                format!(
                    "${} must be a whole number, not `{v}`",
                    env_vars::STONE_HTTP_RETRIES
                ),
            )
            .into()
        }),
    }
}

/// The result as a person reads it.
pub fn render_result(result: &PushResult) -> String {
    let mut out = String::new();
    let rows: Vec<[String; 5]> = result
        .datasets
        .iter()
        .map(|d| {
            [
                d.url.clone(),
                d.kind.map(|k| k.to_string()).unwrap_or_default(),
                d.engine.map(|e| e.to_string()).unwrap_or_default(),
                d.status.clone(),
                d.iri.clone(),
            ]
        })
        .collect();
    out.push_str(&table(
        ["DATASET", "KIND", "ENGINE", "STATUS", "IRI"],
        &rows,
    ));
    let expiries: Vec<&serde_json::Value> = result
        .datasets
        .iter()
        .filter_map(|d| d.detail.as_ref())
        .filter(|detail| detail.get("expired_snapshots").is_some())
        .collect();
    if !expiries.is_empty() {
        let sum = |field: &str| -> u64 {
            expiries
                .iter()
                .filter_map(|detail| detail.get(field).and_then(serde_json::Value::as_u64))
                .sum()
        };
        let _ = writeln!(
            out,
            "\nSnapshot expiry: {} snapshots of {} tables expired, {} files deleted ({}).",
            sum("expired_snapshots"),
            expiries.len(),
            sum("expired_files"),
            HumanBytes(sum("expired_bytes"))
        );
    }
    if let Some(node) = &result.package_node {
        let _ = writeln!(
            out,
            "\nPackage node: {} -> {} ({})",
            node.url, node.iri, node.status
        );
    }
    let _ = writeln!(
        out,
        "Push {} done: uploaded {}, {} contents already on the server.",
        result.push_id,
        HumanBytes(result.uploaded_bytes),
        result.already_staged
    );
    out
}

/// Left-aligned columns, two spaces apart, indented by two.
fn table<const N: usize>(header: [&str; N], rows: &[[String; N]]) -> String {
    let header = header.map(String::from);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        let _ = writeln!(out, "  {}", line.join("  ").trim_end());
    }
    out
}

/// Conversion lines on stderr.
struct Lines {
    quiet: bool,
}

impl PrepareProgress for Lines {
    fn converting(&self, resource: &str, bytes: u64) {
        if !self.quiet {
            eprintln!("converting {resource} to Parquet ({})", HumanBytes(bytes));
        }
    }
}

/// Push progress: a byte bar for uploads on a terminal, plain lines otherwise.
struct PushLines {
    quiet: bool,
    bar: std::sync::Mutex<Option<ProgressBar>>,
}

impl PushLines {
    fn new(quiet: bool) -> Self {
        PushLines {
            quiet,
            bar: std::sync::Mutex::new(None),
        }
    }

    fn line(&self, text: String) {
        if self.quiet {
            return;
        }
        // Server statuses and plugin logs: never raw escape sequences on the terminal.
        let text = crate::diagnostics::terminal_safe(&text).into_owned();
        match self.bar.lock().ok().and_then(|b| b.clone()) {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }
}

impl PushProgress for PushLines {
    fn event(&self, event: ProgressEvent) {
        match event {
            ProgressEvent::Created {
                push_id,
                resumed,
                to_upload,
                files,
                already_staged,
            } => {
                let verb = if resumed { "resuming push" } else { "push" };
                self.line(format!(
                    "{verb} {push_id}: {files} files to upload ({}), {already_staged} already on the server",
                    HumanBytes(to_upload)
                ));
                if !self.quiet && to_upload > 0 && on_terminal() {
                    let bar = ProgressBar::with_draw_target(
                        Some(to_upload),
                        ProgressDrawTarget::stderr(),
                    );
                    bar.set_style(
                        ProgressStyle::with_template("uploading {bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}")
                            .expect("a valid template"),
                    );
                    if let Ok(mut slot) = self.bar.lock() {
                        *slot = Some(bar);
                    }
                }
            }
            ProgressEvent::Uploaded { bytes } => {
                if let Some(bar) = self.bar.lock().ok().and_then(|b| b.clone()) {
                    bar.inc(bytes);
                }
            }
            ProgressEvent::Committing { push_id } => {
                if let Some(bar) = self.bar.lock().ok().and_then(|mut b| b.take()) {
                    bar.finish_and_clear();
                }
                self.line(format!("committing push {push_id}"));
            }
            ProgressEvent::Dataset {
                name,
                state,
                status,
            } => match status {
                Some(status) => self.line(format!("  {name}: {state} ({status})")),
                None => self.line(format!("  {name}: {state}")),
            },
            ProgressEvent::Note(note) => self.line(note),
        }
    }
}

fn on_terminal() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os(env_vars::STONE_NO_PROGRESS).is_none()
}

pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
}

/// The plan as a person reads it.
pub fn render_plan(plan: &PushPlan) -> String {
    let mut out = String::new();
    let name = plan
        .package
        .title
        .as_deref()
        .or(plan.package.name.as_deref())
        .unwrap_or("(unnamed)");
    let _ = writeln!(out, "Package:     {name} ({})", plan.package.root);
    let _ = writeln!(out, "Destination: {}", plan.destination);
    if plan.environment_unconfigured {
        let _ = writeln!(
            out,
            "Environment: {} (not configured: outside the platform it only decides the prod guard)",
            plan.environment.name
        );
    } else {
        let _ = writeln!(
            out,
            "Environment: {} ({}, API {})",
            plan.environment.name, plan.environment.options.host, plan.environment.options.api
        );
    }
    let branch_source = plan.branch.source.describe();
    if plan.branch.source == stone_package::branch::BranchSource::Unused {
        let _ = writeln!(out, "Branch:      none (the destination has no branches)");
    } else if plan.branch.given == plan.branch.name {
        let _ = writeln!(
            out,
            "Branch:      {} (from {branch_source})",
            plan.branch.name
        );
    } else {
        let _ = writeln!(
            out,
            "Branch:      {} (from {branch_source}: `{}`, normalized)",
            plan.branch.name, plan.branch.given
        );
    }
    let _ = writeln!(
        out,
        "Handler:     {} ({})",
        plan.handler.name, plan.handler.reason
    );
    if handler::pushes_outside_platform(&plan.handler.name) && plan.environment.name == DEFAULT_ENV
    {
        let _ = writeln!(
            out,
            "Guard:       {DEFAULT_ENV}: a push outside the platform needs --yes and an authentication step-up (checked before any upload)"
        );
    }
    let mut flags: Vec<&str> = Vec::new();
    for (on, flag) in [
        (plan.options.yes, "--yes"),
        (plan.options.force, "--force"),
        (plan.options.replace, "--replace"),
    ] {
        if on {
            flags.push(flag);
        }
    }
    if !flags.is_empty() {
        let _ = writeln!(out, "Options:     {}", flags.join(" "));
    }
    let _ = writeln!(out);

    let rows: Vec<[String; 7]> = plan
        .datasets
        .iter()
        .map(|d| {
            let path = if d.files.len() > 1 || d.files.first().is_some_and(|f| f.path != d.path) {
                format!("{}/ ({} files)", d.path, d.files.len())
            } else {
                d.path.clone()
            };
            [
                d.url.clone(),
                d.kind.to_string(),
                d.engine.to_string(),
                HumanBytes(d.size).to_string(),
                d.sha256[..12].to_owned(),
                path,
                d.iri.clone(),
            ]
        })
        .collect();
    out.push_str(&table(
        ["DATASET", "KIND", "ENGINE", "SIZE", "SHA256", "PATH", "IRI"],
        &rows,
    ));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Package node: {} -> {}",
        plan.package_node.url, plan.package_node.iri
    );
    let _ = writeln!(
        out,
        "{} datasets, {} files, {} (hashed {}, {} files from cache)",
        plan.totals.datasets,
        plan.totals.files,
        HumanBytes(plan.totals.bytes),
        HumanBytes(plan.hashing.hashed_bytes),
        plan.hashing.cached_files
    );
    let _ = writeln!(out, "Dry run: nothing was uploaded.");
    out
}

/// A hashing progress bar, drawn only on a terminal.
struct Progress(Option<ProgressBar>);

impl Progress {
    fn new(wanted: bool, total: u64) -> Self {
        if !(wanted && on_terminal()) {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "hashing {bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
            )
            .expect("a valid template"),
        );
        Progress(Some(bar))
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl HashProgress for Progress {
    fn advance(&self, bytes: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(bytes);
        }
    }
}
