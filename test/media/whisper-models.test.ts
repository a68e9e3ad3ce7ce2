// Model provisioning against a stand-in of the models' home on 127.0.0.1: the download lands only with
// the published digest, resumes a part, survives a server that ignores or refuses ranges, stops on a
// stall, and `npm run models -- pull` does the same end to end. The file served is whisper.cpp's own
// test model; its catalogue entry is made here from the file (digest and size).
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises"
import type { IncomingMessage, ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { FetchHttpClient } from "@effect/platform"
import { ConfigProvider, Effect, Either, Option } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import {
  DEFAULT_WHISPER_MODEL,
  findInstalledModel,
  findWhisperModel,
  installedModels,
  type ModelFile,
  modelsDirConfig,
  type PullOptions,
  pullModel,
  type PullProgress,
  WHISPER_MODELS
} from "../../adapters/media/whisper-models.ts"
import { roleSettings } from "../../src/roles.ts"
import { type StandIn, startStandIn, unreachableUrl } from "../support/stand-in.ts"

const run = promisify(execFile)

/** ../shared/models beside the checkout: whisper.cpp's test model and the digests of the real ones (kept outside the repository). */
const SHARED = fileURLToPath(new URL("../../../shared/models/", import.meta.url))
const SHARED_README = join(SHARED, "README.md")
/**
 * whisper.cpp's own test model: WHISPER_TEST_MODEL names it (.ci/run sets it), else ../shared/models.
 * Only when neither is there are the tests that serve it skipped; a named file that is missing fails them.
 */
const DEFAULT_TEST_MODEL = join(SHARED, "for-tests-ggml-tiny.en.bin")
const TEST_MODEL = process.env["WHISPER_TEST_MODEL"] ?? DEFAULT_TEST_MODEL
const NO_MODEL = process.env["WHISPER_TEST_MODEL"] === undefined && !existsSync(DEFAULT_TEST_MODEL)
/** A test that needs the test model says why it was skipped when it is absent. */
const needsModel = (title: string) =>
  NO_MODEL ? `${title} (skipped: ${DEFAULT_TEST_MODEL} is absent and WHISPER_TEST_MODEL is not set)` : title
const FILE = "ggml-stand-in.bin"
const KB100 = 100 * 1024

/** How the stand-in treats the next requests. */
let mode: "normal" | "ignore range" | "refuse range" | "stall" | "cut" | "short" | "silent" = "normal"
let requests: Array<{ readonly range: string | undefined }> = []
let bytes = Buffer.alloc(0)
let server: StandIn
let entry: ModelFile
let dir = ""

/** Serves FILE with byte ranges, in pieces, as a CDN would; the modes misbehave on purpose. */
const home = (req: IncomingMessage, _body: Buffer, res: ServerResponse) => {
  requests.push({ range: req.headers.range })
  if (req.url !== `/${FILE}`) {
    res.writeHead(404).end("no such file")
    return
  }
  if (mode === "silent") return
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "")
  if (range !== null && mode === "refuse range") {
    res.writeHead(416, { "content-range": `bytes */${bytes.length + 1}` }).end()
    return
  }
  const start = range !== null && mode !== "ignore range" ? Number(range[1]) : 0
  // "short" serves a file cut at 100 KB, as a proxy that lost the rest would.
  const body = mode === "short" ? bytes.subarray(0, KB100) : bytes.subarray(start)
  res.writeHead(start > 0 ? 206 : 200, {
    "content-length": String(mode === "stall" || mode === "cut" ? bytes.length : body.length),
    "content-type": "application/octet-stream",
    ...(start > 0 ? { "content-range": `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {})
  })
  if (mode === "stall" || mode === "cut") {
    // The first 100 KB, then nothing: the connection stays open, or is cut.
    res.write(body.subarray(0, KB100), () => {
      if (mode === "cut") res.destroy()
    })
    return
  }
  for (let at = 0; at < body.length; at += 64 * 1024) res.write(body.subarray(at, at + 64 * 1024))
  res.end()
}

const sha1 = (data: Buffer) => createHash("sha1").update(data).digest("hex")

const pull = (model: ModelFile, options: Partial<PullOptions> = {}) =>
  Effect.runPromise(
    pullModel(model, { modelsDir: dir, ...options, baseUrl: options.baseUrl ?? server.baseUrl }).pipe(Effect.either, Effect.provide(FetchHttpClient.layer))
  )

/** The pull's result; a failure fails the test with its message. */
const pulled = async (...args: Parameters<typeof pull>) => {
  const result = await pull(...args)
  if (Either.isLeft(result)) throw new Error(result.left.message)
  return result.right
}

/** The pull's failure message. */
const refusal = async (...args: Parameters<typeof pull>) => {
  const result = await pull(...args)
  if (Either.isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right)}`)
  return result.left.message
}

const target = () => join(dir, FILE)
const part = () => `${target()}.part`

/** A catalogue model's file of its size without its bytes (sparse: instant, no disk used). */
const placeholder = async (name: string, size?: number) => {
  const model = findWhisperModel(name).pipe(Option.getOrThrow)
  await writeFile(join(dir, model.file), "")
  await truncate(join(dir, model.file), size ?? model.bytes)
  return model
}

beforeAll(async () => {
  if (NO_MODEL) return
  bytes = await readFile(TEST_MODEL)
  entry = { file: FILE, sha1: sha1(bytes), bytes: (await stat(TEST_MODEL)).size }
  server = await startStandIn(home)
})

afterAll(async () => {
  await server?.close()
})

beforeEach(async () => {
  mode = "normal"
  requests = []
  dir = await mkdtemp(join(tmpdir(), "whisper-models-"))
  return () => rm(dir, { recursive: true, force: true })
})

describe("pullModel", () => {
  it.skipIf(NO_MODEL)(needsModel("lands the file when its SHA-1 is the published one, leaving no part"), async () => {
    expect(await pulled(entry)).toEqual({ path: target(), downloaded: true })
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
    expect(existsSync(part())).toBe(false)
    expect(requests).toEqual([{ range: undefined }])
  })

  it.skipIf(NO_MODEL)(needsModel("refuses a file with another SHA-1, deletes it and names both digests"), async () => {
    const published = "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"
    expect(await refusal({ ...entry, sha1: published })).toBe(
      `${FILE} from ${server.baseUrl}/${FILE} has SHA-1 ${entry.sha1}, but the published SHA-1 is ${published}: ` +
        "the download is damaged or the server holds another file. It was deleted."
    )
    expect(existsSync(target())).toBe(false)
    expect(existsSync(part())).toBe(false)
  })

  it.skipIf(NO_MODEL)(needsModel("resumes a part with a Range request"), async () => {
    await writeFile(part(), bytes.subarray(0, KB100))
    const seen: Array<PullProgress> = []
    await pulled(entry, { onProgress: (p) => Effect.sync(() => seen.push(p)) })
    expect(requests).toEqual([{ range: `bytes=${KB100}-` }])
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
    expect(seen[0]!.resumedFrom).toBe(KB100)
    expect(seen[0]!.bytes).toBeGreaterThan(KB100)
  })

  it.skipIf(NO_MODEL)(needsModel("starts over when the server ignores the range and answers the whole file"), async () => {
    // A part that is not the file's beginning: only a restart from byte 0 gives the right digest.
    await writeFile(part(), Buffer.alloc(KB100, 7))
    mode = "ignore range"
    await pulled(entry)
    expect(requests).toEqual([{ range: `bytes=${KB100}-` }])
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
  })

  it.skipIf(NO_MODEL)(needsModel("deletes the part and starts over when the server answers 416"), async () => {
    await writeFile(part(), bytes.subarray(0, KB100))
    mode = "refuse range"
    await pulled(entry)
    expect(requests).toEqual([{ range: `bytes=${KB100}-` }, { range: undefined }])
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
  })

  it.skipIf(NO_MODEL)(needsModel("moves a complete part into place without downloading"), async () => {
    await writeFile(part(), bytes)
    expect(await pulled(entry)).toEqual({ path: target(), downloaded: true })
    expect(requests).toEqual([])
  })

  it.skipIf(NO_MODEL)(needsModel("reports progress: growing bytes, the total, a rate, and 100% at the end"), async () => {
    const seen: Array<PullProgress> = []
    await pulled(entry, { onProgress: (p) => Effect.sync(() => seen.push(p)) })
    expect(seen.length).toBeGreaterThan(1)
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.bytes).toBeGreaterThan(seen[i - 1]!.bytes)
    expect(seen.every((p) => p.total === entry.bytes && p.bytesPerSecond > 0 && p.resumedFrom === 0)).toBe(true)
    expect(seen.at(-1)).toMatchObject({ bytes: entry.bytes, percent: 100 })
  })

  it.skipIf(NO_MODEL)(needsModel("does not download a file already there with the right digest"), async () => {
    await pulled(entry)
    requests = []
    expect(await pulled(entry)).toEqual({ path: target(), downloaded: false })
    expect(requests).toEqual([])
  })

  it.skipIf(NO_MODEL)(needsModel("replaces a file of the right size but another digest"), async () => {
    await writeFile(target(), Buffer.alloc(bytes.length))
    expect(await pulled(entry)).toEqual({ path: target(), downloaded: true })
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
  })

  it.skipIf(NO_MODEL)(needsModel("fails a stalled download clearly, keeps the part, and the next run resumes it"), async () => {
    mode = "stall"
    expect(await refusal(entry, { stallTimeout: "1 second" })).toBe(
      `The download from ${server.baseUrl}/${FILE} stalled: no data for 1s. ` +
        `What arrived is kept in ${part()}; run the same command again to resume.`
    )
    expect((await stat(part())).size).toBe(KB100)
    mode = "normal"
    requests = []
    await pulled(entry)
    expect(requests).toEqual([{ range: `bytes=${KB100}-` }])
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
  })

  it.skipIf(NO_MODEL)(needsModel("keeps the part of a transfer cut off or ended early, for the next run to resume"), async () => {
    mode = "cut"
    expect(await refusal(entry)).toMatch(
      new RegExp(`^The download from ${server.baseUrl}/${FILE} broke off: .*\\. Run the same command again to resume\\.$`)
    )
    expect((await stat(part())).size).toBe(KB100)
    await rm(part())
    mode = "short"
    expect(await refusal(entry)).toBe(
      `The download from ${server.baseUrl}/${FILE} ended after ${KB100} of ${entry.bytes} bytes. ` +
        `What arrived is kept in ${part()}; run the same command again to resume.`
    )
    mode = "normal"
    await pulled(entry)
    expect(requests.at(-1)).toEqual({ range: `bytes=${KB100}-` })
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
  })

  it.skipIf(NO_MODEL)(needsModel("gives up on a server that does not answer"), async () => {
    mode = "silent"
    expect(await refusal(entry, { connectTimeout: "1 second" })).toBe(
      `${server.baseUrl}/${FILE} did not answer within 1s: is the network (or the mirror) reachable?`
    )
  })

  it.skipIf(NO_MODEL)(needsModel("says what the server answered when the file is not there"), async () => {
    expect(await refusal({ ...entry, file: "ggml-missing.bin" })).toBe(`${server.baseUrl}/ggml-missing.bin answered 404 (no such file there).`)
  })

  it("names the reason when nothing listens at the address", async () => {
    const message = await refusal({ file: FILE, sha1: "0".repeat(40) }, { baseUrl: await unreachableUrl() })
    expect(message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:\d+\/ggml-stand-in\.bin: .*ECONNREFUSED/)
  })
})

describe("the catalogue", () => {
  it("offers tiny.en, base.en, small.en, base and small, each with q5_1 and q8_0, with published digests", () => {
    expect(WHISPER_MODELS.map((m) => m.name).sort()).toEqual(
      ["tiny.en", "base.en", "small.en", "base", "small"]
        .flatMap((family) => [`whisper-${family}`, `whisper-${family}-q5_1`, `whisper-${family}-q8_0`])
        .sort()
    )
    for (const model of WHISPER_MODELS) {
      expect(model.file).toBe(`ggml-${model.name.slice("whisper-".length)}.bin`)
      expect(model.sha1).toMatch(/^[0-9a-f]{40}$/)
      expect(model.englishOnly).toBe(model.name.includes(".en"))
      expect(model.speed).toMatch(/estimate/)
    }
    expect(findWhisperModel(DEFAULT_WHISPER_MODEL).pipe(Option.map((m) => m.file))).toEqual(Option.some("ggml-base.en-q5_1.bin"))
    expect(findWhisperModel("base.en")).toEqual(findWhisperModel("whisper-base.en"))
    expect(findWhisperModel("ggml-small.bin").pipe(Option.map((m) => m.name))).toEqual(Option.some("whisper-small"))
  })

  const noReadme = !existsSync(SHARED_README)
  it.skipIf(noReadme)(`agrees with the digests and sizes listed in shared/models/README.md${noReadme ? ` (skipped: ${SHARED_README} is absent)` : ""}`, async () => {
    const readme = await readFile(SHARED_README, "utf8")
    const tinyEn = findWhisperModel("tiny.en").pipe(Option.getOrThrow)
    const tinyEnQ5 = findWhisperModel("tiny.en-q5_1").pipe(Option.getOrThrow)
    expect(readme).toContain(`ggml-tiny.en.bin: sha1 ${tinyEn.sha1}`)
    expect(readme).toContain(`ggml-tiny.en-q5_1.bin (${tinyEnQ5.bytes.toLocaleString("en-US")} bytes): sha1 ${tinyEnQ5.sha1}`)
  })

  it("puts MODELS_DIR under the service's own DATA_DIR default", async () => {
    const read = <A>(config: Effect.Effect<A, unknown>, env: Record<string, string>) =>
      Effect.runPromise(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env)))))
    const dataDir = (await read(roleSettings, {})).dataDir
    expect(await read(modelsDirConfig, {})).toBe(join(dataDir, "models"))
    expect(await read(modelsDirConfig, { DATA_DIR: "/srv/reelwright" })).toBe("/srv/reelwright/models")
    expect(await read(modelsDirConfig, { DATA_DIR: "/srv/reelwright", MODELS_DIR: "models" })).toBe(resolve("models"))
  })
})

