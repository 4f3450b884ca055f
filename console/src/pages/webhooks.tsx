import { useMutation, useQuery } from "@connectrpc/connect-query";
import { type WebhookEndpoint, WebhookEndpoint_State, WebhookService } from "@encore-campaigns/client";
import { type FormEvent, useId, useState } from "react";
import { useCaller } from "../caller";
import { EventTypeChoice } from "../components/event-type-choice";
import { SecretOnce } from "../components/secret-once";
import { Done, Empty, ErrorNote, Loading } from "../components/status";
import { WebhookDeliveries } from "../components/webhook-deliveries";
import { formatTime } from "../time";
import { WEBHOOK_ENDPOINT_STATE, WEBHOOK_EVENTS } from "../words";

// Webhooks (WebhookService): where the account's events are POSTed, signed. Everyone
// reads the endpoints and their deliveries; owner and admin add, change, disable, delete, rotate
// the signing secret and redeliver (the others see no such control). A signing secret is shown
// once, when it is made, and never kept.

export const WEBHOOKS_PERMISSION = "webhook.endpoints.list";

export function WebhooksPage() {
  const { account, can } = useCaller();
  const endpoints = useQuery(WebhookService.method.listWebhookEndpoints, { parent: account, pageSize: 100 });
  return (
    <>
      <h1>Webhooks</h1>
      <p className="hint">
        We POST each event your endpoints subscribe to, signed with the endpoint's secret (the Encore-Signature header):
        check the signature before you trust an event, and answer 2xx. A failed delivery is tried again for about three
        days; an endpoint that fails every attempt that long is disabled.
      </p>
      {endpoints.isPending && <Loading what="webhook endpoints" />}
      <ErrorNote error={endpoints.error} />
      {endpoints.data && endpoints.data.webhookEndpoints.length === 0 && <Empty>No webhook endpoint yet.</Empty>}
      <ul className="cards wide">
        {endpoints.data?.webhookEndpoints.map((endpoint) => (
          <li key={endpoint.name}>
            <EndpointCard endpoint={endpoint} />
          </li>
        ))}
      </ul>
      {can("webhook.endpoints.create") && <CreateEndpoint />}
    </>
  );
}

function eventWords(type: string): string {
  return WEBHOOK_EVENTS.find((event) => event.type === type)?.words ?? type;
}

/** The endpoint's event types in the order of the console's list; any it does not know, last. */
function inListOrder(types: string[]): string[] {
  const known = WEBHOOK_EVENTS.map((event) => event.type);
  return [...known.filter((type) => types.includes(type)), ...types.filter((type) => !known.includes(type))];
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { can } = useCaller();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const active = endpoint.state === WebhookEndpoint_State.ACTIVE;
  return (
    <article className="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="url">
        {endpoint.url}
      </h2>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p>
        <span className={active ? "badge" : "badge bad"}>{WEBHOOK_ENDPOINT_STATE[endpoint.state]}</span>
      </p>
      {!active && endpoint.disabledReason && (
        <p className="warn">
          Disabled {formatTime(endpoint.disableTime)}: {endpoint.disabledReason}
        </p>
      )}
      {endpoint.failingSinceTime && (
        <p className="warn">Every delivery has failed since {formatTime(endpoint.failingSinceTime)}.</p>
      )}
      {endpoint.previousSecretExpireTime && (
        <p className="meta">The previous secret still signs until {formatTime(endpoint.previousSecretExpireTime)}.</p>
      )}
      <h3>Events</h3>
      <ul className="events">
        {inListOrder(endpoint.eventTypes).map((type) => (
          <li key={type}>
            {eventWords(type)} <code>{type}</code>
          </li>
        ))}
      </ul>
      <p className="meta">Added {formatTime(endpoint.createTime)}</p>
      {can("webhook.endpoints.update") &&
        (editing ? (
          <EditEndpoint endpoint={endpoint} onDone={() => setEditing(false)} />
        ) : (
          <div className="actions">
            <button type="button" className="secondary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <SetState endpoint={endpoint} />
          </div>
        ))}
      {can("webhook.endpoints.rotateSecret") && <RotateSecret endpoint={endpoint} />}
      {can("webhook.endpoints.delete") && <DeleteEndpoint endpoint={endpoint} />}
      <details>
        <summary>Deliveries</summary>
        <WebhookDeliveries endpoint={endpoint} />
      </details>
    </article>
  );
}

