// A fake-text video's pictures: one APNG that ffmpeg plays frame for frame as drawn, each run of equal
// frames one APNG frame carrying only what changed; messages come in over a few frames and the list
// glides to make room; the typing bubble's dots pulse in turn; a transparent chat leaves its list see-through.
import { spawn } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { animate } from "../../adapters/animation/canvas-animator.ts"
import { playFrameSequence } from "../../adapters/animation/frame-sequence.ts"
import { ChatScreen } from "../../adapters/chat/chat-screen.ts"
import { APPEAR_SECONDS, chatMomentAt, chatSchedule } from "../../domain/chat-schedule.ts"
import { chatTheme } from "../../domain/chat-themes.ts"
import type { Conversation } from "../../domain/conversation.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { AnimatedFrames, ByteSink } from "../../domain/ports/animated-frames.ts"
import type { AnimateRequest } from "../../domain/ports/animator.ts"

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

const animateChat = (request: Partial<AnimateRequest> = {}) =>
  Effect.runPromise(animate({
    animation: { _tag: "Chat", conversation, theme: "imessage-light", schedule, images: new Map() },
    width: W,
    height: H,
    frameRate: RATE,
    durationSeconds: schedule.durationSeconds,
    fill: "theme",
    ...request
  }))

let files = 0
/** Plays an animation into a file, as a renderer's pipe would take it; how many pictures it drew. */
const played = async (animated: AnimatedFrames): Promise<{ path: string; pictures: number }> => {
  const chunks: Array<Uint8Array> = []
  const pictures = await Effect.runPromise(animated.play(async (bytes) => {
    chunks.push(Uint8Array.from(bytes))
    return true
  }))
  const path = join(root, `animation-${files++}.apng`)
  await writeFile(path, Buffer.concat(chunks))
  return { path, pictures }
}

interface Picture {
  readonly width: number
  readonly height: number
  readonly data: Buffer
}

const pixel = (picture: Picture, x: number, y: number): [number, number, number, number] => {
  const i = (Math.round(y) * picture.width + Math.round(x)) * 4
  return [picture.data[i]!, picture.data[i + 1]!, picture.data[i + 2]!, picture.data[i + 3]!]
}
const hex = (picture: Picture, x: number, y: number) =>
  `#${pixel(picture, x, y).slice(0, 3).map((v) => v.toString(16).padStart(2, "0")).join("")}`.toUpperCase()

/**
 * Plays an APNG as a render does (ffmpeg's APNG demuxer, then the frame rate), as straight-alpha RGBA,
 * and hands each frame over as it comes.
 */
const play = (path: string, width: number, height: number, onFrame: (rgba: Buffer, index: number) => void): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-v", "error", "-f", "apng", "-i", path, "-vf", `fps=${RATE}`, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
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

/** The frames at `indexes` as played, and how many frames there were. */
const framesAt = async (path: string, indexes: Iterable<number>, width = W, height = H) => {
  const wanted = new Set(indexes)
  const pictures = new Map<number, Picture>()
  const count = await play(path, width, height, (rgba, index) => {
    if (wanted.has(index)) pictures.set(index, { width, height, data: Buffer.from(rgba) })
  })
  return { count, at: (index: number) => pictures.get(index)! }
}

/** An APNG's chunks: its frame controls (size, place, delay) in order. */
const frameControls = (apng: Buffer) => {
  const controls: Array<{ width: number; height: number; x: number; y: number; delay: number; blend: number }> = []
  for (let at = 8; at < apng.length;) {
    const length = apng.readUInt32BE(at)
    if (apng.toString("latin1", at + 4, at + 8) === "fcTL") {
      const c = apng.subarray(at + 8, at + 8 + length)
      controls.push({
        width: c.readUInt32BE(4),
        height: c.readUInt32BE(8),
        x: c.readUInt32BE(12),
        y: c.readUInt32BE(16),
        delay: c.readUInt16BE(20) / c.readUInt16BE(22),
        blend: c[25]!
      })
    }
    at += length + 12
  }
  return controls
}

