//! `stone package push`.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Arc;
use stone_package::digest::HashProgress;

use anyhow::Context as _;
use stone_package::branch::protecting_pattern;
use stone_package::resolve_branch;
use stone_push::{ProgressEvent, PushOptions, PushProgress, PushResult, TokenSource as _};

use crate::cli::{GlobalArgs, PushArgs};
use crate::config::{Config, config_path};
use crate::diagnostics::{CliError, ExitStatus};
use crate::env_vars;
use crate::handler;
use crate::identity;
use crate::plan::{PlanOptions, PushPlan, build_plan, load_for_push};
use crate::prepare::{PrepareProgress, prepare};

pub fn run(args: &PushArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let (package, to) = load_for_push(&args.path)?;
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let environment = config.environment(&args.env)?;
    let branch = resolve_branch(
        args.branch.as_deref(),
        |name| std::env::var(name).ok(),
        &args.path,
    )?;
    let jobs = args.jobs.map(usize::from).unwrap_or_else(default_jobs);
    let mut registry = handler::registry(&config, None)?;
    let destination = to.to_string();
    let choice = handler::choose(&registry, &destination).ok_or_else(|| {
        CliError::new(
            "push.no_handler",
            ExitStatus::Failure,
            format!("no handler claims the destination {destination}"),
        )
    })?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    // Before hashing anything: what the server protects, and whether it wants a token.
    // A server that does not answer here is left to the push itself, which retries and
    // reports it (resumable); the server enforces the same rules in any case.
    let info = if !args.dry_run && choice.name == "service" {
        runtime
            .block_on(identity::fetch_info(&environment.options.api))
            .ok()
    } else {
        None
    };
    if let Some(info) = &info {
        if !identity::in_ci()
            && !args.yes
            && let Some(pattern) = protecting_pattern(&info.protected_refs, &branch.name)
        {
            return Err(CliError::new(
                "push.confirmation_required",
                ExitStatus::Refused,
                format!(
                    "{} is a protected ref of `{}` (pattern `{pattern}`): a manual push to it needs --yes",
                    branch.name, environment.name
                ),
            )
            .hint("check that this is the branch you mean, then run the same command with --yes")
            .into());
        }
        if identity::needs_token(info) {
            let tokens = identity::CliTokens::new(identity::identity_of(&environment, Some(info))?);
            // Log in or refresh now, not after hashing.
            runtime.block_on(tokens.token(&environment.name))?;
            registry =
                handler::registry(&config, Some(tokens as Arc<dyn stone_push::TokenSource>))?;
        }
    }

    let quiet = global.quiet;
    let progress = Progress::new(
        !(quiet || args.json),
        package.resources.iter().map(|r| r.size()).sum(),
    );
    let plan = build_plan(
        &package,
        to,
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
    let push_package = prepare(&plan, &package, &lines)?;
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
    let handler = registry
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

fn http_retries() -> anyhow::Result<u32> {
    match std::env::var(env_vars::STONE_HTTP_RETRIES) {
        Err(_) => Ok(stone_push::record::DEFAULT_RETRIES),
        Ok(v) => v.trim().parse().map_err(|_| {
            CliError::new(
                "usage.invalid_env",
                ExitStatus::Usage,
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
    let _ = writeln!(
        out,
        "Environment: {} ({}, API {})",
        plan.environment.name, plan.environment.options.host, plan.environment.options.api
    );
    let branch_source = plan.branch.source.describe();
    if plan.branch.given == plan.branch.name {
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
