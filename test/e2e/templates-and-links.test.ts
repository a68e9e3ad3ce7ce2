// Caption templates (built-in and saved) and the media links behind videoUrl.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { FileStore } from "../../domain/ports/file-store.ts"
import { fileUrl } from "../../src/kernel/links.ts"
import { storeFile } from "../../src/shared/media/store-file.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"

let app: TestApp
let token: string

beforeAll(async () => {
  app = await startApp({ worker: false })
  token = (await app.createWorkspace()).token
})

afterAll(async () => {
  await app?.close()
})

describe("caption templates", () => {
  it("has 24 built-in looks, each with a looping preview drawn like the export", async () => {
    const listed = await call(app.baseUrl, "/v1/caption-templates", { token })
    const builtIn: ReadonlyArray<{ id: number; preview: string; style: { animation?: string } }> = listed.body.data.filter((t: { builtIn: boolean }) => t.builtIn)
    expect(builtIn.length).toBeGreaterThanOrEqual(24)
    builtIn.forEach((t) => expect(t.preview).toBe(`${app.baseUrl}/caption-templates/${t.id}/preview.webp`))
    // A typewriter and a still template: both animated WebPs (frames in ANMF chunks); the typewriter's picture changes far more often.
    const framesOf = async (url: string) => {
      const answer = await fetch(url)
      expect(answer.status).toBe(200)
      expect(answer.headers.get("content-type")).toBe("image/webp")
      const bytes = Buffer.from(await answer.arrayBuffer())
      expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF")
      expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP")
      expect(bytes.includes("ANIM")).toBe(true)
      return bytes.toString("latin1").split("ANMF").length - 1
    }
    const typewriter = builtIn.find((t) => t.style.animation === "typewriter")!
    const still = builtIn.find((t) => t.id === -3)!
    const [typed, calm] = [await framesOf(typewriter.preview), await framesOf(still.preview)]
    expect(typed).toBeGreaterThan(20)
    expect(typed).toBeGreaterThan(calm)
    expect((await fetch(`${app.baseUrl}/caption-templates/-999/preview.webp`)).status).toBe(404)
    expect((await fetch(`${app.baseUrl}/caption-templates/1/preview.webp`)).status).toBe(404)
  })

  it("lists at least six built-in looks, then saves, changes and deletes a workspace template", async () => {
    const listed = await call(app.baseUrl, "/v1/caption-templates", { token })
    const builtIn = listed.body.data.filter((t: { builtIn: boolean }) => t.builtIn)
    expect(builtIn.length).toBeGreaterThanOrEqual(6)
    expect(builtIn.every((t: { id: number }) => t.id < 0)).toBe(true)
    expect(new Set(builtIn.map((t: { style: { highlight: string } }) => t.style.highlight)).size).toBeGreaterThanOrEqual(3)

    const saved = await call(app.baseUrl, "/v1/caption-templates", {
      token,
      json: { name: "Brand", basedOn: -5, style: { highlightColor: "#112233" } }
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ name: "Brand", builtIn: false, style: { glow: true, highlightColor: "#112233" }, preview: null })

    const changed = await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, {
      token,
      method: "PATCH",
      json: { name: "Brand 2", style: { uppercase: true } }
    })
    expect(changed.body).toMatchObject({ name: "Brand 2", style: { uppercase: true, highlightColor: "#112233" } })

    // A saved template takes every field a built-in one has: font, shadow and animation included.
    const moving = await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, {
      token,
      method: "PATCH",
      json: { style: { fontFamily: "Playfair Display", animation: "typewriter", shadowRatio: 0.05, shadowColor: "#223344" } }
    })
    expect(moving.body.style).toMatchObject({ fontFamily: "Playfair Display", animation: "typewriter", shadowRatio: 0.05, shadowColor: "#223344" })
    const wrongAnimation = await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, {
      token,
      method: "PATCH",
      json: { style: { animation: "wobble" } }
    })
    expect(wrongAnimation.status).toBe(400)
    expect(wrongAnimation.body.error.details.field).toBe("style.animation")

    const bad = await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, {
      token,
      method: "PATCH",
      json: { style: { textColor: "red" } }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.field).toBe("style.textColor")

    // A create without templateId now uses the template used last.
    const used = await call(app.baseUrl, "/v1/caption-videos", {
      token,
      json: { url: "https://media.example.com/a.mp4", templateId: saved.body.id }
    })
    const next = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: "https://media.example.com/b.mp4" } })
    const video = await call(app.baseUrl, `/v1/videos/${next.body.id}`, { token })
    expect(used.status).toBe(200)
    expect(video.body.templateId).toBe(saved.body.id)

    const deleted = await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, { token, method: "DELETE" })
    expect(deleted.body).toEqual({ id: saved.body.id, deleted: true })
    expect((await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, { token, method: "DELETE" })).status).toBe(404)
  })
})

