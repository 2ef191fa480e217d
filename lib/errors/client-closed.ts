/**
 * A caller that went away before the answer: status 499 (nginx's "client closed request", the
 * customary code), one code for every route and for the recall log's cancelled recalls.
 */
export const CLIENT_CLOSED = { status: 499, code: "client_closed_request" } as const;
