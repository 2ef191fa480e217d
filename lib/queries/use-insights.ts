import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { DistributionsResponse } from "@/lib/insights/distribution-schema";
import type { InsightsResponse } from "@/lib/insights/schema";
import type { LogExtent } from "@/lib/insights/server/extent";
import { fetchJson } from "./fetch-json";

/** Insights for a range (`GET /api/insights`, README "HTTP API"): series, tables and totals in one answer. */

export const insightsKeys = {
  all: ["insights"] as const,
  /** Keyed by the API query string: equal parameters, equal key. */
  view: (params: URLSearchParams) => [...insightsKeys.all, params.toString()] as const,
};

export function insightsUrl(params: URLSearchParams): string {
  return `/api/insights?${params.toString()}`;
}

/** The previous answer stays up while a new range or filter loads; refetched on mount. */
export function useInsights(params: URLSearchParams | null) {
  return useQuery({
    queryKey: params ? insightsKeys.view(params) : [...insightsKeys.all, "idle"],
    queryFn: ({ signal }) => fetchJson<InsightsResponse>(insightsUrl(params!), { signal }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The first and last recall in the log (`GET /api/insights/extent`), for a default range that fits the data. */
export function useLogExtent() {
  return useQuery({
    queryKey: ["insights", "extent"],
    queryFn: ({ signal }) => fetchJson<LogExtent>("/api/insights/extent", { signal }),
    staleTime: 60_000,
  });
}

/** Percentile bands over time (`GET /api/insights/distributions`): the same query, its own request. */
export function useInsightDistributions(params: URLSearchParams | null) {
  return useQuery({
    queryKey: params ? [...insightsKeys.all, "distributions", params.toString()] : [...insightsKeys.all, "distributions", "idle"],
    queryFn: ({ signal }) => fetchJson<DistributionsResponse>(`/api/insights/distributions?${params!.toString()}`, { signal }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
