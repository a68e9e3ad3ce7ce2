// Undo and redo over immutable documents: the present, the ones before it and the ones undone.

export interface EditHistory<D> {
  readonly past: ReadonlyArray<D>
  readonly present: D
  readonly future: ReadonlyArray<D>
}

/** Enough for a working session; the oldest steps are forgotten first. */
const LIMIT = 200

export const startHistory = <D>(present: D): EditHistory<D> => ({ past: [], present, future: [] })

/** A new present; what was undone can no longer be redone. An unchanged document is no step. */
export const record = <D>(history: EditHistory<D>, next: D): EditHistory<D> =>
  next === history.present ? history : { past: [...history.past, history.present].slice(-LIMIT), present: next, future: [] }

/** The present replaced in place (the server's version of what was saved): no step of its own. */
export const replacePresent = <D>(history: EditHistory<D>, present: D): EditHistory<D> => ({ ...history, present })

export const undo = <D>(history: EditHistory<D>): EditHistory<D> => {
  const previous = history.past.at(-1)
  return previous === undefined ? history : { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] }
}

export const redo = <D>(history: EditHistory<D>): EditHistory<D> => {
  const next = history.future[0]
  return next === undefined ? history : { past: [...history.past, history.present], present: next, future: history.future.slice(1) }
}
