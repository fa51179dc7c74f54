//! `stone data import`.

use anyhow::Context as _;

use crate::cli::{GlobalArgs, ImportArgs};
use crate::codes;
use crate::config::{Config, config_path};
use crate::diagnostics::CliError;
use crate::identity;
use crate::printer::Printer;
use stone_push::import::{
    ImportOutcome, ImportRequest, ImportStatus, Source, Wanted, import, parse_source, slug_for,
};

/// The token of the stored login (`stone login --env ENV`) for a dataset of an environment
/// whose server wants tokens: refreshed silently when it expired; `None` without a login
/// (public datasets need none; a private one is then refused with a hint).
async fn stored_login(source: &Source) -> anyhow::Result<Option<String>> {
    let Source::Service { environment, .. } = source else {
        return Ok(None);
    };
    // A server that does not answer is reported by the import itself.
    identity::stored_login(environment, crate::settings::http_retries()?).await
}

pub fn run(args: &ImportArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let source = parse_source(&args.source, &config, args.env.as_deref())?;
    let slug = slug_for(args.as_name.as_deref().unwrap_or(&source.default_name()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let token = match identity::static_token() {
        Some(token) => Some(token.expose().clone()),
        None => runtime.block_on(stored_login(&source))?,
    };
    // A dataset IRI's `?branch=` / `?version=` select as the flags do; both at once must
    // agree (issue 55, item 2: the IRI's branch was dropped and `main` read).
    let (branch, version) = match &source {
        Source::Service { selection, .. } => (
            agreed(
                "branch",
                args.branch.as_deref(),
                selection.branch.as_deref(),
            )?,
            agreed(
                "version",
                args.version.as_deref(),
                selection.version.as_deref(),
            )?,
        ),
        _ => (args.branch.clone(), args.version.clone()),
    };
    let request = ImportRequest {
        source_text: args.source.clone(),
        source,
        slug,
        wanted: Wanted {
            format: args.format.clone(),
            branch,
            version,
            token,
            retries: crate::settings::http_retries()?,
        },
        package: args.path.clone(),
    };
    // Ctrl-C or SIGTERM drops the import, whose temporary file removes itself.
    let outcome = runtime.block_on(async {
        tokio::select! {
            outcome = import(&request) => outcome.map(Some),
            () = interrupted() => Ok(None),
        }
    })?;
    let Some(outcome) = outcome else {
        return Err(CliError::new(
            codes::IMPORT_INTERRUPTED,
            format!(
                "the import of {} was interrupted; nothing was written",
                args.source
            ),
        )
        .into());
    };
    let printer = Printer::new(global, args.json);
    // The line for people says what changed: under --quiet, only when something did.
    if printer.json() || !printer.quiet() || outcome.status != ImportStatus::Unchanged {
        printer.result(&outcome, || import_line(&args.source, &outcome))?;
    }
    Ok(())
}

/// `--NAME` and the IRI's `NAME=`: either, or both when they are the same.
fn agreed(name: &str, flag: Option<&str>, iri: Option<&str>) -> Result<Option<String>, CliError> {
    match (flag, iri) {
        (Some(flag), Some(iri)) if flag != iri => Err(CliError::new(
            codes::IMPORT_INVALID_OPTION,
            format!("--{name} {flag} and the IRI's `{name}={iri}` disagree: which {name} to read?"),
        )
        .hint(format!("give the {name} once: in the IRI or with --{name}"))),
        (flag, iri) => Ok(flag.or(iri).map(str::to_owned)),
    }
}

/// What an import did, in one line.
fn import_line(source: &str, outcome: &ImportOutcome) -> String {
    let what = match outcome.status {
        ImportStatus::Imported => "imported",
        ImportStatus::Updated => "updated",
        ImportStatus::Unchanged => "unchanged",
    };
    let files = match outcome.entry.files.len() {
        0 => String::new(),
        n => format!("{n} files, "),
    };
    format!(
        "{what} {source} → {} ({files}{} bytes, sha256 {})\n",
        outcome.entry.path, outcome.entry.size, outcome.entry.sha256
    )
}

async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut hangup)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
            _ = hangup.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
