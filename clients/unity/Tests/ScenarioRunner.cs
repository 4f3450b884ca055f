using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;
using Encore.Campaigns.Simulator;

namespace Encore.Campaigns.Tests
{
    /// <summary>
    /// The game-client scenarios of issue 12 (the same as clients/godot/tests/scenarios.gd),
    /// played through the core exactly as a game would use it, with Steam played by the
    /// simulator. Prints `SCENARIO &lt;name&gt; OK &lt;json&gt;` or `SCENARIO &lt;name&gt; FAIL &lt;why&gt;`
    /// (test/games/game-harness.ts reads them) and exits non-zero when any failed.
    /// </summary>
    public static class ScenarioRunner
    {
        // Another game's order: its callback reaches this listener too and must change nothing.
        const string OtherOrder = "1234567890123";
        const string Offers = "/v1/public/offers:list";
        const string Begin = "/v1/public/purchases:begin";
        const string Complete = "/v1/public/purchases:complete";
        static readonly HttpClient control = new HttpClient { Timeout = TimeSpan.FromSeconds(15) };

        static int failures;
        static string nextAnswer = "approve";
        static bool foreignCallback;
        static readonly List<string> ignored = new List<string>();
        static readonly List<KeyValuePair<string, int>> retries = new List<KeyValuePair<string, int>>();
        static SimulatorSteamBridge steam;
        static string offerId;
        static EncoreCampaignClient campaigns;
        // early-callback: whether the callback had been delivered when the client announced the order.
        static volatile bool delivered;
        static bool? deliveredBeforeBegin;

        public static int Main()
        {
            var transport = new HttpClientTransport();
            steam = new SimulatorSteamBridge(transport, Env("STEAM_SIM_URL"), uint.Parse(Env("STEAM_APP_ID")), Env("STEAM_ID"))
            {
                GameLanguage = "schinese",
            };
            offerId = Env("ENCORE_OFFER_ID");
            campaigns = Client(transport, Env("ENCORE_BASE_URL"));
            var limited = Client(transport, Env("ENCORE_LIMITED_BASE_URL"));
            campaigns.CallbackIgnored += order => { lock (ignored) ignored.Add(order); };
            Run("language", () => Task.FromResult(Language()));
            Run("buy", () => Buy(campaigns));
            Run("decline", () => SayNo(campaigns, "decline"));
            Run("dismiss", () => SayNo(campaigns, "dismiss"));
            Run("rate-limited", () => RateLimited(limited));
            Run("begin-503", () => Begin503(campaigns));
            Run("offers-retry", OffersRetry);
            Run("begin-retry", BeginRetry);
            Run("complete-retry", CompleteRetry);
            Run("settles-late", SettlesLate);
            Run("never-settles", NeverSettles);
            Run("callback-timeout", () => CallbackTimeout(transport));
            Run("early-callback", EarlyCallback);
            return failures > 0 ? 1 : 0;
        }

        static EncoreCampaignClient Client(IHttpTransport transport, string baseUrl)
        {
            // Fast backoff and polling keep the run short; the rules (and the ten polls) are the same.
            var client = new EncoreCampaignClient(new EncoreClientOptions
            {
                BaseUrl = baseUrl,
                CampaignKey = Env("ENCORE_CAMPAIGN_KEY"),
                Transport = transport,
                Steam = steam,
                Retry = new RetryPolicy
                {
                    MaxAttempts = 6,
                    InitialBackoff = Milliseconds("ENCORE_RETRY_INITIAL_BACKOFF_MS"),
                    MaxBackoff = TimeSpan.FromSeconds(2),
                },
            });
            client.PollInterval = Milliseconds("ENCORE_POLL_INTERVAL_MS");
            client.Retrying += (path, attempt, status, delay) => { lock (retries) retries.Add(new KeyValuePair<string, int>(path, status)); };
            // The overlay is up: first another order's callback (must be ignored), then the player's
            // answer ("none": the player does not answer, or already did).
            client.PurchaseStarted += order =>
            {
                deliveredBeforeBegin = delivered;
                if (foreignCallback)
                {
                    foreignCallback = false;
                    steam.DeliverOtherOrderCallback(OtherOrder);
                }
                var answer = nextAnswer;
                if (answer != "none") Task.Run(() => steam.AnswerOverlayAsync(order, answer));
            };
            return client;
        }