describe("the frame sequence", () => {
  const COLOURS: Record<string, string> = { a: "#FF0000", b: "#00FF00", c: "#0000FF" }
  const sequence = async (keys: ReadonlyArray<string>, draw: (ctx: SKRSContext2D, key: string) => void, sink?: ByteSink, keptChangeBytes?: number) => {
    const drawn: Array<string> = []
    const chunks: Array<Buffer> = []
    const result = await playFrameSequence({
      width: 16,
      height: 16,
      frames: keys.length,
      frameRate: RATE,
      keyAt: (frame) => keys[frame]!,
      draw: (ctx, key) => {
        drawn.push(key)
        draw(ctx, key)
      },
      ...(keptChangeBytes === undefined ? {} : { keptChangeBytes })
    }, sink ?? (async (bytes) => {
      chunks.push(Buffer.from(bytes))
      return true
    }))
    const path = join(root, `sequence-${files++}.apng`)
    await writeFile(path, Buffer.concat(chunks))
    return { ...result, drawn, path, apng: Buffer.concat(chunks) }
  }
  const filled = (ctx: SKRSContext2D, key: string) => {
    ctx.fillStyle = COLOURS[key]!
    ctx.fillRect(0, 0, 16, 16)
  }
  const playedKeys = async (path: string) => {
    const keys: Array<string> = []
    await play(path, 16, 16, (rgba) => {
      keys.push(Object.keys(COLOURS).find((k) => COLOURS[k] === `#${rgba.subarray(0, 3).toString("hex")}`.toUpperCase()) ?? "?")
    })
    return keys
  }

  it("holds a run of equal frames as one APNG frame; ffmpeg plays it frame for frame, a picture held one frame stays on its frame", async () => {
    const keys = ["a", "a", "b", "a", "c", "c", "c"]
    const result = await sequence(keys, filled)
    expect(result.complete).toBe(true)
    expect(result.drawn).toEqual(["a", "b", "a", "c"])
    expect(result.pictures).toBe(4)
    expect(frameControls(result.apng).map((c) => Math.round(c.delay * RATE))).toEqual([2, 1, 1, 3])
    expect(await playedKeys(result.path)).toEqual(keys)
  })

  it("a step seen before re-uses its rectangle without drawing, and a picture unchanged is held by an empty frame", async () => {
    // The dots' cycle: a to b and back, again and again; then c, which looks like a.
    const keys = ["a", "b", "a", "b", "a", "b", "a", "c"]
    const result = await sequence(keys, (ctx, key) => filled(ctx, key === "c" ? "a" : key))
    expect(result.drawn).toEqual(["a", "b", "a", "c"])
    const controls = frameControls(result.apng)
    expect(controls).toHaveLength(keys.length)
    // a's last frame to c: nothing changed, so one clear pixel blended over.
    expect(controls.at(-1)).toMatchObject({ width: 1, height: 1, blend: 1 })
    expect(await playedKeys(result.path)).toEqual(keys.map((k) => (k === "c" ? "a" : k)))
  })

  it("keeps compressed changes up to a budget, the oldest dropped first and drawn again when seen again", async () => {
    const keys = ["a", "b", "a", "b", "a"]
    expect((await sequence(keys, filled)).drawn).toEqual(["a", "b", "a"])
    const kept = await sequence(keys, filled, undefined, 0)
    expect(kept.drawn).toEqual(keys)
    expect(await playedKeys(kept.path)).toEqual(keys)
  })

  it("sends only the rectangle that changed, which replaces the pixels under it (transparency too)", async () => {
    const keys = ["a", "b", "c"]
    const result = await sequence(keys, (ctx, key) => {
      ctx.fillStyle = "#FF0000"
      ctx.fillRect(0, 0, 16, 16)
      if (key !== "a") ctx.clearRect(3, 5, 4, 2)
      if (key === "c") {
        ctx.fillStyle = "#0000FF"
        ctx.fillRect(10, 12, 1, 1)
      }
    })
    expect(frameControls(result.apng).map(({ x, y, width, height, blend }) => ({ x, y, width, height, blend }))).toEqual([
      { x: 0, y: 0, width: 16, height: 16, blend: 0 },
      { x: 3, y: 5, width: 4, height: 2, blend: 0 },
      { x: 10, y: 12, width: 1, height: 1, blend: 0 }
    ])
    const { at } = await framesAt(result.path, [1, 2], 16, 16)
    expect(pixel(at(1), 4, 5)[3], "the cleared pixels are clear").toBe(0)
    expect(pixel(at(1), 8, 5)).toEqual([255, 0, 0, 255])
    expect(pixel(at(2), 4, 6)[3]).toBe(0)
    expect(pixel(at(2), 10, 12)).toEqual([0, 0, 255, 255])
  })

  it("holds a picture longer than one APNG frame can (6.5 s) with empty frames after it, still on its frames", async () => {
    const keys = ["a", ...Array.from({ length: 8 * RATE }, () => "b"), "c"]
    const result = await sequence(keys, filled)
    const controls = frameControls(result.apng)
    expect(controls).toHaveLength(4)
    expect(controls[2]).toMatchObject({ width: 1, height: 1, blend: 1 })
    const total = controls.reduce((sum, c) => sum + c.delay, 0)
    expect(Math.abs(total - keys.length / RATE)).toBeLessThan(1e-4)
    expect(await playedKeys(result.path)).toEqual(keys)
  })

  it("stops drawing, without failing, once the sink's reader stops", async () => {
    const keys = ["11", "22", "33", "44", "55", "66", "77", "88", "99"]
    let taken = 0
    const result = await sequence(keys, (ctx, key) => {
      ctx.fillStyle = `#0000${key}`
      ctx.fillRect(0, 0, 16, 16)
    }, async () => ++taken < 3)
    expect(result.complete).toBe(false)
    expect(result.drawn.length).toBeLessThan(keys.length)
  })
})

