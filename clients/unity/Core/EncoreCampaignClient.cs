using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Encore.Campaigns
{
    /// <summary>
    /// The Encore Campaigns client for a game: the four public calls and the rules a game must
    /// keep (spec 3.1, 4.3 to 4.5). No UnityEngine here; Unity/ holds the adapter.
    /// </summary>
    public sealed class EncoreCampaignClient
    {
        public const string TicketIdentity = "encore-campaign";

        readonly string campaignKey;
        readonly ISteamBridge steam;
        readonly RetryingCaller caller;
        readonly Func<TimeSpan, Task> delay;
        readonly object gate = new object();
        // The order whose callback is awaited; "" while begin is in flight (callbacks are kept).
        string awaitedOrder;
        TaskCompletionSource<bool> authorization;
        readonly Dictionary<string, bool> earlyCallbacks = new Dictionary<string, bool>();
        int buying;

        /// <summary>Spec 3.1 / 8: poll complete for CREDITED about every two seconds, about ten times.</summary>
        public TimeSpan PollInterval = TimeSpan.FromSeconds(2);
        public int MaxPolls = 10;
        /// <summary>
        /// How long the player may take in the overlay: without Steam's answer by then, BuyAsync
        /// stops listening for the order and ends TimedOut.
        /// </summary>
        public TimeSpan AuthorizationTimeout = TimeSpan.FromMinutes(5);

        /// <summary>The overlay is up for this order.</summary>
        public event Action<string> PurchaseStarted;
        /// <summary>A Steam callback for an order this client is not buying (spec 4.3 rule 4).</summary>
        public event Action<string> CallbackIgnored;
        /// <summary>(path, attempt, HTTP status or 0, backoff) before each retry.</summary>
        public event Action<string, int, int, TimeSpan> Retrying
        {
            add { caller.Retrying += value; }
            remove { caller.Retrying -= value; }
        }

        public EncoreCampaignClient(EncoreClientOptions options)
        {
            if (options.Transport == null || options.Steam == null || string.IsNullOrEmpty(options.BaseUrl) || string.IsNullOrEmpty(options.CampaignKey))
                throw new ArgumentException("BaseUrl, CampaignKey, Transport and Steam are required");
            campaignKey = options.CampaignKey;
            steam = options.Steam;
            delay = options.Delay ?? (span => Task.Delay(span));
            caller = new RetryingCaller(options.Transport, options.BaseUrl, options.Retry ?? new RetryPolicy(), delay);
            steam.AuthorizationResponse += OnAuthorization;
        }

        public async Task<Funding> GetFundingAsync()
        {
            var answer = await caller.PostAsync("/v1/public/funding:get", Key(), true);
            return WireMapper.Funding(answer.Key);
        }

        public async Task<OfferList> ListOffersAsync()
        {
            var answer = await caller.PostAsync("/v1/public/offers:list", Key(), true);
            return WireMapper.Offers(answer.Key);
        }

        /// <summary>
        /// Buys one offer: ticket, begin (retried on its requestId), the player's answer in the
        /// overlay, complete (polled for CREDITED). Refusals and errors end as Failed with a
        /// Reason; the player saying no ends as Cancelled.
        /// </summary>
        public async Task<PurchaseResult> BuyAsync(string offerId)
        {
            // One purchase at a time: the callback is matched to the one order being bought.
            if (Interlocked.Exchange(ref buying, 1) == 1)
                return new PurchaseResult { Outcome = PurchaseOutcome.Failed, Reason = "PURCHASE_IN_PROGRESS" };
            try
            {
                return await BuyOnceAsync(offerId);
            }
            finally
            {
                Interlocked.Exchange(ref buying, 0);
            }
        }

        async Task<PurchaseResult> BuyOnceAsync(string offerId)
        {
            string ticket;
            try
            {
                ticket = await steam.GetWebApiTicketAsync(TicketIdentity);
            }
            catch (SteamTicketException e)
            {
                return new PurchaseResult { Outcome = PurchaseOutcome.Failed, Reason = "NO_STEAM_TICKET", State = e.Message };
            }
            // Spec 4.3 rule 3 / 4.5: a fresh requestId per attempt makes begin safe to retry.
            var result = new PurchaseResult { RequestId = Guid.NewGuid().ToString() };
            lock (gate)
            {
                earlyCallbacks.Clear();
                awaitedOrder = "";
                authorization = new TaskCompletionSource<bool>();
            }
            Dictionary<string, object> handle;
            try
            {
                var body = Key();
                body["offerId"] = offerId;
                body["authTicket"] = ticket;
                body["language"] = SteamLanguage.ToIso(steam.GameLanguage);
                body["requestId"] = result.RequestId;
                var begin = await caller.PostAsync("/v1/public/purchases:begin", body, true);
                handle = begin.Key;
                result.BeginAttempts = begin.Value;
            }
            catch (EncoreException e)
            {
                lock (gate) awaitedOrder = null;
                result.Outcome = PurchaseOutcome.Failed;
                result.Reason = e.Reason;
                result.BeginAttempts = e.Attempts;
                return result;
            }
            result.OrderId = Field.Text(handle, "orderId");
            var purchase = Field.Text(handle, "purchase");

            // The overlay may answer before begin's response arrived (spec 3.1): keep that answer.
            Task<bool> answered;
            var others = new List<string>();
            lock (gate)
            {
                bool early;
                if (earlyCallbacks.TryGetValue(result.OrderId, out early))
                {
                    awaitedOrder = null;
                    authorization.TrySetResult(early);
                }
                else awaitedOrder = result.OrderId;
                foreach (var order in earlyCallbacks.Keys) if (order != result.OrderId) others.Add(order);
                earlyCallbacks.Clear();
                answered = authorization.Task;
            }
            foreach (var order in others) Raise(CallbackIgnored, order);
            Raise(PurchaseStarted, result.OrderId);
            if (await Task.WhenAny(answered, delay(AuthorizationTimeout)) != answered)
            {
                lock (gate)
                {
                    // Steam never answered: stop listening for this order, unless it answered
                    // just now. Nothing is completed here; if the player approves later, the
                    // service settles the order on its own (spec 3.1).
                    if (awaitedOrder == result.OrderId) awaitedOrder = null;
                }
                if (!answered.IsCompleted)
                {
                    result.Outcome = PurchaseOutcome.TimedOut;
                    return result;
                }
            }
            return await CompleteAsync(result, purchase, answered.Result);
        }

        async Task<PurchaseResult> CompleteAsync(PurchaseResult result, string purchase, bool authorized)
        {
            try
            {
                var state = await Complete(result, purchase, authorized);
                while (state == "STATE_AUTHORIZED" && result.Polls < MaxPolls)
                {
                    result.Polls++;
                    await delay(PollInterval);
                    state = await Complete(result, purchase, true);
                }
                switch (state)
                {
                    case "STATE_CREDITED": result.Outcome = PurchaseOutcome.Credited; break;
                    case "STATE_AUTHORIZED": result.Outcome = PurchaseOutcome.Pending; break;
                    case "STATE_CANCELLED":
                    case "STATE_INITIATED": result.Outcome = PurchaseOutcome.Cancelled; break;
                    default:
                        result.Outcome = PurchaseOutcome.Failed;
                        result.Reason = "STATE_FAILED";
                        break;
                }
            }
            catch (EncoreException e)
            {
                result.Outcome = PurchaseOutcome.Failed;
                result.Reason = e.Reason;
            }
            return result;
        }

        async Task<string> Complete(PurchaseResult result, string purchase, bool authorized)
        {
            var body = Key();
            body["purchase"] = purchase;
            body["orderId"] = result.OrderId;
            body["authorized"] = authorized;
            var answer = await caller.PostAsync("/v1/public/purchases:complete", body, true);
            result.State = Field.Text(answer.Key, "state");
            result.Funding = WireMapper.Funding(Field.Object(answer.Key, "funding"));
            return result.State;
        }

        void OnAuthorization(uint appId, ulong orderId, bool authorized)
        {
            var order = orderId.ToString();
            TaskCompletionSource<bool> matched = null;
            lock (gate)
            {
                if (awaitedOrder == "")
                {
                    earlyCallbacks[order] = authorized;
                    return;
                }
                if (awaitedOrder != null && awaitedOrder == order)
                {
                    awaitedOrder = null;
                    matched = authorization;
                }
            }
            if (matched != null) matched.TrySetResult(authorized);
            else Raise(CallbackIgnored, order);
        }

        Dictionary<string, object> Key()
        {
            return new Dictionary<string, object> { { "campaignKey", campaignKey } };
        }

        static void Raise(Action<string> handler, string value)
        {
            if (handler != null) handler(value);
        }
    }

    public sealed class EncoreClientOptions
    {
        /// <summary>The service, e.g. "https://encore.example" (no trailing path).</summary>
        public string BaseUrl;
        /// <summary>The campaign key that ships in the game.</summary>
        public string CampaignKey;
        public IHttpTransport Transport;
        public ISteamBridge Steam;
        public RetryPolicy Retry;
        /// <summary>How to wait; default Task.Delay.</summary>
        public Func<TimeSpan, Task> Delay;
    }
}