        static Dictionary<string, object> Language()
        {
            var cases = new Dictionary<string, string>
            {
                { "english", "en" }, { "schinese", "zh" }, { "tchinese", "zh" }, { "koreana", "ko" },
                { "brazilian", "pt" }, { "latam", "es" }, { "pt-BR", "pt" }, { "klingon", "en" },
            };
            foreach (var pair in cases)
            {
                var iso = SteamLanguage.ToIso(pair.Key);
                if (iso != pair.Value) throw new Exception(pair.Key + " -> " + iso + ", expected " + pair.Value);
            }
            return new Dictionary<string, object>();
        }

        static async Task<Dictionary<string, object>> Buy(EncoreCampaignClient campaigns)
        {
            var before = await campaigns.GetFundingAsync();
            var offers = await campaigns.ListOffersAsync();
            if (!offers.Purchasable || offers.Offers.Count < 1) throw new Exception("nothing to buy");
            if (offers.Offers[0].OfferId != offerId) throw new Exception("first offer is " + offers.Offers[0].OfferId);
            nextAnswer = "approve";
            foreignCallback = true;
            lock (ignored) ignored.Clear();
            var result = await campaigns.BuyAsync(offers.Offers[0].OfferId);
            if (result.Outcome != PurchaseOutcome.Credited) throw new Exception("ended " + Describe(result));
            lock (ignored)
            {
                return new Dictionary<string, object>
                {
                    { "orderId", result.OrderId }, { "state", result.State },
                    { "balanceBeforeUnits", before.Balance.Units }, { "balanceAfterUnits", result.Funding.Balance.Units },
                    { "ignoredOrders", new List<string>(ignored) },
                };
            }
        }

        static async Task<Dictionary<string, object>> SayNo(EncoreCampaignClient campaigns, string answer)
        {
            nextAnswer = answer;
            var result = await campaigns.BuyAsync(offerId);
            if (result.Outcome != PurchaseOutcome.Cancelled) throw new Exception("ended " + Describe(result));
            return new Dictionary<string, object> { { "orderId", result.OrderId }, { "state", result.State }, { "outcome", "cancelled" } };
        }

        static async Task<Dictionary<string, object>> RateLimited(EncoreCampaignClient limited)
        {
            lock (retries) retries.Clear();
            for (var i = 0; i < 5; i++) await limited.GetFundingAsync();
            var on429 = 0;
            lock (retries) foreach (var retry in retries) if (retry.Value == 429) on429++;
            if (on429 == 0) throw new Exception("no 429 was met");
            return new Dictionary<string, object> { { "reads", 5 }, { "retriesOn429", on429 } };
        }

        static async Task<Dictionary<string, object>> Begin503(EncoreCampaignClient campaigns)
        {
            // Steam opens the order, but its reply to the service is lost: begin answers 503.
            if (!await steam.InjectFaultAsync("InitTxn", "resetAfterCommit")) throw new Exception("could not arm the fault");
            lock (retries) retries.Clear();
            nextAnswer = "approve";
            var result = await campaigns.BuyAsync(offerId);
            if (result.Outcome != PurchaseOutcome.Credited) throw new Exception("ended " + Describe(result));
            var on503 = 0;
            lock (retries) foreach (var retry in retries) if (retry.Key == "/v1/public/purchases:begin" && retry.Value == 503) on503++;
            if (on503 != 1) throw new Exception("begin retried " + on503 + " times on 503");
            return new Dictionary<string, object>
            {
                { "orderId", result.OrderId }, { "requestId", result.RequestId }, { "beginAttempts", result.BeginAttempts },
            };
        }

