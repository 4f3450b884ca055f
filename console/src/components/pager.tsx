import { useState } from "react";

export interface Pages {
  /** The tokens of the pages before this one; the first page has none. */
  tokens: string[];
  setTokens: (tokens: string[]) => void;
  /** The token of this page ("" for the first). */
  pageToken: string;
}

/** The pages of a list read newest first; a change of `filter` starts again at the first page. */
export function usePages(filter?: string): Pages {
  const [tokens, setTokens] = useState<string[]>([]);
  const [shownFilter, setShownFilter] = useState(filter);
  if (shownFilter !== filter) {
    setShownFilter(filter);
    setTokens([]);
  }
  return { tokens, setTokens, pageToken: tokens[tokens.length - 1] ?? "" };
}

/** Newer and Older buttons between the pages of a list, named for screen readers by `label`. */
export function Pager({ label, pages, nextPageToken }: { label: string; pages: Pages; nextPageToken: string }) {
  const { tokens, setTokens } = pages;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="secondary"
        disabled={tokens.length === 0}
        onClick={() => setTokens(tokens.slice(0, -1))}
      >
        Newer
      </button>
      <span>Page {tokens.length + 1}</span>
      <button
        type="button"
        className="secondary"
        disabled={!nextPageToken}
        onClick={() => setTokens([...tokens, nextPageToken])}
      >
        Older
      </button>
    </nav>
  );
}
