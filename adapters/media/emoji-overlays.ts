// Emoji in colour over burned captions. libass draws glyphs in one colour, so the emoji are drawn as
// pictures (Debian's Noto Color Emoji through Skia) and laid over the captioned picture in the same
// encode by ONE overlay: its input is a sequence of small pictures (an ffconcat list), one for each
// stretch of time in which the same emoji show at the same places, each just large enough to hold them;
// a sendcmd script moves the overlay to each picture's place as it starts. Every overlay filter copies
// the whole frame each frame it runs, so one for all emoji costs what one costs: an overlay per emoji
// (eight on a minute of talk) cost 0.5 ms a frame each at 1080x1920.
import { type Canvas, createCanvas } from "@napi-rs/canvas"
import type { EmojiSpot } from "./ass-subtitles.ts"
import { filterValue } from "./ffmpeg-process.ts"

/** Debian's fonts-noto-color-emoji, which Skia finds through fontconfig. */
const EMOJI_FONT = "\"Noto Color Emoji\""
/** The entrance: from this fraction of its size lower, eased, over these many frames. */
const RISE = { by: 0.3, frames: 4 } as const

/** An emoji drawn to fill a square of `size` pixels, on a transparent background. */
const emojiCanvas = (emoji: string, size: number): Canvas => {
  const canvas = createCanvas(size, size)
  const g = canvas.getContext("2d")
  // Noto's glyphs are about 1.17 ems wide: an em of 0.82 of the square leaves a little room round it.
  g.font = `${Math.round(size * 0.82)}px ${EMOJI_FONT}`
  g.textAlign = "center"
  g.textBaseline = "middle"
  g.fillText(emoji, size / 2, size / 2)
  return canvas
}

/** How far below its place a spot is drawn `t` seconds after it appears: its entrance. */
const riseAt = (spot: EmojiSpot, t: number, frame: number): number => {
  const step = Math.floor((t - spot.start) / frame + 1e-6)
  return step >= RISE.frames ? 0 : Math.round(spot.size * RISE.by * (1 - step / RISE.frames) ** 2)
}

/** The spots' overlay: the pictures and lists to write, its input, and its filters. */
export interface EmojiOverlays {
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string | Buffer }>
  /** ffmpeg input arguments of the picture sequence. */
  readonly input: ReadonlyArray<string>
  /** The filter chains from the captioned picture `from` to `out`, given the input's index. */
  readonly chains: (from: string, input: number, out: string) => ReadonlyArray<string>
}

/**
 * The spots' overlay at `frameRate`, its files named from `prefix` (a folder and a slash, or a file's
 * name and a dot); null when there are no emoji. The times where what shows changes are the spots'
 * starts, each frame of their entrances, and their ends.
 */
export const emojiOverlays = (spots: ReadonlyArray<EmojiSpot>, prefix: string, frameRate: number): EmojiOverlays | null => {
  if (spots.length === 0) return null
  const frame = 1 / frameRate
  const changes = [...new Set([0, ...spots.flatMap((s) => [s.start, ...Array.from({ length: RISE.frames }, (_, k) => s.start + (k + 1) * frame), s.end])])]
    .sort((a, b) => a - b)
  const emoji = new Map<string, Canvas>()
  const canvasOf = (spot: EmojiSpot) => {
    const key = `${spot.emoji}/${spot.size}`
    const known = emoji.get(key) ?? emojiCanvas(spot.emoji, spot.size)
    emoji.set(key, known)
    return known
  }
  // What shows between each change and the next, and the box round it.
  const states = changes.slice(0, -1).map((at, i) => {
    const shown = spots
      .filter((s) => s.start <= at + 1e-6 && at < s.end - 1e-6)
      .map((s) => ({ spot: s, y: s.y + riseAt(s, at, frame) }))
    const left = Math.min(...shown.map(({ spot }) => spot.x))
    const top = Math.min(...shown.map(({ y }) => y))
    const width = Math.max(...shown.map(({ spot }) => spot.x + spot.size)) - left
    const height = Math.max(...shown.map(({ spot, y }) => y + spot.size)) - top
    return { at, until: changes[i + 1]!, shown, left, top, width, height }
  })
  // Every picture of the sequence has one size: a stream whose frames change size makes ffmpeg rebuild the whole graph.
  const visible = states.filter((state) => state.shown.length > 0)
  const width = Math.max(2, ...visible.map((state) => state.width))
  const height = Math.max(2, ...visible.map((state) => state.height))
  const files: Array<{ readonly path: string; readonly content: string | Buffer }> = []
  const pictures = new Map<string, string>()
  const pictureOf = (shown: typeof states[number]["shown"], left: number, top: number): string => {
    const key = shown.map(({ spot, y }) => `${spot.emoji}/${spot.size}@${spot.x - left},${y - top}`).join("|")
    const known = pictures.get(key)
    if (known !== undefined) return known
    const canvas = createCanvas(width, height)
    const g = canvas.getContext("2d")
    for (const { spot, y } of shown) g.drawImage(canvasOf(spot), spot.x - left, y - top)
    const path = `${prefix}emoji-${pictures.size}.png`
    pictures.set(key, path)
    files.push({ path, content: canvas.toBuffer("image/png") })
    return path
  }
  const listed = (path: string) => `file '${path.replaceAll("'", "'\\''")}'`
  const list: Array<string> = ["ffconcat version 1.0"]
  const commands: Array<string> = []
  for (const state of states) {
    list.push(listed(pictureOf(state.shown, state.left, state.top)), `duration ${(state.until - state.at).toFixed(6)}`)
    if (state.shown.length > 0) commands.push(`${state.at.toFixed(6)} overlay@emoji x ${state.left}, overlay@emoji y ${state.top};`)
  }
  // The concat demuxer gives the last file no length: it ends on a blank one, held to the video's end.
  list.push(listed(pictureOf([], 0, 0)))
  const sequence = `${prefix}emoji.ffconcat`
  const script = `${prefix}emoji-commands.txt`
  files.push({ path: sequence, content: list.join("\n") + "\n" }, { path: script, content: commands.join("\n") + "\n" })
  return {
    files,
    input: ["-f", "concat", "-safe", "0", "-i", sequence],
    chains: (from, input, out) => [
      `[${from}]sendcmd=f=${filterValue(script)}[emojicmd]`,
      `[emojicmd][${input}:v]overlay@emoji=x=0:y=0:eof_action=repeat[${out}]`
    ]
  }
}
