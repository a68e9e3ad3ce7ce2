// Emoji in colour beside burned captions. libass draws glyphs in one colour, so each emoji is drawn once
// as a picture (Debian's Noto Color Emoji through Skia) and laid over the picture in the same encode,
// just before the captions. Every overlay filter costs about half a millisecond a frame at 1080x1920
// whatever it shows, so there are only as many as emoji show at once (a page's lines): each plays a
// sequence of pictures (an ffconcat list: an emoji while it shows, a blank between), and a sendcmd
// script moves it into place as each emoji appears (rising over its first frames) and away after.
import { createCanvas } from "@napi-rs/canvas"
import type { EmojiSpot } from "./ass-subtitles.ts"
import { filterValue } from "./ffmpeg-process.ts"

/** Debian's fonts-noto-color-emoji, which Skia finds through fontconfig. */
const EMOJI_FONT = "\"Noto Color Emoji\""
/** Where an overlay waits while it shows nothing: off the picture, so it blends nothing. */
const AWAY = -10_000
/** The entrance: from this fraction of its size lower, eased, over these many frames. */
const RISE = { by: 0.3, frames: 4 } as const

/** An emoji drawn to fill a square of `size` pixels (nothing: a blank one), on a transparent background, as PNG. */
const emojiPicture = (emoji: string | null, size: number): Buffer => {
  const canvas = createCanvas(size, size)
  const g = canvas.getContext("2d")
  // Noto's glyphs are about 1.17 ems wide: an em of 0.82 of the square leaves a little room round it.
  g.font = `${Math.round(size * 0.82)}px ${EMOJI_FONT}`
  g.textAlign = "center"
  g.textBaseline = "middle"
  if (emoji !== null) g.fillText(emoji, size / 2, size / 2)
  return canvas.toBuffer("image/png")
}

/** The spots' overlays: the pictures and lists to write, their inputs, and their filters. */
export interface EmojiOverlays {
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string | Buffer }>
  /** ffmpeg input arguments, one picture sequence per overlay, in order. */
  readonly inputs: ReadonlyArray<ReadonlyArray<string>>
  /** The filter chains from the picture `from` to `out`, given each input's index. */
  readonly chains: (from: string, inputIndex: (overlay: number) => number, out: string) => ReadonlyArray<string>
}

/** Spots share an overlay when one ends a frame or more before the next starts: as many overlays as show at once. */
const overlaysOf = (spots: ReadonlyArray<EmojiSpot>, frame: number): ReadonlyArray<ReadonlyArray<EmojiSpot>> => {
  const overlays: Array<{ free: number; spots: Array<EmojiSpot> }> = []
  for (const spot of [...spots].sort((a, b) => a.start - b.start)) {
    const free = overlays.find((o) => o.free + frame <= spot.start)
    if (free === undefined) overlays.push({ free: spot.end, spots: [spot] })
    else {
      free.spots.push(spot)
      free.free = spot.end
    }
  }
  return overlays.map((o) => o.spots)
}

/**
 * The spots' overlays at `frameRate`, their files named from `prefix` (a folder and a slash, or a file's
 * name and a dot); null when there are no emoji. All spots of a track have one size (the captions' font's).
 */
export const emojiOverlays = (spots: ReadonlyArray<EmojiSpot>, prefix: string, frameRate: number): EmojiOverlays | null => {
  const size = spots[0]?.size
  if (size === undefined) return null
  const frame = 1 / frameRate
  const files: Array<{ readonly path: string; readonly content: string | Buffer }> = []
  const pictures = new Map<string | null, string>()
  const pictureOf = (emoji: string | null): string => {
    const known = pictures.get(emoji)
    if (known !== undefined) return known
    const path = `${prefix}emoji-${pictures.size}.png`
    pictures.set(emoji, path)
    files.push({ path, content: emojiPicture(emoji, size) })
    return path
  }
  const listed = (emoji: string | null, seconds?: number) => [
    `file '${pictureOf(emoji).replaceAll("'", "'\\''")}'`,
    ...(seconds === undefined ? [] : [`duration ${seconds.toFixed(6)}`])
  ]
  const time = (t: number) => t.toFixed(6)
  const overlays = overlaysOf(spots, frame)
  const name = (k: number) => `overlay@emoji${k}`
  const commands: Array<string> = []
  const inputs = overlays.map((own, k) => {
    const list = ["ffconcat version 1.0"]
    let at = 0
    for (const spot of own) {
      if (spot.start > at) list.push(...listed(null, spot.start - at))
      list.push(...listed(spot.emoji, spot.end - spot.start))
      at = spot.end
      const rise = Array.from({ length: RISE.frames + 1 }, (_, step) =>
        `${time(spot.start + step * frame)} ${name(k)} y ${spot.y + Math.round(spot.size * RISE.by * (1 - step / RISE.frames) ** 2)};`)
      commands.push(`${time(spot.start)} ${name(k)} x ${spot.x};`, ...rise, `${time(spot.end)} ${name(k)} x ${AWAY};`)
    }
    // The concat demuxer gives the last file no length: a blank one, held to the video's end.
    list.push(...listed(null))
    const path = `${prefix}emoji-${k}.ffconcat`
    files.push({ path, content: list.join("\n") + "\n" })
    return ["-f", "concat", "-safe", "0", "-i", path]
  })
  const script = `${prefix}emoji-commands.txt`
  files.push({ path: script, content: commands.join("\n") + "\n" })
  return {
    files,
    inputs,
    chains: (from, inputIndex, out) => {
      const labels = overlays.map((_, k) => (k === overlays.length - 1 ? out : `emoji${k}`))
      return [
        `[${from}]sendcmd=f=${filterValue(script)}[emojicmd]`,
        ...overlays.map((_, k) => `[${k === 0 ? "emojicmd" : labels[k - 1]}][${inputIndex(k)}:v]${name(k)}=x=${AWAY}:y=0:eof_action=repeat[${labels[k]}]`)
      ]
    }
  }
}
