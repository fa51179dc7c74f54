//! The command line, as clap types. No logic here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// stone pushes data packages to a dataset platform: one dataset per resource, each stored
/// by the engine its kind calls for (Iceberg table, named graph, object storage).
#[derive(Debug, Parser)]
#[command(name = "stone", bin_name = "stone", version, about, after_help = crate::exit_status::exit_codes_help(), propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    #[command(flatten)]
    pub global: GlobalArgs,
}

#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// The config file holding the environments [env: STONE_CONFIG]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Print only errors and the final result.
    #[arg(long, short, global = true)]
    pub quiet: bool,

    /// Diagnostics on stderr: every request to the push API (method, URL, status, time)
    /// and every upload (host and path; a presigned URL's query is never shown), where
    /// tokens come from (never the token). STONE_LOG refines it (e.g. `stone_push=trace`).
    #[arg(long, short, global = true)]
    pub verbose: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Work with a data package (a folder with a datasets.yaml).
    #[command(subcommand)]
    Package(PackageCommand),
    /// Bring data into a package (`ext/`) from a stone dataset, a URL or an object store.
    #[command(subcommand)]
    Data(DataCommand),
    /// Configure the environments stone pushes to (prod, dev, …).
    #[command(subcommand)]
    Env(EnvCommand),
    /// Read what the server committed in a namespace: pushes committed or failed, datasets
    /// created, appended, replaced, deleted, versions named, snapshots expired.
    #[command(subcommand)]
    Events(EventsCommand),
    /// Log in to an environment's identity provider (a browser, or --device).
    #[command(after_help = LOGIN_HELP)]
    Login(LoginArgs),
    /// Forget the stored login of an environment.
    Logout(LogoutArgs),
    /// Show who the stored login (or STONE_TOKEN) is: subject, roles, level, expiry.
    Whoami(WhoamiArgs),
    /// List the plugins stone finds (`stone-plugin-<name>` on PATH, the `stone.plugins` entry
    /// points of Python packages, `[plugins.<name>]` in the config) and which destinations
    /// they claim.
    #[command(subcommand)]
    Plugin(PluginCommand),
    /// For programs (the Python API `stone_client`): an environment's API URL, IRI host and
    /// access token as JSON on stdout. Refused on a terminal: its output is a secret.
    #[command(hide = true)]
    Credentials(CredentialsArgs),
    /// Print a shell completion script: `stone completions bash > /etc/bash_completion.d/stone`.
    Completions(CompletionsArgs),
    /// Print a man page, or write them all with --dir (generated from this CLI at build time).
    Man(ManArgs),
}

const LOGIN_HELP: &str = "\
How it works:
  The authorization code flow with PKCE (S256) against the environment's issuer (its
  config, else what its server names), redirected to a listener on 127.0.0.1. The URL to
  open is always printed on stderr; the system's browser opens it unless STONE_NO_BROWSER=1.
  --device uses the device flow instead (a code to enter on another machine).
  The tokens go to <data dir>/stone/tokens (STONE_TOKEN_DIR), one 0600 file per
  environment and issuer: dev and prod never share a login. Pushes refresh them silently.

In CI (CI=true) stone never opens a browser nor asks anything: give the job an access
token in STONE_TOKEN instead.";

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// The environment to log in to.
    #[arg(long, default_value = "prod", value_name = "ENV")]
    pub env: String,
    /// Use the device flow (RFC 8628): for a machine without a browser.
    #[arg(long)]
    pub device: bool,
}

#[derive(Debug, Args)]
pub struct LogoutArgs {
    /// The environment to log out of.
    #[arg(long, default_value = "prod", value_name = "ENV")]
    pub env: String,
}

#[derive(Debug, Args)]
pub struct WhoamiArgs {
    /// The environment.
    #[arg(long, default_value = "prod", value_name = "ENV")]
    pub env: String,
    /// Print JSON on stdout (never the token).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CredentialsArgs {
    /// The environment.
    #[arg(long, default_value = "prod", value_name = "ENV")]
    pub env: String,
}

#[derive(Debug, Subcommand)]
pub enum EventsCommand {
    /// Print a namespace's events, oldest first (each with its cursor); with --follow, wait
    /// for new ones and print them as they are committed, until interrupted.
    #[command(after_help = EVENTS_HELP)]
    Tail(EventsTailArgs),
}

