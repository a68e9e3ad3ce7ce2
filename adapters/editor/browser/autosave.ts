// Saves the latest document a moment after the last change, one save at a time: changes made while a
// save is on its way go in the next one, and a burst of changes costs one request.

export type SaveState =
  | { readonly _tag: "saved" }
  | { readonly _tag: "pending" }
  | { readonly _tag: "saving" }
  | { readonly _tag: "failed"; readonly message: string }

export interface Autosave<D> {
  /** Saves `doc` once changes stop for the delay. */
  readonly schedule: (doc: D) => void
  /** Saves now what is waiting (again, after a failure); resolves once it is saved, or rejects with the failure. */
  readonly flush: () => Promise<void>
  /** Drops what is waiting (the document was replaced by the server's). */
  readonly discard: () => void
  /** Whether something is not saved yet. */
  readonly dirty: () => boolean
}

export const autosave = <D>(options: {
  readonly delayMs: number
  readonly save: (doc: D) => Promise<void>
  readonly onState: (state: SaveState) => void
}): Autosave<D> => {
  let waiting: { readonly doc: D } | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let inFlight: Promise<void> | undefined

  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  const flush = async (): Promise<void> => {
    stopTimer()
    while (inFlight !== undefined) await inFlight.catch(() => undefined)
    const next = waiting
    if (next === undefined) return
    waiting = undefined
    options.onState({ _tag: "saving" })
    const saving = options.save(next.doc)
    inFlight = saving
    try {
      await saving
      options.onState(waiting === undefined ? { _tag: "saved" } : { _tag: "pending" })
    } catch (error) {
      // Kept for the next flush, unless a newer document took its place meanwhile.
      waiting ??= next
      options.onState({ _tag: "failed", message: error instanceof Error ? error.message : String(error) })
      throw error
    } finally {
      inFlight = undefined
    }
  }

  return {
    schedule: (doc) => {
      waiting = { doc }
      options.onState({ _tag: "pending" })
      stopTimer()
      timer = setTimeout(() => void flush().catch(() => undefined), options.delayMs)
    },
    flush,
    discard: () => {
      stopTimer()
      waiting = undefined
      options.onState({ _tag: "saved" })
    },
    dirty: () => waiting !== undefined || inFlight !== undefined
  }
}
