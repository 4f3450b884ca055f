using System;
using System.Collections.Generic;

namespace Encore.Campaigns
{
    /// <summary>
    /// A failed public call. Reason is the google.rpc.ErrorInfo reason when the service named
    /// one (spec 7: CAMPAIGN_NOT_VERIFIED, ORDER_REFUSED, PLAYER_NOT_AUTHENTICATED, ...), else a
    /// name for the status: INVALID_ARGUMENT (400), NOT_FOUND (404), REQUEST_ID_CONFLICT (409),
    /// RATE_LIMITED (429), UNAVAILABLE (502/503/504), NETWORK (no answer), HTTP_&lt;status&gt;.
    /// Message is for logs, never for players.
    /// </summary>
    public sealed class EncoreException : Exception
    {
        public readonly string Reason;
        public readonly int HttpStatus;
        public readonly int Attempts;

        public EncoreException(string reason, int httpStatus, string message, int attempts)
            : base(reason + ": " + message)
        {
            Reason = reason;
            HttpStatus = httpStatus;
            Attempts = attempts;
        }

        internal static EncoreException FromAnswer(HttpAnswer answer, int attempts)
        {
            if (answer.Status == 0) return new EncoreException("NETWORK", 0, answer.Error ?? "no answer", attempts);
            var reason = StatusReason(answer.Status);
            var message = "";
            try
            {
                var status = Json.Parse(answer.Body) as Dictionary<string, object>;
                if (status != null)
                {
                    message = Field.Text(status, "message");
                    foreach (var detail in Field.List(status, "details"))
                    {
                        var info = detail as Dictionary<string, object>;
                        if (info != null && Field.Text(info, "@type").EndsWith("google.rpc.ErrorInfo"))
                            reason = Field.Text(info, "reason");
                    }
                }
            }
            catch (FormatException)
            {
                message = "HTTP " + answer.Status + " without a Status body";
            }
            return new EncoreException(reason, answer.Status, message, attempts);
        }

        static string StatusReason(int status)
        {
            switch (status)
            {
                case 400: return "INVALID_ARGUMENT";
                case 404: return "NOT_FOUND";
                case 409: return "REQUEST_ID_CONFLICT";
                case 429: return "RATE_LIMITED";
                case 502:
                case 503:
                case 504: return "UNAVAILABLE";
                default: return "HTTP_" + status;
            }
        }
    }
}
