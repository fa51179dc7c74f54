//! The guards the server owns: who may push what to which ref.
//!
//! Identity: a trusted identity from the configuration (`local` mode: no identity
//! provider, loopback only, every request acts as `[local] user` with `[local] roles`), or
//! the identity a verified bearer token carries (`oidc` mode, [`crate::auth`]).
//!
//! Rules, checked at `POST /v1/pushes` before any byte is uploaded (in this order):
//!
//! 1. On a protected ref (a branch matching a pattern of `guards.protected_refs`), a manual
//!    push needs `options.yes` (`push.confirmation_required`).
//! 2. On a protected ref, the identity needs the write role, `protected-write` by default
//!    (`push.protected_ref`).
//! 3. On a protected ref, `options.force` needs the force role, `protected-force` by
//!    default (`push.force_forbidden`). Then, in `oidc` mode, a fresh step-up (RFC 9470):
//!    `acr` in `auth.step_up.acr_values` and `auth_time` within `auth.step_up.max_age`,
//!    else 401 `auth.step_up_required` with the `insufficient_user_authentication`
//!    challenge.
//! 4. On a protected ref without `force`, the push may not (409, one `violations` entry
//!    each, the problem's code is the first one's):
//!    - change a declared TABULAR schema incompatibly (`schema.incompatible`), checked
//!      against the branch's schema (or main's, for a new branch);
//!    - move the package version to other content (`version.exists`): the branch's
//!      version of the dataset, an Iceberg tag `<branch>@<version>` or a legacy bare tag
//!      in the branch's history (TABULAR), a snapshot graph (GRAPH) or a version head
//!      (object storage) on the branch. Versions of other branches are not looked at
//!      (a push never moves them). Pushing the content the version already names is fine;
//!    - with `replace`, delete datasets that left the package
//!      (`push.deletion_requires_force`) or retract content that is on the branch
//!      (`push.retraction_requires_force`).
//!
//! `force` on a protected ref also allows snapshot expiry (`[retention]`, see
//! `engines/iceberg/expire.rs`), which is no violation: a push without it simply expires
//! nothing there (the commit runs the expiry only for forced pushes and unprotected refs).
//!
//! On other refs those operations need no `force`: the commit passes `force` to the
//! engines. What the declared schema cannot tell is checked again at commit, where an
//! incompatible file fails its dataset with `schema.incompatible`.

use std::collections::BTreeSet;

use axum::http::StatusCode;
use stone_api::{CreatePush, DatasetManifest, Engine, PushFlags, Violation, codes};
use stone_package::AssetKind;
pub use stone_package::branch::glob_match;

use crate::auth::Principal;
use crate::config::{GuardOptions, StepUpOptions};
use crate::engines::Engines;
use crate::engines::blob::BlobEntry;
use crate::engines::iceberg::TableRef;
use crate::error::ApiError;
use crate::iri::{graph_iri, graph_version_iri};
use crate::state::StateDb;

/// The configured guard rules.
#[derive(Debug, Clone)]
pub struct Guards {
    patterns: Vec<String>,
    write_role: String,
    force_role: String,
    step_up: Option<StepUpOptions>,
}

impl Guards {
    pub fn new(options: &GuardOptions) -> Self {
        Self {
            patterns: options.protected_refs.clone(),
            write_role: options.write_role.clone(),
            force_role: options.force_role.clone(),
            step_up: None,
        }
    }

    /// The roles the guards ask for, as `GET /v1/info` tells clients.
    pub fn roles(&self) -> stone_api::ProtectedRoles {
        stone_api::ProtectedRoles {
            write: self.write_role.clone(),
            force: self.force_role.clone(),
        }
    }

    /// Pushes to protected refs also need a fresh step-up (`oidc` mode).
    pub fn with_step_up(mut self, step_up: StepUpOptions) -> Self {
        self.step_up = Some(step_up);
        self
    }

