//! The user's config file: named environments (`stone env`). dev and prod are separate
//! deployments: each environment has its own host, API, issuer, tokens and resume state.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use stone_http::transport::is_loopback;
use stone_package::Label;
use stone_push::environment::{Environment, EnvironmentOptions, Environments};

use crate::env_vars;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    environments: BTreeMap<String, EnvironmentOptions>,
    #[serde(default)]
    plugins: BTreeMap<String, PluginOptions>,
}

/// A plugin listed in the config file: `[plugins.<name>] command = ["program", "arg", …]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginOptions {
    pub command: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read the config file {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot write the config file {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("the config file {} is invalid: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    #[error("the environment `{name}` is not configured{}", known_list(known))]
    UnknownEnvironment {
        name: String,
        known: Vec<String>,
        path: PathBuf,
        /// `stone env remove`: nothing to add then.
        removing: bool,
    },
    #[error("the environment `{name}` already exists")]
    Exists { name: String },
    #[error("invalid environment setting: {0}")]
    InvalidSetting(String),
    #[error(
        "no user config directory could be found; set ${} to a file path",
        env_vars::STONE_CONFIG
    )]
    NoConfigDir,
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        " (none are)".into()
    } else {
        format!(" (configured: {})", known.join(", "))
    }
}

impl ConfigError {
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::UnknownEnvironment { .. } => "env.unknown",
            ConfigError::Exists { .. } => "env.exists",
            ConfigError::InvalidSetting(_) => "env.invalid",
            _ => "config.invalid",
        }
    }

    pub fn hint(&self) -> Option<String> {
        match self {
            ConfigError::UnknownEnvironment {
                name,
                known,
                path,
                removing,
            } => Some(
                match stone_package::did_you_mean(name, known.iter().map(String::as_str)) {
                    Some(close) if *removing => {
                        format!("did you mean `{close}`? (`stone env remove {close}`)")
                    }
                    Some(close) => format!("did you mean `{close}`? (`--env {close}`)"),
                    None if *removing => "`stone env list` shows the configured ones".into(),
                    None => format!(
                        "add it with `stone env add {name} --host HOST --api URL` (written to {})",
                        path.display()
                    ),
                },
            ),
            ConfigError::Exists { name } => Some(format!("pass --replace to change `{name}`")),
            _ => None,
        }
    }
}

/// The loaded config file.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    environments: BTreeMap<String, EnvironmentOptions>,
    plugins: BTreeMap<String, PluginOptions>,
}

/// The config file's path: `--config`, else `$STONE_CONFIG`, else the user config dir.
pub fn config_path(flag: Option<&Path>) -> Result<PathBuf, ConfigError> {
    if let Some(path) = flag {
        return Ok(path.to_owned());
    }
    // Read here, not in `settings`: the config file is this module's (and `settings`
    // reports through `diagnostics`, which knows this module's errors).
    if let Some(path) = std::env::var_os(env_vars::STONE_CONFIG).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    dirs::config_dir()
        .map(|d| d.join("stone").join("config.toml"))
        .ok_or(ConfigError::NoConfigDir)
}

impl Config {
    /// Loads the config at `path`; a missing file is an empty config.
    pub fn load(path: PathBuf) -> Result<Config, ConfigError> {
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        let file: ConfigFile =
            toml_edit::de::from_str(&text).map_err(|e| ConfigError::Invalid {
                path: path.clone(),
                message: e.to_string().trim().to_owned(),
            })?;
        for (name, env) in &file.environments {
            validate(name, env).map_err(|e| ConfigError::Invalid {
                path: path.clone(),
                message: format!("environment `{name}`: {e}"),
            })?;
        }
        for (name, plugin) in &file.plugins {
            if plugin.command.first().is_none_or(|p| p.is_empty()) {
                return Err(ConfigError::Invalid {
                    path: path.clone(),
                    message: format!(
                        "plugin `{name}`: `command` must name a program, as in `command = [\"python3\", \"/path/plugin.py\"]`"
                    ),
                });
            }
        }
        Ok(Config {
            path,
            environments: file.environments,
            plugins: file.plugins,
        })
    }

