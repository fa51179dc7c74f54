//! What a command prints, decided in one place: `--quiet` silences notes and progress on
//! stderr (never errors or the result), `--json` puts one JSON document on stdout instead
//! of the text for people (an error too, which still goes to stderr as text), and
//! `--verbose` turns on diagnostics (tracing events on stderr).

use std::fmt::Display;
use std::io::{IsTerminal, Write as _};

use serde::Serialize;

use crate::cli::{
    Cli, Command, DataCommand, EventsCommand, GlobalArgs, PackageCommand, PluginCommand,
};
use crate::diagnostics::{self, Report};

/// How a command prints.
#[derive(Debug, Clone, Copy)]
pub struct Printer {
    quiet: bool,
    json: bool,
}

impl Printer {
    /// A printer for `global` flags and a command's own `--json`.
    pub fn new(global: &GlobalArgs, json: bool) -> Self {
        Printer {
            quiet: global.quiet,
            json,
        }
    }

    /// The printer of a parsed command line, for what `main` prints (errors): `--json`
    /// counts for the commands whose errors scripts read as JSON.
    pub fn of(cli: &Cli) -> Self {
        let json = match &cli.command {
            Command::Package(PackageCommand::Push(args)) => args.json,
            Command::Whoami(args) => args.json,
            Command::Credentials(_) => true,
            Command::Plugin(PluginCommand::List(args)) => args.json.json,
            Command::Data(DataCommand::Import(args)) => args.json,
            Command::Events(EventsCommand::Tail(args)) => args.json,
            _ => false,
        };
        Printer::new(&cli.global, json)
    }

    /// `--quiet`.
    pub fn quiet(&self) -> bool {
        self.quiet
    }

    /// `--json`.
    pub fn json(&self) -> bool {
        self.json
    }

    /// A line for people on stderr, unless `--quiet`.
    pub fn note(&self, line: impl Display) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }

    /// A line from someone else (a server, a plugin) on stderr, unless `--quiet`, with
    /// its control characters shown escaped ([`diagnostics::terminal_safe`]).
    pub fn relay(&self, line: &str) {
        if !self.quiet {
            eprintln!("{}", diagnostics::terminal_safe(line));
        }
    }

    /// Whether progress bars are drawn: not `--quiet` nor `--json`, and [`on_terminal`].
    pub fn progress_bars(&self) -> bool {
        !(self.quiet || self.json) && on_terminal()
    }

    /// The result on stdout: the value as pretty JSON under `--json`, else `human`'s text.
    pub fn result<T: Serialize + ?Sized>(
        &self,
        value: &T,
        human: impl FnOnce() -> String,
    ) -> anyhow::Result<()> {
        if self.json {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            serde_json::to_writer_pretty(&mut out, value)?;
            writeln!(out)?;
            out.flush()?;
        } else {
            print!("{}", human());
        }
        Ok(())
    }

    /// [`Printer::result`] for a long text: `human` writes it to stdout as it makes it,
    /// instead of returning it whole.
    pub fn result_written<T: Serialize + ?Sized>(
        &self,
        value: &T,
        human: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> anyhow::Result<()> {
        if self.json {
            return self.result(value, String::new);
        }
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        human(&mut out)?;
        out.flush()?;
        Ok(())
    }

    /// An error: as JSON on stdout under `--json`, and as text on stderr always.
    pub fn error(&self, report: &Report) {
        if self.json {
            println!("{}", diagnostics::render_json(report));
        }
        let _ = std::io::stderr().write_all(diagnostics::render(report).as_bytes());
    }
}

/// Whether stderr is a terminal that takes progress bars (`STONE_NO_PROGRESS` unset).
pub fn on_terminal() -> bool {
    std::io::stderr().is_terminal() && !crate::settings::no_progress()
}
