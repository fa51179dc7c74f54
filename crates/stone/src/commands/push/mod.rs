//! `stone package push`: the orchestration, from the package to the handler's result. The
//! client's prod guard is in [`guard`], what people read in [`render`] and [`progress`].

mod guard;
mod progress;
mod render;

use std::sync::Arc;

use anyhow::Context as _;
use stone_package::{Destination, resolve_branch};
use stone_push::checks::Ahead;
use stone_push::environment::ResolvedEnvironment;
use stone_push::plan::{PlanOptions, build_plan, load_for_push};
use stone_push::prepare::{Preparation, PrepareOptions, prepare};
use stone_push::{PushOptions, PushProgress, TokenSource as _};

use crate::cli::{GlobalArgs, PushArgs};
use crate::codes;
use crate::config::{Config, config_path};
use crate::diagnostics::CliError;
use crate::handler;
use crate::identity;
use crate::printer::Printer;
use crate::settings::{self, http_retries};

use progress::{HashBar, Lines, PushLines};

pub fn run(args: &PushArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let flag_to = args
        .to
        .as_deref()
        .map(|t| {
            let destination = t.parse::<Destination>().map_err(|e| {
                CliError::new(codes::USAGE_INVALID_DESTINATION, format!("--to: {e}"))
            })?;
            // The same rule as `publish.to`'s (issue 55: `--to stone:demo/towns` dropped
            // `/towns`).
            stone_package::package::push_destination(&destination, "--to").map_err(
                |(message, hint)| {
                    CliError::new(codes::USAGE_INVALID_DESTINATION, message).hint(hint)
                },
            )?;
            Ok::<_, CliError>(destination)
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
    let jobs = settings::jobs(args.jobs.map(usize::from));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let destination = to.to_string();
    let mut handlers = runtime.block_on(handler::registry(&config, Some(&destination)))?;
    let printer = Printer::new(global, args.json);
    handler::warn_skipped(&handlers, printer);
    let outcome = push_with(
        args,
        printer,
        &config,
        package,
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
    printer: Printer,
    config: &Config,
    package: stone_package::Package,
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
    let environment = match config.environment(&args.env) {
        Ok(env) => ResolvedEnvironment::configured(env),
        Err(e) if is_service => return Err(e.into()),
        Err(_) => ResolvedEnvironment::unconfigured(&args.env),
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
        guard::prod_guard(&environment, args.yes, args.device, &destination, runtime)?;
    }
    // The platform and plugins get graphs validated as RDF: a build without RDF support
    // says so now, before hashing or sending anything (blob stores take files as they are).
    if !outside {
        crate::rdf_build::require_rdf(&package)?;
        // The tables' headers, delimiters, column names and types: before hashing or
        // sending anything, and before the server is asked (a mistake in the package is
        // told whether the server answers or not).
        stone_push::prepare::check_tables(&package, settings::csv_max_record_bytes()?)?;
    }

    // Before hashing anything: what the server protects, and whether it wants a token.
    // The request is retried; a server that still does not answer fails the push before
    // anything is sent (running the command again is all it takes), rather than later as
    // a push without the token the server wants.
    // (That error waits until the package is checked and converted: a mistake in the
    // package is worth hearing about even while the server is away.)
    let (info, info_error) = if !args.dry_run && is_service {
        match runtime.block_on(identity::fetch_info_retrying(
            &environment.environment.options.api,
            http_retries()?,
            |line| printer.relay(&line),
        )) {
            Ok(info) => (Some(info), None),
            Err(e) => (None, Some(e)),
        }
    } else {
        (None, None)
    };
    // A dry run asks the server once (no retries: a plan is not worth a wait) what a push
    // to a protected ref will need, and says it; a server that does not answer leaves the
    // plan as it is.
    let protected = if args.dry_run && is_service {
        runtime
            .block_on(identity::fetch_info(&environment.environment.options.api))
            .ok()
            .and_then(|info| {
                guard::ProtectedRefNeeds::of(&info, &branch.name, args.yes, args.force)
            })
    } else {
        None
    };
    if let Some(info) = &info {
        guard::confirm_protected_ref(info, &branch.name, &environment, args.yes)?;
        if identity::needs_token(info) {
            let tokens = identity::CliTokens::new(
                identity::identity_of(&environment.environment, Some(info))?,
                args.device,
            );
            // No login yet and a push the server will want a step-up for (a protected
            // ref): the first login asks for it (`acr_values`, `max_age`), rather than a
            // plain login the server then challenges (issue 55, item 3: two logins).
            if let Some(step_up) = guard::step_up_for(info, &branch.name)
                && tokens.fixed.is_none()
                && tokens.identity.stored()?.is_none()
            {
                runtime.block_on(
                    tokens
                        .identity
                        .token_with_step_up(&step_up, &identity::interaction(args.device)),
                )?;
            }
            // Log in or refresh now, not after hashing.
            runtime.block_on(tokens.token(&environment.environment.name))?;
            handlers.registry.replace(Box::new(
                handler::service_handler(config)?.with_tokens(tokens),
            ));
        }
    }

    // Large graphs' RDF checks begin now, beside the hash, which leaves cores idle; the
    // checks the plan lists take their outcomes (`stone_push::checks::Ahead`).
    let mut ahead = if args.dry_run || outside {
        Ahead::default()
    } else {
        Ahead::start(graph_files(&package))
    };
    let progress = HashBar::new(printer, package.resources.iter().map(|r| r.size()).sum());
    let mut plan = build_plan(
        &package,
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
    // The plan holds the files' digests now: the package's own list of them goes (issue
    // 27: a package of 100,000 one-file resources held it twice).
    let mut package = package;
    for resource in &mut package.resources {
        resource.files = Vec::new();
    }

    if args.dry_run {
        return printer.result_written(&render::DryRun::of(&plan, protected.as_ref()), |out| {
            render::write_plan(&plan, protected.as_ref(), out)
        });
    }

    let lines = Lines(printer);
    let preparation = if outside {
        Preparation::AsIs
    } else {
        Preparation::Converted
    };
    let options = PrepareOptions {
        preparation,
        max_record_bytes: settings::csv_max_record_bytes()?,
    };
    // Takes the plan's datasets and the package's resources (issue 27: they grow with the
    // count of resources); the rest of the loaded package goes after.
    let mut prepared = prepare(&mut plan, &mut package, options, &lines)?;
    drop(package);
    for check in &mut prepared.checks {
        check.ahead = ahead.take(&check.path);
    }
    drop(ahead);
    stone_push::memory::give_back();
    if let Some(e) = info_error {
        // The package's mistakes first: they are worth hearing about while the server is
        // away (the checks otherwise run beside the uploads).
        stone_push::checks::run_all(&prepared.checks)?;
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
    let reporter: Arc<dyn PushProgress> = Arc::new(PushLines::new(printer));
    let result =
        match runtime.block_on(handler.push_prepared(&prepared, &options, reporter.clone())) {
            // A check of the package failed: its error, as it is (the file, line, column).
            Err(stone_push::PushError::Check(e)) => return Err(e),
            other => other,
        };
    let result = result.with_context(|| {
        format!(
            "the push of {} to {} ({}) failed",
            plan.package.root, plan.destination, plan.environment.name
        )
    })?;
    printer.result(&result, || render::render_result(&result))
}

/// The listed files of the package's GRAPH resources: path, format, size.
fn graph_files(
    package: &stone_package::Package,
) -> impl Iterator<Item = (std::path::PathBuf, stone_package::Format, u64)> + '_ {
    package
        .resources
        .iter()
        .filter(|r| r.kind == stone_package::AssetKind::Graph)
        .flat_map(|r| &r.files)
        .filter_map(|f| {
            let path = f.absolute(&package.root);
            let format = stone_package::Format::detect(&path)?;
            Some((path, format, f.size))
        })
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