        static async Task<Dictionary<string, object>> OffersRetry()
        {
            // The gateway answers 502, then drops the connection; the third attempt reaches the service.
            await Gateway(HttpMethod.Post, "/faults", Fault(Offers, "status", 502, false));
            await Gateway(HttpMethod.Post, "/faults", Fault(Offers, "reset", 0, false));
            lock (retries) retries.Clear();
            var list = await campaigns.ListOffersAsync();
            return new Dictionary<string, object> { { "offers", list.Offers.Count }, { "retried", RetriedOn(Offers) } };
        }

        static async Task<Dictionary<string, object>> BeginRetry()
        {
            // The service opened the order each time; the gateway lost its answer (502, then a reset).
            await Gateway(HttpMethod.Post, "/faults", Fault(Begin, "status", 502, true));
            await Gateway(HttpMethod.Post, "/faults", Fault(Begin, "reset", 0, true));
            var result = await ApprovedBuy();
            if (result.Outcome != PurchaseOutcome.Credited) throw new Exception("ended " + Describe(result));
            return new Dictionary<string, object>
            {
                { "orderId", result.OrderId }, { "requestId", result.RequestId },
                { "beginAttempts", result.BeginAttempts }, { "retried", RetriedOn(Begin) },
            };
        }

        static async Task<Dictionary<string, object>> CompleteRetry()
        {
            // The service credited, the gateway answered 504; then a reset before the service saw it.
            await Gateway(HttpMethod.Post, "/faults", Fault(Complete, "status", 504, true));
            await Gateway(HttpMethod.Post, "/faults", Fault(Complete, "reset", 0, false));
            var result = await ApprovedBuy();
            if (result.Outcome != PurchaseOutcome.Credited) throw new Exception("ended " + Describe(result));
            return new Dictionary<string, object>
            {
                { "orderId", result.OrderId }, { "outcome", "credited" }, { "retried", RetriedOn(Complete) },
            };
        }

        static async Task<Dictionary<string, object>> SettlesLate()
        {
            // Steam's FinalizeTxn is unavailable twice: complete answers STATE_AUTHORIZED until it is not.
            if (!await steam.InjectFaultAsync("FinalizeTxn", "http5xx", 2, 503)) throw new Exception("could not arm the fault");
            var result = await ApprovedBuy();
            if (result.Outcome != PurchaseOutcome.Credited) throw new Exception("ended " + Describe(result));
            return new Dictionary<string, object>
            {
                { "orderId", result.OrderId }, { "outcome", "credited" }, { "state", result.State }, { "polls", result.Polls },
            };
        }

        static async Task<Dictionary<string, object>> NeverSettles()
        {
            // More FinalizeTxn failures than the client ever polls: it stops, pending.
            if (!await steam.InjectFaultAsync("FinalizeTxn", "http5xx", 20, 503)) throw new Exception("could not arm the fault");
            PurchaseResult result;
            try
            {
                result = await ApprovedBuy();
            }
            finally
            {
                await Send(HttpMethod.Delete, Env("STEAM_SIM_URL") + "/_sim/faults", null);
            }
            if (result.Outcome != PurchaseOutcome.Pending) throw new Exception("ended " + Describe(result));
            return new Dictionary<string, object>
            {
                { "orderId", result.OrderId }, { "outcome", "pending" }, { "state", result.State },
                { "polls", result.Polls }, { "reason", result.Reason ?? "" },
            };
        }

        static async Task<Dictionary<string, object>> CallbackTimeout(IHttpTransport transport)
        {
            // The overlay is up and Steam never answers within the client's timeout; the player's
            // approval that comes afterwards finds the client no longer listening.
            var patient = Client(transport, Env("ENCORE_BASE_URL"));
            var timeoutMs = int.Parse(Env("ENCORE_AUTHORIZATION_TIMEOUT_MS"));
            patient.AuthorizationTimeout = TimeSpan.FromMilliseconds(timeoutMs);
            var late = new List<string>();
            patient.CallbackIgnored += order => { lock (late) late.Add(order); };
            nextAnswer = "none";
            var result = await patient.BuyAsync(offerId);
            if (result.Outcome != PurchaseOutcome.TimedOut) throw new Exception("ended " + Describe(result));
            await steam.AnswerOverlayAsync(result.OrderId, "approve");
            lock (late)
            {
                return new Dictionary<string, object>
                {
                    { "orderId", result.OrderId }, { "outcome", "timed_out" }, { "timeoutMs", timeoutMs },
                    { "ignoredOrders", new List<string>(late) },
                };
            }
        }

