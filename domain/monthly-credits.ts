// The monthly grant of a plan's credits: one per workspace per calendar month (UTC), told apart by
// its ledger key, and the instants at which the grant job runs. A month's grant goes to workspaces
// made before the month began: the opening balance given at creation covers the first, partial month.

/** The calendar month of an instant, as `YYYY-MM` (UTC). */
export const creditMonth = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 7)

/** Epoch ms of the first instant of the month the instant falls in (UTC). */
export const monthStart = (epochMs: number): number => {
  const d = new Date(epochMs)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

/** Epoch ms of the first instant of the next month (UTC): when the next grant is due. */
export const nextMonthStart = (epochMs: number): number => {
  const d = new Date(epochMs)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

/** The ledger key of a workspace's grant for a month: posting it twice records one grant. */
export const monthlyGrantKey = (workspaceId: string, month: string): string => `${workspaceId}:monthly:${month}`