const EVENTS_HELP: &str = "\
Each event has a cursor: pass the last one printed as --after to read only what followed.
Reading a namespace's events needs read access to it (`stone login`, or STONE_TOKEN in
CI); with --branch, the events of a public branch are readable by anyone.
With --json, each event is one JSON object on its own line (JSON Lines), as the server's
feed (GET /v1/namespaces/<ns>/events) sends it; docs/server.md lists the event types.";

#[derive(Debug, Args)]
pub struct EventsTailArgs {
    /// The namespace: `stone:<ns>`.
    #[arg(value_name = "stone:NS")]
    pub namespace: String,
    /// The environment whose server to ask.
    #[arg(long, default_value = "prod", value_name = "ENV")]
    pub env: String,
    /// Only the events after this cursor [default: from the first].
    #[arg(long, value_name = "CURSOR", default_value_t = 0)]
    pub after: i64,
    /// Only this branch's events.
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Keep waiting for new events and print them as they come, until interrupted.
    #[arg(long, short)]
    pub follow: bool,
    /// One JSON object per event, one per line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum PackageCommand {
    /// Publish a package: one dataset per resource, plus the package node of the namespace.
    #[command(after_help = crate::exit_status::exit_codes_help())]
    Push(PushArgs),
}

#[derive(Debug, Args)]
pub struct PushArgs {
    /// The package directory (holding datasets.yaml).
    #[arg(default_value = ".")]
    pub path: PathBuf,

    /// The environment to push to, as configured with `stone env`. For a destination outside
    /// the platform (blob store, HTTP server) it need not be configured, but `prod` (the
    /// default) is guarded there too: such a push needs --yes and an authentication step-up.
    #[arg(long, default_value = "prod", value_name = "ENV")]
    pub env: String,

    /// Push somewhere else than `publish.to` of datasets.yaml, without editing the shared
    /// file: `stone:<namespace>`, a blob store (`s3://bucket/prefix`, `gs://…`, `az://…`,
    /// `abfs://…`, `file:///path`), an https URL (HTTP PUT, WebDAV-style), or any URL a
    /// plugin claims. Handy for a copy to a scratch bucket or a test namespace.
    #[arg(long, value_name = "URL")]
    pub to: Option<String>,

    /// The branch to push to. Default: $CI_HEAD_REF, else $CI_REF_NAME, else the current git
    /// branch; never `main` by default. Characters outside [A-Za-z0-9_.-] become `-`.
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,

    /// Confirm a manual push to a protected ref.
    #[arg(long)]
    pub yes: bool,

    /// Allow what protected branches guard: incompatible schema changes, overwriting a named
    /// version, deleting removed datasets, retraction by --replace, and snapshot expiry
    /// (tables' old snapshots, and the contents object storage's heads no longer list, go
    /// as the server's retention says; named versions never do).
    /// On a protected branch it needs the server's force role.
    #[arg(long)]
    pub force: bool,

    /// Replace each dataset's content instead of appending to it.
    #[arg(long)]
    pub replace: bool,

    /// Show what would be pushed, and where, without uploading anything.
    #[arg(long)]
    pub dry_run: bool,

    /// Print the result (or the plan, with --dry-run) as JSON on stdout.
    #[arg(long)]
    pub json: bool,

    /// How many files to hash and upload at once [default: the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=512))]
    pub jobs: Option<u16>,

    /// When the push needs a login or a step-up, use the device flow (RFC 8628: a code to
    /// enter on another machine) instead of a browser here.
    #[arg(long)]
    pub device: bool,
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Start every plugin found, show its path, version and protocols, and, with
    /// --destination, whether it would claim that destination. A plugin that fails to start
    /// or answer is listed with the reason.
    List(PluginListArgs),
}

#[derive(Debug, Args)]
pub struct PluginListArgs {
    /// Ask each plugin whether it claims this destination, and show which handler would
    /// push to it.
    #[arg(long, value_name = "URL")]
    pub destination: Option<String>,
    #[command(flatten)]
    pub json: JsonArg,
}

#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Import a dataset or a file into the package's `ext/<slug>/` zone, with its provenance
    /// in `ext/stone-lock.json`. Pushes refuse `ext/`; this is the only command that writes
    /// it. Running it again with nothing changed downloads nothing.
    #[command(after_help = IMPORT_HELP, disable_version_flag = true)]
    Import(ImportArgs),
}

