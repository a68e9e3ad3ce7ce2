// Which engine captions are made with: TRANSCRIBER=auto (the default) takes whisper.cpp when a model is
// there, else the OpenAI-compatible service when its key is set, else pocketsphinx; a forced choice
// without what it needs is refused at startup, naming the setting.
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { TranscriberFromConfig } from "../../adapters/media/transcriber-config.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"
import { WorkspaceKeysLive } from "../support/workspace-keys.ts"

let empty = ""

/** A file of `bytes` bytes, holding none on disk. */
const sparseFile = async (path: string, bytes: number) => {
  await writeFile(path, "")
  await truncate(path, bytes)
}

beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), "models-"))
})

afterAll(() => rm(empty, { recursive: true, force: true }))

/** The engine and model chosen under these settings (nothing else of the environment counts). */
const chosen = (settings: Record<string, string>) =>
  Effect.map(Transcriber, (t) => ({ engine: t.name, model: t.model })).pipe(
    Effect.provide(TranscriberFromConfig.pipe(Layer.provide(WorkspaceKeysLive()))),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ MODELS_DIR: empty, ...settings })))),
    Effect.scoped
  )

describe("TRANSCRIBER", () => {
  it.effect("auto takes WHISPER_MODEL when it is set", () =>
    Effect.gen(function*() {
      expect(yield* chosen({ WHISPER_MODEL: "/models/ggml-base.en-q5_1.bin", OPENAI_API_KEY: "sk-test" })).toEqual({
        engine: "whisper",
        model: "ggml-base.en-q5_1.bin"
      })
    }))

  it.effect("auto takes the best model installed in MODELS_DIR (checked by its published size)", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "models-")))
      // Sparse files of the published sizes: the choice reads sizes; the digest is checked when the model loads.
      yield* Effect.promise(() => sparseFile(join(dir, "ggml-tiny.en-q5_1.bin"), 32_166_155))
      expect(yield* chosen({ MODELS_DIR: dir, OPENAI_API_KEY: "sk-test" })).toEqual({ engine: "whisper", model: "ggml-tiny.en-q5_1.bin" })
      yield* Effect.promise(() => sparseFile(join(dir, "ggml-base.en-q5_1.bin"), 59_721_011))
      expect(yield* chosen({ MODELS_DIR: dir })).toEqual({ engine: "whisper", model: "ggml-base.en-q5_1.bin" })
      // A file of another size (a partial download, another build) is not taken.
      yield* Effect.promise(() => rm(join(dir, "ggml-base.en-q5_1.bin")))
      yield* Effect.promise(() => sparseFile(join(dir, "ggml-base.en.bin"), 1000))
      expect(yield* chosen({ MODELS_DIR: dir })).toEqual({ engine: "whisper", model: "ggml-tiny.en-q5_1.bin" })
      yield* Effect.promise(() => rm(dir, { recursive: true, force: true }))
    }))

  it.effect("auto takes the OpenAI-compatible service when no model is installed and its key is set", () =>
    Effect.gen(function*() {
      expect(yield* chosen({ OPENAI_API_KEY: "sk-test" })).toEqual({ engine: "openai", model: "whisper-1" })
      expect(yield* chosen({ OPENAI_API_KEY: "sk-test", OPENAI_TRANSCRIBE_MODEL: "gpt-4o-transcribe" })).toEqual({
        engine: "openai",
        model: "gpt-4o-transcribe"
      })
    }))

  it.effect("auto falls back to pocketsphinx, and is the default", () =>
    Effect.gen(function*() {
      expect(yield* chosen({})).toEqual({ engine: "pocketsphinx", model: "en-us" })
      expect(yield* chosen({ TRANSCRIBER: "auto" })).toEqual({ engine: "pocketsphinx", model: "en-us" })
    }))

  it.effect("a forced choice is kept whatever else is set", () =>
    Effect.gen(function*() {
      expect(yield* chosen({ TRANSCRIBER: "pocketsphinx", WHISPER_MODEL: "/m/ggml-base.en.bin", OPENAI_API_KEY: "k" })).toEqual({
        engine: "pocketsphinx",
        model: "en-us"
      })
      expect(yield* chosen({ TRANSCRIBER: "openai", WHISPER_MODEL: "/m/ggml-base.en.bin", OPENAI_API_KEY: "k" })).toMatchObject({
        engine: "openai"
      })
    }))

  it.effect("a forced choice without what it needs is refused, naming the setting", () =>
    Effect.gen(function*() {
      const whisper = yield* Effect.flip(chosen({ TRANSCRIBER: "whisper" }))
      expect(String(whisper)).toContain("WHISPER_MODEL")
      expect(String(whisper)).toContain("npm run models -- pull")
      const openai = yield* Effect.flip(chosen({ TRANSCRIBER: "openai" }))
      expect(String(openai)).toContain("OPENAI_API_KEY")
      const unknown = yield* Effect.flip(chosen({ TRANSCRIBER: "vosk" }))
      expect(String(unknown)).toContain("TRANSCRIBER")
    }))
})
