// A real OpenID Connect provider in the test process (oidc-provider) on a loopback port, for the
// console's OpenID Connect sign-in. One confidential client is registered for the service under
// test (its redirect URI is known only once the service is configured, hence register()); the
// login form takes any login name (a person's claims come from `people`, else the name is a
// verified email address) and no password; consent is given in advance. Tests can also have the
// token endpoint hand out a doctored ID token, signed with the provider's own key, to see the
// client's checks refuse it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider, { type AdapterFactory, type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';

export interface OidcPerson {
  email: string;
  /** Left out, as Microsoft Entra ID does, which says `xms_edov` instead. */
  email_verified?: boolean | string;
  xms_edov?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in under a login name; a name not listed is a verified email address of its own. */
  people: Map<string, OidcPerson>;
  /** Registers the service's client with its redirect URI; call before the first sign-in. */
  register(redirectUri: string): void;
  /** The next ID token the token endpoint issues gets these claims, re-signed with the provider's key. */
  doctorNextIdToken(change: (claims: JWTPayload) => JWTPayload): void;
  /**
   * Follows an authorization URL through the login form as `login`, as a browser would, and
   * answers where the provider sends the browser back (the redirect URI with code and state).
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

const loginForm = (uid: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider sign-in</title></head><body><main>` +
  `<h1>Test provider</h1><form method="post" action="/interaction/${uid}">` +
  `<label for="login">Login</label><input id="login" name="login" autocomplete="username" required>` +
  `<label for="password">Password</label><input id="password" name="password" type="password">` +
  `<button type="submit">Continue</button></form></main></body></html>`;

async function bodyOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The provider's records in a Map for the file's life: its built-in store does the same, with a warning. */
function memoryAdapter(): AdapterFactory {
  const records = new Map<string, AdapterPayload>();
  return (model) => {
    const key = (id: string) => `${model}:${id}`;
    const findBy = (field: 'uid' | 'userCode', value: string) =>
      [...records].find(([k, payload]) => k.startsWith(`${model}:`) && payload[field] === value)?.[1];
    return {
      upsert: async (id, payload) => void records.set(key(id), payload),
      find: async (id) => records.get(key(id)),
      findByUid: async (uid) => findBy('uid', uid),
      findByUserCode: async (userCode) => findBy('userCode', userCode),
      // A consumed authorization code is refused the second time: the replay the tests try.
      consume: async (id) => {
        const payload = records.get(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => void records.delete(key(id)),
      revokeByGrantId: async (grantId) => {
        for (const [k, payload] of records) if (payload.grantId === grantId) records.delete(k);
      },
    };
  };
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const clientId = 'signpost-console';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  const people = new Map<string, OidcPerson>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let doctor: ((claims: JWTPayload) => JWTPayload) | undefined;
  let provider: Provider | undefined;

  const server = http.createServer((req, res) => {
    void (async () => {
      if (!provider) {
        res.writeHead(503).end('not registered yet');
        return;
      }
      const interaction = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
      if (interaction && req.method === 'GET') {
        await provider.interactionDetails(req, res);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginForm(interaction[1]!));
      } else if (interaction && req.method === 'POST') {
        const login = (await bodyOf(req)).get('login') ?? '';
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: login } },
          { mergeWithLastSubmission: false },
        );
      } else {
        provider.callback()(req, res);
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function register(redirectUri: string): void {
    provider = new Provider(issuer, {
      adapter: memoryAdapter(),
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }],
      jwks: { keys: [signingKey] },
      cookies: { keys: ['test-provider-cookie-key-0123456789'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      // Lifetimes of its own (in seconds), so the provider has no defaults to warn about.
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx, id) {
        const person = people.get(id) ?? { email: id, email_verified: true };
        return { accountId: id, claims: () => ({ sub: id, ...person }) };
      },
      // Consent given in advance for the one client, as a company does for its own applications.
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const { session, client } = ctx.oidc;
        if (!session?.accountId || !client) return undefined;
        const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        session.grantIdFor(client.clientId, grant.jti);
        return grant;
      },
    });
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path !== '/token' || !doctor || typeof body?.id_token !== 'string') return;
      const change = doctor;
      doctor = undefined;
      const { kid, alg } = decodeProtectedHeader(body.id_token);
      body.id_token = await new SignJWT(change(decodeJwt(body.id_token)))
        .setProtectedHeader({ alg: alg ?? 'RS256', ...(kid ? { kid } : {}) })
        .sign(privateKey);
    });
  }

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const cookies = new Map<string, string>();
    const visit = async (url: string, init: RequestInit = {}): Promise<string> => {
      const res = await fetch(new URL(url, issuer), {
        ...init,
        redirect: 'manual',
        headers: { ...init.headers, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const eq = pair.indexOf('=');
        cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        throw new Error(`the provider answered ${res.status} at ${url}: ${await res.text()}`);
      }
      return new URL(location, url).href;
    };
    let next = await visit(authorizationUrl);
    next = await visit(next, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login, password: 'any' }).toString(),
    });
    // The provider resumes the authorization, which ends at the client's redirect URI.
    while (next.startsWith(issuer)) next = await visit(next);
    return new URL(next);
  }

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    register,
    doctorNextIdToken: (change) => {
      doctor = change;
    },
    signIn,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
