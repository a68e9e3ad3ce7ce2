// What every record of background work besides videos (a caption removal, clips) shares: how it starts,
// and that it announces its end once, whichever way it ended.
import { Either } from "effect"
import type { Emit, IllegalTransition, WebhookEventName } from "./video.ts"

export type WorkStatus = "processing" | "completed" | "failed"

/** The fields a new record of work starts with: processing, queued, its source and its receiver. */
export const startedWork = (input: {
  readonly id: string
  readonly workspaceId: string
  readonly source: { readonly url: string } | { readonly fileId: string }
  readonly webhookUrl: string | null
  readonly at: string
}) => ({
  id: input.id,
  workspaceId: input.workspaceId,
  status: "processing" as const,
  step: "queued" as const,
  createdAt: input.at,
  updatedAt: input.at,
  sourceUrl: "url" in input.source ? input.source.url : null,
  sourceFileId: "fileId" in input.source ? input.source.fileId : null,
  webhookUrl: input.webhookUrl
})

/**
 * A kind's state machine with what must follow it: a record that ends (completed or failed) announces it
 * with its own event, once (an ended record takes no further event).
 */
export const announcingEnd = <Rec extends { readonly id: string; readonly status: WorkStatus }, Ev, Name extends WebhookEventName>(
  apply: (record: Rec, event: Ev) => Either.Either<Rec, IllegalTransition>,
  events: { readonly completed: Name; readonly failed: Name }
) =>
(record: Rec, event: Ev): Either.Either<{ readonly record: Rec; readonly effects: ReadonlyArray<Emit<Name>> }, IllegalTransition> =>
  Either.map(apply(record, event), (next) => ({
    record: next,
    effects: next.status === "processing" ? [] : [{ _tag: "Emit", event: next.status === "completed" ? events.completed : events.failed, dedupeKey: next.id }]
  }))
