// A model in a worker thread of its own, asked a frame at a time: a model that runs synchronously (the
// face detector's TensorFlow.js, the text detector's onnxruntime) would stall every request of the
// service meanwhile. The thread's first message is { ready: true }, or { error } when its model cannot
// be loaded. Each answer is { id, answer } for the question of that id, or { id, error }. { stop: true }
// asks the thread to release its model and end.
import { Worker } from "node:worker_threads"
import { Effect } from "effect"

/** How long a stopping thread gets to release its model before it is ended anyway. */
const STOP_WAIT_MS = 2_000

export interface ModelThread<A> {
  /** `transfer`: buffers of the question handed over to the thread rather than copied. */
  readonly ask: (question: Readonly<Record<string, unknown>>, transfer: ReadonlyArray<ArrayBuffer>) => Promise<A>
  readonly stop: () => Promise<void>
}

type Reply<A> = { readonly id?: number; readonly ready?: true; readonly answer?: A; readonly error?: string }

/** Starts the thread and waits for its model; one that cannot load it fails with `loadFailed(reason)`. */
export const startModelThread = <A, E>(file: URL, workerData: unknown, loadFailed: (reason: string) => E): Effect.Effect<ModelThread<A>, E> =>
  Effect.async((resume) => {
    const worker = new Worker(file, { workerData })
    const pending = new Map<number, { readonly done: (answer: A) => void; readonly fail: (e: Error) => void }>()
    let next = 0
    let started: boolean | undefined
    const failAll = (e: Error) => {
      for (const waiting of pending.values()) waiting.fail(e)
      pending.clear()
    }
    const start = (outcome: ModelThread<A> | string) => {
      if (started !== undefined) return
      started = typeof outcome !== "string"
      resume(typeof outcome === "string" ? Effect.fail(loadFailed(outcome)) : Effect.succeed(outcome))
    }
    worker.on("error", (e) => {
      failAll(e)
      start(e.message)
    })
    worker.on("exit", () => {
      failAll(new Error("the model's thread stopped"))
      start("its thread stopped")
    })
    worker.on("message", (reply: Reply<A>) => {
      if (reply.id === undefined) {
        if (reply.ready !== true) {
          void worker.terminate()
          return start(reply.error ?? "no reason given")
        }
        return start({
          ask: (question, transfer) =>
            new Promise<A>((done, fail) => {
              const id = next++
              pending.set(id, { done, fail })
              worker.postMessage({ ...question, id }, [...transfer])
            }),
          stop: async () => {
            const ended = new Promise<void>((done) => worker.once("exit", () => done()))
            worker.postMessage({ stop: true })
            const late = setTimeout(() => void worker.terminate(), STOP_WAIT_MS)
            await ended
            clearTimeout(late)
          }
        })
      }
      const waiting = pending.get(reply.id)
      pending.delete(reply.id)
      if (reply.error === undefined && reply.answer !== undefined) waiting?.done(reply.answer)
      else waiting?.fail(new Error(reply.error ?? "no answer"))
    })
  })
