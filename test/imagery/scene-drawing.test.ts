// An AI video's scenes drawn by a hosted illustrator (ILLUSTRATOR=openai, against a local stand-in that
// speaks the documented /v1/images/generations shapes): asked side by side, as many at once as the
// illustrator draws, and every scene's picture saved however the answers interleave.
import type { IncomingMessage, ServerResponse } from "node:http"
import { createCanvas } from "@napi-rs/canvas"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { answerJson, type StandIn, startStandIn } from "../support/stand-in.ts"

const KEY = "sk-test-key"
/** About 40 s of narration: 7 scenes. */
const SCRIPT = Array.from({ length: 7 }, (_, i) =>
  `Scene ${i + 1} walks along the harbour wall while the boats come home and the gulls circle over the quiet water.`).join(" ")
/** Long enough that several requests are surely in flight together when the drawing runs them side by side. */
const ANSWER_DELAY_MS = 300

let inFlight = 0
let mostInFlight = 0
let asked = 0

const picture = (size: string) => {
  const [width, height] = size.split("x").map(Number) as [number, number]
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#3366aa"
  ctx.fillRect(0, 0, width, height)
  return canvas.toBuffer("image/png").toString("base64")
}

const standIn = async (req: IncomingMessage, requestBody: Buffer, res: ServerResponse) => {
  if (req.headers.authorization !== `Bearer ${KEY}`) return answerJson(res, 401, { error: { message: "bad key", type: "invalid_request_error" } })
  const body = JSON.parse(requestBody.toString("utf8")) as { size: string }
  asked++
  inFlight++
  mostInFlight = Math.max(mostInFlight, inFlight)
  await new Promise((r) => setTimeout(r, ANSWER_DELAY_MS))
  inFlight--
  answerJson(res, 200, { created: 1700000000, data: [{ b64_json: picture(body.size) }] })
}

describe("drawing an AI video's scenes with a hosted illustrator", () => {
  let server: StandIn
  let app: TestApp
  const previous = { ...process.env }

  beforeAll(async () => {
    server = await startStandIn(standIn)
    // Worker threads have their own copy of the environment: this file's settings stay in its thread.
    Object.assign(process.env, { ILLUSTRATOR: "openai", OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseUrl })
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
    await server?.close()
    for (const key of ["ILLUSTRATOR", "OPENAI_API_KEY", "OPENAI_BASE_URL"]) {
      if (previous[key] === undefined) delete process.env[key]
      else process.env[key] = previous[key]
    }
  })

  it("asks for the pictures four at a time and saves each scene's", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const created = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: SCRIPT, aspectRatio: "1:1" } })
    expect(created.status).toBe(200)
    expect(await waitForVideo(app.baseUrl, token, created.body.id)).toMatchObject({ status: "completed" })
    const project = await app.runtime.runPromise(Effect.flatMap(VideoStore, (s) => s.getProject(created.body.id)))
    const visuals = project._tag === "Some" ? project.value.visuals : undefined
    const scenes = visuals?._tag === "Illustrated" ? visuals.scenes : []
    expect(scenes.length).toBeGreaterThan(4)
    expect(asked).toBe(scenes.length)
    expect(mostInFlight).toBe(4)
    expect(scenes.every((s) => s.imageFileId !== null)).toBe(true)
    expect(new Set(scenes.map((s) => s.imageFileId)).size).toBe(scenes.length)
  })
})
