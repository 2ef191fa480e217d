import { hostileAnswerTests } from "./hostile-answers.shared";

// A hostile memory service cannot break the recall log on PostgreSQL either.
await hostileAnswerTests("postgresql");
