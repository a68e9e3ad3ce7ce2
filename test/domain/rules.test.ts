// Shared input rules: webhook and source URLs, render options, and the limits of a caption source.
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import {
  checkSource,
  MAX_SOURCE_BYTES,
  MAX_SOURCE_SECONDS,
  MAX_WEBHOOK_URL_LENGTH,
  RenderOptions,
  SourceUrl,
  WebhookUrl
} from "../../domain/rules.ts"

const decodes = <A, I>(schema: Schema.Schema<A, I>, input: unknown): boolean =>
  Either.isRight(Schema.decodeUnknownEither(schema)(input))

/** An https URL of exactly `length` characters. */
const httpsUrlOfLength = (length: number): string => {
  const prefix = "https://hooks.example.com/"
  return prefix + "a".repeat(length - prefix.length)
}

describe("WebhookUrl", () => {
  it("accepts https URLs up to 1024 characters", () => {
    expect(MAX_WEBHOOK_URL_LENGTH).toBe(1024)
    expect(decodes(WebhookUrl, "https://hooks.example.com/receiver?token=abc")).toBe(true)
    expect(decodes(WebhookUrl, "https://127.0.0.1:8443/hook")).toBe(true)
    expect(decodes(WebhookUrl, httpsUrlOfLength(1024))).toBe(true)
  })

  it("rejects 1025 characters", () => {
    const result = Schema.decodeUnknownEither(WebhookUrl)(httpsUrlOfLength(1025))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toMatch(/1024 characters/)
  })

  it("rejects http, localhost included", () => {
    for (const url of ["http://hooks.example.com/x", "http://localhost:3000/hook", "http://127.0.0.1/hook"]) {
      const result = Schema.decodeUnknownEither(WebhookUrl)(url)
      expect(Either.isLeft(result), url).toBe(true)
      if (Either.isLeft(result)) expect(result.left.message).toMatch(/https:\/\//)
    }
  })

  it("rejects other schemes, relative URLs, garbage and non-strings", () => {
    for (
      const input of [
        "ftp://files.example.com/hook",
        "wss://hooks.example.com/x",
        "/relative/hook",
        "hooks.example.com/hook",
        "not a url",
        "https://",
        "",
        42,
        null
      ]
    ) {
      expect(decodes(WebhookUrl, input), String(input)).toBe(false)
    }
  })

  it.prop(
    "accepts every https URL within the limit and no longer one",
    { path: fc.stringMatching(/^[a-z0-9/]{0,1100}$/) },
    ({ path }) => {
      const url = `https://hooks.example.com/${path}`
      expect(decodes(WebhookUrl, url)).toBe(url.length <= MAX_WEBHOOK_URL_LENGTH)
      expect(decodes(WebhookUrl, url.replace("https:", "http:"))).toBe(false)
    }
  )
})

describe("SourceUrl", () => {
  it("accepts http and https media addresses and rejects the rest", () => {
    expect(decodes(SourceUrl, "https://media.example.com/clip.mp4")).toBe(true)
    expect(decodes(SourceUrl, "http://media.example.com/clip.mp4")).toBe(true)
    expect(decodes(SourceUrl, "ftp://media.example.com/clip.mp4")).toBe(false)
    expect(decodes(SourceUrl, "file:///etc/passwd")).toBe(false)
    expect(decodes(SourceUrl, "clip.mp4")).toBe(false)
  })
})

describe("RenderOptions", () => {
  it("takes the defaults from an empty object: standard at 30 fps", () => {
    expect(Schema.decodeUnknownSync(RenderOptions)({})).toEqual({ format: "standard", frameRate: 30 })
    expect(Schema.decodeUnknownSync(RenderOptions)({ frameRate: 60 })).toEqual({ format: "standard", frameRate: 60 })
    expect(Schema.decodeUnknownSync(RenderOptions)({ format: "greenscreen" })).toEqual({
      format: "greenscreen",
      frameRate: 30
    })
  })

  it("rejects other frame rates and formats", () => {
    expect(decodes(RenderOptions, { frameRate: 24 })).toBe(false)
    expect(decodes(RenderOptions, { frameRate: "30" })).toBe(false)
    expect(decodes(RenderOptions, { format: "4k" })).toBe(false)
    expect(decodes(RenderOptions, { format: "Standard" })).toBe(false)
    expect(decodes(RenderOptions, null)).toBe(false)
  })
})

describe("checkSource", () => {
  const fine = {
    bytes: 10_000_000,
    durationSeconds: 30,
    width: 1080,
    height: 1920,
    frameRate: 30,
    hasVideo: true,
    hasAudio: true,
    still: false
  }
  const reason = (facts: Parameters<typeof checkSource>[0]): string => {
    const verdict = checkSource(facts)
    if (verdict.ok) throw new Error("the source was accepted")
    return verdict.reason
  }

  it("accepts a source with video and audio, up to 500 MB and 2 hours exactly", () => {
    expect(MAX_SOURCE_BYTES).toBe(500_000_000)
    expect(MAX_SOURCE_SECONDS).toBe(7200)
    expect(checkSource(fine)).toEqual({ ok: true })
    expect(checkSource({ ...fine, bytes: 500_000_000, durationSeconds: 7200 })).toEqual({ ok: true })
  })

  it("refuses more than 500 MB, saying how big it is", () => {
    // Just over the limit must not read as exactly 500.0 MB.
    expect(reason({ ...fine, bytes: 500_000_001 })).toBe("The source is 500.1 MB; the limit is 500 MB.")
    expect(reason({ ...fine, bytes: 612_300_000 })).toBe("The source is 612.3 MB; the limit is 500 MB.")
  })

  it("refuses more than 2 hours, reporting a length over the limit", () => {
    expect(reason({ ...fine, durationSeconds: 9000 })).toBe("The source lasts 150 minutes; the limit is 2 hours.")
    // Just over the limit must not read as exactly 120 minutes.
    expect(reason({ ...fine, durationSeconds: 7201 })).toBe("The source lasts 121 minutes; the limit is 2 hours.")
  })

  it("refuses a source without a video stream or without audio", () => {
    expect(reason({ ...fine, hasVideo: false })).toMatch(/no video stream/)
    expect(reason({ ...fine, hasAudio: false })).toMatch(/no audio track/)
  })

  it("refuses a still picture, and a picture or frame rate above a video's limits", () => {
    expect(reason({ ...fine, still: true })).toBe("The source is a still picture, not a video: send a video file (mp4, mov, webm, mkv).")
    expect(checkSource({ ...fine, width: 2176, height: 4096, frameRate: 120 })).toEqual({ ok: true })
    expect(reason({ ...fine, width: 5000, height: 5000 })).toMatch(/^The source is 5000x5000 pixels; a video or gif may be at most 4096 pixels on a side/)
    expect(reason({ ...fine, frameRate: 240 })).toMatch(/^The source plays at 240 frames per second; the limit is 120\./)
  })
})
