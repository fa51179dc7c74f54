//! What the service handler needs of identity: a bearer token per environment, a renewed
//! one when the server refuses it, and a stepped-up one when the server challenges it
//! (RFC 9470). The CLI implements it (stored tokens, `STONE_TOKEN`, logins); a handler
//! without one sends no token (a `local` server).

use stone_auth::{Secret, StepUpRequest};

use crate::PushError;
use crate::handler::BoxFuture;

/// Bearer tokens for the push API. Tokens go to API calls only, never to staging URLs.
pub trait TokenSource: Send + Sync {
    /// The token for API calls to `env`; `None` sends none.
    fn token<'a>(
        &'a self,
        env: &'a str,
    ) -> BoxFuture<'a, Result<Option<Secret<String>>, PushError>>;

    /// After the server refused the token (401 `auth.required`/`auth.invalid_token`): a
    /// new one (refreshed), or `None` to give up with the refusal.
    fn renew<'a>(
        &'a self,
        env: &'a str,
    ) -> BoxFuture<'a, Result<Option<Secret<String>>, PushError>>;

    /// After a step-up challenge: a token that has the step-up (a new login with the
    /// challenge's `acr_values` and `max_age`), or an error saying what the token lacks
    /// (in CI, where no login may run).
    fn step_up<'a>(
        &'a self,
        env: &'a str,
        request: &'a StepUpRequest,
        refused: Option<&'a Secret<String>>,
    ) -> BoxFuture<'a, Result<Secret<String>, PushError>>;
}
