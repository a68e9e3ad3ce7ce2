// The skeleton of every create that starts background work: the workspace acting, the kind's own checks,
// the plan, then one transaction with the first charge, the record, what is stored with it and its job.
// Answers the record; the operation words its reply. (Idempotency wraps the whole operation at the surface.)
import { Effect } from "effect"
import { PlanForbids } from "../../domain/errors.ts"
import { canRender } from "../../domain/plans.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import type { Workspace } from "../../domain/ports/workspace-store.ts"
import { CurrentWorkspace } from "./current-workspace.ts"
import { enqueue, type JobType } from "./job.ts"
import type { WorkLifecycle, WorkRecord } from "./work-lifecycle.ts"
import { withSpan } from "./spans.ts"

/** Whether the work makes an mp4, which the plan must allow, and what the refusal says. */
export interface RenderNeed {
  readonly needed: boolean
  readonly refusal: string
}

/** What a create records once its checks passed. */
export interface NewWork<Rec, Kind extends string, P, I, E, R> {
  readonly record: Rec
  readonly job: { readonly type: JobType<Kind, P, I>; readonly payload: P; readonly dedupeKey: string }
  /** The first charge, posted before anything is written: a short balance refuses the create and nothing is made. */
  readonly charge?: Effect.Effect<unknown, E, R>
  /** What is stored with the record (a generated video's project, the template the workspace used last). */
  readonly alongside?: Effect.Effect<void, never, R>
}

export interface WorkStart<Rec, Checked, Kind extends string, P, I, E1, R1, E2, R2, E3 = never, R3 = never> {
  /** Names the work in its log line ("caption video created"). */
  readonly name: string
  /** The kind's own checks of the request, before the plan's (a template, a voice); what they find goes to `prepare`. */
  readonly check: (workspace: Workspace) => Effect.Effect<Checked, E1, R1>
  readonly render: RenderNeed
  /** Builds what is recorded; a source uploaded with the request is checked and stored here. */
  readonly prepare: (workspace: Workspace, checked: Checked) => Effect.Effect<NewWork<Rec, Kind, P, I, E3, R3>, E2, R2>
}

export const startWork = <Rec extends WorkRecord, R, Checked, Kind extends string, P, I, E1, R1, E2, R2, E3 = never, R3 = never>(
  work: Pick<WorkLifecycle<Rec, never, R>, "idKey" | "store">,
  start: WorkStart<Rec, Checked, Kind, P, I, E1, R1, E2, R2, E3, R3>
) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const checked = yield* start.check(workspace)
    if (start.render.needed && !canRender(workspace.plan, workspace.byok)) {
      return yield* new PlanForbids({ plan: workspace.plan, message: start.render.refusal })
    }
    const { record, job, charge, alongside } = yield* start.prepare(workspace, checked)
    yield* (yield* Transactor).atomically(Effect.gen(function*() {
      if (charge !== undefined) yield* charge
      yield* (yield* work.store).insert(record)
      if (alongside !== undefined) yield* alongside
      // The job may run from the moment the work was created.
      yield* enqueue(job.type, job.payload, { runAt: Date.parse(record.createdAt), dedupeKey: job.dedupeKey, workspaceId: workspace.id })
    }))
    yield* Effect.logInfo(`${start.name} created`).pipe(Effect.annotateLogs({ [work.idKey]: record.id }))
    return record
  }).pipe(withSpan("startWork", { attributes: { work: start.name } }))