        static async Task<Dictionary<string, object>> EarlyCallback()
        {
            // The gateway holds begin's answer; meanwhile the player approves and Steam's callback comes.
            await Gateway(HttpMethod.Post, "/faults", new Dictionary<string, object> { { "path", Begin }, { "kind", "hold" } });
            nextAnswer = "none";
            delivered = false;
            deliveredBeforeBegin = null;
            var buying = campaigns.BuyAsync(offerId);
            List<object> held = new List<object>();
            for (var i = 0; i < 200 && held.Count == 0; i++)
            {
                await Task.Delay(50);
                held = Field.List(await Gateway(HttpMethod.Get, "/held", null), "held");
            }
            if (held.Count != 1) throw new Exception("the gateway holds " + held.Count + " answers");
            var order = Field.Text(Field.Object(held[0] as Dictionary<string, object>, "body"), "orderId");
            await steam.AnswerOverlayAsync(order, "approve");
            delivered = true;
            await Gateway(HttpMethod.Post, "/release", new Dictionary<string, object>());
            var result = await buying;
            if (result.Outcome != PurchaseOutcome.Credited) throw new Exception("ended " + Describe(result));
            return new Dictionary<string, object>
            {
                { "orderId", result.OrderId }, { "outcome", "credited" }, { "overlayAnsweredBeforeBegin", deliveredBeforeBegin },
            };
        }

        static Task<PurchaseResult> ApprovedBuy()
        {
            lock (retries) retries.Clear();
            nextAnswer = "approve";
            return campaigns.BuyAsync(offerId);
        }

        static List<int> RetriedOn(string path)
        {
            var statuses = new List<int>();
            lock (retries) foreach (var retry in retries) if (retry.Key == path) statuses.Add(retry.Value);
            return statuses;
        }

        static Dictionary<string, object> Fault(string path, string kind, int status, bool forward)
        {
            var fault = new Dictionary<string, object> { { "path", path }, { "kind", kind }, { "forward", forward } };
            if (status != 0) fault["status"] = status;
            return fault;
        }

        /// <summary>The gateway in front of the service (test/games/service-gateway.ts).</summary>
        static Task<Dictionary<string, object>> Gateway(HttpMethod method, string path, Dictionary<string, object> body)
        {
            return Send(method, Env("ENCORE_GATEWAY_URL") + "/_gateway" + path, body);
        }

        static async Task<Dictionary<string, object>> Send(HttpMethod method, string url, Dictionary<string, object> body)
        {
            using (var request = new HttpRequestMessage(method, url))
            {
                if (body != null) request.Content = new StringContent(Json.Write(body), Encoding.UTF8, "application/json");
                using (var response = await control.SendAsync(request))
                {
                    var text = await response.Content.ReadAsStringAsync();
                    if (!response.IsSuccessStatusCode) throw new Exception(method + " " + url + ": " + (int)response.StatusCode + " " + text);
                    return Json.Parse(text) as Dictionary<string, object>;
                }
            }
        }

        static TimeSpan Milliseconds(string name)
        {
            return TimeSpan.FromMilliseconds(int.Parse(Env(name)));
        }

        static void Run(string name, Func<Task<Dictionary<string, object>>> scenario)
        {
            try
            {
                var facts = scenario().GetAwaiter().GetResult();
                Console.WriteLine("SCENARIO " + name + " OK " + Json.Write(facts));
            }
            catch (Exception e)
            {
                failures++;
                Console.WriteLine("SCENARIO " + name + " FAIL " + e.Message.Replace('\n', ' '));
            }
        }

        static string Describe(PurchaseResult result)
        {
            return result.Outcome + " state=" + result.State + " reason=" + result.Reason + " order=" + result.OrderId;
        }

        static string Env(string name)
        {
            var value = Environment.GetEnvironmentVariable(name);
            if (string.IsNullOrEmpty(value)) throw new InvalidOperationException(name + " is not set");
            return value;
        }
    }
}
