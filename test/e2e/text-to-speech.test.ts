// Voices and text to speech over HTTP: the MP3 says the script, word times come back, credits are
// charged once per speech, and refused requests store and charge nothing.
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makePocketsphinxTranscriber } from "../../adapters/media/pocketsphinx-transcriber.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { speechCredits } from "../../domain/pricing.ts"
import { scriptWords } from "../../domain/spoken-words.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { FESTIVAL_FAILURE, startAppWithBrokenFestival } from "../support/broken-festival.ts"
import { call } from "../support/http-client.ts"
import { normaliseWords, wordErrors } from "../support/wer.ts"

const run = promisify(execFile)
const SCRIPT = "Captions help people follow the story. The weather is nice today, so we are going to the park."

let app: TestApp
let dir: string

beforeAll(async () => {
  app = await startApp({ worker: false })
  dir = await mkdtemp(join(tmpdir(), "tts-e2e-"))
})

afterAll(async () => {
  await app?.close()
  await rm(dir, { recursive: true, force: true })
})

const download = async (url: string, name: string): Promise<string> => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  const path = join(dir, name)
  await writeFile(path, Buffer.from(await response.arrayBuffer()))
  return path
}

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
  return JSON.parse(stdout) as { format: { duration: string; format_name: string }; streams: Array<{ codec_name: string }> }
}

const balanceOf = (workspaceId: string) => app.runtime.runPromise(Effect.flatMap(Ledger, (l) => l.balance(workspaceId)))

describe("voices", () => {
  it("lists the built-in voices with a playable preview", async () => {
    const { token } = await app.createWorkspace()
    const listed = await call(app.baseUrl, "/v1/voices", { token })
    expect(listed.status).toBe(200)
    expect(listed.body.data[0]).toMatchObject({ id: "festival-slt", engine: "festival", language: "en-US", gender: "female" })
    const preview = await download(listed.body.data[0].preview, "preview.mp3")
    const facts = await probe(preview)
    expect(facts.streams[0]?.codec_name).toBe("mp3")
    expect(Number(facts.format.duration)).toBeGreaterThan(1.5)
    expect((await fetch(`${app.baseUrl}/voices/nobody/preview.mp3`)).status).toBe(404)
  })
})

describe("text to speech", () => {
  it("answers an MP3 that says the script, with every word's time, and charges it once", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 100 })
    const spoken = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: SCRIPT, voiceId: "festival-slt" } })
    expect(spoken.status).toBe(200)
    expect(spoken.body).toMatchObject({ contentType: "audio/mpeg", voiceId: "festival-slt" })
    expect(spoken.body.words.map((w: { text: string }) => w.text)).toEqual(scriptWords(SCRIPT))

    const mp3 = await download(spoken.body.url, "speech.mp3")
    const facts = await probe(mp3)
    expect(facts.streams[0]?.codec_name).toBe("mp3")
    expect(Number(facts.format.duration)).toBeCloseTo(spoken.body.duration, 0)
    expect(spoken.body.words.at(-1).end).toBeLessThanOrEqual(spoken.body.duration)

    // The audio says the script: recognised back with few errors.
    await run("ffmpeg", ["-v", "error", "-y", "-i", mp3, "-ac", "1", "-ar", "16000", join(dir, "speech16k.wav")])
    const heard = await Effect.runPromise(
      makePocketsphinxTranscriber({ binary: "pocketsphinx_continuous", parallelism: 1, minChunkSeconds: 60, maxChunkSeconds: 300 })
        .transcribe(join(dir, "speech16k.wav"))
    )
    const errors = wordErrors(normaliseWords(scriptWords(SCRIPT)), normaliseWords(heard.map((w) => w.text)))
    expect(errors.rate).toBeLessThan(0.25)

    expect(spoken.body.credits).toBe(speechCredits(spoken.body.duration))
    expect(await balanceOf(workspaceId)).toBe(100 - spoken.body.credits)
  })

  it("speaks other languages with the embedded eSpeak NG voices", async () => {
    const { token } = await app.createWorkspace()
    const voices = (await call(app.baseUrl, "/v1/voices", { token })).body.data as Array<{ id: string; engine: string; language: string }>
    const spanish = voices.find((v) => v.engine === "espeak-ng" && v.language.startsWith("es"))!
    const script = "Hola, ¿cómo estás? Hoy vamos al parque."
    const spoken = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script, voiceId: spanish.id } })
    expect(spoken.status).toBe(200)
    expect(spoken.body.words.map((w: { text: string }) => w.text)).toEqual(scriptWords(script))
    const facts = await probe(await download(spoken.body.url, "spanish.mp3"))
    expect(Number(facts.format.duration)).toBeCloseTo(spoken.body.duration, 0)
  })

  it("uses the first voice when none is named", async () => {
    const { token } = await app.createWorkspace()
    const spoken = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "Hello there." } })
    expect(spoken.status).toBe(200)
    expect(spoken.body.voiceId).toBe("festival-slt")
  })

  it("refuses bad input and short credits, naming the field, storing and charging nothing", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 0 })
    const unknownVoice = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "Hi", voiceId: "nobody" } })
    expect(unknownVoice.status).toBe(400)
    expect(unknownVoice.body.error.details.field).toBe("voiceId")
    const empty = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "   " } })
    expect(empty.status).toBe(400)
    expect(JSON.stringify(empty.body)).toContain("script")
    const long = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "word ".repeat(1001) } })
    expect(long.status).toBe(400)
    const insecureHook = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "Hi", webhookUrl: "http://example.com/hook" } })
    expect(insecureHook.status).toBe(400)
    const broke = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: SCRIPT } })
    expect(broke.status).toBe(402)
    expect(broke.body.error.details.balance).toBe(0)
    expect(await balanceOf(workspaceId)).toBe(0)
  })

  it("refuses a script a voice cannot speak with a 400 naming script, charging nothing", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 100 })
    // One 5,000-letter "word" ran festival out of memory (a 503) before words had a length limit.
    for (const script of ["😀".repeat(500), "?! ... --- !!!", "a".repeat(5000)]) {
      const refused = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script } })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toMatchObject({ code: "invalid_input", details: { field: "script" } })
      expect(refused.body.error.message).toMatch(/nothing a voice can speak|a word of over 64 characters/)
    }
    // Letters the English voice cannot read: it said nothing, which is the script's problem too.
    const foreign = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "你好，世界", voiceId: "festival-slt" } })
    expect(foreign.status).toBe(400)
    expect(foreign.body.error).toMatchObject({ code: "invalid_input", details: { field: "script" } })
    expect(foreign.body.error.message).toContain("GET /v1/voices")
    expect(await balanceOf(workspaceId)).toBe(100)
  })

  it("answers 503 with the JSON error body when the speech engine fails, charging nothing", async () => {
    const broken = await startAppWithBrokenFestival(dir, { worker: false })
    try {
      const { token, workspaceId } = await broken.createWorkspace({ credits: 100 })
      const failed = await call(broken.baseUrl, "/v1/text-to-speech", { token, json: { script: SCRIPT, voiceId: "festival-slt" } })
      expect(failed.status).toBe(503)
      expect(failed.body.error.code).toBe("unavailable")
      expect(failed.body.error.message).toContain("festival-slt could not speak the script")
      expect(failed.body.error.message).toContain(FESTIVAL_FAILURE)
      expect(await broken.runtime.runPromise(Effect.flatMap(Ledger, (l) => l.balance(workspaceId)))).toBe(100)
    } finally {
      await broken.close()
    }
  })
})
