//! Namespace permissions: the one place that decides whether a caller may read, write or
//! administer a namespace. Every route asks here; none decides by itself.
//!
//! Two implementations behind [`Authorizer`]:
//!
//! - **allow all** (`local` mode, and `oidc` mode without an `[authz]` table): any
//!   identity may do anything (the guards of protected refs still apply); a caller
//!   without one reads public packages only.
//! - **policy** (`[authz]` in `oidc` mode): the grants map values of one token claim
//!   (`[authz] claim`, default the roles claim; the key `"*"` matches every valid token)
//!   to namespace patterns and an access level. What no grant gives is refused.
//!
//! What each action needs ([`Access`] levels include the ones below them):
//!
//! | action | needs |
//! |---|---|
//! | read a private namespace on any branch (API, IRIs, SPARQL) | read |
//! | push: create the namespace (its first push), write datasets, `--replace` their content | write |
//! | change the package's `public` on a branch (a first push with `public: true` too) | admin |
//! | delete datasets (`--replace` with a package that no longer lists them) | admin |
//!
//! A public package (`public: true` on the branch) is readable by anyone, without a
//! token. SPARQL queries run over the graphs the caller may read, and no others
//! ([`query_scope`]).

use std::collections::{BTreeSet, HashMap};

use axum::http::StatusCode;
use oxigraph::model::{GraphName, NamedOrBlankNode};
use oxigraph::sparql::SparqlEvaluator;
use stone_api::{CreatePush, codes};
pub use stone_package::branch::glob_match;

use crate::auth::Caller;
use crate::auth::Principal;
pub use crate::config::AccessOption as Access;
use crate::config::AuthzOptions;
use crate::engines::graph::{GraphEngine, QueryScope};
use crate::error::{ApiError, ApiResult};
use crate::guards::removed_datasets;
use crate::state::StateDb;

/// Decides what a principal may do in a namespace.
#[derive(Debug, Clone, Default)]
pub struct Authorizer {
    policy: Option<Policy>,
    /// Whether each namespace's package is public on a branch, by the stamp of the
    /// package node it was read from ([`StateDb::package_node_stamp`]): a node is read
    /// (and its JSON, every resource of the package, parsed) again only once another write
    /// replaced it, on any replica; on SQLite, not even the stamp while no node was
    /// written.
    public: PublicVerdicts,
}

/// `(namespace, branch)` → (what the verdict was read from, public).
type PublicVerdicts = std::sync::Arc<std::sync::Mutex<HashMap<(String, String), (Seen, bool)>>>;

/// What a public verdict was read from: the package node's stamp, and the state's package
/// generation then ([`StateDb::package_generation`]).
#[derive(Debug)]
struct Seen {
    stamp: String,
    generation: Option<u64>,
}

#[derive(Debug, Clone)]
struct Policy {
    /// The claim the grants name (for messages).
    claim: String,
    /// `(claim value, namespace patterns, access)`.
    grants: Vec<(String, Vec<String>, Access)>,
}

impl Authorizer {
    /// Any identity may do anything (`local` mode; `oidc` without `[authz]`).
    pub fn allow_all() -> Self {
        Self::default()
    }

    /// The policy of an `[authz]` table; `claim` is the claim it names when the table
    /// does not say (the roles claim).
    pub fn from_options(options: &AuthzOptions, roles_claim: &str) -> Self {
        let grants = options
            .grants
            .iter()
            .flat_map(|(value, grants)| {
                grants
                    .iter()
                    .map(move |g| (value.clone(), g.namespaces.clone(), g.access))
            })
            .collect();
        Self {
            policy: Some(Policy {
                claim: options
                    .claim
                    .clone()
                    .unwrap_or_else(|| roles_claim.to_owned()),
                grants,
            }),
            public: Default::default(),
        }
    }

    /// Whether a policy applies (else everything is allowed to an identity).
    pub fn has_policy(&self) -> bool {
        self.policy.is_some()
    }

    /// The highest access the principal has on the namespace; `None`: none at all.
    pub fn access(&self, principal: &Principal, namespace: &str) -> Option<Access> {
        let Some(policy) = &self.policy else {
            return Some(Access::Admin);
        };
        policy
            .grants
            .iter()
            .filter(|(value, _, _)| value == "*" || principal.groups.iter().any(|g| g == value))
            .filter(|(_, patterns, _)| patterns.iter().any(|p| glob_match(p, namespace)))
            .map(|(_, _, access)| *access)
            .max()
    }

