import { useMutation } from "@connectrpc/connect-query";
import { type Campaign, CampaignService } from "@encore-campaigns/client";
import { useId, useState } from "react";
import { ErrorNote } from "./status";

// Funding from the web (docs/game-integration.md): the switch that opens the campaign's public
// page to purchases, the page's link to copy, and a preview. The preview opens the page in a new
// tab rather than a frame: the page is served under the console's CSP, whose frame-ancestors
// 'none' lets no page frame it, the console included (docs/console.md).

export function WebFunding({ campaign, canEdit }: { campaign: Campaign; canEdit: boolean }) {
  const id = useId();
  const update = useMutation(CampaignService.method.updateCampaign);
  const [copied, setCopied] = useState<"yes" | "no">();
  const on = campaign.webFundingEnabled;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(campaign.webFundingUri);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Funding from the web</h2>
      <p id={`${id}-about`}>
        Players can also fund the campaign on its own page, signing in with Steam and approving the purchase on Steam's
        site: no game update is needed.{" "}
        {on ? "On: the page sells the offers." : "Off: the page says so and sells nothing."}
      </p>
      {canEdit ? (
        <p className="inline">
          <input
            id={`${id}-switch`}
            type="checkbox"
            role="switch"
            checked={on}
            aria-checked={on}
            disabled={update.isPending}
            aria-describedby={`${id}-about`}
            onChange={(event) =>
              update.mutate({
                campaign: { name: campaign.name, webFundingEnabled: event.target.checked, etag: campaign.etag },
                updateMask: { paths: ["web_funding_enabled"] },
              })
            }
          />
          <label htmlFor={`${id}-switch`}>Web funding</label>
        </p>
      ) : (
        <p>Web funding: {on ? "on" : "off"}.</p>
      )}
      <ErrorNote error={update.error} />
      <p className="inline">
        <label htmlFor={`${id}-link`}>Page link</label>
        <input id={`${id}-link`} type="url" readOnly value={campaign.webFundingUri} />
        <button type="button" onClick={copy}>
          Copy link
        </button>
        <a href={campaign.webFundingUri} target="_blank" rel="noopener noreferrer">
          Preview the page (new tab)
        </a>
      </p>
      {copied === "yes" && <p role="status">Copied to the clipboard.</p>}
      {copied === "no" && (
        <p role="alert" className="error">
          The browser did not allow copying: select the link and copy it by hand.
        </p>
      )}
    </section>
  );
}