    /// What the step-up of [`Self::with_step_up`] asks, if any.
    pub fn step_up(&self) -> Option<&StepUpOptions> {
        self.step_up.as_ref()
    }

    /// The patterns as configured.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Whether a (normalized) branch is protected. The patterns are used as written: the
    /// configuration refuses one that a branch as it arrives could never match
    /// (`stone_package::branch::check_ref_pattern`), it never rewrites it.
    pub fn is_protected(&self, branch: &str) -> bool {
        self.patterns.iter().any(|p| glob_match(p, branch))
    }

    /// Rules 1–3: decided from the request and the identity alone.
    pub fn check_identity(
        &self,
        branch: &str,
        options: &PushFlags,
        principal: &Principal,
    ) -> Result<(), ApiError> {
        if !self.is_protected(branch) {
            return Ok(());
        }
        if options.manual && !options.yes {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                codes::PUSH_CONFIRMATION_REQUIRED,
                "Confirmation required",
                format!("{branch} is a protected ref: a manual push to it needs --yes"),
            )
            .with("branch", branch));
        }
        if !principal.has_role(&self.write_role) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                codes::PUSH_PROTECTED_REF,
                "Protected ref",
                format!(
                    "{branch} is a protected ref: pushing to it needs the {} role, which {} does not have",
                    self.write_role, principal.user
                ),
            )
            .with("branch", branch)
            .with("required_role", &self.write_role));
        }
        if options.force && !principal.has_role(&self.force_role) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                codes::PUSH_FORCE_FORBIDDEN,
                "Force forbidden",
                format!(
                    "--force on the protected ref {branch} needs the {} role, which {} does not have",
                    self.force_role, principal.user
                ),
            )
            .with("branch", branch)
            .with("required_role", &self.force_role));
        }
        if let Some(step_up) = &self.step_up
            && let Some(lack) = step_up_lack(step_up, principal, now_seconds())
        {
            let acr_values = step_up.acr_values.join(" ");
            let mut challenge = String::from(
                "Bearer error=\"insufficient_user_authentication\", error_description=\"a push to a protected ref needs a fresh authentication\"",
            );
            if !acr_values.is_empty() {
                challenge.push_str(&format!(", acr_values=\"{acr_values}\""));
            }
            challenge.push_str(&format!(", max_age={}", step_up.max_age));
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                codes::AUTH_STEP_UP_REQUIRED,
                "Step-up required",
                format!("{branch} is a protected ref: pushing to it needs a fresh authentication, and {lack}"),
            )
            .with("branch", branch)
            .with("acr_values", &step_up.acr_values)
            .with("max_age", step_up.max_age)
            .with_challenge(challenge));
        }
        Ok(())
    }
}

fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

/// What the principal lacks for the step-up, in words; `None` when it is enough.
pub fn step_up_lack(step_up: &StepUpOptions, principal: &Principal, now: i64) -> Option<String> {
    if !step_up.acr_values.is_empty() {
        match &principal.acr {
            Some(acr) if step_up.acr_values.contains(acr) => {}
            Some(acr) => {
                return Some(format!(
                    "the token's authentication level (acr) is {acr}, not one of {}",
                    step_up.acr_values.join(", ")
                ));
            }
            None => {
                return Some(format!(
                    "the token has no authentication level (acr); one of {} is needed",
                    step_up.acr_values.join(", ")
                ));
            }
        }
    }
    match principal.auth_time {
        None => Some("the token does not say when the user authenticated (auth_time)".into()),
        Some(at) if now.saturating_sub(at) > step_up.max_age as i64 => Some(format!(
            "the user authenticated {} s ago, more than the {} s allowed",
            now.saturating_sub(at),
            step_up.max_age
        )),
        Some(_) => None,
    }
}

