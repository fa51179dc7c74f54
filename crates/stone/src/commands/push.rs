//! `stone package push`.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use stone_package::digest::HashProgress;
use stone_package::resolve_branch;

use crate::cli::{GlobalArgs, PushArgs};
use crate::config::{Config, config_path};
use crate::diagnostics::{CliError, ExitStatus};
use crate::env_vars;
use crate::plan::{PlanOptions, PushPlan, build_plan, load_for_push};

pub fn run(args: &PushArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let (package, to) = load_for_push(&args.path)?;
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let environment = config.environment(&args.env)?;
    let branch = resolve_branch(args.branch.as_deref(), |name| std::env::var(name).ok(), &args.path)?;
    let jobs = args.jobs.map(usize::from).unwrap_or_else(default_jobs);

    let progress = Progress::new(!(global.quiet || args.json), package.resources.iter().map(|r| r.size()).sum());
    let plan = build_plan(
        &package,
        to,
        environment,
        branch,
        PlanOptions { yes: args.yes, force: args.force, replace: args.replace },
        jobs,
        &progress,
    )?;
    progress.finish();

    if !args.dry_run {
        return Err(CliError::new(
            "push.unavailable",
            ExitStatus::Failure,
            format!("cannot push to {}: this build of stone has no working push handler yet", plan.destination),
        )
        .hint("run with --dry-run to see the plan")
        .into());
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct DryRun<'a> {
            dry_run: bool,
            plan: &'a PushPlan,
        }
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer_pretty(&mut out, &DryRun { dry_run: true, plan: &plan })?;
        writeln!(out)?;
        out.flush()?;
    } else {
        print!("{}", render_plan(&plan));
    }
    Ok(())
}

pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(usize::from).unwrap_or(1)
}

/// The plan as a person reads it.
pub fn render_plan(plan: &PushPlan) -> String {
    let mut out = String::new();
    let name = plan.package.title.as_deref().or(plan.package.name.as_deref()).unwrap_or("(unnamed)");
    let _ = writeln!(out, "Package:     {name} ({})", plan.package.root);
    let _ = writeln!(out, "Destination: {}", plan.destination);
    let _ = writeln!(out, "Environment: {} ({}, API {})", plan.environment.name, plan.environment.options.host, plan.environment.options.api);
    let branch_source = plan.branch.source.describe();
    if plan.branch.given == plan.branch.name {
        let _ = writeln!(out, "Branch:      {} (from {branch_source})", plan.branch.name);
    } else {
        let _ = writeln!(out, "Branch:      {} (from {branch_source}: `{}`, normalized)", plan.branch.name, plan.branch.given);
    }
    let _ = writeln!(out, "Handler:     {} ({})", plan.handler.name, plan.handler.reason);
    let mut flags: Vec<&str> = Vec::new();
    for (on, flag) in [(plan.options.yes, "--yes"), (plan.options.force, "--force"), (plan.options.replace, "--replace")] {
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
    let header = ["DATASET", "KIND", "ENGINE", "SIZE", "SHA256", "PATH", "IRI"].map(String::from);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        let _ = writeln!(out, "  {}", line.join("  ").trim_end());
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Package node: {} -> {}", plan.package_node.url, plan.package_node.iri);
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
        let on_terminal = std::io::stderr().is_terminal() && std::env::var_os(env_vars::STONE_NO_PROGRESS).is_none();
        if !(wanted && on_terminal) {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("hashing {bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}")
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