describe("the image and setup.sh", () => {
  it("pull the default model, and the image copies every file the pull runs before the rest of the source", async () => {
    const dockerfile = await readFile("Dockerfile", "utf8")
    expect(/^ARG WHISPER_MODEL=(.*)$/m.exec(dockerfile)?.[1]).toBe(DEFAULT_WHISPER_MODEL)
    expect(await readFile("scripts/setup.sh", "utf8")).toContain(`SETUP_WHISPER_MODEL-${DEFAULT_WHISPER_MODEL}}`)
    // The pull runs in a layer made before `COPY . .`: what it imports from the repository must be copied for it.
    const pullStep = dockerfile.slice(dockerfile.indexOf("ARG WHISPER_MODEL"), dockerfile.indexOf("COPY . ."))
    const copied = [...pullStep.matchAll(/^COPY (\S+) (\S+)$/gm)].map(([, file]) => file)
    const imported = async (file: string) =>
      [...(await readFile(file, "utf8")).matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map(([, path]) => join(file, "..", path!))
    const needed = [
      ...await imported("src/models.ts"),
      ...await imported("src/models-command.ts"),
      ...await imported("adapters/media/whisper-models.ts")
    ]
    expect(copied.sort()).toEqual(["adapters/media/whisper-models.ts", "src/kernel/spans.ts", "src/models-command.ts", "src/models.ts"])
    expect(needed.filter((file) => file !== "package.json" && !copied.includes(file))).toEqual([])
  })
})

describe("installed models", () => {
  it("picks the most preferred model of the published size", async () => {
    await placeholder("tiny.en-q5_1")
    const base = await placeholder("base.en-q5_1")
    await placeholder("small.en", 1000)
    const found = await Effect.runPromise(installedModels(dir))
    expect(found.map((m) => m.name)).toEqual(["whisper-base.en-q5_1", "whisper-tiny.en-q5_1"])
    const best = await Effect.runPromise(findInstalledModel(dir))
    expect(best).toEqual(Option.some({ ...base, path: join(dir, base.file), verifiedBy: "size" }))
  })

  it("with verify: sha1, passes over a file of the right size and another digest", async () => {
    await placeholder("tiny.en-q5_1")
    expect(await Effect.runPromise(findInstalledModel(dir, { verify: "sha1" }))).toEqual(Option.none())
  })

  it("finds none in a folder that does not exist", async () => {
    expect(await Effect.runPromise(findInstalledModel(join(dir, "absent")))).toEqual(Option.none())
  })
})

describe("npm run models", () => {
  const models = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run("npm", ["run", "--silent", "models", "--", ...args], {
        env: { ...process.env, MODELS_DIR: dir, ...env }
      })
      return { code: 0, stdout, stderr }
    } catch (e) {
      const failure = e as { code: number; stdout: string; stderr: string }
      return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
    }
  }

  it.skipIf(NO_MODEL)(needsModel("pull downloads into MODELS_DIR: the path on stdout, the progress on stderr"), async () => {
    const pulled = await models(["pull", FILE, "--sha1", entry.sha1, "--base-url", server.baseUrl])
    expect(pulled.code).toBe(0)
    expect(pulled.stdout).toBe(`${target()}\n`)
    expect(pulled.stderr).toMatch(/^ggml-stand-in\.bin {2}0\.6 MiB \/ 0\.6 MiB {2}100\.0% {2}[\d.]+ MiB\/s$/m)
    expect(sha1(await readFile(target()))).toBe(entry.sha1)
    // WHISPER_MODELS_URL stands for --base-url; the file is there already.
    const again = await models(["pull", FILE, "--sha1", entry.sha1], { WHISPER_MODELS_URL: server.baseUrl })
    expect(again).toEqual({ code: 0, stdout: `${target()}\n`, stderr: "ggml-stand-in.bin is already installed (SHA-1 verified).\n" })
  })

  it.skipIf(NO_MODEL)(needsModel("pull refuses a wrong digest with exit code 1 and leaves nothing"), async () => {
    const wrong = "0".repeat(40)
    const pulled = await models(["pull", FILE, "--sha1", wrong, "--base-url", server.baseUrl])
    expect(pulled.code).toBe(1)
    expect(pulled.stdout).toBe("")
    expect(pulled.stderr).toContain(`models: ggml-stand-in.bin from ${server.baseUrl}/${FILE} has SHA-1 ${entry.sha1}, but the published SHA-1 is ${wrong}`)
    expect(existsSync(target()) || existsSync(part())).toBe(false)
  })

  it("pull refuses an unknown model, and list shows the catalogue with what is installed", async () => {
    const unknown = await models(["pull", "whisper-huge"])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("models: No model called whisper-huge. Offered: whisper-small.en,")
    await placeholder("base.en-q5_1")
    const listed = await models(["list"])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`Models in ${dir}:`)
    expect(listed.stdout).toMatch(/^whisper-base\.en-q5_1 \(default\) +57\.0 MiB +yes +RTF .* +installed$/m)
    expect(listed.stdout).toMatch(/^whisper-tiny\.en +74\.1 MiB +yes +RTF .* +-$/m)
  })
})