/// Rule 4: what this push would do that needs `force` on a protected ref.
pub async fn force_violations(
    manifest: &CreatePush,
    engines: &Engines,
    db: &StateDb,
    public_host: &str,
) -> Result<Vec<Violation>, ApiError> {
    let ns = &manifest.namespace;
    let branch = &manifest.branch;
    let options = &manifest.options;
    let mut violations = Vec::new();
    for dataset in &manifest.datasets {
        let new_files: BTreeSet<&str> = dataset.files.iter().map(|f| f.sha256.as_str()).collect();
        let head = db.dataset_head(ns, &dataset.name, branch).await?;
        let head_files: Option<BTreeSet<&str>> = head
            .as_ref()
            .map(|(_, files)| files.iter().map(String::as_str).collect());
        // Whether the push leaves the dataset's content as it is.
        let unchanged = match &head_files {
            Some(head) if options.replace => *head == new_files,
            Some(head) => new_files.is_subset(head),
            None => false,
        };

        if dataset.kind == AssetKind::Tabular {
            if let Some(declared) = &dataset.schema {
                let existing = match engines
                    .iceberg
                    .snapshot_of(ns, &dataset.name, branch)
                    .await
                    .map_err(ApiError::internal)?
                {
                    Some(snapshot) => Some(snapshot),
                    None => engines
                        .iceberg
                        .snapshot_of(ns, &dataset.name, "main")
                        .await
                        .map_err(ApiError::internal)?,
                };
                if let Some(existing) = existing {
                    for column in &existing.schema {
                        let found = declared.fields.iter().find(|f| f.name == column.name);
                        let problem = match found {
                            None if column.required => Some(format!(
                                "column {:?} is required on the branch but missing from the files",
                                column.name
                            )),
                            Some(field)
                                if !types_compatible(&column.data_type, &field.field_type) =>
                            {
                                Some(format!(
                                    "column {:?} changes type from {} to {}",
                                    column.name, column.data_type, field.field_type
                                ))
                            }
                            _ => None,
                        };
                        if let Some(detail) = problem {
                            violations.push(Violation {
                                code: codes::SCHEMA_INCOMPATIBLE.into(),
                                dataset: dataset.name.clone(),
                                detail,
                            });
                        }
                    }
                }
            }
            if let Some(version) = &manifest.package.version
                && engines
                    .iceberg
                    .table_exists(ns, &dataset.name)
                    .await
                    .map_err(ApiError::internal)?
            {
                // The branch's own version, resolved as reads resolve it.
                let named = engines
                    .iceberg
                    .snapshot_of(ns, &dataset.name, TableRef::Version { branch, version })
                    .await
                    .map_err(ApiError::internal)?;
                if let Some(named) = named {
                    let head_snapshot = engines
                        .iceberg
                        .snapshot_of(ns, &dataset.name, branch)
                        .await
                        .map_err(ApiError::internal)?
                        .map(|s| s.snapshot_id);
                    if !(unchanged && head_snapshot == Some(named.snapshot_id)) {
                        violations.push(Violation {
                            code: codes::VERSION_EXISTS.into(),
                            dataset: dataset.name.clone(),
                            detail: format!(
                                "version {version} already names snapshot {} of {ns}.{} on {branch}; the push would move it",
                                named.snapshot_id, dataset.name
                            ),
                        });
                    }
                }
            }
        }

        if dataset.kind.engine() != Engine::Iceberg
            && let Some(version) = &manifest.package.version
            && let Some(detail) =
                version_moves(manifest, dataset, version, unchanged, engines, public_host).await?
        {
            violations.push(Violation {
                code: codes::VERSION_EXISTS.into(),
                dataset: dataset.name.clone(),
                detail,
            });
        }

        if options.replace {
            let retracts = match &head_files {
                Some(head) => !head.is_subset(&new_files),
                None => engines
                    .has_content(dataset.kind, ns, &dataset.name, branch, public_host)
                    .await
                    .map_err(ApiError::internal)?,
            };
            if retracts {
                violations.push(Violation {
                    code: codes::PUSH_RETRACTION_REQUIRES_FORCE.into(),
                    dataset: dataset.name.clone(),
                    detail: format!(
                        "--replace would retract content of {ns}/{} on {branch}",
                        dataset.name
                    ),
                });
            }
        }
    }
    if options.replace {
        for removed in removed_datasets(manifest, db).await? {
            violations.push(Violation {
                code: codes::PUSH_DELETION_REQUIRES_FORCE.into(),
                dataset: removed.0.clone(),
                detail: format!(
                    "{ns}/{} is no longer in the package; --replace would delete it from {branch}",
                    removed.0
                ),
            });
        }
    }
    Ok(violations)
}

