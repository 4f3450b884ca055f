using System;
using System.Threading.Tasks;

namespace Encore.Campaigns
{
    /// <summary>
    /// The Steam side of a purchase. SteamworksNetBridge (Unity/) implements it with
    /// Steamworks.NET; SimulatorSteamBridge (Simulator/) with the Encore Steam simulator.
    /// </summary>
    public interface ISteamBridge
    {
        /// <summary>
        /// A Web API ticket for <paramref name="identity"/> as upper-case hex, once Steam's
        /// GetTicketForWebApiResponse_t callback delivered it. Throws SteamTicketException.
        /// </summary>
        Task<string> GetWebApiTicketAsync(string identity);

        /// <summary>The player's Steam language name, e.g. "english" or "schinese".</summary>
        string GameLanguage { get; }

        /// <summary>
        /// Steam's MicroTxnAuthorizationResponse_t: (appId, orderId, authorized), delivered for
        /// every order to every listener.
        /// </summary>
        event Action<uint, ulong, bool> AuthorizationResponse;
    }

    public sealed class SteamTicketException : Exception
    {
        public SteamTicketException(string message) : base(message) { }
    }
}
