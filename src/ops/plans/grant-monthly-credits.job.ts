// Each plan's monthly credits, granted by a job in the queue: the job for a month is due at its first
// instant (UTC), grants every workspace made before the month began its plan's monthlyCredits, and
// first queues the next month's job, so the chain survives a grant that fails. Each worker queues the
// current month's job as it starts (a new deployment, or one that was down at the turn of the month);
// the dedupe key keeps that one job, and the ledger key one grant per workspace and month, however
// many workers run it and however often it is retried.
import { Clock, Effect } from "effect"
import { creditMonth, monthlyGrantKey, monthStart, nextMonthStart } from "../../../domain/monthly-credits.ts"
import { PLAN_RULES } from "../../../domain/plans.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { type Workspace, WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { Done, enqueue, handle } from "../../kernel/job.ts"
import { GrantMonthlyCredits, monthlyGrantJobKey } from "../../kernel/job-catalogue.ts"
import { newId } from "../../kernel/secrets.ts"
import { withSpan } from "../../kernel/spans.ts"

const SWEEP_PAGE = 500

/** Queues the grant job of the month `runAt` falls in, due at `runAt`; a month's job is queued once. */
const queueMonthlyGrant = (runAt: number) => {
  const month = creditMonth(runAt)
  return enqueue(GrantMonthlyCredits, { month }, { runAt, dedupeKey: monthlyGrantJobKey(month) })
}

/** Queues this month's grant job, due now (run by every worker as it starts). */
export const scheduleMonthlyGrants = Clock.currentTimeMillis.pipe(
  Effect.flatMap(queueMonthlyGrant),
  Effect.asVoid,
  withSpan("scheduleMonthlyGrants")
)

/** Posts one workspace's grant for the month; true when it is new (a repeated key posts nothing). */
const grantTo = (workspace: Workspace, month: string, at: string) =>
  Effect.gen(function*() {
    const id = newId()
    const entry = yield* (yield* Ledger).post({
      id,
      workspaceId: workspace.id,
      key: monthlyGrantKey(workspace.id, month),
      amount: PLAN_RULES[workspace.plan].monthlyCredits,
      reason: `${workspace.plan} plan credits for ${month}`,
      operation: "monthly grant",
      workKey: null,
      videoId: null,
      at
    }).pipe(Effect.orDie) // a positive amount is never refused
    return entry.id === id
  })

/** Grants the current month's credits to every workspace made before it began; answers how many were new. */
export const grantMonthlyCredits = Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  const month = creditMonth(now)
  const at = new Date(now).toISOString()
  const createdBefore = new Date(monthStart(now)).toISOString()
  const workspaces = yield* WorkspaceStore
  let granted = 0
  let afterId: string | null = null
  for (;;) {
    const page: ReadonlyArray<Workspace> = yield* workspaces.listCreatedBefore({ createdBefore, afterId, limit: SWEEP_PAGE })
    for (const workspace of page) {
      if (PLAN_RULES[workspace.plan].monthlyCredits > 0 && (yield* grantTo(workspace, month, at))) granted++
    }
    if (page.length < SWEEP_PAGE) break
    afterId = page[page.length - 1]!.id
  }
  yield* Effect.logInfo("monthly credits granted").pipe(Effect.annotateLogs({ month, workspaces: granted }))
  return granted
}).pipe(withSpan("grantMonthlyCredits"))

export const grantMonthlyCreditsJob = handle(GrantMonthlyCredits, {
  run: () =>
    Effect.gen(function*() {
      yield* queueMonthlyGrant(nextMonthStart(yield* Clock.currentTimeMillis))
      yield* grantMonthlyCredits
      return Done
    }),
  onDead: (_, error, job) =>
    Effect.logError(
      `monthly credits were not granted to every workspace (${error}); grants made stand, and credits:grant can add the rest`
    ).pipe(Effect.annotateLogs({ jobId: job.id }))
})
