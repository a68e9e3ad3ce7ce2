// The bytes of files past their plan's retention, removed by a job in the queue, as the monthly
// credits are granted: every worker queues the sweep of the current period as it starts, and each
// sweep first queues the next period's, so the chain survives a sweep that fails. Periods are
// `FILE_SWEEP_INTERVAL_SECONDS` long, counted from the epoch, and the dedupe key names the period:
// one sweep per period however many workers queue it, and chains queued under another interval fall
// onto the same keys once a worker with the new one queues their next sweep.
import { Clock, Effect } from "effect"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { Done, enqueue, handle } from "../../kernel/job.ts"
import { fileSweepJobKey, SweepExpiredFiles } from "../../kernel/job-catalogue.ts"
import { withSpan } from "../../kernel/spans.ts"

/** Files' bytes go within this long of their expiry by default (the read answers 410 from the expiry on). */
export const DEFAULT_FILE_SWEEP_INTERVAL_MS = 60 * 60 * 1000
const SWEEP_PAGE = 500

const periodStart = (at: number, intervalMs: number): number => Math.floor(at / intervalMs) * intervalMs

/** Queues the sweep of the period starting at `start`, due then; a period's sweep is queued once. */
const queueSweep = (start: number, runAt: number) => enqueue(SweepExpiredFiles, {}, { runAt, dedupeKey: fileSweepJobKey(start) })

/** Queues the current period's sweep, due now (run by every worker as it starts). */
export const scheduleFileSweeps = (intervalMs: number) =>
  Clock.currentTimeMillis.pipe(
    Effect.flatMap((now) => queueSweep(periodStart(now, intervalMs), now)),
    Effect.asVoid,
    withSpan("scheduleFileSweeps", { attributes: { intervalMs } })
  )

/**
 * Removes the bytes of every file expired now and marks it purged: its link answers 410 as before,
 * and no plan change brings it back. The mark comes first and holds only while the file is still
 * expired, so a plan that kept the file since it was listed keeps its bytes too; a crash between the
 * two leaves bytes that nothing serves, never a link to bytes that are gone. Answers how many went.
 */
export const sweepExpiredFiles = Effect.gen(function*() {
  const files = yield* FileStore
  const blobs = yield* BlobStore
  let purged = 0
  let bytes = 0
  for (;;) {
    const now = yield* Clock.currentTimeMillis
    const at = new Date(now).toISOString()
    const page = yield* files.listExpired(now, SWEEP_PAGE)
    for (const file of page) {
      if (yield* files.markPurged(file.id, at)) {
        yield* blobs.remove(file.blobKey)
        purged++
        bytes += file.bytes
      }
    }
    // Each file listed left the listing (purged, or kept by a plan change): the next page is new files.
    if (page.length < SWEEP_PAGE) break
  }
  yield* Effect.logInfo("expired files swept").pipe(Effect.annotateLogs({ files: purged, bytes }))
  return purged
}).pipe(withSpan("sweepExpiredFiles"))

export const sweepExpiredFilesJob = (intervalMs: number) =>
  handle(SweepExpiredFiles, {
  run: () =>
    Effect.gen(function*() {
      const next = periodStart(yield* Clock.currentTimeMillis, intervalMs) + intervalMs
      yield* queueSweep(next, next)
      yield* sweepExpiredFiles
      return Done
    }),
  onDead: (_, error, job) =>
    Effect.logError(`expired files were not all swept (${error}); the next period's sweep removes the rest`).pipe(
      Effect.annotateLogs({ jobId: job.id })
    )
})
