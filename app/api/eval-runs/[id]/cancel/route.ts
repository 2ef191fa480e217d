import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { EvalRunParamsSchema } from "@/lib/eval/run-schemas";
import { cancelEvalRun } from "@/lib/eval/server/runs";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Cancels a queued or running run (it stops before its next query); a finished run answers 409. */
  POST: {
    scope: "full",
    params: EvalRunParamsSchema,
    handler: async ({ params }) => {
      const prisma = await getPrisma();
      const before = await prisma.evalRun.findUnique({ where: { id: params.id }, select: { status: true } });
      if (!before) throw ApiError.notFound(`Evaluation run ${params.id}`);
      const after = (await cancelEvalRun(prisma, params.id))!;
      if (after.status !== "cancelled") {
        throw new ApiError(409, "run_finished", `The run already ended (${after.status}); there is nothing to cancel.`, {
          status: after.status,
        });
      }
      return after;
    },
  },
});
