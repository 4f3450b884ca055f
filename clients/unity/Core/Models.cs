using System.Collections.Generic;

namespace Encore.Campaigns
{
    /// <summary>google.type.Money as the service sends it: units a decimal string (int64).</summary>
    public sealed class Money
    {
        public string CurrencyCode;
        public string Units;
        public int Nanos;
    }

    /// <summary>Public funding (spec 2.3), shaped by the campaign's visibility.</summary>
    public sealed class Funding
    {
        public bool Funded;
        /// <summary>Only under FUNDING_VISIBILITY_EXACT_BALANCE; else null.</summary>
        public Money Balance;
        /// <summary>Whole days left (int64 string); null when not shown or nothing to project from.</summary>
        public string RunwayDays;
        public string Visibility;
        public bool Purchasable;
        public string UnavailableReason;
    }

    /// <summary>A public offer (spec 2.4).</summary>
    public sealed class Offer
    {
        public string OfferId;
        public string DisplayName;
        public string Description;
        public Money Price;
    }

    public sealed class OfferList
    {
        public List<Offer> Offers = new List<Offer>();
        public bool Purchasable;
        public string UnavailableReason;
    }

    public enum PurchaseOutcome
    {
        /// <summary>STATE_CREDITED: thank the player.</summary>
        Credited,
        /// <summary>STATE_AUTHORIZED after polling: paid; the service settles it on its own.</summary>
        Pending,
        /// <summary>STATE_CANCELLED, or STATE_INITIATED after a decline: the player said no.</summary>
        Cancelled,
        /// <summary>
        /// Steam's authorization callback did not come within AuthorizationTimeout; not completed.
        /// If the player did approve, the service settles the order on its own.
        /// </summary>
        TimedOut,
        /// <summary>STATE_FAILED, or a refusal or error (Reason says which).</summary>
        Failed,
    }

    public sealed class PurchaseResult
    {
        public PurchaseOutcome Outcome;
        public string OrderId;
        /// <summary>The state complete answered last, e.g. "STATE_CREDITED".</summary>
        public string State;
        public Funding Funding;
        /// <summary>For Failed: an ErrorInfo reason (spec 7) or a name for the status (see EncoreException).</summary>
        public string Reason;
        public string RequestId;
        public int BeginAttempts;
        /// <summary>How many times complete was asked again after STATE_AUTHORIZED (at most MaxPolls).</summary>
        public int Polls;
    }
}
