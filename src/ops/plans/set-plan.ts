// POST /admin/workspaces/:workspaceId/plan, CLI plan:set: moves a workspace to another plan. What the
// plan allows applies from the next request and claim on; its files are re-dated to the new plan's
// retention, counted from each upload (so a downgrade can expire old files at once, an upgrade keeps
// them); monthly credits follow the plan from the next month's grant.
import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { retentionMs } from "../../../domain/file-retention.ts"
import { Plan, PLAN_RULES } from "../../../domain/plans.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { operation } from "../../kernel/operation.ts"

export const PlanSetting = Schema.Struct({
  workspaceId: Schema.String.annotations({ description: "The workspace." }),
  plan: Plan,
  monthlyCredits: Schema.Int.annotations({ description: "Credits the plan adds on the first of each month (UTC)." }),
  fileRetentionDays: Schema.NullOr(Schema.Int).annotations({
    description: "Days an uploaded file keeps resolving, from its upload; null = kept until deleted."
  }),
  maxConcurrentJobs: Schema.Int.annotations({ description: "Jobs of the workspace that run at once; more wait their turn." })
}).annotations({ identifier: "PlanSetting", description: "A workspace's plan and what it allows." })

export const setPlan = operation({
  name: "setPlan",
  summary: "Change a workspace's plan (admin)",
  description:
    "Moves the workspace to `plan`. Rendering rights and the cap on jobs running at once apply at once; stored files " +
    "are re-dated to the new plan's retention, counted from each upload (a shorter one can expire old files at once); " +
    "the new plan's monthly credits arrive with the next month's grant.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace to move." }) }),
  payload: Schema.Struct({ plan: Plan }),
  output: PlanSetting,
  errors: ["NotFound"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/plan" },
  access: "admin",
  tool: null,
  cli: "plan:set",
  idempotent: false,
  handle: ({ workspaceId, plan }) =>
    Effect.gen(function*() {
      const workspaces = yield* WorkspaceStore
      const workspace = yield* workspaces.get(workspaceId)
      if (Option.isNone(workspace)) return yield* new NotFound({ resource: "workspace", id: workspaceId })
      const rules = PLAN_RULES[plan]
      yield* (yield* Transactor).atomically(Effect.gen(function*() {
        yield* workspaces.update({ ...workspace.value, plan })
        yield* (yield* FileStore).setRetention(workspaceId, retentionMs(plan))
      }))
      yield* Effect.logInfo("plan changed").pipe(Effect.annotateLogs({ workspaceId, from: workspace.value.plan, to: plan }))
      return {
        workspaceId,
        plan,
        monthlyCredits: rules.monthlyCredits,
        fileRetentionDays: rules.fileRetentionDays,
        maxConcurrentJobs: rules.maxConcurrentJobs
      }
    })
})