/// Whether the push would move the version `version` of a GRAPH or object-storage
/// dataset to other content: what it would do, in words; `None` when the version does not
/// exist on the branch or names what the dataset will hold after the push.
async fn version_moves(
    manifest: &CreatePush,
    dataset: &DatasetManifest,
    version: &str,
    unchanged: bool,
    engines: &Engines,
    public_host: &str,
) -> Result<Option<String>, ApiError> {
    let (ns, name, branch) = (&manifest.namespace, &dataset.name, &manifest.branch);
    let moves = match dataset.kind.engine() {
        Engine::Graph => {
            // The graph after the push is known only by parsing the files: the version
            // stays only if the push changes nothing and the version is the graph now.
            let graph = &engines.graph;
            let iri = graph_iri(public_host, ns, name, branch);
            let snapshot = graph_version_iri(public_host, ns, name, branch, version);
            graph.count(&snapshot).await.map_err(ApiError::internal)? > 0
                && !(unchanged
                    && graph
                        .same_content(&iri, &snapshot)
                        .await
                        .map_err(ApiError::internal)?)
        }
        _ => {
            // The files after the push are known from the manifest and the head.
            let blob = &engines.blob;
            match blob
                .version(ns, name, branch, version)
                .await
                .map_err(ApiError::internal)?
            {
                None => false,
                Some(named) => {
                    let mut after: std::collections::BTreeMap<&str, BlobEntry> =
                        std::collections::BTreeMap::new();
                    let head = blob
                        .head(ns, name, branch)
                        .await
                        .map_err(ApiError::internal)?;
                    if let (Some(head), false) = (&head, manifest.options.replace) {
                        after.extend(head.files.iter().map(|f| (f.path.as_str(), f.clone())));
                    }
                    after.extend(dataset.files.iter().map(|f| {
                        let entry = BlobEntry {
                            path: f.path.clone(),
                            sha256: f.sha256.clone(),
                            size: f.size,
                        };
                        (f.path.as_str(), entry)
                    }));
                    named.files != after.into_values().collect::<Vec<_>>()
                }
            }
        }
    };
    Ok(moves.then(|| {
        format!(
            "version {version} already names other content of {ns}/{name} on {branch}; the push would move it"
        )
    }))
}

/// Datasets of the namespace's package node on the branch that the manifest no longer
/// lists: `(name, kind)`. One look-up per resource (a `--replace` of 100,000 datasets
/// compared every name with every other before).
pub async fn removed_datasets(
    manifest: &CreatePush,
    db: &StateDb,
) -> Result<Vec<(String, AssetKind)>, ApiError> {
    let Some(node) = db
        .package_node(&manifest.namespace, &manifest.branch)
        .await?
    else {
        return Ok(Vec::new());
    };
    let listed: BTreeSet<&str> = manifest.datasets.iter().map(|d| d.name.as_str()).collect();
    Ok(node
        .resources
        .into_iter()
        .filter(|r| !listed.contains(r.name.as_str()))
        .map(|r| (r.name, r.kind))
        .collect())
}

