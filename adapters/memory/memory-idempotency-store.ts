// IdempotencyStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { IdempotencyStore, type KeyedRequest } from "../../domain/ports/idempotency-store.ts"
import { MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const responseKey = (workspaceId: string, key: string): string => JSON.stringify([workspaceId, key])

const isHeldBy = (row: KeyedRequest, holder: string): boolean => row.holder === holder && Option.isNone(row.response)

export const MemoryIdempotencyStoreLive = Layer.effect(
  IdempotencyStore,
  Effect.map(MemoryDatabase, (db) =>
    IdempotencyStore.of({
      reserve: ({ staleBefore, ...claim }) =>
        db.modify((t) => {
          const k = responseKey(claim.workspaceId, claim.key)
          const current = t.responses.get(k)
          // ISO 8601 UTC strings of one length order as the instants do.
          if (current !== undefined && (Option.isSome(current.response) || current.reservedAt >= staleBefore)) {
            return [current, t] as const
          }
          const reserved: KeyedRequest = { ...claim, response: Option.none() }
          return [reserved, { ...t, responses: withRow(t.responses, k, reserved) }] as const
        }).pipe(withSpan("MemoryIdempotencyStore.reserve")),
      get: (workspaceId, key) =>
        db.read((t) => Option.fromNullable(t.responses.get(responseKey(workspaceId, key)))).pipe(
          withSpan("MemoryIdempotencyStore.get")
        ),
      answer: (workspaceId, key, holder, response) =>
        db.write((t) => ({
          ...t,
          responses: updateRow(
            t.responses,
            responseKey(workspaceId, key),
            (row) => isHeldBy(row, holder) ? { ...row, response: Option.some(response) } : row
          )
        })).pipe(withSpan("MemoryIdempotencyStore.answer")),
      release: (workspaceId, key, holder) =>
        db.write((t) => {
          const k = responseKey(workspaceId, key)
          const row = t.responses.get(k)
          if (row === undefined || !isHeldBy(row, holder)) return t
          const responses = new Map(t.responses)
          responses.delete(k)
          return { ...t, responses }
        }).pipe(withSpan("MemoryIdempotencyStore.release"))
    }))
)
