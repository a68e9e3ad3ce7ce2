// The face detector's thread: TensorFlow.js on its WebAssembly backend runs a model synchronously,
// about 45 ms a frame, which on the service's own thread would stall every request meanwhile. Plain
// JavaScript: a worker thread loads its file without the TypeScript loader the service runs under.
// Messages in: { id, rgb (ArrayBuffer), width, height }; out: { id, faces: [{x, y, width, height, score}] }
// in the frame's pixels, or { id, error }. The first message out is { ready: true } or { error }.
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { parentPort, workerData } from "node:worker_threads"

const require = createRequire(import.meta.url)

const load = async () => {
  const tf = require("@tensorflow/tfjs")
  const wasm = require("@tensorflow/tfjs-backend-wasm")
  const faceapi = require("@vladmandic/face-api/dist/face-api.node-wasm.js")
  // The .wasm files ship in the backend's own package: read from disk, never fetched.
  wasm.setWasmPaths(`${dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))}/`, false)
  await tf.setBackend("wasm")
  await tf.ready()
  await faceapi.nets.tinyFaceDetector.loadFromDisk(join(dirname(require.resolve("@vladmandic/face-api/package.json")), "model"))
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: workerData.inputSize, scoreThreshold: workerData.minScore })
  return { tf, faceapi, options }
}

load().then(
  ({ tf, faceapi, options }) => {
    parentPort.on("message", async ({ id, rgb, width, height }) => {
      const tensor = tf.tensor3d(new Uint8Array(rgb), [height, width, 3], "int32")
      try {
        const found = await faceapi.detectAllFaces(tensor, options)
        parentPort.postMessage({ id, faces: found.map((d) => ({ x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score })) })
      } catch (e) {
        parentPort.postMessage({ id, error: String(e?.message ?? e) })
      } finally {
        tensor.dispose()
      }
    })
    parentPort.postMessage({ ready: true })
  },
  (e) => parentPort.postMessage({ error: String(e?.message ?? e) })
)
