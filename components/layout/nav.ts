/** The app's sections, in header order. `match` decides which entry a path belongs to. */
export const NAV_ITEMS = [
  { href: "/", label: "Console", match: (path: string) => path === "/" },
  { href: "/recalls", label: "History", match: (path: string) => path.startsWith("/recalls") },
  { href: "/insights", label: "Insights", match: (path: string) => path.startsWith("/insights") },
  { href: "/memories", label: "Memories", match: (path: string) => path.startsWith("/memories") },
  { href: "/audit", label: "Reachability", match: (path: string) => path.startsWith("/audit") },
  { href: "/evaluate", label: "Evaluate", match: (path: string) => path.startsWith("/evaluate") },
  { href: "/capture", label: "Capture", match: (path: string) => path.startsWith("/capture") },
  { href: "/profiles", label: "Profiles", match: (path: string) => path.startsWith("/profiles") || path.startsWith("/what-if") },
  { href: "/settings", label: "Settings", match: (path: string) => path.startsWith("/settings") },
] as const;
