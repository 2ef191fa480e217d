"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyView, CreateApiKeyBody, SessionState } from "@/lib/auth/schemas";
import { fetchJson, jsonRequest } from "./fetch-json";

export type { ApiKeyView };

export const authKeys = {
  session: ["auth", "session"] as const,
  apiKeys: ["auth", "api-keys"] as const,
};

export function fetchSession(): Promise<SessionState> {
  return fetchJson<SessionState>("/api/auth/session");
}

export function postSignIn(password: string): Promise<{ signed_in: true }> {
  return fetchJson("/api/auth/signin", jsonRequest("POST", { password }));
}

export function postSignOut(): Promise<{ signed_in: false }> {
  return fetchJson("/api/auth/signout", { method: "POST" });
}

export function useSessionState() {
  return useQuery({ queryKey: authKeys.session, queryFn: fetchSession });
}

export function useApiKeys() {
  return useQuery({
    queryKey: authKeys.apiKeys,
    queryFn: () => fetchJson<{ items: ApiKeyView[] }>("/api/keys"),
  });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => fetchJson<{ key: string; item: ApiKeyView }>("/api/keys", jsonRequest("POST", body)),
    onSuccess: () => void client.invalidateQueries({ queryKey: authKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson<{ revoked: ApiKeyView }>(`/api/keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => void client.invalidateQueries({ queryKey: authKeys.apiKeys }),
  });
}

/** How many browsers are signed in (GET /api/auth/sessions; signed-in people only). */
export function useLiveSessions(enabled = true) {
  return useQuery({
    queryKey: [...authKeys.session, "live"] as const,
    queryFn: () => fetchJson<{ live: number }>("/api/auth/sessions"),
    enabled,
  });
}

/** "Sign out everywhere": ends every session, this browser's too. */
export function postSignOutEverywhere(): Promise<{ ended: number }> {
  return fetchJson("/api/auth/sessions", { method: "DELETE" });
}
