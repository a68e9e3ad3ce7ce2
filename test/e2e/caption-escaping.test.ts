// What a person writes never reaches a caption script as syntax, over HTTP: a font family that would
// write new ASS lines is refused naming the field (templates and a video's adjustments alike), and a
// word edited to markup and a cue arrow comes back escaped in captions.vtt and captions.srt, one cue a page.
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { aVideo } from "../contract/fixtures.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"

const INJECTED_FONT = "Arial\n[Events]\nDialogue: 0,0:00:00.00,0:00:09.00,Caption,,0,0,0,,{\\fs200}owned"

let app: TestApp
let workspace: { workspaceId: string; token: string }

beforeAll(async () => {
  app = await startApp({ worker: false })
  workspace = await app.createWorkspace()
})

afterAll(async () => {
  await app?.close()
})

/** A completed caption video whose words are timed: two pages, split by a pause. */
const timedVideo = () =>
  app.runtime.runPromise(Effect.gen(function*() {
    const video = aVideo(workspace.workspaceId, { status: "completed", step: "completed", generated: true, durationSeconds: 6, width: 360, height: 640 })
    const videos = yield* VideoStore
    yield* videos.insert(video)
    yield* videos.saveWords(video.id, [
      { text: "Hello", start: 0.5, end: 0.9 },
      { text: "there", start: 1, end: 1.4 },
      { text: "again", start: 3, end: 3.5 }
    ])
    return video.id
  }))

describe("caption scripts take what a person writes as text", () => {
  it("refuses a font family that would write ASS lines, naming the field", async () => {
    const created = await call(app.baseUrl, "/v1/caption-templates", {
      token: workspace.token,
      json: { name: "Injected", style: { fontFamily: INJECTED_FONT } }
    })
    expect(created.status).toBe(400)
    expect(created.body.error.details.field).toBe("style.fontFamily")

    const saved = await call(app.baseUrl, "/v1/caption-templates", { token: workspace.token, json: { name: "Plain", style: { fontFamily: "DejaVu Sans" } } })
    expect(saved.status).toBe(200)
    const changed = await call(app.baseUrl, `/v1/caption-templates/${saved.body.id}`, {
      token: workspace.token,
      method: "PATCH",
      json: { style: { fontFamily: "Arial,Bold" } }
    })
    expect(changed.status).toBe(400)
    expect(changed.body.error.details.field).toBe("style.fontFamily")

    const id = await timedVideo()
    const adjusted = await call(app.baseUrl, `/v1/videos/${id}/captions`, {
      token: workspace.token,
      method: "PATCH",
      json: { adjustments: { fontFamily: INJECTED_FONT } }
    })
    expect(adjusted.status).toBe(400)
    expect(adjusted.body.error.details.field).toBe("adjustments.fontFamily")
  })

  it("escapes a word edited to <b>&--> in captions.vtt and captions.srt, keeping one cue a page", async () => {
    const id = await timedVideo()
    const { words } = (await call(app.baseUrl, `/v1/videos/${id}/captions`, { token: workspace.token })).body
    const edited = await call(app.baseUrl, `/v1/videos/${id}/captions`, {
      token: workspace.token,
      method: "PATCH",
      json: { words: words.map((w: { text: string }, i: number) => (i === 1 ? { ...w, text: "<b>&-->" } : w)) }
    })
    expect(edited.status).toBe(200)
    expect(edited.body.pages).toHaveLength(2)

    const vtt = await call(app.baseUrl, `/v1/videos/${id}/captions.vtt`, { token: workspace.token })
    expect(vtt.status).toBe(200)
    expect(vtt.body).toBe(
      "WEBVTT\n\n" +
        "00:00:00.500 --> 00:00:01.400\nHello &lt;b&gt;&amp;--&gt;\n\n" +
        "00:00:03.000 --> 00:00:03.500\nagain\n"
    )

    const srt = await call(app.baseUrl, `/v1/videos/${id}/captions.srt`, { token: workspace.token })
    expect(srt.status).toBe(200)
    expect(srt.body).toBe(
      "1\n00:00:00,500 --> 00:00:01,400\nHello <\u2060b>&\u2060--\u2060>\n\n" +
        "2\n00:00:03,000 --> 00:00:03,500\nagain\n"
    )
    expect(srt.body.split("\n").filter((line: string) => line.includes("-->"))).toHaveLength(2)
  })
})