describe("a chat animation", () => {
  const frames = Math.round(schedule.durationSeconds * RATE)
  const frameAt = (seconds: number) => Math.round(seconds * RATE)
  let settled: AnimatedFrames
  let apng = { path: "", pictures: 0 }

  beforeAll(async () => {
    settled = await animateChat()
    apng = await played(settled)
  })

  it("lasts exactly its frames, draws far fewer pictures than frames, and ffmpeg plays every frame as drawn", async () => {
    expect(settled.frames).toBe(frames)
    expect(apng.pictures).toBeLessThan(frames / 3)
    const controls = frameControls(await readFile(apng.path))
    const total = controls.reduce((sum, c) => sum + c.delay, 0)
    expect(Math.abs(total - frames / RATE)).toBeLessThan(1e-4)
    // Every frame as played matches the same moment drawn whole on its own canvas.
    const screen = new ChatScreen(createCanvas(1, 1).getContext("2d"), conversation, theme, new Map(), 1080)
    const canvas = createCanvas(W, H)
    const ctx = canvas.getContext("2d")
    const mismatched: Array<number> = []
    const count = await play(apng.path, W, H, (rgba, index) => {
      const moment = chatMomentAt(conversation, schedule, index / RATE)
      const entranceFrames = APPEAR_SECONDS * RATE
      ctx.setTransform(1, 0, 0, 1, 0, 0)
      ctx.clearRect(0, 0, W, H)
      ctx.scale(K, K)
      screen.draw(ctx, H / K, {
        visible: moment.visible,
        scroll: null,
        typing: moment.typing,
        entrance: Math.min(1, Math.round(moment.entrance * entranceFrames) / entranceFrames),
        ...(moment.typing === null ? {} : { typingPhase: (Math.floor(moment.typingPhase * 12) % 12) / 12 })
      }, theme.background)
      if (!rgba.equals(Buffer.from(ctx.getImageData(0, 0, W, H).data.buffer))) mismatched.push(index)
    })
    expect(count).toBe(frames)
    expect(mismatched).toEqual([])
  })

  it("brings a message in over a few frames, rising, growing and fading in, then settles", async () => {
    const appear = beat(1).appearAt
    const mid = Math.ceil(appear * RATE) + 3
    expect(chatMomentAt(conversation, schedule, mid / RATE).entrance).toBeLessThan(0.5)
    const entranceAt = [0, 1, 2, 3, 4, 5, 6].map((k) => Math.ceil(appear * RATE) + k)
    const { at } = await framesAt(apng.path, [...entranceAt, frameAt(appear + 0.6), frameAt(beat(2).typingAt! - 0.1)])
    const [entering, landed] = [at(mid), at(frameAt(appear + 0.6))]
    expect(entering.data.equals(landed.data)).toBe(false)
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
    // A picture for each frame of the entrance, none for the frames after it has landed.
    const entrance = entranceAt.map((f) => at(f).data.toString("base64"))
    expect(new Set(entrance).size).toBe(entrance.length)
    expect(at(frameAt(beat(2).typingAt! - 0.1)).data.equals(landed.data)).toBe(true)
  })

  it("shows the typing bubble while the other side types, its dots pulsing in turn", async () => {
    const typingAt = beat(2).typingAt!
    const inTyping = [(theme.sideMargin + 25) * K, (TYPING_TOP + 30) * K] as const
    // Frames where the first dot, then the last, is at the top of its pulse.
    const typingFrames = Array.from({ length: frames }, (_, f) => f).filter((f) => {
      const moment = chatMomentAt(conversation, schedule, f / RATE)
      return moment.typing === "maya" && moment.visible === 2
    })
    const stepOf = (f: number) => Math.floor(chatMomentAt(conversation, schedule, f / RATE).typingPhase * 12)
    const firstUp = typingFrames.find((f) => stepOf(f) === 3)!
    const lastUp = typingFrames.find((f) => stepOf(f) === 9)!
    const { at } = await framesAt(apng.path, [frameAt(typingAt - 0.2), firstUp, lastUp, ...typingFrames])
    expect(hex(at(frameAt(typingAt - 0.2)), ...inTyping)).toBe(theme.background)
    const [early, late] = [at(firstUp), at(lastUp)]
    expect(hex(early, ...inTyping)).toBe(theme.received.fill)
    expect(hex(late, ...inTyping)).toBe(theme.received.fill)
    expect(new Set(typingFrames.map((f) => at(f).data.toString("base64"))).size).toBeGreaterThanOrEqual(10)
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
    const { path } = await played(see)
    const { count, at } = await framesAt(path, [see.frames - 1])
    expect(count).toBe(see.frames)
    const last = at(see.frames - 1)
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
    let clear = 0
    for (let i = 3; i < last.data.length; i += 4) clear += last.data[i] === 0 ? 1 : 0
    expect(clear).toBeGreaterThan(W * H / 4)
  })

  it("draws at another size and fills with a colour: the top half of a split screen", async () => {
    const half = await animateChat({ width: 1080, height: 960, fill: { colour: "#00FF00" }, durationSeconds: beat(0).appearAt + 0.6 })
    const { at } = await framesAt((await played(half)).path, [half.frames - 1], 1080, 960)
    const last = at(half.frames - 1)
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
      fill: "theme"
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
