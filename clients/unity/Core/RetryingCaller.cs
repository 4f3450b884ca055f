using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Encore.Campaigns
{
    /// <summary>How often and how patiently a call is retried.</summary>
    public sealed class RetryPolicy
    {
        public int MaxAttempts = 6;
        public TimeSpan InitialBackoff = TimeSpan.FromMilliseconds(500);
        public TimeSpan MaxBackoff = TimeSpan.FromSeconds(8);
    }

    /// <summary>
    /// One public call: POST JSON, retried with exponential backoff and jitter on network
    /// failure, 429, 502, 503 and 504 when the call allows it (spec 4.5).
    /// </summary>
    internal sealed class RetryingCaller
    {
        readonly IHttpTransport transport;
        readonly string baseUrl;
        readonly RetryPolicy policy;
        readonly Func<TimeSpan, Task> delay;
        readonly Random random = new Random();

        public event Action<string, int, int, TimeSpan> Retrying;

        public RetryingCaller(IHttpTransport transport, string baseUrl, RetryPolicy policy, Func<TimeSpan, Task> delay)
        {
            this.transport = transport;
            this.baseUrl = baseUrl.TrimEnd('/');
            this.policy = policy;
            this.delay = delay;
        }

        /// <summary>The parsed body of a 2xx answer, and how many attempts it took; else throws EncoreException.</summary>
        public async Task<KeyValuePair<Dictionary<string, object>, int>> PostAsync(string path, IDictionary<string, object> body, bool retry)
        {
            var json = Json.Write(body);
            for (var attempt = 1; ; attempt++)
            {
                var answer = await transport.PostJsonAsync(baseUrl + path, json);
                if (answer.Status >= 200 && answer.Status < 300)
                {
                    var parsed = Json.Parse(answer.Body) as Dictionary<string, object>;
                    if (parsed == null) throw new EncoreException("HTTP_" + answer.Status, answer.Status, "not a JSON object", attempt);
                    return new KeyValuePair<Dictionary<string, object>, int>(parsed, attempt);
                }
                var retryable = answer.Status == 0 || answer.Status == 429 || answer.Status == 502 || answer.Status == 503 || answer.Status == 504;
                if (!retry || !retryable || attempt >= policy.MaxAttempts) throw EncoreException.FromAnswer(answer, attempt);
                var backoff = TimeSpan.FromMilliseconds(
                    Math.Min(policy.MaxBackoff.TotalMilliseconds, policy.InitialBackoff.TotalMilliseconds * Math.Pow(2, attempt - 1))
                    * (0.8 + 0.4 * random.NextDouble()));
                var retrying = Retrying;
                if (retrying != null) retrying(path, attempt, answer.Status, backoff);
                await delay(backoff);
            }
        }
    }
}
