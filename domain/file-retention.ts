// How long stored files live: a plan's retention counts from the upload, and a file past it is gone
// for its links (410) and for the work that reads it ("source expired"), while its records stay. A
// periodic sweep then removes its bytes (purges it): a purged file stays expired whatever the plan.
import { type Plan, PLAN_RULES } from "./plans.ts"

const DAY_MS = 24 * 60 * 60 * 1000

/** How long the plan keeps a file after its upload, in ms; null = kept until deleted. */
export const retentionMs = (plan: Plan): number | null => {
  const days = PLAN_RULES[plan].fileRetentionDays
  return days === null ? null : days * DAY_MS
}

/** Epoch ms at which a file stored at `storedAtMs` on `plan` stops resolving; null = kept. */
export const fileExpiresAt = (plan: Plan, storedAtMs: number): number | null => {
  const retention = retentionMs(plan)
  return retention === null ? null : storedAtMs + retention
}

export type FileAvailability = "available" | "deleted" | "expired"

/** Whether the file's retention has passed at `now`, whatever became of its bytes. */
export const isPastExpiry = (file: { readonly expiresAt: number | null }, now: number): boolean =>
  file.expiresAt !== null && file.expiresAt <= now

/** A deleted file is deleted whatever its expiry; otherwise it is expired once purged or from its expiry on. */
export const fileAvailability = (
  file: { readonly deletedAt: string | null; readonly purgedAt: string | null; readonly expiresAt: number | null },
  now: number
): FileAvailability =>
  file.deletedAt !== null ? "deleted" : file.purgedAt !== null || isPastExpiry(file, now) ? "expired" : "available"

/** Why work or a render request stops on an expired file: says "source expired", and what to do. */
export const sourceExpiredMessage = (fileName: string): string =>
  `The source expired: ${fileName} passed the plan's file retention and is no longer stored. ` +
  "Upload it again and create a new video from it (on a plan that keeps files, they do not expire)."
