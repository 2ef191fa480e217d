"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FitResult } from "@/lib/calibration/fit";
import type { VerdictFitReport } from "@/lib/calibration/model";
import type { Profile } from "@/lib/calibration/profile";
import { fetchJson } from "./fetch-json";
import { recallKeys } from "./use-recall";

export const profileKeys = { all: ["profiles"] as const };

export function useProfiles() {
  return useQuery({
    queryKey: profileKeys.all,
    queryFn: ({ signal }) => fetchJson<{ profiles: Profile[] }>("/api/profiles", { signal }).then((r) => r.profiles),
  });
}

const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { "content-type": "application/json" },
});

export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) => fetchJson<Profile>("/api/profiles", json(body)),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.all }),
  });
}

export type FitResponse = FitResult & { skipped: number; saved: Profile | null; verdict: VerdictFitReport };

export function useFitProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) => fetchJson<FitResponse>("/api/profiles/fit", json(body)),
    onSuccess: (r) => (r.saved ? client.invalidateQueries({ queryKey: profileKeys.all }) : undefined),
  });
}

export function useAssignProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ store, profile }: { store: string; profile: string }) =>
      fetchJson<{ store: string; profile: string }>(`/api/stores/${encodeURIComponent(store)}/profile`, json({ profile }, "PUT")),
    onSuccess: () => client.invalidateQueries({ queryKey: recallKeys.stores }),
  });
}