/// The refusal for a non-empty list of violations.
pub fn violations_problem(branch: &str, violations: Vec<Violation>) -> ApiError {
    let first = &violations[0];
    let (code, title) = match first.code.as_str() {
        codes::SCHEMA_INCOMPATIBLE => (codes::SCHEMA_INCOMPATIBLE, "Incompatible schema change"),
        codes::VERSION_EXISTS => (codes::VERSION_EXISTS, "Version exists"),
        codes::PUSH_DELETION_REQUIRES_FORCE => (
            codes::PUSH_DELETION_REQUIRES_FORCE,
            "Deletion requires force",
        ),
        _ => (
            codes::PUSH_RETRACTION_REQUIRES_FORCE,
            "Retraction requires force",
        ),
    };
    let detail = format!(
        "{branch} is a protected ref and the push needs --force: {}",
        violations
            .iter()
            .map(|v| format!("{}: {}", v.dataset, v.detail))
            .collect::<Vec<_>>()
            .join("; ")
    );
    ApiError::new(StatusCode::CONFLICT, code, title, detail)
        .with("branch", branch)
        .with("violations", violations)
}

/// Whether files of type `declared` can go into a column of type `existing`: equal, or
/// one promotes to the other (int/long, float/double, a larger decimal precision with the
/// same scale). Nested types are left to the commit-time check.
pub fn types_compatible(existing: &str, declared: &str) -> bool {
    let (a, b) = (normalize_type(existing), normalize_type(declared));
    if a == b {
        return true;
    }
    let nested =
        |t: &str| t.starts_with("struct<") || t.starts_with("list<") || t.starts_with("map<");
    if nested(&a) || nested(&b) {
        return true;
    }
    let pair = |x: &str, y: &str| (a == x && b == y) || (a == y && b == x);
    if pair("int", "long") || pair("float", "double") {
        return true;
    }
    match (decimal(&a), decimal(&b)) {
        (Some((_, s1)), Some((_, s2))) => s1 == s2,
        _ => false,
    }
}

fn normalize_type(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase()
}

