import { hostileAnswerTests } from "./hostile-answers.shared";

// Issue #31: a hostile memory service cannot take the embedded database (PGlite) down.
await hostileAnswerTests("pglite");
