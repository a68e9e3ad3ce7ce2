// A fake-text video's pictures: an ffconcat list that ffmpeg plays frame for frame as drawn, each
// distinct state drawn once; messages come in over a few frames and the list glides to make room;
// the typing bubble's dots pulse in turn; a transparent chat leaves its list see-through.
import { execFile, spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { createCanvas } from "@napi-rs/canvas"
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { animate } from "../../adapters/animation/canvas-animator.ts"
import { writeFrameSequence } from "../../adapters/animation/frame-sequence.ts"
import { ChatScreen } from "../../adapters/chat/chat-screen.ts"
import { chatMomentAt, chatSchedule } from "../../domain/chat-schedule.ts"
import { chatTheme } from "../../domain/chat-themes.ts"
import type { Conversation } from "../../domain/conversation.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { AnimateRequest, AnimatedFrames } from "../../domain/ports/animator.ts"

const run = promisify(execFile)
const RATE = 30
const W = 360
const H = 640
/** The chat's lengths are for a 1080-wide screen; a 360-wide picture is that screen at a third. */
const K = W / 1080
const theme = chatTheme("imessage-light")
// Where the layout puts things on the 1080-wide screen: the list starts under the status bar and
// header, a one-line bubble is a line and its padding tall, and "Delivered" sits under a sent message.
const LIST_TOP = 132 + theme.header.height + 36
const ONE_LINE = theme.lineHeight + 2 * theme.bubblePadY
const RECEIPT = Math.round(Math.round(theme.fontSize * 0.62) * 1.8)
const SENT_TOP = LIST_TOP + ONE_LINE + theme.groupGap
const TYPING_TOP = SENT_TOP + ONE_LINE + RECEIPT + theme.groupGap

const conversation: Conversation = {
  participants: [{ id: "me", name: "Sam", me: true }, { id: "maya", name: "Maya Lopez" }],
  messages: [
    { from: "maya", text: "are you coming tonight?" },
    { from: "me", text: "yes, leaving now" },
    { from: "maya", text: "great 🎉" }
  ]
}
const schedule = chatSchedule(conversation, [1, 1, 1])
const beat = (i: number) => schedule.beats[i]!

let root = ""
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "chat-animation-"))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

let runs = 0
const animateChat = (request: Partial<AnimateRequest> = {}) =>
  Effect.runPromise(animate({
    animation: { _tag: "Chat", conversation, theme: "imessage-light", schedule, images: new Map() },
    width: W,
    height: H,
    frameRate: RATE,
    durationSeconds: schedule.durationSeconds,
    fill: "theme",
    dir: join(root, `run-${runs++}`),
    ...request
  }))

interface ListEntry {
  readonly file: string
  readonly seconds: number
}

/** The list's entries; checks its form: the header, simple names, and the last file listed again. */
const readList = async (path: string): Promise<ReadonlyArray<ListEntry>> => {
  const lines = (await readFile(path, "utf8")).trimEnd().split("\n")
  expect(lines[0]).toBe("ffconcat version 1.0")
  const entries: Array<ListEntry> = []
  for (let i = 1; i + 1 < lines.length; i += 2) {
    const file = /^file (p\d{5}\.png)$/.exec(lines[i]!)?.[1]
    const seconds = /^duration (\d+\.\d{6})$/.exec(lines[i + 1]!)?.[1]
    expect(file, lines[i]).toBeDefined()
    expect(seconds, lines[i + 1]).toBeDefined()
    entries.push({ file: file!, seconds: Number(seconds) })
  }
  expect(lines.length % 2, "a file line after the last duration").toBe(0)
  expect(lines.at(-1)).toBe(`file ${entries.at(-1)!.file}`)
  return entries
}

/** The picture the list shows at `frame`. */
const fileAt = (entries: ReadonlyArray<ListEntry>, frame: number): string => {
  let end = 0
  for (const entry of entries) {
    end += Math.round(entry.seconds * RATE)
    if (frame < end) return entry.file
  }
  throw new Error(`frame ${frame} is past the list`)
}

interface Picture {
  readonly width: number
  readonly height: number
  readonly data: Buffer
}

/** A PNG's RGBA as ffmpeg decodes it: straight (not premultiplied) alpha, as stored. */
const decode = async (path: string, width = W, height = H): Promise<Picture> => {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"], {
    encoding: "buffer",
    maxBuffer: 1 << 26
  })
  expect(stdout.length).toBe(width * height * 4)
  return { width, height, data: stdout }
}

