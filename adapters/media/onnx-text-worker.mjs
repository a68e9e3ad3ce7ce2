// The text detector's thread: onnxruntime-node runs a model synchronously on the thread that calls it
// (40-60 ms a 384x640 frame on 2 cores), which on the service's own thread stalls every request
// meanwhile. Measured over a 30 s scan of 1080x1920 on 2 cores, the service thread's event-loop delay:
// p99 112-140 ms with the model on it, 14-17 ms with the model here, the scan as fast. Plain JavaScript,
// as the face detector's thread: a worker thread loads its file without the TypeScript loader the
// service runs under.
// workerData: { modelPath, sessionOptions }. The first message out is { ready: true } or { error }.
// In: { id, input (ArrayBuffer: float32, 1x3xHxW), width, height }; out: { id, answer (ArrayBuffer: float32,
// the model's HxW text probabilities) } or { id, error }. In: { stop: true } releases the session and ends.
// (model-thread.ts asks and waits.)
import { createRequire } from "node:module"
import { parentPort, workerData } from "node:worker_threads"

const require = createRequire(import.meta.url)

const load = async () => {
  const ort = require("onnxruntime-node")
  return { ort, session: await ort.InferenceSession.create(workerData.modelPath, workerData.sessionOptions) }
}

load().then(
  ({ ort, session }) => {
    parentPort.on("message", async (message) => {
      if (message.stop === true) {
        await session.release().catch(() => undefined)
        parentPort.close()
        return
      }
      const { height, id, input, width } = message
      try {
        const outputs = await session.run({ [session.inputNames[0]]: new ort.Tensor("float32", new Float32Array(input), [1, 3, height, width]) })
        const map = outputs[session.outputNames[0]]
        if (map === undefined) throw new Error("the model returned nothing")
        // The output's memory is the runtime's: a copy of it is handed over.
        const data = Float32Array.from(map.data)
        parentPort.postMessage({ id, answer: data.buffer }, [data.buffer])
      } catch (e) {
        parentPort.postMessage({ id, error: String(e?.message ?? e) })
      }
    })
    parentPort.postMessage({ ready: true })
  },
  (e) => parentPort.postMessage({ error: String(e?.message ?? e) })
)
