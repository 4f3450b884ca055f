// The publisher key never appears in a log line, an error message or a returned value.
// The client sends it only in the x-webapi-key header (reference 1.2), so it is absent from URLs;
// every text that leaves the client is still scrubbed, in case a body or error echoes it.

export const REDACTED = "[redacted]";

export function redactKey(text: string, publisherKey: string | undefined): string {
  if (publisherKey === undefined || publisherKey.length === 0) return text;
  return text.split(publisherKey).join(REDACTED);
}