fn decimal(t: &str) -> Option<(u32, u32)> {
    let inner = t.strip_prefix("decimal(")?.strip_suffix(')')?;
    let (p, s) = inner.split_once(',')?;
    Some((p.parse().ok()?, s.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guards() -> Guards {
        Guards::new(&GuardOptions::default())
    }

    fn principal(roles: &[&str]) -> Principal {
        Principal {
            user: "me".into(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
            groups: Vec::new(),
            acr: None,
            auth_time: None,
        }
    }

    fn options(yes: bool, force: bool, manual: bool) -> PushFlags {
        PushFlags {
            yes,
            force,
            replace: false,
            manual,
        }
    }

    #[test]
    fn patterns_match_normalized_branches() {
        let guards = guards();
        assert!(guards.is_protected("main"));
        assert!(guards.is_protected("release-1.2"));
        assert!(!guards.is_protected("release"));
        assert!(!guards.is_protected("mainline"));
        assert!(!guards.is_protected("feature-x"));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "aXXcYYb"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("ab*ba", "aba"));
    }

    #[test]
    fn identity_rules_in_order() {
        let guards = guards();
        let code = |branch: &str, options: PushFlags, roles: &[&str]| {
            guards
                .check_identity(branch, &options, &principal(roles))
                .err()
                .map(|e| e.code().to_owned())
        };
        assert_eq!(code("feature", options(false, true, true), &[]), None);
        assert_eq!(
            code("main", options(false, false, true), &["protected-write"]).as_deref(),
            Some("push.confirmation_required")
        );
        // CI pushes need no --yes.
        assert_eq!(
            code("main", options(false, false, false), &["protected-write"]),
            None
        );
        assert_eq!(
            code("main", options(true, false, true), &[]).as_deref(),
            Some("push.protected_ref")
        );
        assert_eq!(
            code("release-2", options(true, true, true), &["protected-write"]).as_deref(),
            Some("push.force_forbidden")
        );
        assert_eq!(
            code(
                "main",
                options(true, true, true),
                &["protected-write", "protected-force"]
            ),
            None
        );
    }

    #[test]
    fn step_up_needs_the_acr_and_a_recent_auth_time() {
        let step_up = StepUpOptions {
            acr_values: vec!["mfa".into()],
            max_age: 60,
        };
        let mut p = principal(&["protected-write"]);
        assert!(
            step_up_lack(&step_up, &p, 1000)
                .unwrap()
                .contains("no authentication level")
        );
        p.acr = Some("pwd".into());
        assert!(
            step_up_lack(&step_up, &p, 1000)
                .unwrap()
                .contains("pwd, not one of mfa")
        );
        p.acr = Some("mfa".into());
        assert!(
            step_up_lack(&step_up, &p, 1000)
                .unwrap()
                .contains("auth_time")
        );
        p.auth_time = Some(900);
        assert!(
            step_up_lack(&step_up, &p, 1000)
                .unwrap()
                .contains("100 s ago")
        );
        p.auth_time = Some(950);
        assert_eq!(step_up_lack(&step_up, &p, 1000), None);

        let guards = guards().with_step_up(step_up);
        let error = guards
            .check_identity(
                "main",
                &options(true, false, true),
                &principal(&["protected-write"]),
            )
            .unwrap_err();
        assert_eq!(error.code(), "auth.step_up_required");
        assert_eq!(error.status(), StatusCode::UNAUTHORIZED);
        // Not on an unprotected ref.
        assert!(
            guards
                .check_identity("feature", &options(false, false, true), &principal(&[]))
                .is_ok()
        );
    }

    #[test]
    fn type_compatibility() {
        assert!(types_compatible("long", "long"));
        assert!(types_compatible("int", "long"));
        assert!(types_compatible("long", "int"));
        assert!(types_compatible("decimal(10, 2)", "decimal(12,2)"));
        assert!(!types_compatible("decimal(10, 2)", "decimal(12, 3)"));
        assert!(!types_compatible("long", "string"));
        assert!(types_compatible(
            "struct<a: int>",
            "struct<a: long, b: string>"
        ));
    }

    /// Issue 52, hole 6: `v*.*` was normalized piece by piece into `v*-*`, so `v1.2` was not
    /// protected and nothing said so. A pattern is used as written; one a branch as it
    /// arrives could never match is refused at start, naming the pattern to write.
    #[test]
    fn protected_ref_patterns_are_refused_never_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let listen: std::net::SocketAddr = "127.0.0.1:0".parse().unwrap();
        let with = |patterns: &[&str]| {
            let mut config = crate::config::ConfigFile::default();
            config.guards.protected_refs = patterns.iter().map(|p| p.to_string()).collect();
            crate::config::Settings::resolve(dir.path(), listen, None, config)
        };
        let settings = with(&["main", "v*.*", "release-*", "*_prod", "a.b*"]).unwrap();
        let guards = Guards::new(&settings.config.guards);
        for (branch, protected) in [
            ("main", true),
            ("v1.2", true),
            ("v1-2", false),
            ("release-2.0", true),
            ("eu_prod", true),
            ("a.bc", true),
            ("feature", false),
        ] {
            assert_eq!(guards.is_protected(branch), protected, "{branch}");
        }
        for (pattern, instead) in [
            ("release/*", "release-*"),
            (".hidden*", "-hidden*"),
            ("feat ure", "feat-ure"),
            ("prod/ü*", "prod--*"),
        ] {
            let error = with(&["main", pattern]).unwrap_err().to_string();
            assert!(
                error.contains("guards.protected_refs")
                    && error.contains(&format!("{pattern:?}"))
                    && error.contains(&format!("write {instead:?}")),
                "{error}"
            );
        }
        // The defaults are fixed points too.
        assert!(with(&[]).is_ok());
        for pattern in crate::config::ConfigFile::default().guards.protected_refs {
            assert_eq!(stone_package::branch::check_ref_pattern(&pattern), Ok(()));
        }
    }
}
