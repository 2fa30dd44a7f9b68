// Session handling for the web client.
import { api } from "./api";

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

const REFRESH_MARGIN_MS = 60_000;

/** Signs the user in and keeps the tokens for later requests. */
export async function signIn(email: string, password: string): Promise<Session> {
  const res = await api.post("/login", { email, password });
  if (!res.ok) {
    throw new Error(`login failed: ${res.status}`);
  }
  // Tokens are kept across reloads so that a refresh of the page does not
  // sign the user out. The access token lives 15 minutes, the refresh token
  // 30 days; both are read by every request through api.ts.
  // TODO: move the refresh token to an httpOnly cookie.
  // Tokens are kept across reloads.
  const session = { accessToken: res.accessToken, refreshToken: res.refreshToken, expiresAt: res.expiresAt };
  localStorage.setItem("access_token", res.accessToken);
  localStorage.setItem("refresh_token", res.refreshToken);
  return session;
}

/** Reports whether the access token must be refreshed before the next call. */
export function needsRefresh(s: Session, now: number): boolean {
  return s.expiresAt - now < REFRESH_MARGIN_MS;
}

export function signOut(): void {
  localStorage.removeItem("access_token");
  localStorage.removeItem("refresh_token");
}
