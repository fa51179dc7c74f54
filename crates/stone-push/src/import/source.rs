//! What `stone data import SOURCE` can name, and how each is reached.

use stone_package::{Label, StoneUrl};
use url::Url;

use super::error::{ImportError, ImportErrorKind as Kind};
use crate::environment::{DEFAULT_ENV, Environment, Environments};
use stone_http::transport::is_loopback;

/// A parsed SOURCE.
#[derive(Debug, Clone)]
pub enum Source {
    /// A dataset of a configured environment (`stone:<ns>/<name>`, or an https IRI on the
    /// environment's host): read through the server's content endpoint.
    Service {
        environment: Environment,
        namespace: Label,
        name: Label,
        /// The IRI's `?branch=` and `?version=`, as a browser reads them (issue 55, item
        /// 2: they were dropped and `main` read). `--branch`/`--version` must agree.
        selection: Selection,
    },
    /// Any other https URL (plain http only to a loopback address): one GET.
    Http(Url),
    /// `file://`, `s3://`, `gs://`, `az://` (and `abfs://`, `adl://`, `azure://`): through
    /// the object store of the scheme.
    Object(Url),
}

/// What an IRI's query selects of a dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub branch: Option<String>,
    pub version: Option<String>,
}

impl Selection {
    /// The IRI's `branch=` and `version=`; any other parameter is refused (an import that
    /// quietly read something else than the IRI names would be worse).
    fn of(url: &Url) -> Result<Selection, ImportError> {
        let mut selection = Selection::default();
        for (key, value) in url.query_pairs() {
            let slot = match key.as_ref() {
                "branch" => &mut selection.branch,
                "version" => &mut selection.version,
                other => {
                    return Err(usage(format!(
                        "`{url}`: the IRI's `{other}=` is not something an import selects by; it reads `branch=` and `version=`"
                    ))
                    .hint("remove it (a format is `--format`)"));
                }
            };
            if value.is_empty() || slot.is_some() {
                return Err(usage(format!(
                    "`{url}`: `{key}=` must be given once, with a value"
                )));
            }
            *slot = Some(value.into_owned());
        }
        Ok(selection)
    }
}

impl Source {
    /// The name the slug comes from when `--as` is not given.
    pub fn default_name(&self) -> String {
        match self {
            Source::Service { name, .. } => name.to_string(),
            Source::Http(url) | Source::Object(url) => last_segment(url)
                .map(|segment| match segment.rsplit_once('.') {
                    Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
                    _ => segment,
                })
                .unwrap_or_else(|| url.host_str().unwrap_or("data").to_owned()),
        }
    }
}

/// The decoded last non-empty path segment of a URL.
pub fn last_segment(url: &Url) -> Option<String> {
    let segment = url.path_segments()?.rev().find(|s| !s.is_empty())?;
    Some(
        percent_encoding::percent_decode_str(segment)
            .decode_utf8_lossy()
            .chars()
            .filter(|c| !c.is_control() && !matches!(c, '/' | '\\'))
            .collect(),
    )
    .filter(|s: &String| !s.is_empty() && s != "." && s != "..")
}

fn usage(message: String) -> ImportError {
    ImportError::new(Kind::InvalidSource, message)
}

/// Parses SOURCE. `env` is `--env` when given: a `stone:` source reads from it (default
/// `prod`); an https IRI on a configured host reads from the environment of that host.
pub fn parse_source(
    text: &str,
    config: &dyn Environments,
    env: Option<&str>,
) -> anyhow::Result<Source> {
    if text.starts_with(stone_package::name::SCHEME) {
        let url: StoneUrl = text.parse().map_err(usage)?;
        let Some(name) = url.name else {
            return Err(usage(format!(
                "`{text}` names a namespace; import one dataset: `stone:{}/<name>`",
                url.namespace
            ))
            .into());
        };
        let environment = config.select(env.unwrap_or(DEFAULT_ENV))?;
        return Ok(Source::Service {
            environment,
            namespace: url.namespace,
            name,
            selection: Selection::default(),
        });
    }
    let url = Url::parse(text).map_err(|e| {
        usage(format!(
            "`{text}` is not a source: expected stone:<ns>/<name>, an https URL, or a file://, s3://, gs:// or az:// URL ({e})"
        ))
        .hint("a local file is `file:///absolute/path`")
    })?;
    match url.scheme() {
        "https" | "http" => {
            if let Some(source) = service_iri(&url, config, env)? {
                return Ok(source);
            }
            if url.scheme() == "http" && !is_loopback(&url) {
                return Err(usage(format!(
                    "`{text}`: plain http is allowed only to a loopback address; use https"
                ))
                .into());
            }
            if !url.username().is_empty() || url.password().is_some() {
                return Err(usage(
                    "credentials in a source URL are refused (they would end up in the lock file)"
                        .into(),
                )
                .into());
            }
            Ok(Source::Http(url))
        }
        "file" | "s3" | "s3a" | "gs" | "az" | "abfs" | "abfss" | "adl" | "azure" => {
            Ok(Source::Object(url))
        }
        other => Err(usage(format!(
            "`{text}`: the scheme `{other}` is not supported; use stone:, https://, file://, s3://, gs:// or az://"
        ))
        .into()),
    }
}

/// An https IRI `https://{host}/{ns}/{name}` on the host of a configured environment.
fn service_iri(
    url: &Url,
    config: &dyn Environments,
    env: Option<&str>,
) -> anyhow::Result<Option<Source>> {
    let Some(host) = url.host_str() else {
        return Ok(None);
    };
    let authority = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    let mut matching: Vec<&str> = config
        .list()
        .into_iter()
        .filter(|(_, options)| options.host.eq_ignore_ascii_case(&authority))
        .map(|(name, _)| name)
        .collect();
    if let Some(env) = env {
        matching.retain(|name| *name == env);
    }
    let Some(env_name) = matching.first() else {
        return Ok(None);
    };
    let segments: Vec<&str> = url
        .path_segments()
        .map(|s| s.filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    let [namespace, name] = segments.as_slice() else {
        return Err(usage(format!(
            "`{url}` is on the host of the environment `{env_name}` but is not a dataset IRI `https://{authority}/<ns>/<name>`"
        ))
        .into());
    };
    let label =
        |text: &str| Label::parse(text).map_err(|why| usage(format!("`{url}`: `{text}` {why}")));
    Ok(Some(Source::Service {
        environment: config.select(env_name)?,
        namespace: label(namespace)?,
        name: label(name)?,
        selection: Selection::of(url)?,
    }))
}