    /// The principal has `needed` on the namespace, or 403 `authz.forbidden`. `action`
    /// says what was asked, in words ("push to", "read").
    pub fn require(
        &self,
        principal: &Principal,
        namespace: &str,
        needed: Access,
        action: &str,
    ) -> ApiResult<()> {
        if self.access(principal, namespace) >= Some(needed) {
            return Ok(());
        }
        let claim = self
            .policy
            .as_ref()
            .map_or("roles", |policy| policy.claim.as_str());
        let has = if principal.groups.is_empty() {
            "none".to_owned()
        } else {
            principal.groups.join(", ")
        };
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            codes::AUTHZ_FORBIDDEN,
            "Forbidden",
            format!(
                "{} may not {action} namespace {namespace}: that needs {} access, and no grant of the server's [authz] policy gives it to the token's {claim} ({has}); ask the server's operator for a grant",
                principal.user,
                access_name(needed),
            ),
        )
        .with("namespace", namespace)
        .with("required_access", access_name(needed)))
    }
}

/// The access level as the configuration spells it.
pub fn access_name(access: Access) -> &'static str {
    match access {
        Access::Read => "read",
        Access::Write => "write",
        Access::Admin => "admin",
    }
}

/// The namespace and branch a graph IRI of this server belongs to:
/// `https://{public_host}/{namespace}/{name}/branch/{branch}[/version/{version}]`.
pub fn graph_scope<'a>(public_host: &str, graph: &'a str) -> Option<(&'a str, &'a str)> {
    let rest = graph
        .strip_prefix("https://")?
        .strip_prefix(public_host)?
        .strip_prefix('/')?;
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        [namespace, _name, "branch", branch]
        | [namespace, _name, "branch", branch, "version", _] => Some((namespace, branch)),
        _ => None,
    }
}

/// The dataset a query runs over: what it asks (`FROM`, `FROM NAMED`; without them, the
/// named graphs are every graph) restricted to `readable`. A graph the caller may not
/// read is left out exactly as a graph that does not exist is, so the answer tells
/// nothing about it. The default graph is empty unless `FROM` names readable graphs.
pub fn query_scope(sparql: &str, readable: &BTreeSet<String>) -> ApiResult<QueryScope> {
    let prepared = SparqlEvaluator::new()
        .parse_query(sparql)
        .map_err(|e| ApiError::invalid_field("query", e.to_string()))?;
    let dataset = prepared.dataset();
    let default = match dataset.default_graph_graphs() {
        Some(graphs) => graphs
            .iter()
            .filter_map(|g| match g {
                GraphName::NamedNode(node) => Some(node.as_str().to_owned()),
                _ => None,
            })
            .filter(|g| readable.contains(g))
            .collect(),
        None => readable.iter().cloned().collect(),
    };
    let named = match dataset.available_named_graphs() {
        Some(graphs) => graphs
            .iter()
            .filter_map(|g| match g {
                NamedOrBlankNode::NamedNode(node) => Some(node.as_str().to_owned()),
                NamedOrBlankNode::BlankNode(_) => None,
            })
            .filter(|g| readable.contains(g))
            .collect(),
        None => readable.iter().cloned().collect(),
    };
    Ok(QueryScope { default, named })
}

/// The checks that read the state: public packages, and what a push would change.
impl Authorizer {
    /// Whether the caller may read the namespace on the branch: a public package there, or
    /// read access.
    pub async fn may_read(
        &self,
        db: &StateDb,
        principal: Option<&Principal>,
        namespace: &str,
        branch: &str,
    ) -> ApiResult<bool> {
        if let Some(principal) = principal
            && self.access(principal, namespace) >= Some(Access::Read)
        {
            return Ok(true);
        }
        self.public(db, namespace, branch).await
    }

