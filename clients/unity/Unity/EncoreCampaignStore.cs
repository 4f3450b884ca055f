// Unity only (not compiled by CI): a MonoBehaviour that wires the core to a store UI. Put it on
// a GameObject next to Steamworks.NET's SteamManager; set the service URL and campaign key in
// the inspector; hook your UI to the UnityEvents.
using System;
using UnityEngine;
using UnityEngine.Events;

namespace Encore.Campaigns.Unity
{
    public sealed class EncoreCampaignStore : MonoBehaviour
    {
        public string ServiceUrl = "https://encore.example";
        public string CampaignKey = "";
        /// <summary>How long the player may take in the overlay before a buy ends TimedOut.</summary>
        public float AuthorizationTimeoutSeconds = 300;

        [Serializable] public class FundingEvent : UnityEvent<Funding> { }
        [Serializable] public class OffersEvent : UnityEvent<OfferList> { }
        [Serializable] public class PurchaseEvent : UnityEvent<PurchaseResult> { }
        [Serializable] public class ErrorEvent : UnityEvent<string> { }

        public FundingEvent FundingLoaded = new FundingEvent();
        public OffersEvent OffersLoaded = new OffersEvent();
        /// <summary>Credited, Pending, Cancelled, TimedOut or Failed: see PurchaseResult.Outcome.</summary>
        public PurchaseEvent PurchaseEnded = new PurchaseEvent();
        /// <summary>An ErrorInfo reason or status name; docs/game-integration.md says what to show.</summary>
        public ErrorEvent RequestFailed = new ErrorEvent();

        EncoreCampaignClient client;

        void Awake()
        {
            // Unity's synchronization context runs every continuation below on the main thread.
            client = new EncoreCampaignClient(new EncoreClientOptions
            {
                BaseUrl = ServiceUrl,
                CampaignKey = CampaignKey,
                Transport = new UnityWebRequestTransport(),
                Steam = new SteamworksNetBridge(),
            });
            client.AuthorizationTimeout = TimeSpan.FromSeconds(AuthorizationTimeoutSeconds);
        }

        public async void Refresh()
        {
            try
            {
                FundingLoaded.Invoke(await client.GetFundingAsync());
                OffersLoaded.Invoke(await client.ListOffersAsync());
            }
            catch (EncoreException e)
            {
                RequestFailed.Invoke(e.Reason);
            }
        }

        public async void Buy(string offerId)
        {
            PurchaseEnded.Invoke(await client.BuyAsync(offerId));
        }
    }
}
