import { html, type SafeHtml } from '@app/identity/sign-in/html.js';

/** Who asks, as the consent page shows them. */
export interface ConsentRequest {
  clientName: string;
  clientId: string;
  /** Host of the redirect URI the code will be sent to: the one thing a client cannot fake. */
  redirectHost: string;
  role: string;
}

/** The sign-in page of an authorization request: an e-mail code form, and the identity provider when configured. */
export function signInPage(options: {
  uid: string;
  clientName: string;
  upstream?: { label: string };
  error?: string;
}): SafeHtml {
  const base = `/interaction/${options.uid}`;
  const upstream = options.upstream
    ? html`<p>
          <a href="/sign-in/oidc?return_to=${encodeURIComponent(base)}"
            >Sign in with ${options.upstream.label}</a
          >
        </p>
        <p class="muted">or with a code sent by e-mail:</p>`
    : false;
  return html`<h1>Sign in</h1>
    <p>to let <strong>${options.clientName}</strong> use idp-backup.</p>
    ${options.error ? html`<p class="error">${options.error}</p>` : false} ${upstream}
    <form method="post" action="${base}/send-code">
      <label for="email">E-mail address</label>
      <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" />
      <button type="submit">Send me a code</button>
    </form>
    <form method="post" action="${base}/abort">
      <button class="secondary" type="submit">Cancel</button>
    </form>`;
}

/** The page that asks for the six digits just sent to `email`. */
export function codePage(options: { uid: string; email: string; error?: string }): SafeHtml {
  const base = `/interaction/${options.uid}`;
  return html`<h1>Check your e-mail</h1>
    <p>
      If <strong>${options.email}</strong> can sign in, a six-digit code is on its way. It is valid for 10
      minutes.
    </p>
    ${options.error ? html`<p class="error">${options.error}</p>` : false}
    <form method="post" action="${base}/verify-code">
      <input type="hidden" name="email" value="${options.email}" />
      <label for="code">Code</label>
      <input
        id="code"
        name="code"
        inputmode="numeric"
        pattern="[0-9]{6}"
        autocomplete="one-time-code"
        required
      />
      <button type="submit">Sign in</button>
    </form>
    <p><a href="${base}">Use another address</a></p>`;
}

/** The consent page: the client's name (self-asserted), its id, and where the answer goes. */
export function consentPage(uid: string, request: ConsentRequest): SafeHtml {
  const base = `/interaction/${uid}`;
  return html`<h1>Allow access?</h1>
    <p>
      <strong>${request.clientName}</strong> asks to use the idp-backup API with your permissions (<strong
        >${request.role}</strong
      >
      of your team): it could read backups and, as far as your role allows, change them.
    </p>
    <dl>
      <dt>Answer sent to</dt>
      <dd><strong>${request.redirectHost}</strong></dd>
      <dt>Client id</dt>
      <dd>${request.clientId}</dd>
    </dl>
    <p class="muted">Allow only if you started this from an application you trust at that address.</p>
    <form method="post" action="${base}/consent">
      <button type="submit" name="decision" value="allow">Allow</button>
      <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
    </form>`;
}

/** The page of an interaction that is unknown, expired or belongs to another browser. */
export function expiredPage(): SafeHtml {
  return html`<h1>This sign-in has expired</h1>
    <p>Sign-in requests are valid for 10 minutes. Go back to the application and start again.</p>`;
}
