using System;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;

namespace Encore.Campaigns.Tests
{
    /// <summary>IHttpTransport over HttpClient, for the console runner (Unity uses UnityWebRequest).</summary>
    public sealed class HttpClientTransport : IHttpTransport
    {
        readonly HttpClient client = new HttpClient { Timeout = TimeSpan.FromSeconds(15) };

        public async Task<HttpAnswer> PostJsonAsync(string url, string json)
        {
            try
            {
                using (var content = new StringContent(json, Encoding.UTF8, "application/json"))
                using (var response = await client.PostAsync(url, content))
                {
                    return new HttpAnswer { Status = (int)response.StatusCode, Body = await response.Content.ReadAsStringAsync() };
                }
            }
            catch (Exception e) when (e is HttpRequestException || e is TaskCanceledException)
            {
                return new HttpAnswer { Status = 0, Error = e.Message };
            }
        }
    }
}
