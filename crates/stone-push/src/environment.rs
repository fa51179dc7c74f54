//! The environment a push goes to: a deployment of the platform (prod, dev, …) with its
//! host, push API and identity provider, as the user's config file names it.

use serde::{Deserialize, Serialize};

/// The environment `--env` selects when it is not given.
pub const DEFAULT_ENV: &str = "prod";

/// One environment, as written in the config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentOptions {
    /// Host (and port) of dataset IRIs: `https://{host}/{ns}/{name}`.
    pub host: String,
    /// The push API base URL.
    pub api: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_up: Option<StepUpOptions>,
}

/// What an authentication step-up asks the identity provider for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepUpOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acr_values: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age: Option<u64>,
}

/// A selected environment.
#[derive(Debug, Clone, Serialize)]
pub struct Environment {
    pub name: String,
    #[serde(flatten)]
    pub options: EnvironmentOptions,
}

/// The environment a push runs in: the one `--env` names in the config file, or, for a
/// push outside the platform, only its name (there it decides no more than the prod guard).
#[derive(Debug, Clone)]
pub struct ResolvedEnvironment {
    pub environment: Environment,
    /// Whether `--env` named an environment the config file does not have.
    pub unconfigured: bool,
}

impl ResolvedEnvironment {
    /// An environment of the config file.
    pub fn configured(environment: Environment) -> Self {
        ResolvedEnvironment {
            environment,
            unconfigured: false,
        }
    }

    /// An environment named by `--env` but not in the config: enough for a push outside
    /// the platform, where it only decides which guard applies.
    pub fn unconfigured(name: &str) -> Self {
        ResolvedEnvironment {
            environment: Environment {
                name: name.to_owned(),
                options: EnvironmentOptions {
                    host: String::new(),
                    api: String::new(),
                    issuer: None,
                    client_id: None,
                    step_up: None,
                },
            },
            unconfigured: true,
        }
    }
}

/// The environments a command may name (the user's config file), as the library sees them.
pub trait Environments {
    /// The name and options of every environment.
    fn list(&self) -> Vec<(&str, &EnvironmentOptions)>;
    /// The environment `name`, or an error that says how to add it.
    fn select(&self, name: &str) -> anyhow::Result<Environment>;
}
