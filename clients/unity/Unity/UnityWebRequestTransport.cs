// Unity only (not compiled by CI): IHttpTransport over UnityWebRequest. Copy Core/ and Unity/
// into your project (e.g. Assets/Plugins/EncoreCampaigns/); Unity 2020.2+ for request.result.
using System.Text;
using System.Threading.Tasks;
using UnityEngine.Networking;

namespace Encore.Campaigns.Unity
{
    public sealed class UnityWebRequestTransport : IHttpTransport
    {
        public int TimeoutSeconds = 15;

        public Task<HttpAnswer> PostJsonAsync(string url, string json)
        {
            var done = new TaskCompletionSource<HttpAnswer>();
            var request = new UnityWebRequest(url, "POST")
            {
                uploadHandler = new UploadHandlerRaw(Encoding.UTF8.GetBytes(json)),
                downloadHandler = new DownloadHandlerBuffer(),
                timeout = TimeoutSeconds,
            };
            request.SetRequestHeader("Content-Type", "application/json");
            request.SendWebRequest().completed += _ =>
            {
                // No answer at all (DNS, refused, timeout) is status 0: the client retries it.
                var answered = request.result != UnityWebRequest.Result.ConnectionError;
                done.SetResult(new HttpAnswer
                {
                    Status = answered ? (int)request.responseCode : 0,
                    Body = answered ? request.downloadHandler.text : null,
                    Error = request.error,
                });
                request.Dispose();
            };
            return done.Task;
        }
    }
}
