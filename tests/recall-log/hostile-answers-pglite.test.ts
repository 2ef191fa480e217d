import { hostileAnswerTests } from "./hostile-answers.shared";

// A hostile memory service cannot take the embedded database (PGlite) down.
await hostileAnswerTests("pglite");