describe("media links", () => {
  const store = (expiresInMs: number | null) =>
    app.runtime.runPromise(Effect.gen(function*() {
      const path = join(app.dataDir, `upload-${Math.random()}.bin`)
      yield* Effect.promise(() => writeFile(path, Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256))))
      const file = yield* storeFile({ id: "ws-links", plan: "pro" }, { path, name: "data.bin", contentType: "application/octet-stream" })
      const files = yield* FileStore
      if (expiresInMs !== null) yield* files.insert({ ...file, id: `${file.id}-x`, token: `${file.token}x`, expiresAt: Date.now() + expiresInMs })
      return file
    }))

  it("serves whole files and ranges without a header, and stops once the file is deleted", async () => {
    const file = await store(null)
    const url = fileUrl(app.baseUrl, file)
    const whole = await fetch(url)
    expect(whole.status).toBe(200)
    expect(whole.headers.get("accept-ranges")).toBe("bytes")
    expect((await whole.arrayBuffer()).byteLength).toBe(1000)
    const tail = await fetch(url, { headers: { range: "bytes=-10" } })
    expect(tail.status).toBe(206)
    expect(tail.headers.get("content-range")).toBe("bytes 990-999/1000")
    expect([...new Uint8Array(await tail.arrayBuffer())]).toEqual([222, 223, 224, 225, 226, 227, 228, 229, 230, 231])
    expect((await fetch(url, { headers: { range: "bytes=5000-" } })).status).toBe(416)
    expect((await fetch(url.replace(file.token, "not-a-token"))).status).toBe(404)

    await app.runtime.runPromise(Effect.flatMap(FileStore, (f) => f.markDeleted(file.id, new Date().toISOString())))
    expect((await fetch(url)).status).toBe(404)
  })

  it("stops serving a file once it expires, with 410", async () => {
    const file = await store(-1)
    const expired = await fetch(fileUrl(app.baseUrl, { ...file, token: `${file.token}x` }))
    expect(expired.status).toBe(410)
    expect(await expired.json()).toMatchObject({ error: { code: "expired" } })
    expect((await fetch(fileUrl(app.baseUrl, file))).status).toBe(200)
  })
})

describe("hook and platform at create", () => {
  it("are taken by every create that burns captions, and refused with a 400 naming the field", async () => {
    for (const [json, field] of [
      [{ hook: { text: "" } }, "hook.text"],
      [{ hook: { text: "x".repeat(101) } }, "hook.text"],
      [{ hook: { seconds: 2 } }, "hook.text"],
      [{ platform: "myspace" }, "platform"]
    ] as const) {
      const refused = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: "https://media.example.com/a.mp4", ...json } })
      expect(refused.status).toBe(400)
      expect(refused.body.error.details.field).toBe(field)
      const ai = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: "A short script.", ...json } })
      expect(ai.status).toBe(400)
      expect(ai.body.error.details.field).toBe(field)
    }
    const look = { hook: { text: "Watch to the end", seconds: 2 }, platform: "reels" }
    expect((await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: "https://media.example.com/a.mp4", ...look } })).status).toBe(200)
    expect((await call(app.baseUrl, "/v1/quiz-videos", { token, json: { questions: [{ question: "Two plus two?", answers: ["3", "4"], correct: 1 }], captions: true, ...look } })).status).toBe(200)
  })
})