    /// Whether the package of `namespace` is public on `branch` (no package node: not).
    async fn public(&self, db: &StateDb, namespace: &str, branch: &str) -> ApiResult<bool> {
        let key = (namespace.to_owned(), branch.to_owned());
        // This process the only writer, and no node written since the verdict: it holds
        // without a read (taken before the reads below: a write meanwhile moves it).
        let generation = db.package_generation();
        if let Some(generation) = generation {
            let known = self.public.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((seen, public)) = known.get(&key)
                && seen.generation == Some(generation)
            {
                return Ok(*public);
            }
        }
        let Some(stamp) = db.package_node_stamp(namespace, branch).await? else {
            return Ok(false);
        };
        {
            let mut known = self.public.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((seen, public)) = known.get_mut(&key)
                && seen.stamp == stamp
            {
                seen.generation = generation;
                return Ok(*public);
            }
        }
        let public = db
            .package_node(namespace, branch)
            .await?
            .is_some_and(|node| node.package.public);
        self.public
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, (Seen { stamp, generation }, public));
        Ok(public)
    }

    /// The read check of every read route: a dataset or package node of a public package is
    /// readable by anyone; anything else needs an identity (a valid token in `oidc` mode;
    /// `local` mode always has one) with read access. A namespace without a package node on
    /// the branch counts as non-public, so that a caller without access cannot tell what
    /// exists: 401 `auth.required` without a token, 403 `authz.forbidden` with one.
    pub async fn authorize_read(
        &self,
        db: &StateDb,
        caller: &Caller,
        namespace: &str,
        branch: &str,
    ) -> ApiResult<()> {
        if self
            .may_read(db, caller.0.as_ref(), namespace, branch)
            .await?
        {
            return Ok(());
        }
        match &caller.0 {
            Some(principal) => self.require(principal, namespace, Access::Read, "read"),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                codes::AUTH_REQUIRED,
                "Authentication required",
                format!(
                    "{namespace} on {branch} is not public: reading it needs a bearer token (`stone login`)"
                ),
            )
            .with_challenge("Bearer")),
        }
    }

    /// What a push needs (checked when it is created and again at commit): write access to
    /// its namespace; admin access to change the package's `public` on the branch, or to
    /// delete datasets with `replace`.
    pub async fn authorize_push(
        &self,
        db: &StateDb,
        principal: &Principal,
        manifest: &CreatePush,
    ) -> ApiResult<()> {
        let namespace = &manifest.namespace;
        self.require(principal, namespace, Access::Write, "push to")?;
        if self.access(principal, namespace) >= Some(Access::Admin) {
            return Ok(());
        }
        let public_now = db
            .package_node(namespace, &manifest.branch)
            .await?
            .is_some_and(|node| node.package.public);
        if manifest.package.public != public_now {
            let action = if manifest.package.public {
                format!("make public (on {}) the package of", manifest.branch)
            } else {
                format!("make private (on {}) the package of", manifest.branch)
            };
            self.require(principal, namespace, Access::Admin, &action)?;
        }
        if manifest.options.replace {
            let removed = removed_datasets(manifest, db).await?;
            if !removed.is_empty() {
                let names: Vec<&str> = removed.iter().map(|(name, _)| name.as_str()).collect();
                let action = format!(
                    "delete datasets ({}, left out of the package with --replace) from",
                    names.join(", ")
                );
                self.require(principal, namespace, Access::Admin, &action)?;
            }
        }
        Ok(())
    }

    /// The named graphs the caller may read: those of the namespaces and branches it may
    /// read ([`Self::may_read`]).
    pub async fn readable_graphs(
        &self,
        db: &StateDb,
        graph: &GraphEngine,
        public_host: &str,
        caller: &Caller,
    ) -> ApiResult<BTreeSet<String>> {
        let graphs = graph
            .graphs_with_prefix(&format!("https://{public_host}/"))
            .await
            .map_err(ApiError::internal)?;
        let mut verdicts: HashMap<(String, String), bool> = HashMap::new();
        let mut readable = BTreeSet::new();
        for graph in graphs {
            let Some((namespace, branch)) = graph_scope(public_host, &graph) else {
                continue;
            };
            let key = (namespace.to_owned(), branch.to_owned());
            let allowed = match verdicts.get(&key) {
                Some(allowed) => *allowed,
                None => {
                    let allowed = self
                        .may_read(db, caller.0.as_ref(), namespace, branch)
                        .await?;
                    verdicts.insert(key, allowed);
                    allowed
                }
            };
            if allowed {
                readable.insert(graph);
            }
        }
        Ok(readable)
    }
}

/// Which named graphs a caller may read, decided graph by graph where a SPARQL query
/// touches one (issue 56), instead of listing every readable graph before each query: a
/// graph of this server is readable when the caller may read its namespace on its branch
/// ([`Authorizer::may_read`]: read access, or a public package there); any other graph
/// (the store's own bookkeeping, a foreign IRI) is not. Each namespace and branch is
/// decided once per query and asked of the state database then, so a grant or a
/// `public` change holds from the next query on, whichever replica made it.
///
/// [`Self::readable`] is synchronous (the query engine asks it on its blocking thread)
/// and waits for the state database there; a failure hides the graph and is kept for
/// [`Self::failure`]: the caller then answers an error, never a partial result.
#[derive(Debug)]
pub struct ReadableGraphs {
    authz: Authorizer,
    db: StateDb,
    public_host: String,
    principal: Option<Principal>,
    runtime: tokio::runtime::Handle,
    verdicts: std::sync::Mutex<HashMap<(String, String), bool>>,
    failure: std::sync::Mutex<Option<ApiError>>,
}

impl ReadableGraphs {
    /// The graphs `caller` may read; to be asked from a blocking thread of this runtime.
    pub fn new(authz: &Authorizer, db: &StateDb, public_host: &str, caller: &Caller) -> Self {
        Self {
            authz: authz.clone(),
            db: db.clone(),
            public_host: public_host.to_owned(),
            principal: caller.0.clone(),
            runtime: tokio::runtime::Handle::current(),
            verdicts: std::sync::Mutex::new(HashMap::new()),
            failure: std::sync::Mutex::new(None),
        }
    }