    pub fn environments(&self) -> &BTreeMap<String, EnvironmentOptions> {
        &self.environments
    }

    /// The plugins listed in the config: name → command.
    pub fn plugins(&self) -> BTreeMap<String, Vec<String>> {
        self.plugins
            .iter()
            .map(|(name, p)| (name.clone(), p.command.clone()))
            .collect()
    }

    /// The environment `name`, or an error with the `stone env add` command to create it.
    pub fn environment(&self, name: &str) -> Result<Environment, ConfigError> {
        self.environments
            .get(name)
            .map(|options| Environment {
                name: name.to_owned(),
                options: options.clone(),
            })
            .ok_or_else(|| ConfigError::UnknownEnvironment {
                name: name.to_owned(),
                known: self.environments.keys().cloned().collect(),
                path: self.path.clone(),
                removing: false,
            })
    }

    /// Adds (or replaces) an environment and writes the file, keeping its comments.
    pub fn add(
        &mut self,
        name: &str,
        options: EnvironmentOptions,
        replace: bool,
    ) -> Result<(), ConfigError> {
        validate(name, &options).map_err(ConfigError::InvalidSetting)?;
        if self.environments.contains_key(name) && !replace {
            return Err(ConfigError::Exists {
                name: name.to_owned(),
            });
        }
        let mut doc = self.document()?;
        let environments = doc
            .entry("environments")
            .or_insert_with(|| {
                let mut t = toml_edit::Table::new();
                t.set_implicit(true);
                toml_edit::Item::Table(t)
            })
            .as_table_mut()
            .ok_or_else(|| ConfigError::Invalid {
                path: self.path.clone(),
                message: "`environments` is not a table".into(),
            })?;
        let table = toml_edit::ser::to_document(&options)
            .map_err(|e| ConfigError::InvalidSetting(e.to_string()))?
            .as_table()
            .clone();
        environments.insert(name, toml_edit::Item::Table(table));
        self.write(&doc)?;
        self.environments.insert(name.to_owned(), options);
        Ok(())
    }

    /// Removes an environment and writes the file.
    pub fn remove(&mut self, name: &str) -> Result<EnvironmentOptions, ConfigError> {
        let removed = match self.environment(name) {
            Ok(environment) => environment.options,
            Err(ConfigError::UnknownEnvironment {
                name, known, path, ..
            }) => {
                return Err(ConfigError::UnknownEnvironment {
                    name,
                    known,
                    path,
                    removing: true,
                });
            }
            Err(other) => return Err(other),
        };
        let mut doc = self.document()?;
        if let Some(envs) = doc.get_mut("environments").and_then(|e| e.as_table_mut()) {
            envs.remove(name);
        }
        self.write(&doc)?;
        self.environments.remove(name);
        Ok(removed)
    }

    fn document(&self) -> Result<toml_edit::DocumentMut, ConfigError> {
        let text = match fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        text.parse()
            .map_err(|e: toml_edit::TomlError| ConfigError::Invalid {
                path: self.path.clone(),
                message: e.to_string(),
            })
    }

    /// Writes through a temporary file and a rename: never half a config.
    fn write(&self, doc: &toml_edit::DocumentMut) -> Result<(), ConfigError> {
        let werr = |source| ConfigError::Write {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            stone_package::digest::create_private_dir_all(dir).map_err(werr)?;
        }
        let tmp = self
            .path
            .with_extension(format!("toml.{}.tmp", std::process::id()));
        fs::write(&tmp, doc.to_string()).map_err(werr)?;
        fs::rename(&tmp, &self.path).map_err(werr)
    }
}

impl Environments for Config {
    fn list(&self) -> Vec<(&str, &EnvironmentOptions)> {
        self.environments
            .iter()
            .map(|(name, options)| (name.as_str(), options))
            .collect()
    }

    fn select(&self, name: &str) -> anyhow::Result<Environment> {
        Ok(self.environment(name)?)
    }
}

