// A real OpenID provider for stone's tests: npm `oidc-provider` (OpenID Certified),
// configured the way stone's CLI uses an identity provider. Started by
// `stone_test::services::OidcProvider::start`; not a mock: PKCE, resource indicators,
// refresh tokens, the device flow and the acr/max_age checks are the library's own.
//
//   node oidc-provider.mjs --config CONFIG.json --node-modules DIR
//
// CONFIG.json (written by the harness):
//   port            TCP port on 127.0.0.1
//   issuer          "http://127.0.0.1:<port>"
//   client_id       the CLI's public client (token_endpoint_auth_method none, PKCE S256)
//   redirect_uris   loopback redirect URIs; any port matches (RFC 8252 §7.3, native app)
//   resource        resource indicator = audience of the JWT access tokens
//   scopes          scopes of that resource server
//   acr_values      the ACRs the provider offers (advertised in discovery)
//   access_token_ttl, refresh_token_ttl   seconds
//   device_flow     enable RFC 8628
//   users           [{ sub, password, roles: [..], name?, email?, acr_values?: [..] }]
//
// Login is a plain HTML form (fields `login`, `password`, optional `acr`) and a consent
// form, both under /interaction/<uid>: the harness's form driver fills them the way a
// browser would. The login result carries an `acr`: the one in the form if the user may
// reach it, else the first of the request's `acr_values` the user may reach, else the
// first configured ACR the user may reach. A request whose `acr_values` the current
// session does not satisfy prompts a new login (step-up, RFC 9470); `max_age` is the
// library's own check. `amr` is ["pwd"] for the first configured ACR, ["pwd", "otp"] for
// any other (a stand-in for a second factor).
//
// Access tokens are JWTs (RFC 9068) for `resource`, with `roles`, `acr`, `amr` and
// `auth_time`. The ID token and userinfo carry `roles` with the `roles` scope.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    config: { type: 'string' },
    'node-modules': { type: 'string' },
  },
});
if (!args.config || !args['node-modules']) {
  console.error('usage: node oidc-provider.mjs --config CONFIG.json --node-modules DIR');
  process.exit(2);
}

const config = JSON.parse(readFileSync(args.config, 'utf8'));
const started = Date.now();
const step = (what) => console.error(`oidc-provider start-up: ${what} (+${Date.now() - started} ms)`);
step('importing oidc-provider');
const oidc = await import(
  pathToFileURL(join(args['node-modules'], 'oidc-provider', 'lib', 'index.js')).href
);
const { Provider, errors, interactionPolicy } = oidc;

const users = new Map(config.users.map((user) => [user.sub, user]));
const offeredAcrs = config.acr_values ?? [];

function acrsFor(user) {
  return user?.acr_values ?? offeredAcrs;
}

// The ACR a successful login reaches (see the header).
function chooseAcr(user, requested, fromForm) {
  const allowed = acrsFor(user);
  if (fromForm && allowed.includes(fromForm)) return fromForm;
  for (const acr of requested) {
    if (allowed.includes(acr)) return acr;
  }
  return allowed[0];
}

function requestedAcrs(params) {
  return (params.acr_values ?? '').split(' ').filter(Boolean);
}

step('imported; generating the signing key');
// A fresh signing key per run: tokens from another run must not validate.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = {
  ...privateKey.export({ format: 'jwk' }),
  kid: randomBytes(8).toString('hex'),
  alg: 'RS256',
  use: 'sig',
};

// Step-up: the session must have reached one of the requested acr_values.
const policy = interactionPolicy.base();
policy.get('login').checks.add(
  new interactionPolicy.Check(
    'acr_values_not_met',
    'the requested authentication context was not reached',
    (ctx) => {
      const requested = requestedAcrs(ctx.oidc.params);
      // Not right after a login: that login reached what the user can reach.
      if (requested.length === 0 || !ctx.oidc.session.accountId || ctx.oidc.result?.login) {
        return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      }
      return requested.includes(ctx.oidc.acr)
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    },
  ),
);

const resourceServer = {
  scope: (config.scopes ?? []).join(' '),
  audience: config.resource,
  accessTokenFormat: 'jwt',
  accessTokenTTL: config.access_token_ttl ?? 300,
  jwt: { sign: { alg: 'RS256' } },
};

