//! What `stone package push` prints for people: the plan (`--dry-run`) and the result.

use std::fmt::Write as _;

use indicatif::HumanBytes;
use stone_push::PushResult;
use stone_push::environment::DEFAULT_ENV;
use stone_push::plan::PushPlan;

use super::guard::ProtectedRefNeeds;
use crate::handler;

/// `--dry-run --json`: the plan, marked as a dry run.
#[derive(serde::Serialize)]
pub(super) struct DryRun<'a> {
    dry_run: bool,
    plan: &'a PushPlan,
    /// What the push will need, when the branch is a protected ref of the server.
    #[serde(skip_serializing_if = "Option::is_none")]
    protected_ref: Option<&'a ProtectedRefNeeds>,
}

impl<'a> DryRun<'a> {
    pub(super) fn of(plan: &'a PushPlan, protected_ref: Option<&'a ProtectedRefNeeds>) -> Self {
        DryRun {
            dry_run: true,
            plan,
            protected_ref,
        }
    }
}

/// The result as a person reads it.
pub(super) fn render_result(result: &PushResult) -> String {
    let mut out = String::new();
    let row = |i: usize| {
        let d = &result.datasets[i];
        [
            d.url.clone(),
            d.kind.map(|k| k.to_string()).unwrap_or_default(),
            d.engine.map(|e| e.to_string()).unwrap_or_default(),
            d.status.clone(),
            d.iri.clone(),
        ]
    };
    out.push_str(&table_of(
        ["DATASET", "KIND", "ENGINE", "STATUS", "IRI"],
        result.datasets.len(),
        row,
    ));
    write_appended(result, &mut out);
    let expiries: Vec<serde_json::Value> = result
        .datasets
        .iter()
        .filter_map(|d| d.detail.as_ref())
        .filter(|detail| detail.get().contains("\"expired_snapshots\""))
        .filter_map(|detail| serde_json::from_str::<serde_json::Value>(detail.get()).ok())
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

/// The tables a push appended to, with the rows it added (the server's `rows_added`) and
/// how many the table has now: a push appends (the specification's default), so pushing an
/// edited CSV again adds all of its rows, and the hint says how to replace instead (issue
/// 55, item 17).
fn write_appended(result: &PushResult, out: &mut String) {
    let mut lines = Vec::new();
    for dataset in &result.datasets {
        if dataset.status != "appended" {
            continue;
        }
        let Some(detail) = dataset
            .detail
            .as_ref()
            .and_then(|d| serde_json::from_str::<serde_json::Value>(d.get()).ok())
        else {
            continue;
        };
        let Some(added) = detail.get("rows_added").and_then(serde_json::Value::as_u64) else {
            continue;
        };
        let rows = |n: u64| {
            if n == 1 {
                "1 row".to_owned()
            } else {
                format!("{n} rows")
            }
        };
        let now = detail
            .get("total_rows")
            .and_then(serde_json::Value::as_u64)
            .map(|total| format!(" ({} now)", rows(total)))
            .unwrap_or_default();
        lines.push(format!("  {}: appended {}{now}", dataset.url, rows(added)));
    }
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nA push appends a table's rows to those already on the branch:"
    );
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "hint: to make each dataset the package's content instead (an edited file pushed again), push with --replace"
    );
}

/// Left-aligned columns, two spaces apart, indented by two: a table of `count` rows, each made by `row` when it is measured and again when it is
/// written: a plan of 100,000 datasets is not held as 700,000 cells (issue 27).
fn table_of<const N: usize>(
    header: [&str; N],
    count: usize,
    row: impl Fn(usize) -> [String; N],
) -> String {
    let mut out = String::new();
    table_lines(header, count, row, |line| out.push_str(line));
    out
}

/// [`table_of`], handing out each line (with its newline) as it is made.
fn table_lines<const N: usize>(
    header: [&str; N],
    count: usize,
    row: impl Fn(usize) -> [String; N],
    mut emit: impl FnMut(&str),
) {
    let header = header.map(String::from);
    let mut widths = header.clone().map(|h| h.chars().count());
    for i in 0..count {
        for (w, cell) in widths.iter_mut().zip(&row(i)) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut cells_line = String::new();
    let mut line = String::new();
    let mut write = |cells: &[String; N]| {
        cells_line.clear();
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                cells_line.push_str("  ");
            }
            let _ = write!(cells_line, "{c:<w$}");
        }
        line.clear();
        let _ = writeln!(line, "  {}", cells_line.trim_end());
        emit(&line);
    };
    write(&header);
    for i in 0..count {
        write(&row(i));
    }
}

/// The plan as a person reads it, written to `to` as it is made: a plan of 100,000
/// datasets is tens of MB of text, never held whole (issue 27).
pub(super) fn write_plan(
    plan: &PushPlan,
    protected_ref: Option<&ProtectedRefNeeds>,
    to: &mut dyn std::io::Write,
) -> std::io::Result<()> {
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
    if let Some(needs) = protected_ref {
        let _ = writeln!(
            out,
            "Guard:       {}",
            needs.describe(&plan.environment.name)
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

    let row = |i: usize| {
        let d = &plan.datasets.list[i];
        let path = if d.directory {
            format!("{}/ ({} files)", d.path, d.files.len())
        } else {
            d.path.clone()
        };
        [
            plan.datasets.places.url(d),
            d.kind.to_string(),
            d.engine.to_string(),
            HumanBytes(d.size).to_string(),
            d.sha256[..12].to_owned(),
            path,
            plan.datasets.places.iri(d),
        ]
    };
    to.write_all(out.as_bytes())?;
    out.clear();
    let mut written = Ok(());
    table_lines(
        ["DATASET", "KIND", "ENGINE", "SIZE", "SHA256", "PATH", "IRI"],
        plan.datasets.list.len(),
        row,
        |line| {
            if written.is_ok() {
                written = to.write_all(line.as_bytes());
            }
        },
    );
    written?;
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
    to.write_all(out.as_bytes())
}
