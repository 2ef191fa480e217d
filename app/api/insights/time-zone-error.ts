import { ApiError } from "@/lib/api/errors";
import { UnknownTimeZoneError } from "@/lib/insights/server/sql";

/** Both Insights routes: a zone the database does not know is a 422 on `tz`, like any bad parameter. */
export async function withTimeZoneError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof UnknownTimeZoneError) {
      throw new ApiError(422, "validation_failed", `The request query is invalid: tz: ${error.message}`, {
        issues: [{ path: ["tz"], code: "custom", message: error.message }],
      });
    }
    throw error;
  }
}
