// Emoji in colour over burned captions. libass draws glyphs in one colour, so each emoji is drawn once
// as a picture (Debian's Noto Color Emoji through Skia) and laid over the picture in the same encode:
// one overlay per emoji that is on screen at once, kept off the picture until a sendcmd script moves it
// beside its line as its word is spoken (rising into place), and off again as its page leaves.
import { createCanvas } from "@napi-rs/canvas"
import type { EmojiSpot } from "./ass-subtitles.ts"
import { filterValue } from "./ffmpeg-process.ts"

/** Debian's fonts-noto-color-emoji, which Skia finds through fontconfig. */
const EMOJI_FONT = "\"Noto Color Emoji\""
/** Where an overlay waits while its emoji is not shown. */
const AWAY = -10_000
/** The entrance: from this fraction of its size lower, in these many frames. */
const RISE = { by: 0.3, frames: 4 } as const

/** An emoji drawn to fill a square of `size` pixels, on a transparent background, as PNG. */
export const emojiPicture = (emoji: string, size: number): Buffer => {
  const canvas = createCanvas(size, size)
  const g = canvas.getContext("2d")
  // Noto's glyphs are about 1.17 ems wide: an em of 0.82 of the square leaves a little room round it.
  g.font = `${Math.round(size * 0.82)}px ${EMOJI_FONT}`
  g.textAlign = "center"
  g.textBaseline = "middle"
  g.fillText(emoji, size / 2, size / 2)
  return canvas.toBuffer("image/png")
}

/** The overlays of a track's emoji: the pictures to write, their looped inputs, the command script and the filters. */
export interface EmojiOverlays {
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string | Buffer }>
  /** ffmpeg input arguments, one looped picture per overlay, in order. */
  readonly inputs: ReadonlyArray<ReadonlyArray<string>>
  /** The filter chains from the captioned picture `from` to `out`, given each input's index. */
  readonly chains: (from: string, inputIndex: (overlay: number) => number, out: string) => ReadonlyArray<string>
}

/**
 * Spots share an overlay when they show the same emoji and do not overlap in time (a gap of a
 * frame at least, so its commands never land on one instant): the fewest overlays for the spots.
 */
const overlaysOf = (spots: ReadonlyArray<EmojiSpot>, frame: number) => {
  const overlays: Array<{ emoji: string; size: number; free: number; spots: Array<EmojiSpot> }> = []
  for (const spot of [...spots].sort((a, b) => a.start - b.start)) {
    const slot = overlays.find((o) => o.emoji === spot.emoji && o.size === spot.size && o.free + frame <= spot.start)
    if (slot === undefined) overlays.push({ emoji: spot.emoji, size: spot.size, free: spot.end, spots: [spot] })
    else {
      slot.spots.push(spot)
      slot.free = spot.end
    }
  }
  return overlays
}

/** The spots' overlays at `frameRate`, their files named from `prefix` (a folder and a slash, or a file's name and a dot); null when there are no emoji. */
export const emojiOverlays = (spots: ReadonlyArray<EmojiSpot>, prefix: string, frameRate: number): EmojiOverlays | null => {
  if (spots.length === 0) return null
  const frame = 1 / frameRate
  const overlays = overlaysOf(spots, frame)
  const pictures = new Map<string, string>()
  const files: Array<{ readonly path: string; readonly content: string | Buffer }> = []
  const inputs = overlays.map(({ emoji, size }) => {
    const key = `${emoji}/${size}`
    let path = pictures.get(key)
    if (path === undefined) {
      path = `${prefix}emoji-${pictures.size}.png`
      pictures.set(key, path)
      files.push({ path, content: emojiPicture(emoji, size) })
    }
    return ["-loop", "1", "-framerate", String(frameRate), "-i", path]
  })
  const name = (k: number) => `overlay@emoji${k}`
  const commands = overlays.flatMap((overlay, k) =>
    overlay.spots.flatMap((spot) => {
      const rise = Array.from({ length: RISE.frames }, (_, step) => {
        const y = spot.y + Math.round(spot.size * RISE.by * (1 - (step / RISE.frames)) ** 2)
        return `${(spot.start + step * frame).toFixed(3)} ${name(k)} y ${y};`
      })
      return [`${spot.start.toFixed(3)} ${name(k)} x ${spot.x};`, ...rise, `${(spot.start + RISE.frames * frame).toFixed(3)} ${name(k)} y ${spot.y};`, `${spot.end.toFixed(3)} ${name(k)} x ${AWAY};`]
    }))
  const script = `${prefix}emoji-commands.txt`
  files.push({ path: script, content: commands.join("\n") + "\n" })
  return {
    files,
    inputs,
    chains: (from, inputIndex, out) => {
      const labels = overlays.map((_, k) => (k === overlays.length - 1 ? out : `emoji${k}`))
      return [
        `[${from}]sendcmd=f=${filterValue(script)}[emojicmd]`,
        ...overlays.map((_, k) =>
          `[${k === 0 ? "emojicmd" : labels[k - 1]}][${inputIndex(k)}:v]${name(k)}=x=${AWAY}:y=0:shortest=1[${labels[k]}]`)
      ]
    }
  }
}