const IMPORT_HELP: &str = "\
Sources:
  stone:<ns>/<name>            a dataset of the environment --env (default prod)
  https://<host>/<ns>/<name>   a dataset IRI on a configured environment's host; its
                               ?branch= and ?version= select as --branch/--version do
  https://…                    any other URL: one GET (plain http only to loopback)
  file:///path                 a local file
  s3://bucket/key              S3 (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION,
                               AWS_ENDPOINT_URL, … from the environment)
  gs://bucket/key              Google Cloud Storage (GOOGLE_SERVICE_ACCOUNT, …)
  az://container/path          Azure Blob Storage (AZURE_STORAGE_ACCOUNT_NAME, …)

Formats of stone datasets: TABULAR parquet (default), csv, tsv (written with the source
package's publish.dialect); GRAPH ttl (default), nt, jsonld; other kinds: their bytes.
A non-public dataset needs a login (`stone login --env ENV`; in CI $STONE_TOKEN): its token
goes to the environment's API only, never to any other host.

Exit codes:
  0    imported, or unchanged
  1    the import failed (nothing was written), or the server failed on its side on
       every try (import.server_failed: running it again will not help)
  2    usage error (bad source, option or environment)
  3    the source needs a token, or refused it
  5    the source is unavailable: run the same command again
  101  a bug in stone: please report it";

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// What to import: stone:<ns>/<name>, an https URL, file://, s3://, gs:// or az://.
    pub source: String,

    /// The package directory (holding datasets.yaml).
    #[arg(default_value = ".")]
    pub path: PathBuf,

    /// The name of the import: its folder is `ext/<slug of NAME>/`. Default: the source's
    /// dataset or file name.
    #[arg(long = "as", value_name = "NAME")]
    pub as_name: Option<String>,

    /// The format of a stone dataset: parquet, csv, tsv (TABULAR); ttl, nt, jsonld (GRAPH).
    #[arg(long, value_name = "FORMAT", value_parser = ["parquet", "csv", "tsv", "ttl", "nt", "jsonld", "bytes"])]
    pub format: Option<String>,

    /// The branch of a stone dataset to read [default: main].
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,

    /// A named version of a stone dataset (the package version it was pushed with).
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,

    /// The environment of a stone: source [default: prod; for an https IRI, the
    /// environment whose host it is on].
    #[arg(long, value_name = "ENV")]
    pub env: Option<String>,

    /// Print the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum EnvCommand {
    /// List the configured environments.
    List(JsonArg),
    /// Show one environment (default: prod).
    Show(EnvShowArgs),
    /// Add (or with --replace, change) an environment.
    Add(EnvAddArgs),
    /// Remove an environment.
    Remove(EnvRemoveArgs),
}

#[derive(Debug, Args)]
pub struct JsonArg {
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct EnvShowArgs {
    #[arg(default_value = "prod")]
    pub name: String,
    #[command(flatten)]
    pub json: JsonArg,
}

#[derive(Debug, Args)]
pub struct EnvAddArgs {
    /// The environment's name (e.g. prod, dev).
    pub name: String,
    /// The public host of dataset IRIs (`https://HOST/<ns>/<name>`); https URLs on this host
    /// are pushed through the platform's push API.
    #[arg(long, value_name = "HOST")]
    pub host: String,
    /// The push API base URL (https; plain http only to a loopback address).
    #[arg(long, value_name = "URL")]
    pub api: String,
    /// The OpenID Connect issuer for `stone login`.
    #[arg(long, value_name = "URL")]
    pub issuer: Option<String>,
    /// The OAuth client id of the CLI at the issuer.
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// `acr_values` asked for at authentication step-up.
    #[arg(long, value_name = "VALUES")]
    pub acr_values: Option<String>,
    /// `max_age` (seconds) asked for at authentication step-up.
    #[arg(long, value_name = "SECONDS")]
    pub max_age: Option<u64>,
    /// Replace the environment if it exists.
    #[arg(long)]
    pub replace: bool,
}

#[derive(Debug, Args)]
pub struct EnvRemoveArgs {
    pub name: String,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The page to print, e.g. `stone-package-push` [default: stone].
    #[arg(conflicts_with_all = ["dir", "list"])]
    pub page: Option<String>,

    /// Write every man page and completion script into DIR in the `share/` layout
    /// (`man/man1/`, `bash-completion/completions/`, `zsh/site-functions/`,
    /// `fish/vendor_completions.d/`), e.g. `--dir ~/.local/share`.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// List the generated files.
    #[arg(long)]
    pub list: bool,
}
