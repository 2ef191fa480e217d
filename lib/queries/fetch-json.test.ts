import { describe, expect, it } from "vitest";
import { ApiRequestError, errorMessage } from "./fetch-json";

describe("errorMessage", () => {
  it("shows an API failure in words, not the envelope's message for API callers", () => {
    // What fetchJson throws for GET /api/recalls/not-a-uuid (a 422 in the envelope).
    const error = new ApiRequestError("The request params is invalid: id: a recall id is a UUID", 422, "validation_failed", {
      issues: [{ path: ["id"], code: "invalid_format", message: "a recall id is a UUID" }],
    });
    expect(errorMessage(error)).toBe(
      "This link is not valid: a recall id is a UUID. Check the address, or open the item again from its list.",
    );
  });
  it("keeps a message already written for people, and says something for a non-error", () => {
    expect(errorMessage(new ApiRequestError("Evaluation run x was not found.", 404, "not_found"))).toBe(
      "Evaluation run x was not found.",
    );
    expect(errorMessage(undefined)).toBe("Something went wrong.");
  });
});
