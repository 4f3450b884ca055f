import { useId, useState } from "react";

// A signing secret, shown the one time the API returns it (an endpoint created, a secret
// rotated): copy it now, it cannot be read again. Dismissing it removes it from the page.
export function SecretOnce({ secret, lead, onDismiss }: { secret: string; lead: string; onDismiss: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState<"yes" | "no">();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <section className="secret" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Signing secret: you will not see this again</h3>
      <p>{lead}</p>
      <p>
        <code className="secret-value" id={`${id}-value`}>
          {secret}
        </code>
      </p>
      <p className="warn">
        Store it in your receiver's configuration now. It is not kept in this page and the API never returns it again;
        if you lose it, rotate the secret.
      </p>
      <div className="actions">
        <button type="button" onClick={copy} aria-describedby={`${id}-value`}>
          Copy secret
        </button>
        <button type="button" className="secondary" onClick={onDismiss}>
          I have stored it
        </button>
      </div>
      {copied === "yes" && <p role="status">Copied to the clipboard.</p>}
      {copied === "no" && (
        <p role="alert" className="error">
          The browser did not allow copying: select the secret and copy it by hand.
        </p>
      )}
    </section>
  );
}