    /// Whether the caller may read the named graph `graph` (blocks on the state database
    /// the first time a namespace and branch is asked, unless the caller's grants decide).
    pub fn readable(&self, graph: &str) -> bool {
        let Some((namespace, branch)) = graph_scope(&self.public_host, graph) else {
            return false;
        };
        let key = (namespace.to_owned(), branch.to_owned());
        let mut verdicts = self.verdicts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(verdict) = verdicts.get(&key) {
            return *verdict;
        }
        let verdict = match self.runtime.block_on(self.authz.may_read(
            &self.db,
            self.principal.as_ref(),
            namespace,
            branch,
        )) {
            Ok(verdict) => verdict,
            Err(error) => {
                let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
                failure.get_or_insert(error);
                false
            }
        };
        verdicts.insert(key, verdict);
        verdict
    }

    /// The first failure to decide a graph, if any: the query's answer may lack graphs.
    pub fn failure(&self) -> Option<ApiError> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GrantOptions;

    fn principal(groups: &[&str]) -> Principal {
        Principal {
            user: "me".into(),
            roles: Vec::new(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            acr: None,
            auth_time: None,
        }
    }

    fn policy() -> Authorizer {
        let grant = |namespaces: &[&str], access| GrantOptions {
            namespaces: namespaces.iter().map(|n| n.to_string()).collect(),
            access,
        };
        let options = AuthzOptions {
            claim: Some("groups".into()),
            grants: [
                (
                    "team-a".to_owned(),
                    vec![grant(&["team-a", "team-a-*"], Access::Write)],
                ),
                ("leads".to_owned(), vec![grant(&["team-a"], Access::Admin)]),
                ("*".to_owned(), vec![grant(&["open-*"], Access::Read)]),
            ]
            .into(),
        };
        Authorizer::from_options(&options, "roles")
    }

    #[test]
    fn grants_match_claim_values_and_patterns_and_the_highest_wins() {
        let authz = policy();
        assert_eq!(
            authz.access(&principal(&["team-a"]), "team-a"),
            Some(Access::Write)
        );
        assert_eq!(
            authz.access(&principal(&["team-a"]), "team-a-x"),
            Some(Access::Write)
        );
        assert_eq!(authz.access(&principal(&["team-a"]), "team-ab"), None);
        assert_eq!(
            authz.access(&principal(&["team-a", "leads"]), "team-a"),
            Some(Access::Admin)
        );
        assert_eq!(
            authz.access(&principal(&[]), "open-data"),
            Some(Access::Read)
        );
        assert_eq!(authz.access(&principal(&["team-b"]), "team-a"), None);
        let refusal = authz
            .require(&principal(&["team-b"]), "team-a", Access::Read, "read")
            .unwrap_err();
        assert_eq!(refusal.code(), codes::AUTHZ_FORBIDDEN);
        assert_eq!(
            Authorizer::allow_all().access(&principal(&[]), "x"),
            Some(Access::Admin)
        );
    }

    #[test]
    fn graph_iris_name_their_namespace_and_branch() {
        let host = "data.test";
        assert_eq!(
            graph_scope(host, "https://data.test/ns/vocab/branch/main"),
            Some(("ns", "main"))
        );
        assert_eq!(
            graph_scope(host, "https://data.test/ns/vocab/branch/main/version/1.0"),
            Some(("ns", "main"))
        );
        assert_eq!(
            graph_scope(host, "https://data.test.evil/ns/v/branch/main"),
            None
        );
        assert_eq!(graph_scope(host, "https://data.test/ns/v/other/main"), None);
    }

    #[test]
    fn a_query_sees_only_readable_graphs() {
        let readable: BTreeSet<String> = ["https://h/a/g/branch/main".to_owned()].into();
        let scope = query_scope("SELECT * { GRAPH ?g { ?s ?p ?o } }", &readable).unwrap();
        assert_eq!(scope.named, ["https://h/a/g/branch/main"]);
        assert!(scope.default.is_empty());
        let scope = query_scope(
            "SELECT * FROM <https://h/b/g/branch/main> FROM NAMED <https://h/b/g/branch/main> { ?s ?p ?o }",
            &readable,
        )
        .unwrap();
        assert!(scope.default.is_empty());
        assert!(scope.named.is_empty());
        let scope = query_scope(
            "SELECT * FROM <https://h/a/g/branch/main> { ?s ?p ?o }",
            &readable,
        )
        .unwrap();
        assert_eq!(scope.default, ["https://h/a/g/branch/main"]);
        assert!(scope.named.is_empty());
        assert!(query_scope("not sparql", &readable).is_err());
    }
}
