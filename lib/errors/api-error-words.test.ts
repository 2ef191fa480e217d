import { describe, expect, it } from "vitest";
import { apiErrorCodeText, apiErrorWords, fieldWords } from "./api-error-words";

/** What the client's ApiRequestError carries (lib/queries/fetch-json.ts), built from an envelope. */
function apiError(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), { name: "ApiRequestError", status, code, details });
}

describe("apiErrorWords", () => {
  it("turns a malformed id in the address into a sentence about the link, not the API's wording", () => {
    // The envelope GET /api/recalls/not-a-uuid answers (lib/api/errors.ts ApiError.validation).
    const words = apiErrorWords(
      apiError(422, "validation_failed", "The request params is invalid: id: a recall id is a UUID", {
        issues: [{ path: ["id"], code: "invalid_format", message: "a recall id is a UUID" }],
      }),
    );
    expect(words.sentence).toBe(
      "This link is not valid: a recall id is a UUID. Check the address, or open the item again from its list.",
    );
    expect(words.sentence).not.toMatch(/request params/);
    expect(words).toMatchObject({ code: "validation_failed", status: 422 });
    expect(apiErrorCodeText(words)).toBe("validation_failed · HTTP 422");
  });

  it("names the fields of a refused body, keeping each issue's own message", () => {
    const words = apiErrorWords(
      apiError(422, "validation_failed", "The request body is invalid: k: k must be at most 100.", {
        issues: [
          { path: ["k"], message: "k must be at most 100." },
          { path: ["search_mode"], message: "Invalid option" },
          { path: ["items", 3, "query"], message: "query is empty" },
          { path: ["x"], message: "too long" },
        ],
      }),
    );
    expect(words.sentence).toBe(
      "The server did not accept what was sent: k must be at most 100; search mode: Invalid option; query is empty; and 1 more. Correct it and try again.",
    );
  });

  it("speaks of the address's settings for a bad query string, and uses the message when there is no issue list", () => {
    const words = apiErrorWords(apiError(422, "validation_failed", "The request query is invalid: level: Invalid option"));
    expect(words.sentence).toBe(
      "A setting in the address is not valid: level: Invalid option. Remove it from the address, or choose it again on the page.",
    );
  });

  it("keeps the server's own sentence for codes whose message is written for people", () => {
    for (const [status, code, message] of [
      [404, "not_found", "Evaluation run 3f2b was not found."],
      [409, "duplicate_name", "A set named “demo” exists already; pick another name."],
      [401, "wrong_password", "That password is not right."],
      [502, "remote_unreachable", "The memory service did not answer."],
    ] as const) {
      expect(apiErrorWords(apiError(status, code, message))).toEqual({ sentence: message, code, status });
    }
  });

  it("says what to do for the codes whose message is not for people", () => {
    expect(apiErrorWords(apiError(400, "bad_json", "The request body is not valid JSON: Unexpected token")).sentence).toMatch(
      /^The server could not read the request .* Reload the page/,
    );
    expect(apiErrorWords(apiError(500, "internal_error", "Something went wrong on our side")).sentence).toMatch(/server log/);
    expect(apiErrorWords(apiError(503, "http_error", "The server answered 503 without an explanation.")).sentence).toMatch(
      /failed on its side/,
    );
    // A 4xx without an envelope keeps the client's own sentence, which names the status.
    expect(apiErrorWords(apiError(404, "http_error", "The server answered 404 without an explanation.")).sentence).toBe(
      "The server answered 404 without an explanation.",
    );
    expect(apiErrorWords(apiError(401, "unauthorized", "Sign in first.")).sentence).toMatch(/Sign in again/);
  });

  it("shows a plain Error's message without a code, and something for anything else", () => {
    expect(apiErrorWords(new Error("Could not reach the dashboard's server."))).toEqual({
      sentence: "Could not reach the dashboard's server.",
      code: null,
      status: null,
    });
    expect(apiErrorCodeText(apiErrorWords(new Error("x")))).toBeNull();
    expect(apiErrorWords(null).sentence).toBe("Something went wrong.");
    expect(apiErrorWords("boom").sentence).toBe("Something went wrong.");
    expect(apiErrorWords(new Error("")).sentence).toBe("Something went wrong.");
  });

  it("skips malformed issues rather than printing them", () => {
    const words = apiErrorWords(
      apiError(422, "validation_failed", "The request body is invalid: q: bad", {
        issues: [null, { path: "q", message: 3 }, { path: ["q"], message: "bad" }],
      }),
    );
    expect(words.sentence).toBe("The server did not accept what was sent: q: bad. Correct it and try again.");
  });
});

describe("fieldWords", () => {
  it("reads a path as words, counting array positions from 1", () => {
    expect(fieldWords(["items", 3, "relevant"])).toBe("items #4 relevant");
    expect(fieldWords(["search_mode"])).toBe("search mode");
    expect(fieldWords([])).toBe("");
  });
});
