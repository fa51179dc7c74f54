//! The `stone` command line: push data packages to a dataset platform.

pub mod cli;
pub mod codes;
pub mod commands;
pub mod config;
pub mod diagnostics;
pub mod env_vars;
pub mod exit_status;
pub mod handler;
pub mod identity;
pub mod printer;
pub mod rdf_build;
pub mod settings;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, DataCommand, EventsCommand, PackageCommand};
use crate::diagnostics::ExitStatus;
use crate::printer::Printer;

/// Runs the CLI and returns the exit code.
pub fn main() -> ExitCode {
    if let Some(code) = rdf_build::run_rdf_build() {
        return code;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(mut e) => {
            suggest_nested_subcommand(&mut e);
            let _ = e.print();
            return if e.use_stderr() {
                ExitStatus::Usage.into()
            } else {
                ExitStatus::Success.into()
            };
        }
    };
    if cli.global.verbose {
        init_diagnostics();
    }
    match run(&cli) {
        Ok(()) => ExitStatus::Success.into(),
        Err(error) => {
            let report = diagnostics::report(&error);
            Printer::of(&cli).error(&report);
            report.status.into()
        }
    }
}

/// An unknown subcommand that is the subcommand of a group (`stone push`, `stone import`,
/// `stone add`) is answered with the command that has it (`stone package push`), where
/// clap finds no similar name of its own.
fn suggest_nested_subcommand(error: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidSubcommand
        || error.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return;
    }
    let Some(ContextValue::String(name)) = error.get(ContextKind::InvalidSubcommand) else {
        return;
    };
    let command = Cli::command();
    let found: Vec<String> = command
        .get_subcommands()
        .flat_map(|group| {
            group
                .get_subcommands()
                .filter(|sub| sub.get_name() == name || sub.get_all_aliases().any(|a| a == name))
                .map(move |sub| format!("stone {} {}", group.get_name(), sub.get_name()))
        })
        .collect();
    if !found.is_empty() {
        error.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(found),
        );
    }
}

/// `--verbose`: tracing events of stone's crates on stderr, filtered by `STONE_LOG`
/// (default: debug for stone, stone_push and stone_auth).
fn init_diagnostics() {
    use tracing_subscriber::EnvFilter;
    let filter = settings::log_filter()
        .and_then(|f| EnvFilter::try_new(f).ok())
        .unwrap_or_else(|| EnvFilter::new("stone=debug,stone_push=debug,stone_auth=debug"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
}

fn run(cli: &Cli) -> anyhow::Result<()> {
    match &cli.command {
        Command::Package(PackageCommand::Push(args)) => commands::push::run(args, &cli.global),
        Command::Data(DataCommand::Import(args)) => commands::import::run(args, &cli.global),
        Command::Env(command) => commands::env::run(command, &cli.global),
        Command::Events(EventsCommand::Tail(args)) => commands::events::tail(args, &cli.global),
        Command::Login(args) => commands::login::login(args, &cli.global),
        Command::Logout(args) => commands::login::logout(args, &cli.global),
        Command::Whoami(args) => commands::login::whoami(args, &cli.global),
        Command::Credentials(args) => commands::credentials::run(args, &cli.global),
        Command::Plugin(command) => commands::plugin::run(command, &cli.global),
        Command::Man(args) => commands::man::run(args),
        Command::Completions(args) => {
            clap_complete::generate(
                args.shell,
                &mut Cli::command(),
                "stone",
                &mut std::io::stdout(),
            );
            Ok(())
        }
    }
}
