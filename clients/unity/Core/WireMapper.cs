using System.Collections.Generic;

namespace Encore.Campaigns
{
    /// <summary>Public JSON (spec 2.3, 2.4) to the models.</summary>
    internal static class WireMapper
    {
        public static Money Money(Dictionary<string, object> json)
        {
            if (json == null) return null;
            return new Money
            {
                CurrencyCode = Field.Text(json, "currencyCode"),
                Units = Field.Text(json, "units") == "" ? "0" : Field.Text(json, "units"),
                Nanos = Field.Int(json, "nanos"),
            };
        }

        public static Funding Funding(Dictionary<string, object> json)
        {
            if (json == null) return null;
            return new Funding
            {
                Funded = Field.Bool(json, "funded"),
                Balance = Money(Field.Object(json, "balance")),
                RunwayDays = Field.OptionalText(json, "runwayDays"),
                Visibility = Field.Text(json, "visibility"),
                Purchasable = Field.Bool(json, "purchasable"),
                UnavailableReason = Field.Text(json, "unavailableReason"),
            };
        }

        public static OfferList Offers(Dictionary<string, object> json)
        {
            var list = new OfferList
            {
                Purchasable = Field.Bool(json, "purchasable"),
                UnavailableReason = Field.Text(json, "unavailableReason"),
            };
            foreach (var item in Field.List(json, "offers"))
            {
                var offer = item as Dictionary<string, object>;
                list.Offers.Add(new Offer
                {
                    OfferId = Field.Text(offer, "offerId"),
                    DisplayName = Field.Text(offer, "displayName"),
                    Description = Field.Text(offer, "description"),
                    Price = Money(Field.Object(offer, "price")),
                });
            }
            return list;
        }
    }
}
