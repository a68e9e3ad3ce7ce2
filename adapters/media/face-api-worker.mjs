// The face detector's thread: TensorFlow.js on its WebAssembly backend runs a model synchronously,
// about 45 ms a frame, which on the service's own thread would stall every request meanwhile. Plain
// JavaScript: a worker thread loads its file without the TypeScript loader the service runs under.
// Messages in: { id, rgb (ArrayBuffer), width, height, faces? }; out: { id, answer: [{x, y, width, height,
// score, mouth?}] } in the frame's pixels, or { id, error }. Without `faces` it looks for faces; given `faces`
// (found on this frame or an earlier one of an unchanged picture), it measures only their mouths: each
// face's 68 landmarks (the tiny landmark net, about 10 ms a face) give `mouth`, the gap between the inner
// lips as a share of the face's height. The first message out is { ready: true } or { error }; in:
// { stop: true } ends the thread (model-thread.ts asks and waits).
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
  const models = join(dirname(require.resolve("@vladmandic/face-api/package.json")), "model")
  await faceapi.nets.tinyFaceDetector.loadFromDisk(models)
  await faceapi.nets.faceLandmark68TinyNet.loadFromDisk(models)
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: workerData.inputSize, scoreThreshold: workerData.minScore })
  return { tf, faceapi, options }
}

load().then(
  ({ tf, faceapi, options }) => {
    // The inner lips' three pairs of points, upper and lower (62-66 is the middle).
    const gap = (points, faceHeight) => [[61, 67], [62, 66], [63, 65]].reduce((sum, [a, b]) => sum + Math.hypot(points[a].x - points[b].x, points[a].y - points[b].y), 0) / 3 / faceHeight
    const boxOf = (d) => ({ x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score })
    const measured = async (tensor, faces) => {
      const crops = await faceapi.extractFaceTensors(tensor, faces.map((f) => new faceapi.Rect(f.x, f.y, f.width, f.height)))
      try {
        const marks = await faceapi.nets.faceLandmark68TinyNet.detectLandmarks(crops)
        const each = Array.isArray(marks) ? marks : [marks]
        // Landmarks of a crop are in its pixels: the crop is the face's box.
        return faces.map((f, i) => ({ ...f, mouth: gap(each[i].positions, each[i].imageHeight) }))
      } finally {
        for (const crop of crops) crop.dispose()
      }
    }
    parentPort.on("message", async ({ id, rgb, width, height, faces: known, stop }) => {
      // The model's memory goes with the thread.
      if (stop === true) return parentPort.close()
      const tensor = tf.tensor3d(new Uint8Array(rgb), [height, width, 3], "int32")
      try {
        const faces = known !== undefined ? await measured(tensor, known) : (await faceapi.detectAllFaces(tensor, options)).map(boxOf)
        parentPort.postMessage({ id, answer: faces })
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