function SetState({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useMutation(WebhookService.method.updateWebhookEndpoint);
  const active = endpoint.state === WebhookEndpoint_State.ACTIVE;
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={update.isPending}
        onClick={() =>
          update.mutate({
            webhookEndpoint: {
              name: endpoint.name,
              state: active ? WebhookEndpoint_State.DISABLED : WebhookEndpoint_State.ACTIVE,
            },
            updateMask: { paths: ["state"] },
          })
        }
      >
        {active ? "Disable" : "Enable"}
      </button>
      <ErrorNote error={update.error} />
    </>
  );
}

function EditEndpoint({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const id = useId();
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description);
  const [types, setTypes] = useState(endpoint.eventTypes);
  const update = useMutation(WebhookService.method.updateWebhookEndpoint, { onSuccess: onDone });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      webhookEndpoint: { name: endpoint.name, url: url.trim(), description, eventTypes: types },
      updateMask: { paths: ["url", "description", "event_types"] },
    });
  };
  return (
    <form className="form" onSubmit={submit} aria-label={`Edit ${endpoint.url}`}>
      <label htmlFor={`${id}-url`}>URL</label>
      <input id={`${id}-url`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} required />
      <label htmlFor={`${id}-description`}>Description</label>
      <input id={`${id}-description`} value={description} onChange={(e) => setDescription(e.target.value)} />
      <EventTypeChoice chosen={types} onChange={setTypes} />
      <div className="actions">
        <button type="submit" disabled={update.isPending || types.length === 0}>
          Save endpoint
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorNote error={update.error} />
    </form>
  );
}

function RotateSecret({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [secret, setSecret] = useState<string>();
  const rotate = useMutation(WebhookService.method.rotateWebhookEndpointSecret, {
    // The secret goes to this component's state alone; the mutation's copy is dropped at once.
    gcTime: 0,
    onSuccess: (rotated) => {
      setSecret(rotated.signingSecret);
      rotate.reset();
    },
  });
  if (secret) {
    return (
      <SecretOnce
        secret={secret}
        lead="New signing secret. The previous one still signs beside it for 24 hours, while you switch your receiver:"
        onDismiss={() => setSecret(undefined)}
      />
    );
  }
  return (
    <div className="actions">
      <button
        type="button"
        className="secondary"
        disabled={rotate.isPending}
        onClick={() => rotate.mutate({ name: endpoint.name })}
      >
        Rotate secret
      </button>
      <ErrorNote error={rotate.error} />
    </div>
  );
}

function DeleteEndpoint({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [asked, setAsked] = useState(false);
  const remove = useMutation(WebhookService.method.deleteWebhookEndpoint);
  if (!asked) {
    return (
      <div className="actions">
        <button type="button" className="secondary" onClick={() => setAsked(true)}>
          Delete endpoint
        </button>
      </div>
    );
  }
  return (
    <fieldset className="actions">
      <legend>Delete this endpoint? Its pending deliveries are dropped.</legend>
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => remove.mutate({ name: endpoint.name })}
      >
        Yes, delete {endpoint.url}
      </button>
      <button type="button" className="secondary" onClick={() => setAsked(false)}>
        Keep it
      </button>
      <ErrorNote error={remove.error} />
    </fieldset>
  );
}

function CreateEndpoint() {
  const { account } = useCaller();
  const id = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState<string[]>([]);
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  const create = useMutation(WebhookService.method.createWebhookEndpoint, {
    // The secret goes to this component's state alone; the mutation's copy is dropped at once.
    gcTime: 0,
    onSuccess: (endpoint) => {
      setCreated({ url: endpoint.url, secret: endpoint.signingSecret });
      setUrl("");
      setDescription("");
      setTypes([]);
      create.reset();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ parent: account, webhookEndpoint: { url: url.trim(), description, eventTypes: types } });
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Add an endpoint</h2>
      {created && (
        <>
          <Done>Endpoint {created.url} added.</Done>
          <SecretOnce
            secret={created.secret}
            lead="Its signing secret, to check each event's Encore-Signature with:"
            onDismiss={() => setCreated(undefined)}
          />
        </>
      )}
      <form className="form" onSubmit={submit}>
        <label htmlFor={`${id}-url`}>URL (https)</label>
        <input
          id={`${id}-url`}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/encore-events"
          required
        />
        <label htmlFor={`${id}-description`}>Description</label>
        <input id={`${id}-description`} value={description} onChange={(e) => setDescription(e.target.value)} />
        <EventTypeChoice chosen={types} onChange={setTypes} />
        <button type="submit" disabled={create.isPending || types.length === 0}>
          Add endpoint
        </button>
      </form>
      <ErrorNote error={create.error} />
    </section>
  );
}
