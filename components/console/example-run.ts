/**
 * What choosing an example query does. A chip is a shortcut for "type this and press Run", so it
 * fills the query box and runs the recall, keeping the rest of the form (store, k, mode, selector,
 * filters) as it stands. When Run is blocked (the form's store is not configured here) it only
 * fills the box, and the notice saying why stays the next thing to read.
 */
export interface ExampleChoice {
  query: string;
  run: boolean;
}

export function exampleChoice(query: string, blocked: string | null): ExampleChoice {
  return { query, run: blocked === null };
}