const provider = new Provider(config.issuer, {
  clients: [
    {
      client_id: config.client_id,
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: config.redirect_uris,
      grant_types: [
        'authorization_code',
        'refresh_token',
        ...(config.device_flow ? ['urn:ietf:params:oauth:grant-type:device_code'] : []),
      ],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  acrValues: offeredAcrs,
  scopes: ['openid', 'offline_access', 'profile', 'email', 'roles', ...(config.scopes ?? [])],
  claims: {
    acr: null,
    amr: null,
    sid: null,
    auth_time: null,
    iss: null,
    openid: ['sub'],
    profile: ['name'],
    email: ['email'],
    roles: ['roles'],
  },
  responseTypes: ['code'],
  pkce: { required: () => true },
  // The ID token carries the scopes' claims (`roles`) even when an access token is issued.
  conformIdTokenClaims: false,
  features: {
    devInteractions: { enabled: false },
    deviceFlow: { enabled: Boolean(config.device_flow) },
    revocation: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (_ctx, _client, oneOf) => oneOf ?? config.resource,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, indicator) => {
        if (indicator !== config.resource) throw new errors.InvalidTarget();
        return resourceServer;
      },
    },
  },
  // A CLI wants a refresh token without asking for offline_access explicitly.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  ttl: {
    AccessToken: config.access_token_ttl ?? 300,
    RefreshToken: config.refresh_token_ttl ?? 86400,
  },
  async findAccount(_ctx, sub) {
    const user = users.get(sub);
    if (!user) return undefined;
    return {
      accountId: sub,
      async claims() {
        return {
          sub,
          ...(user.name ? { name: user.name } : {}),
          ...(user.email ? { email: user.email } : {}),
          roles: user.roles ?? [],
        };
      },
    };
  },
  async extraTokenClaims(ctx, token) {
    if (!token.accountId) return undefined;
    const { entities } = ctx.oidc;
    const source = entities.AuthorizationCode ?? entities.RefreshToken ?? entities.DeviceCode;
    return {
      roles: users.get(token.accountId)?.roles ?? [],
      ...(source?.acr ? { acr: source.acr } : {}),
      ...(source?.amr ? { amr: source.amr } : {}),
      ...(source?.authTime ? { auth_time: source.authTime } : {}),
    };
  },
  interactions: {
    policy,
    url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
  },
  renderError: async (ctx, out) => {
    ctx.type = 'html';
    ctx.body = page('Error', `<h1>${esc(out.error)}</h1><p class="error">${esc(out.error_description ?? '')}</p>`);
  },
});

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title, body) {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}</body></html>`;
}

function loginPage(uid, params, message) {
  const hint = params.login_hint ?? '';
  return page('Sign-in', `<h1>Sign-in</h1>
${message ? `<p class="error">${esc(message)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}/login" autocomplete="off">
<input type="hidden" name="prompt" value="login">
<input type="text" name="login" placeholder="Username" value="${esc(hint)}" required>
<input type="password" name="password" placeholder="Password" required>
<button type="submit">Sign-in</button>
</form>
<a href="/interaction/${esc(uid)}/abort">Cancel</a>`);
}

function consentPage(uid, clientId, details) {
  const scopes = [
    ...(details.missingOIDCScope ?? []),
    ...Object.values(details.missingResourceScopes ?? {}).flat(),
  ];
  return page('Authorize', `<h1>Authorize ${esc(clientId)}</h1>
<p>Scopes: ${esc(scopes.join(' ') || '(none new)')}</p>
<form method="post" action="/interaction/${esc(uid)}/confirm">
<input type="hidden" name="prompt" value="consent">
<button type="submit">Continue</button>
</form>
<form method="post" action="/interaction/${esc(uid)}/abort">
<input type="hidden" name="prompt" value="abort">
<button type="submit">Deny</button>
</form>`);
}

function send(res, status, html) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    send(res, 400, page('Error', '<p class="error">interaction mismatch</p>'));
    return;
  }
  const { prompt, params, session } = details;

  if (req.method === 'GET' && action === undefined) {
    if (prompt.name === 'login') {
      send(res, 200, loginPage(uid, params));
    } else {
      send(res, 200, consentPage(uid, params.client_id, prompt.details));
    }
    return;
  }

  if (action === 'abort') {
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
    }, { mergeWithLastSubmission: false });
    return;
  }

  if (req.method !== 'POST') {
    send(res, 405, page('Error', '<p class="error">method not allowed</p>'));
    return;
  }
  const form = await readForm(req);

  if (action === 'login') {
    const user = users.get(form.get('login') ?? '');
    if (!user || user.password !== form.get('password')) {
      send(res, 200, loginPage(uid, params, 'Invalid login or password.'));
      return;
    }
    const acr = chooseAcr(user, requestedAcrs(params), form.get('acr'));
    await provider.interactionFinished(req, res, {
      login: {
        accountId: user.sub,
        ...(acr ? { acr } : {}),
        amr: acr && acr !== offeredAcrs[0] ? ['pwd', 'otp'] : ['pwd'],
        remember: true,
      },
    }, { mergeWithLastSubmission: false });
    return;
  }

  if (action === 'confirm') {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const missing = prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, {
      mergeWithLastSubmission: true,
    });
    return;
  }

  send(res, 404, page('Error', '<p class="error">unknown interaction action</p>'));
}

const callback = provider.callback();
const server = createServer((req, res) => {
  const match = /^\/interaction\/([^/?]+)(?:\/(login|confirm|abort))?(?:\?.*)?$/.exec(req.url);
  if (!match) {
    callback(req, res);
    return;
  }
  interaction(req, res, match[1], match[2]).catch((error) => {
    console.error('interaction failed:', error);
    if (!res.headersSent) {
      send(res, 400, page('Error', `<p class="error">${esc(error.message)}</p>`));
    } else {
      res.end();
    }
  });
});

provider.on('server_error', (_ctx, error) => console.error('server_error:', error));

step(`binding 127.0.0.1:${config.port}`);
server.listen(config.port, '127.0.0.1', () => {
  console.log(`oidc-provider listening on ${config.issuer}`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
