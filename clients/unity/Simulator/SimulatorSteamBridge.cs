using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Encore.Campaigns.Simulator
{
    /// <summary>
    /// Steam played by the Encore Steam simulator (docs/steam-simulator.md), for tests and for
    /// `npm run dev`: the ticket comes from its control API; AnswerOverlayAsync tells the
    /// simulator what the player did in the overlay and then raises the same callback Steam would.
    /// </summary>
    public sealed class SimulatorSteamBridge : ISteamBridge
    {
        readonly IHttpTransport transport;
        readonly string simUrl;
        readonly uint appId;
        readonly string steamid;

        public string GameLanguage { get; set; }
        public event Action<uint, ulong, bool> AuthorizationResponse;

        public SimulatorSteamBridge(IHttpTransport transport, string simUrl, uint appId, string steamid)
        {
            this.transport = transport;
            this.simUrl = simUrl.TrimEnd('/');
            this.appId = appId;
            this.steamid = steamid;
            GameLanguage = "english";
        }

        public async Task<string> GetWebApiTicketAsync(string identity)
        {
            var answer = await Control("/_sim/tickets", new Dictionary<string, object>
            {
                { "steamid", steamid }, { "appid", (long)appId }, { "identity", identity },
            });
            if (answer == null) throw new SteamTicketException("the simulator gave no ticket");
            return Field.Text(answer, "ticket");
        }

        /// <summary>
        /// "approve", "decline", or "dismiss" (the overlay closed without an answer: Steam reports
        /// authorized = false and the order stays open).
        /// </summary>
        public async Task AnswerOverlayAsync(string orderId, string answer)
        {
            if (answer != "dismiss")
            {
                var done = await Control("/_sim/orders/live/" + orderId + "/" + answer, new Dictionary<string, object>());
                if (done == null) throw new InvalidOperationException("the simulator refused " + answer);
            }
            Raise(ulong.Parse(orderId), answer == "approve");
        }

        /// <summary>A callback for another order, as Steam delivers every answer to every listener.</summary>
        public void DeliverOtherOrderCallback(string orderId)
        {
            Raise(ulong.Parse(orderId), true);
        }

        /// <summary>
        /// Arms one of the simulator's faults (docs/steam-simulator.md "Faults"): `times` matching
        /// calls; `status` for http5xx.
        /// </summary>
        public async Task<bool> InjectFaultAsync(string call, string kind, int times = 1, int status = 500)
        {
            var fault = new Dictionary<string, object>
            {
                { "call", call }, { "kind", kind }, { "times", (long)times }, { "status", (long)status },
            };
            return await Control("/_sim/faults", fault) != null;
        }

        void Raise(ulong orderId, bool authorized)
        {
            var handler = AuthorizationResponse;
            if (handler != null) handler(appId, orderId, authorized);
        }

        async Task<Dictionary<string, object>> Control(string path, Dictionary<string, object> body)
        {
            var answer = await transport.PostJsonAsync(simUrl + path, Json.Write(body));
            return answer.Status == 200 ? Json.Parse(answer.Body) as Dictionary<string, object> : null;
        }
    }
}
