import { expect, test } from "@playwright/test";

/**
 * The Capture page (lib/capture/README.md "Capture from production") on the production server:
 * an OTLP/JSON export with a LangChain-shaped retriever span (no document.id, ids in the
 * metadata) and one that cannot be a recall (no query) shows as one service with one span
 * logged and one rejected with its reason, on a phone without sideways scrolling.
 */
const hex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, "0"),
  ).join("");

function span(attributes: Record<string, string>) {
  const now = BigInt(Date.now()) * 1_000_000n;
  return {
    traceId: hex(16),
    spanId: hex(8),
    name: "VectorStoreRetriever",
    kind: 1,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 4_000_000n),
    attributes: Object.entries(attributes).map(([key, value]) => ({ key, value: { stringValue: value } })),
  };
}

test.use({ viewport: { width: 390, height: 844 } });

test("spans received, logged and rejected per service, with the reason", async ({ page, request }) => {
  const service = `e2e-capture-${Date.now().toString(36)}`;
  const logged = span({
    "openinference.span.kind": "RETRIEVER",
    "input.value": "who is on call this week",
    "retrieval.documents.0.document.content": "Alice is on call",
    "retrieval.documents.0.document.metadata": JSON.stringify({ memory_id: "mem-oncall" }),
  });
  const refused = span({ "openinference.span.kind": "RETRIEVER" });
  const answer = await request.post("/v1/traces", {
    headers: { "content-type": "application/json" },
    data: {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] },
          scopeSpans: [{ scope: { name: "@arizeai/openinference-instrumentation-langchain" }, spans: [logged, refused] }],
        },
      ],
    },
  });
  expect(answer.status()).toBe(200);
  expect((await answer.json()).partialSuccess.rejectedSpans).toBe(1);

  await page.goto("/capture");
  await expect(page.getByRole("heading", { level: 1, name: "Capture" })).toBeVisible();
  const row = page.locator(`tr[data-service="${service}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByTestId("logged")).toHaveText("1");
  await expect(row.getByTestId("rejected")).toHaveText("1");
  await expect(page.getByTestId("capture-rejections")).toContainText(service);
  await expect(page.getByTestId("capture-rejections")).toContainText("No query");
  await expect(page.getByTestId("capture-how-to")).toContainText("/v1/traces");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});
