import type { DemoShop } from "./seed-demo.js";

/**
 * A copy-paste shell session that buys credit end to end: a ticket as the game would get it,
 * begin, the player's approval in the overlay (the simulator), complete -> STATE_CREDITED.
 * Plain curl and sed, so it needs nothing else installed.
 */
export function demoCommands(apiUrl: string, simUrl: string, shop: DemoShop): string {
  const json = "-H 'content-type: application/json'";
  return [
    `API=${apiUrl}`,
    `SIM=${simUrl}`,
    `KEY=${shop.campaignKey}`,
    "",
    "# What the game shows: funding and offers",
    `curl -s -X POST "$API/v1/public/funding:get" ${json} -d "{\\"campaignKey\\":\\"$KEY\\"}"; echo`,
    `curl -s -X POST "$API/v1/public/offers:list" ${json} -d "{\\"campaignKey\\":\\"$KEY\\"}"; echo`,
    "",
    "# 1. The player's ticket for identity encore-campaign (the game gets it from Steam)",
    `TICKET=$(curl -s -X POST "$SIM/_sim/tickets" ${json} -d '{"steamid":"${shop.steamid}","appid":${shop.appId},"identity":"encore-campaign"}' | sed -E 's/.*"ticket":"([^"]+)".*/\\1/')`,
    "",
    "# 2. Begin: opens the order; Steam shows the overlay",
    `BEGIN=$(curl -s -X POST "$API/v1/public/purchases:begin" ${json} -d "{\\"campaignKey\\":\\"$KEY\\",\\"offerId\\":\\"${shop.offerId}\\",\\"authTicket\\":\\"$TICKET\\",\\"language\\":\\"english\\",\\"requestId\\":\\"demo-$(date +%s%N)\\"}"); echo "$BEGIN"`,
    `PURCHASE=$(echo "$BEGIN" | sed -E 's/.*"purchase":"([^"]+)".*/\\1/'); ORDER=$(echo "$BEGIN" | sed -E 's/.*"orderId":"([^"]+)".*/\\1/')`,
    "",
    "# 3. The player approves in the overlay",
    `curl -s -X POST "$SIM/_sim/orders/live/$ORDER/approve" >/dev/null`,
    "",
    "# 4. Complete: the service finalises with Steam and credits the project -> STATE_CREDITED",
    `curl -s -X POST "$API/v1/public/purchases:complete" ${json} -d "{\\"campaignKey\\":\\"$KEY\\",\\"purchase\\":\\"$PURCHASE\\",\\"orderId\\":\\"$ORDER\\",\\"authorized\\":true}"; echo`,
  ].join("\n");
}
