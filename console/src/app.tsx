import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { TransportProvider, useQuery } from "@connectrpc/connect-query";
import { AccountService, Role } from "@encore-campaigns/client";
import { createWebTransport } from "@encore-campaigns/client/web";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useMemo, useState } from "react";
import { Link, Route, Router, Switch, useLocation } from "wouter";
import { CallerProvider, useCaller } from "./caller";
import { PageBoundary } from "./components/page-boundary";
import { ErrorNote, Loading } from "./components/status";
import { describeError } from "./errors";
import { AUDIT_PERMISSION, AuditLogPage } from "./pages/audit-log";
import { CampaignPage } from "./pages/campaign";
import { CampaignsPage } from "./pages/campaigns";
import { LinksPage } from "./pages/links";
import { PurchasesPage } from "./pages/purchases";
import { TransferPage } from "./pages/transfer";
import { WEBHOOKS_PERMISSION, WebhooksPage } from "./pages/webhooks";
import { clearToken, readToken, saveToken } from "./session";

// The console's shell: sign-in, then every page under /console/ with the caller's token on
// every call (Authorization: Bearer, through the TypeScript client's web transport).

// Binary protobuf: smaller, and an Operation's metadata (google.protobuf.Any) needs no type
// registry to decode, as it would in JSON.
const transportFor = (token: string) =>
  createWebTransport({ baseUrl: window.location.origin, apiKey: token, useBinaryFormat: true });

export function App() {
  const [token, setToken] = useState(readToken);
  const [notice, setNotice] = useState<string>();
  if (!token) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(signedIn) => {
          saveToken(signedIn);
          setNotice(undefined);
          setToken(signedIn);
        }}
      />
    );
  }
  const signOut = (why?: string) => {
    clearToken();
    setNotice(why);
    setToken(undefined);
  };
  return <SignedIn key={token} token={token} onSignOut={signOut} />;
}

function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: (token: string) => void }) {
  const id = useId();
  const [token, setToken] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = token.trim();
    if (!trimmed) return setError("Paste an API key (ek_…) or a session token (es_…).");
    setBusy(true);
    setError(undefined);
    try {
      await createClient(AccountService, transportFor(trimmed)).getCaller({});
      onSignedIn(trimmed);
    } catch (failure) {
      setError(
        failure instanceof ConnectError && failure.code === Code.Unauthenticated
          ? "That key or session is not valid, or the session has expired."
          : describeError(failure),
      );
      setBusy(false);
    }
  };
  return (
    <main className="sign-in" id="main">
      <h1>Encore Campaigns</h1>
      <p>Studio console: campaigns, offers, purchases, distributor links and transfers.</p>
      <form onSubmit={submit} aria-describedby={`${id}-note`}>
        <label htmlFor={`${id}-token`}>API key or session token</label>
        <input
          id={`${id}-token`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        <p id={`${id}-note`} className="hint">
          Kept only in this browser tab and sent only to this service; signing out or closing the tab forgets it.
        </p>
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}

function SignedIn({ token, onSignOut }: { token: string; onSignOut: (why?: string) => void }) {
  const transport = useMemo(() => transportFor(token), [token]);
  // A cache of its own per sign-in: nothing one caller read survives into another's session.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one cache for the sign-in's lifetime
  const queryClient = useMemo(() => {
    const expired = (error: unknown) => {
      if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
        onSignOut("Your key or session is no longer valid: sign in again.");
      }
    };
    const client: QueryClient = new QueryClient({
      defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true } },
      // A key deleted or a session expired meanwhile ends the sign-in.
      queryCache: new QueryCache({ onError: expired }),
      // Whatever a change touched is read again.
      mutationCache: new MutationCache({ onSuccess: () => client.invalidateQueries(), onError: expired }),
    });
    return client;
  }, []);
  return (
    <TransportProvider transport={transport}>
      <QueryClientProvider client={queryClient}>
        <CallerGate onSignOut={onSignOut} />
      </QueryClientProvider>
    </TransportProvider>
  );
}

function CallerGate({ onSignOut }: { onSignOut: (why?: string) => void }) {
  const caller = useQuery(AccountService.method.getCaller, {});
  if (caller.isPending) return <Loading what="your account" />;
  if (!caller.data) return <ErrorNote error={caller.error} />;
  // Pages whose reads the role may not make are not routed at all (they fall to "not found").
  const mayAudit = caller.data.permissions.includes(AUDIT_PERMISSION);
  const mayWebhooks = caller.data.permissions.includes(WEBHOOKS_PERMISSION);
  return (
    <CallerProvider caller={caller.data}>
      <Router base="/console">
        <Shell onSignOut={() => onSignOut("Signed out.")}>
          <Switch>
            <Route path="/" component={CampaignsPage} />
            <Route path="/campaigns/:campaign/transfer" component={TransferPage} />
            <Route path="/campaigns/:campaign" component={CampaignPage} />
            <Route path="/purchases" component={PurchasesPage} />
            <Route path="/links" component={LinksPage} />
            {mayWebhooks && <Route path="/webhooks" component={WebhooksPage} />}
            {mayAudit && <Route path="/audit-log" component={AuditLogPage} />}
            <Route>
              <h1>Page not found</h1>
              <p>
                <Link href="/">Back to campaigns</Link>
              </p>
            </Route>
          </Switch>
        </Shell>
      </Router>
    </CallerProvider>
  );
}

const ROLE_NAMES: Record<Role, string> = {
  [Role.UNSPECIFIED]: "",
  [Role.OWNER]: "owner",
  [Role.ADMIN]: "admin",
  [Role.BILLING]: "billing",
  [Role.VIEWER]: "viewer",
};

function Shell({ children, onSignOut }: { children: ReactNode; onSignOut: () => void }) {
  const caller = useCaller();
  const account = useQuery(AccountService.method.getAccount, { name: caller.account });
  const [location] = useLocation();
  const nav = [
    { href: "/", label: "Campaigns", current: location === "/" || location.startsWith("/campaigns") },
    { href: "/purchases", label: "Purchases", current: location.startsWith("/purchases") },
    { href: "/links", label: "Distributor links", current: location.startsWith("/links") },
    ...(caller.can(WEBHOOKS_PERMISSION)
      ? [{ href: "/webhooks", label: "Webhooks", current: location.startsWith("/webhooks") }]
      : []),
    ...(caller.can(AUDIT_PERMISSION)
      ? [{ href: "/audit-log", label: "Audit log", current: location.startsWith("/audit-log") }]
      : []),
  ];
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="brand">
          <span className="product">Encore Campaigns</span>
          <span className="who">
            {account.data?.displayName ?? caller.account} · {ROLE_NAMES[caller.role]}
          </span>
        </div>
        <nav aria-label="Console">
          <ul>
            {nav.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={item.current ? "page" : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <PageBoundary page={location}>{children}</PageBoundary>
      </main>
    </>
  );
}
