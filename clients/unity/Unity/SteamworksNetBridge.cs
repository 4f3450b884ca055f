// Unity only (not compiled by CI): ISteamBridge over Steamworks.NET (https://steamworks.github.io,
// 20.2+ for GetAuthTicketForWebApi). SteamAPI must be initialised and SteamAPI.RunCallbacks()
// called every frame (Steamworks.NET's SteamManager does both).
using System;
using System.Text;
using System.Threading.Tasks;
using Steamworks;

namespace Encore.Campaigns.Unity
{
    public sealed class SteamworksNetBridge : ISteamBridge
    {
        // Kept in fields: a collected Callback stops delivering.
        readonly Callback<GetTicketForWebApiResponse_t> ticketCallback;
        readonly Callback<MicroTxnAuthorizationResponse_t> authorizationCallback;
        TaskCompletionSource<string> pendingTicket;
        HAuthTicket pendingHandle;

        public event Action<uint, ulong, bool> AuthorizationResponse;

        public SteamworksNetBridge()
        {
            ticketCallback = Callback<GetTicketForWebApiResponse_t>.Create(OnTicket);
            authorizationCallback = Callback<MicroTxnAuthorizationResponse_t>.Create(OnAuthorization);
        }

        public string GameLanguage
        {
            get { return SteamApps.GetCurrentGameLanguage(); }
        }

        public Task<string> GetWebApiTicketAsync(string identity)
        {
            pendingTicket = new TaskCompletionSource<string>();
            pendingHandle = SteamUser.GetAuthTicketForWebApi(identity);
            if (pendingHandle == HAuthTicket.Invalid) pendingTicket.SetException(new SteamTicketException("Steam refused the ticket request"));
            return pendingTicket.Task;
        }

        void OnTicket(GetTicketForWebApiResponse_t response)
        {
            if (pendingTicket == null || response.m_hAuthTicket != pendingHandle) return;
            var waiting = pendingTicket;
            pendingTicket = null;
            if (response.m_eResult != EResult.k_EResultOK)
            {
                waiting.SetException(new SteamTicketException("Steam ticket result " + response.m_eResult));
                return;
            }
            var hex = new StringBuilder(response.m_cubTicket * 2);
            for (var i = 0; i < response.m_cubTicket; i++) hex.Append(response.m_rgubTicket[i].ToString("X2"));
            waiting.SetResult(hex.ToString());
        }

        void OnAuthorization(MicroTxnAuthorizationResponse_t response)
        {
            var handler = AuthorizationResponse;
            if (handler != null) handler(response.m_unAppID, response.m_ulOrderID, response.m_bAuthorized != 0);
        }
    }
}