const pixel = (picture: Picture, x: number, y: number): [number, number, number, number] => {
  const i = (Math.round(y) * picture.width + Math.round(x)) * 4
  return [picture.data[i]!, picture.data[i + 1]!, picture.data[i + 2]!, picture.data[i + 3]!]
}
const hex = (picture: Picture, x: number, y: number) =>
  `#${pixel(picture, x, y).slice(0, 3).map((v) => v.toString(16).padStart(2, "0")).join("")}`.toUpperCase()

/** Plays the list as a render does (ffmpeg's concat demuxer, then the frame rate) and hands each frame over as it comes. */
const play = (list: string, width: number, height: number, onFrame: (rgba: Buffer, index: number) => void): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-v", "error", "-f", "concat", "-i", list, "-vf", `fps=${RATE}`, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    const frame = Buffer.alloc(width * height * 4)
    let filled = 0
    let count = 0
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      let offset = 0
      while (offset < chunk.length) {
        const n = Math.min(frame.length - filled, chunk.length - offset)
        chunk.copy(frame, filled, offset, offset + n)
        filled += n
        offset += n
        if (filled === frame.length) {
          onFrame(frame, count++)
          filled = 0
        }
      }
    })
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on("error", reject)
    child.on("close", (code) => code === 0 && filled === 0 ? resolve(count) : reject(new Error(`ffmpeg exited ${code}: ${stderr}`)))
  })

describe("the frame sequence", () => {
  const COLOURS: Record<string, string> = { a: "#FF0000", b: "#00FF00", c: "#0000FF" }

  it("draws each state once: repeats extend its picture, a state seen before re-uses its file; ffmpeg plays it frame for frame", async () => {
    const keys = ["a", "a", "b", "a", "c", "c", "c"]
    const drawn: Array<string> = []
    const dir = join(root, "sequence")
    const sequence = await writeFrameSequence({
      dir,
      width: 16,
      height: 16,
      frames: keys.length,
      frameRate: RATE,
      keyAt: (frame) => keys[frame]!,
      draw: (ctx, key) => {
        drawn.push(key)
        ctx.fillStyle = COLOURS[key]!
        ctx.fillRect(0, 0, 16, 16)
      }
    })
    expect(drawn).toEqual(["a", "b", "c"])
    expect(sequence.pictures).toBe(3)
    expect(sequence.frames).toBe(7)
    expect(await readFile(sequence.path, "utf8")).toBe([
      "ffconcat version 1.0",
      "file p00000.png",
      "duration 0.066667",
      "file p00001.png",
      "duration 0.033333",
      "file p00000.png",
      "duration 0.033333",
      "file p00002.png",
      "duration 0.100000",
      "file p00002.png",
      ""
    ].join("\n"))
    // Pictures held for a single frame stay on their frame: nothing moved or dropped.
    const played: Array<string> = []
    const count = await play(sequence.path, 16, 16, (rgba) => {
      played.push(Object.keys(COLOURS).find((k) => COLOURS[k] === `#${rgba.subarray(0, 3).toString("hex")}`.toUpperCase()) ?? "?")
    })
    expect(count).toBe(7)
    expect(played).toEqual(keys)
  })
})

