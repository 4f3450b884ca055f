import type { Duration } from "@bufbuild/protobuf/wkt";
import { useMutation, useQuery } from "@connectrpc/connect-query";
import {
  type WebhookDelivery,
  WebhookDelivery_State,
  type WebhookEndpoint,
  WebhookService,
} from "@encore-campaigns/client";
import { useCaller } from "../caller";
import { formatTime } from "../time";
import { WEBHOOK_DELIVERY_STATE } from "../words";
import { Pager, usePages } from "./pager";
import { Done, Empty, ErrorNote, Loading } from "./status";
import { TableScroll } from "./table-scroll";

// An endpoint's deliveries, newest first (ListWebhookDeliveries), 20 a page, read again every
// five seconds: what the last attempt came to, and when the next one is due; redeliver.

const PAGE_SIZE = 20;

function formatLatency(latency: Duration | undefined): string {
  if (!latency) return "—";
  return `${Number(latency.seconds) * 1000 + Math.round(latency.nanos / 1_000_000)} ms`;
}

export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const pages = usePages();
  const { pageToken } = pages;
  const deliveries = useQuery(
    WebhookService.method.listWebhookDeliveries,
    { parent: endpoint.name, pageSize: PAGE_SIZE, pageToken },
    { refetchInterval: 5000 },
  );
  if (deliveries.isPending) return <Loading what="deliveries" />;
  if (!deliveries.data) return <ErrorNote error={deliveries.error} />;
  const page = deliveries.data;
  return (
    <>
      {page.webhookDeliveries.length === 0 ? (
        <Empty>Nothing sent to this endpoint yet.</Empty>
      ) : (
        <TableScroll label={`Deliveries to ${endpoint.url}`}>
          <table className="deliveries">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Status code</th>
                <th scope="col">Latency</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last attempt</th>
                <th scope="col">Next retry</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.webhookDeliveries.map((delivery) => (
                // A refusal shown under a row goes once the endpoint's state changes (enabled again).
                <DeliveryRow key={`${delivery.name}:${endpoint.state}`} delivery={delivery} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager label={`Pages of deliveries to ${endpoint.url}`} pages={pages} nextPageToken={page.nextPageToken} />
    </>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const { can } = useCaller();
  const redeliver = useMutation(WebhookService.method.redeliverWebhookDelivery);
  const failed = delivery.state !== WebhookDelivery_State.SUCCEEDED;
  return (
    <tr>
      <th scope="row">
        {delivery.eventType}
        <br />
        <code className="meta">{delivery.eventId}</code>
        <br />
        <span className="meta">{formatTime(delivery.createTime)}</span>
      </th>
      <td className={failed ? "warn" : "ok"}>
        {WEBHOOK_DELIVERY_STATE[delivery.state]}
        {delivery.error && (
          <>
            <br />
            {delivery.error}
          </>
        )}
      </td>
      <td>{delivery.statusCode || "No response"}</td>
      <td>{formatLatency(delivery.latency)}</td>
      <td>{delivery.attemptCount}</td>
      <td>{formatTime(delivery.lastAttemptTime)}</td>
      <td>{delivery.state === WebhookDelivery_State.PENDING ? formatTime(delivery.nextAttemptTime) : "—"}</td>
      <td>
        {can("webhook.deliveries.redeliver") && (
          <button
            type="button"
            className="secondary"
            disabled={redeliver.isPending}
            onClick={() => redeliver.mutate({ name: delivery.name })}
            aria-label={`Redeliver ${delivery.eventType} ${delivery.eventId}`}
          >
            Redeliver
          </button>
        )}
        {redeliver.isSuccess && <Done>Queued again.</Done>}
        <ErrorNote error={redeliver.error} />
      </td>
    </tr>
  );
}
