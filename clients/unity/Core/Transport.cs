using System.Threading.Tasks;

namespace Encore.Campaigns
{
    /// <summary>What one HTTP POST came back with. Status 0: no answer (network failure).</summary>
    public sealed class HttpAnswer
    {
        public int Status;
        public string Body;
        public string Error;
    }

    /// <summary>
    /// POSTs a JSON body. UnityWebRequestTransport (Unity/) and the test runner's HttpClient
    /// transport implement it; a transport never throws for an HTTP or network failure, it
    /// answers it.
    /// </summary>
    public interface IHttpTransport
    {
        Task<HttpAnswer> PostJsonAsync(string url, string json);
    }
}
