import { useQuery } from "@connectrpc/connect-query";
import { CampaignService, Purchase_Reversal_Kind } from "@encore-campaigns/client";
import { formatUsd } from "../money";
import { formatTime } from "../time";
import { PURCHASE_CHANNEL, PURCHASE_STATE } from "../words";
import { Pager, usePages } from "./pager";
import { Empty, ErrorNote, Loading } from "./status";
import { TableScroll } from "./table-scroll";

// A campaign's purchases, newest first (ListPurchases), a page at a time.

const REVERSAL: Record<Purchase_Reversal_Kind, string> = {
  [Purchase_Reversal_Kind.UNSPECIFIED]: "Taken back",
  [Purchase_Reversal_Kind.REFUNDED]: "Refunded",
  [Purchase_Reversal_Kind.PARTIAL_REFUND]: "Partly refunded",
  [Purchase_Reversal_Kind.CHARGEDBACK]: "Charged back",
  [Purchase_Reversal_Kind.REFUNDED_SUSPECTED_FRAUD]: "Refunded (suspected fraud)",
  [Purchase_Reversal_Kind.REFUNDED_FRIENDLY_FRAUD]: "Refunded (friendly fraud)",
};

export function PurchaseTable({
  campaign,
  pageSize,
  filter = "",
  paged = false,
}: {
  campaign: string;
  pageSize: number;
  filter?: string;
  paged?: boolean;
}) {
  const pages = usePages(filter);
  const { pageToken } = pages;
  const purchases = useQuery(
    CampaignService.method.listPurchases,
    { parent: campaign, pageSize, pageToken, filter },
    { refetchInterval: 5000 },
  );
  if (purchases.isPending) return <Loading what="purchases" />;
  if (!purchases.data) return <ErrorNote error={purchases.error} />;
  const page = purchases.data;
  return (
    <>
      {page.purchases.length === 0 ? (
        <Empty>{filter ? "No purchase matches these filters." : "No purchases yet."}</Empty>
      ) : (
        <TableScroll label="Purchases">
          <table className="purchases">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">State</th>
                <th scope="col">Bought in</th>
                <th scope="col">Price</th>
                <th scope="col">Credit</th>
                <th scope="col">Steam order</th>
                <th scope="col">Player</th>
              </tr>
            </thead>
            <tbody>
              {page.purchases.map((purchase) => (
                <tr key={purchase.name}>
                  <th scope="row">{formatTime(purchase.createTime)}</th>
                  <td>
                    {PURCHASE_STATE[purchase.state]}
                    {purchase.sandbox && " (sandbox)"}
                    {purchase.reversal && `; ${REVERSAL[purchase.reversal.kind]}`}
                  </td>
                  <td>{PURCHASE_CHANNEL[purchase.channel]}</td>
                  <td>{formatUsd(purchase.price)}</td>
                  <td>{formatUsd(purchase.credit)}</td>
                  <td>{purchase.orderId.toString()}</td>
                  <td>{purchase.playerId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {paged && <Pager label="Pages of purchases" pages={pages} nextPageToken={page.nextPageToken} />}
    </>
  );
}