/// Checks an environment's settings; the error says what is wrong and what is expected.
pub fn validate(name: &str, env: &EnvironmentOptions) -> Result<(), String> {
    Label::parse(name).map_err(|why| format!("the name `{name}` {why}"))?;
    validate_host(&env.host)?;
    validate_service_url("api", &env.api)?;
    if let Some(issuer) = &env.issuer {
        validate_service_url("issuer", issuer)?;
    }
    if env.client_id.as_deref() == Some("") {
        return Err("`client_id` is empty".into());
    }
    Ok(())
}

/// A host name with an optional port, as in `data.example.org` or `localhost:8443`.
fn validate_host(host: &str) -> Result<(), String> {
    let bad = || {
        format!(
            "`host` must be a host name with an optional port (like `data.example.org`), not `{host}`"
        )
    };
    if host.is_empty() || host.contains(['/', '@', '?', '#']) || host.contains("://") {
        return Err(bad());
    }
    let url = url::Url::parse(&format!("https://{host}/")).map_err(|_| bad())?;
    let rebuilt = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
        None => url.host_str().unwrap_or_default().to_owned(),
    };
    if !rebuilt.eq_ignore_ascii_case(host) {
        return Err(bad());
    }
    Ok(())
}

/// An https URL, or plain http to a loopback address only.
fn validate_service_url(key: &str, value: &str) -> Result<(), String> {
    let url =
        url::Url::parse(value).map_err(|e| format!("`{key}` is not a URL (`{value}`): {e}"))?;
    match url.scheme() {
        "https" => Ok(()),
        "http" if is_loopback(&url) => Ok(()),
        "http" => Err(format!(
            "`{key}` must use https (plain http is allowed only to a loopback address): `{value}`"
        )),
        other => Err(format!(
            "`{key}` must be an https URL, not {other}: `{value}`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(host: &str, api: &str) -> EnvironmentOptions {
        EnvironmentOptions {
            host: host.into(),
            api: api.into(),
            issuer: None,
            client_id: None,
            step_up: None,
        }
    }

    #[test]
    fn hosts_and_urls() {
        assert!(
            validate(
                "prod",
                &env("data.example.org", "https://api.example.org/v1")
            )
            .is_ok()
        );
        assert!(validate("dev", &env("localhost:8443", "http://127.0.0.1:8080")).is_ok());
        assert!(validate("dev", &env("localhost", "http://[::1]:8080")).is_ok());
        for (host, api, fragment) in [
            ("https://x.org", "https://a", "host name"),
            ("x.org/path", "https://a", "host name"),
            ("x.org", "http://api.example.org", "only to a loopback"),
            ("x.org", "ftp://a", "must be an https URL"),
            ("x.org", "not a url", "is not a URL"),
        ] {
            let err = validate("prod", &env(host, api)).unwrap_err();
            assert!(err.contains(fragment), "{host} {api}: {err}");
        }
        assert!(
            validate("Prod", &env("x.org", "https://a"))
                .unwrap_err()
                .contains("the name `Prod`")
        );
    }

    #[test]
    fn add_keeps_comments_and_remove_removes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        fs::write(&path, "# my settings\n").unwrap();
        let mut config = Config::load(path.clone()).unwrap();
        config
            .add(
                "prod",
                env("data.example.org", "https://api.example.org"),
                false,
            )
            .unwrap();
        config
            .add("dev", env("localhost:9000", "http://127.0.0.1:9000"), false)
            .unwrap();
        assert!(matches!(
            config.add("dev", env("x.org", "https://x.org"), false),
            Err(ConfigError::Exists { .. })
        ));
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("# my settings\n"),
            "comments are kept: {text}"
        );
        assert!(text.contains("[environments.prod]"), "{text}");
        let reloaded = Config::load(path.clone()).unwrap();
        assert_eq!(
            reloaded.environment("dev").unwrap().options.host,
            "localhost:9000"
        );
        config.remove("dev").unwrap();
        let reloaded = Config::load(path).unwrap();
        assert_eq!(reloaded.environments().keys().collect::<Vec<_>>(), ["prod"]);
    }
}