describe("a chat animation", () => {
  const frames = Math.round(schedule.durationSeconds * RATE)
  const frameAt = (seconds: number) => Math.round(seconds * RATE)
  let settled: AnimatedFrames
  let entries: ReadonlyArray<ListEntry> = []
  const pictureAt = (frame: number) => decode(join(settled.path, "..", fileAt(entries, frame)))

  beforeAll(async () => {
    settled = await animateChat()
    entries = await readList(settled.path)
  })

  it("lasts exactly its frames, draws far fewer pictures than frames, and ffmpeg plays every frame as listed", async () => {
    expect(settled.frames).toBe(frames)
    const total = entries.reduce((sum, entry) => sum + entry.seconds, 0)
    expect(Math.abs(total - frames / RATE)).toBeLessThan(1e-5)
    expect(entries.reduce((sum, entry) => sum + Math.round(entry.seconds * RATE), 0)).toBe(frames)
    expect(settled.pictures).toBeLessThan(frames / 3)
    expect(new Set(entries.map((e) => e.file)).size).toBe(settled.pictures)
    // Every picture, in order (p00000.png, p00001.png...), decoded once.
    const { stdout } = await run("ffmpeg", [
      "-v", "error", "-i", join(settled.path, "..", "p%05d.png"), "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"
    ], { encoding: "buffer", maxBuffer: 1 << 28 })
    const size = W * H * 4
    expect(stdout.length).toBe(settled.pictures * size)
    const mismatched: Array<number> = []
    const count = await play(settled.path, W, H, (rgba, index) => {
      const n = Number(/\d+/.exec(fileAt(entries, index))![0])
      if (!rgba.equals(stdout.subarray(n * size, (n + 1) * size))) mismatched.push(index)
    })
    expect(count).toBe(frames)
    expect(mismatched).toEqual([])
  })

  it("brings a message in over a few frames, rising, growing and fading in, then settles", async () => {
    const appear = beat(1).appearAt
    const mid = Math.ceil(appear * RATE) + 3
    expect(chatMomentAt(conversation, schedule, mid / RATE).entrance).toBeLessThan(0.5)
    const midFile = fileAt(entries, mid)
    const settledFile = fileAt(entries, frameAt(appear + 0.6))
    expect(midFile).not.toBe(settledFile)
    const [entering, landed] = await Promise.all([pictureAt(mid), pictureAt(frameAt(appear + 0.6))])
    const inBubble = [(1080 - theme.sideMargin - 20) * K, (SENT_TOP + ONE_LINE / 2) * K] as const
    expect(hex(landed, ...inBubble)).toBe(theme.sent.fill)
    // Half faded in: blue, but not yet the bubble's own blue anywhere in the list (the header's back arrow is that blue).
    const blues = (picture: Picture) => {
      let exact = 0
      let bluish = 0
      const list = picture.data.subarray(Math.ceil((LIST_TOP - 36) * K) * W * 4, Math.floor(H - theme.composer.height * K) * W * 4)
      for (let i = 0; i < list.length; i += 4) {
        const [r, g, b] = [list[i]!, list[i + 1]!, list[i + 2]!]
        if (b > r + 60) bluish++
        if (`#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`.toUpperCase() === theme.sent.fill) exact++
      }
      return { exact, bluish }
    }
    const before = blues(entering)
    expect(before.bluish).toBeGreaterThan(200)
    expect(before.exact).toBe(0)
    expect(blues(landed).exact).toBeGreaterThan(200)
    // One picture per frame of the entrance, none for the frames after it has landed.
    const entrance = [0, 1, 2, 3, 4, 5, 6].map((k) => fileAt(entries, Math.ceil(appear * RATE) + k))
    expect(new Set(entrance).size).toBe(entrance.length)
    expect(fileAt(entries, frameAt(appear + 0.6))).toBe(fileAt(entries, frameAt(beat(2).typingAt! - 0.1)))
  })

  it("shows the typing bubble while the other side types, its dots pulsing in turn", async () => {
    const typingAt = beat(2).typingAt!
    const inTyping = [(theme.sideMargin + 25) * K, (TYPING_TOP + 30) * K] as const
    const quiet = await pictureAt(frameAt(typingAt - 0.2))
    expect(hex(quiet, ...inTyping)).toBe(theme.background)
    // Frames where the first dot, then the last, is at the top of its pulse.
    const typingFrames = Array.from({ length: frames }, (_, f) => f).filter((f) => {
      const moment = chatMomentAt(conversation, schedule, f / RATE)
      return moment.typing === "maya" && moment.visible === 2
    })
    const stepOf = (f: number) => Math.floor(chatMomentAt(conversation, schedule, f / RATE).typingPhase * 12)
    const firstUp = typingFrames.find((f) => stepOf(f) === 3)!
    const lastUp = typingFrames.find((f) => stepOf(f) === 9)!
    const [early, late] = await Promise.all([pictureAt(firstUp), pictureAt(lastUp)])
    expect(hex(early, ...inTyping)).toBe(theme.received.fill)
    expect(hex(late, ...inTyping)).toBe(theme.received.fill)
    expect(new Set(typingFrames.map((f) => fileAt(entries, f))).size).toBeGreaterThanOrEqual(10)
    // The darkest pixel around each dot: a dot at the top of its pulse is the darker.
    const darkness = (picture: Picture, dot: number) => {
      const cx = (theme.sideMargin + Math.round(ONE_LINE * 1.9) * (0.3 + 0.2 * dot)) * K
      const cy = (TYPING_TOP + ONE_LINE / 2) * K
      let darkest = 255
      for (let y = Math.round(cy - 6); y <= Math.round(cy + 3); y++) {
        for (let x = Math.round(cx - 4); x <= Math.round(cx + 4); x++) darkest = Math.min(darkest, pixel(picture, x, y)[0])
      }
      return 255 - darkest
    }
    expect(darkness(early, 0)).toBeGreaterThan(darkness(early, 2) + 20)
    expect(darkness(late, 2)).toBeGreaterThan(darkness(late, 0) + 20)
    expect(darkness(early, 0)).toBeGreaterThan(60)
  })

  it("a transparent chat leaves its list see-through, header and composer drawn, and bubble edges their own colour", async () => {
    const see = await animateChat({ fill: "transparent", durationSeconds: beat(1).appearAt + 1 })
    const list = await readList(see.path)
    const last = await decode(join(see.path, "..", list.at(-1)!.file))
    expect(pixel(last, W / 2, (TYPING_TOP + 150) * K)[3], "the empty list").toBe(0)
    expect(pixel(last, W / 2, 5)[3], "the status bar and header").toBe(255)
    expect(hex(last, W / 2, 5)).toBe(theme.header.background)
    expect(pixel(last, W / 2, H - 3)[3], "the composer").toBe(255)
    const inBubble = [(1080 - theme.sideMargin - 20) * K, (SENT_TOP + ONE_LINE / 2) * K] as const
    expect(pixel(last, ...inBubble)).toEqual([11, 132, 254, 255])
    // Anti-aliased edge pixels of the blue bubble: partly transparent, still blue, not darkened by their alpha.
    const edges: Array<[number, number, number, number]> = []
    for (let y = Math.floor(SENT_TOP * K) - 2; y < (SENT_TOP + ONE_LINE) * K + 2; y++) {
      for (let x = Math.floor(W / 2); x < W; x++) {
        const p = pixel(last, x, y)
        if (p[3] > 40 && p[3] < 215 && p[2] > p[0] + 60) edges.push(p)
      }
    }
    expect(edges.length).toBeGreaterThan(10)
    for (const [r, g, b] of edges) {
      expect(Math.abs(r - 11) + Math.abs(g - 132) + Math.abs(b - 254), `${r},${g},${b}`).toBeLessThan(30)
    }
    // Played through the concat demuxer, the see-through stays see-through.
    let clear = 0
    await play(see.path, W, H, (rgba, index) => {
      if (index === see.frames - 1) for (let i = 3; i < rgba.length; i += 4) clear += rgba[i] === 0 ? 1 : 0
    })
    expect(clear).toBeGreaterThan(W * H / 4)
  })

  it("draws at another size and fills with a colour: the top half of a split screen", async () => {
    const half = await animateChat({ width: 1080, height: 960, fill: { colour: "#00FF00" }, durationSeconds: beat(0).appearAt + 0.6 })
    const list = await readList(half.path)
    const last = await decode(join(half.path, "..", list.at(-1)!.file), 1080, 960)
    expect(hex(last, theme.sideMargin + 80, LIST_TOP + 8), "the first message").toBe(theme.received.fill)
    expect(hex(last, 1080 / 2, LIST_TOP + ONE_LINE + 60), "the list's fill").toBe("#00FF00")
    expect(hex(last, 1080 / 2, 5)).toBe(theme.header.background)
    expect(hex(last, 1080 - 10, 960 - 10), "the composer").toBe(theme.composer.background)
  })

  it("fails the work when a picture cannot be decoded", async () => {
    const exit = await Effect.runPromiseExit(animate({
      animation: { _tag: "Chat", conversation, theme: "imessage-light", schedule, images: new Map([["face.png", new Uint8Array([1, 2, 3])]]) },
      width: W,
      height: H,
      frameRate: RATE,
      durationSeconds: 1,
      fill: "theme",
      dir: join(root, "bad")
    }))
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error?.message).toContain("face.png")
    }
  })
})

