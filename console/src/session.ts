// The caller's token lives for the browser tab's session only: sessionStorage, never
// localStorage or a cookie, and removed on sign-out.
const KEY = "encore-console-token";

export function readToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}
