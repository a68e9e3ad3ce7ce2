// Fake-text videos end to end: a six-message conversation becomes an mp4 of the chat screen whose
// length follows the speech of its messages (each measured on its own through text to speech), with
// sound where the voices speak; bad requests name their field and create nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { chatSchedule } from "../../domain/chat-schedule.ts"
import { chatTheme } from "../../domain/chat-themes.ts"
import type { Conversation } from "../../domain/conversation.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { readFrame } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { download, loudness, probeVideo as probe } from "../support/media-checks.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp()
})

afterAll(async () => {
  await app?.close()
})

const CONVERSATION: Conversation = {
  participants: [
    { id: "sam", name: "Sam", me: true },
    { id: "maya", name: "Maya Lopez" }
  ],
  messages: [
    { from: "maya", text: "are you still coming tonight?" },
    { from: "sam", text: "Yes, leaving in ten minutes" },
    { from: "maya", text: "ok wait" },
    { from: "maya", text: "did you tell Jordan about the surprise?" },
    { from: "sam", text: "Still a secret. I told him we are going bowling" },
    { from: "maya", text: "he hates bowling" }
  ]
}

/** How long a text takes to say in a voice, through the text-to-speech operation. */
const speechSeconds = async (token: string, script: string, voiceId: string): Promise<number> => {
  const answer = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script, voiceId } })
  expect(answer.status).toBe(200)
  return answer.body.duration as number
}

const hex = (colour: string) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16))

describe("fake-text videos", () => {
  it("plays six messages as an mp4 whose length follows their speech, with the voices in its sound", async () => {
    const { token } = await app.createWorkspace({ credits: 2000 })
    const voices = (await call(app.baseUrl, "/v1/voices", { token })).body.data as ReadonlyArray<{ id: string; language: string }>
    const english = voices.filter((v) => v.language.startsWith(voices[0]!.language.slice(0, 2)))
    const created = await call(app.baseUrl, "/v1/fake-text-videos", {
      token,
      json: { ...CONVERSATION, theme: "imessage-light", render: {} }
    })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video).toMatchObject({ status: "completed", kind: "fake-text", width: 1080, height: 1920 })

    // Each participant got a voice of their own; each message's speech is measured in its sender's voice.
    const voiceOf = { sam: english[0]!.id, maya: english[1 % english.length]!.id } as Record<string, string>
    const seconds = await Promise.all(CONVERSATION.messages.map((m) => speechSeconds(token, m.text!, voiceOf[m.from]!)))
    const schedule = chatSchedule(CONVERSATION, seconds)
    expect(video.duration).toBeCloseTo(schedule.durationSeconds, 1)

    const mp4 = await download(video.videoUrl, app.dataDir, "chat.mp4")
    const facts = await probe(mp4)
    expect(facts).toMatchObject({ width: 1080, height: 1920, frameRate: "30/1", hasAudio: true })
    expect(Math.abs(facts.frames - Math.round(video.duration * 30))).toBeLessThanOrEqual(1)
    expect(Math.abs(facts.duration - video.duration)).toBeLessThan(0.1)

    // Voices are heard while a message is read, and the empty chat at the start is silent.
    const fifth = schedule.beats[4]!
    expect(await loudness(mp4, fifth.speechAt + 0.2, fifth.speechAt + fifth.speechSeconds - 0.2)).toBeGreaterThan(0.02)
    expect(await loudness(mp4, 0, 0.4)).toBeLessThan(0.005)

    // The last frame shows the chat: the theme's sent bubble blue and received grey are both on screen.
    const theme = chatTheme("imessage-light")
    const frame = await readFrame(mp4, video.duration - 0.2, 1080, 1920)
    const present = (colour: string) => {
      const [r, g, b] = hex(colour)
      let n = 0
      for (let i = 0; i < frame.rgb.length; i += 3) {
        if (Math.abs(frame.rgb[i]! - r!) < 12 && Math.abs(frame.rgb[i + 1]! - g!) < 12 && Math.abs(frame.rgb[i + 2]! - b!) < 12) n++
      }
      return n / (frame.width * frame.height)
    }
    expect(present(theme.sent.fill)).toBeGreaterThan(0.01)
    expect(present(theme.received.fill)).toBeGreaterThan(0.01)
  }, 240_000)

  it("completes without render as an editable project, then renders on greenscreen at 60 fps: the chat in the top half, green below", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/fake-text-videos", {
      token,
      json: { ...CONVERSATION, messages: CONVERSATION.messages.slice(0, 2), background: { game: "runner" }, splitScreen: true }
    })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("completed")
    expect(video.videoUrl).toBeUndefined()
    const logs = (await call(app.baseUrl, "/v1/credit-logs", { token })).body.data as ReadonlyArray<{ operation: string }>
    expect(logs.map((l) => l.operation).filter((op) => op !== "opening balance")).toEqual(["speech"])

    const exported = await call(app.baseUrl, `/v1/videos/${created.body.id}/render`, { token, json: { format: "greenscreen", frameRate: 60 } })
    expect(exported.status).toBe(200)
    const rendered = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(rendered.export.status).toBe("completed")
    const mp4 = await download(rendered.videoUrl, app.dataDir, "chat-green.mp4")
    expect(await probe(mp4)).toMatchObject({ width: 1080, height: 1920, frameRate: "60/1", hasAudio: true })
    const frame = await readFrame(mp4, rendered.duration - 0.2, 1080, 1920)
    const green = (from: number, to: number) => {
      let n = 0
      for (let i = from * 1080 * 3; i < to * 1080 * 3; i += 3) if (frame.rgb[i]! < 40 && frame.rgb[i + 1]! > 215 && frame.rgb[i + 2]! < 40) n++
      return n / ((to - from) * 1080)
    }
    // The chat's header and bubbles are drawn in the top half (its empty list shows the green through); the footage is dropped.
    expect(green(0, 300)).toBeLessThan(0.05)
    expect(green(1000, 1920)).toBeGreaterThan(0.99)
  }, 180_000)

  it("refuses bad requests naming the field, and render on a plan that cannot render, creating nothing", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const refused = async (json: unknown, status = 400) => {
      const answer = await call(app.baseUrl, "/v1/fake-text-videos", { token, json })
      expect(answer.status).toBe(status)
      return answer.body.error
    }
    expect((await refused({ ...CONVERSATION, messages: [{ from: "ghost", text: "boo" }] })).details.field).toBe("messages.0.from")
    expect((await refused({
      ...CONVERSATION,
      participants: [CONVERSATION.participants[0], { ...CONVERSATION.participants[1], voiceId: "nobody" }]
    })).details.field).toBe("participants.1.voiceId")
    expect((await refused({ ...CONVERSATION, splitScreen: true })).details.field).toBe("splitScreen")
    expect((await refused({ ...CONVERSATION, background: { fileKey: "missing" } })).details.field).toBe("background.fileKey")
    expect((await refused({ ...CONVERSATION, background: { color: "blue" } })).details.field).toMatch(/^background/)
    const free = await app.createWorkspace({ plan: "free", credits: 100 })
    const forbidden = await call(app.baseUrl, "/v1/fake-text-videos", { token: free.token, json: { ...CONVERSATION, render: {} } })
    expect(forbidden.status).toBe(403)
    const listed = await call(app.baseUrl, "/v1/videos", { token })
    expect(listed.body.data).toEqual([])
  })
})
