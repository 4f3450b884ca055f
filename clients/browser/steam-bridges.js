// The Steam side of a purchase behind one interface:
//   getWebApiTicket(identity) -> Promise<hex>, gameLanguage() -> "english" | ...,
//   onAuthorizationResponse((appId, orderId, authorized) => {})   (every order, every listener)

/**
 * Electron or NW.js with steamworks.js (https://github.com/ceifa/steamworks.js), in the process
 * that called `init(appId)`:
 *   client.auth.getAuthTicketForWebApi(identity) -> ticket.getBytes()
 *   client.callback.register(SteamCallback.MicroTxnAuthorizationResponse, cb)
 *   client.apps.currentGameLanguage()
 * Check that your steamworks.js version lists MicroTxnAuthorizationResponse in SteamCallback;
 * in Electron, call this in the main process and forward the callback over IPC.
 */
export function createSteamworksJsSteam(client) {
  return {
    async getWebApiTicket(identity) {
      const ticket = await client.auth.getAuthTicketForWebApi(identity);
      return Buffer.from(ticket.getBytes()).toString("hex").toUpperCase();
    },
    gameLanguage: () => client.apps.currentGameLanguage(),
    onAuthorizationResponse(listener) {
      client.callback.register(client.callback.SteamCallback.MicroTxnAuthorizationResponse, (event) =>
        listener(event.app_id, String(event.order_id), Boolean(event.authorized)),
      );
    },
  };
}

/**
 * Steam played by the Encore Steam simulator, for `npm run dev` and tests. `controlUrl` is the
 * dev page server's same-origin pass-through to the simulator's /_sim control API. The overlay
 * is drawn by the page (`showOverlay(orderId)` resolves with "approve", "decline" or
 * "dismiss"); the simulator is told the answer, then the callback is delivered as Steam would.
 */
export function createSimulatorSteam({ controlUrl, appId, steamid, language, showOverlay }) {
  const listeners = [];
  const control = async (path, body) => {
    const response = await fetch(`${controlUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`simulator ${path}: ${response.status}`);
    return response.json();
  };
  return {
    async getWebApiTicket(identity) {
      return (await control("/tickets", { steamid, appid: appId, identity })).ticket;
    },
    gameLanguage: () => language,
    onAuthorizationResponse(listener) {
      listeners.push(listener);
    },
    /** A callback for another order, as Steam delivers every order's answer to every listener. */
    deliverOtherOrderCallback(orderId) {
      for (const listener of listeners) listener(appId, String(orderId), true);
    },
    /** What the Steam client does once InitTxn opened the order: show the overlay. */
    async playOverlay(orderId) {
      const answer = await showOverlay(orderId);
      if (answer !== "dismiss") await control(`/orders/live/${orderId}/${answer}`, {});
      for (const listener of listeners) listener(appId, String(orderId), answer === "approve");
    },
  };
}