describe("the chat screen while a message enters a full list", () => {
  it("glides the list up from where it was to where it is with the message in", () => {
    const long: Conversation = {
      participants: conversation.participants,
      messages: Array.from({ length: 14 }, (_, i) => ({ from: i % 2 === 0 ? "maya" : "me", text: `message ${i}` }))
    }
    const screen = new ChatScreen(createCanvas(1, 1).getContext("2d"), long, theme, new Map(), 1080)
    const canvas = createCanvas(1080, 1920)
    const ctx = canvas.getContext("2d")
    /** Where the lowest received bubble ends, down the column at the left of the list. */
    const receivedBottom = (state: Parameters<ChatScreen["draw"]>[2]) => {
      screen.draw(ctx, 1920, state)
      const data = ctx.getImageData(theme.sideMargin + 40, 0, 1, 1920).data
      let bottom = -1
      for (let y = LIST_TOP; y < 1920 - theme.composer.height; y++) {
        const here = `#${[data[y * 4]!, data[y * 4 + 1]!, data[y * 4 + 2]!].map((v) => v.toString(16).padStart(2, "0")).join("")}`.toUpperCase()
        if (here === theme.received.fill) bottom = y
      }
      return bottom
    }
    const before = receivedBottom({ visible: 13, scroll: null, typing: null })
    const midway = receivedBottom({ visible: 14, scroll: null, typing: null, entrance: 0.5 })
    const after = receivedBottom({ visible: 14, scroll: null, typing: null })
    expect(after).toBeLessThan(before - ONE_LINE / 2)
    expect(midway).toBeLessThan(before)
    expect(midway).toBeGreaterThan(after)
  })
})
