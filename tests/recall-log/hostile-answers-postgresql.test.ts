import { hostileAnswerTests } from "./hostile-answers.shared";

// Issue #31: a hostile memory service cannot break the recall log on PostgreSQL either.
await hostileAnswerTests("postgresql");
