// TimelineRenderer as one ffmpeg run: every scene, overlay, caption and sound in a single filter graph.
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Config, Effect, Layer } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import type { AnimatedFrames, FrameEncoding } from "../../domain/ports/animated-frames.ts"
import { type TimelineRenderRequest, TimelineRenderer } from "../../domain/ports/timeline-renderer.ts"
import { splitTopHeight } from "../../domain/split-screen.ts"
import { type Motion, type Overlay, type PlainVisual, type Scene, type TextOverlay, type Timeline } from "../../domain/timeline.ts"
import { assSubtitles, emojiSpots } from "./ass-subtitles.ts"
import { assFilter } from "./caption-fonts.ts"
import { measureCaptionText } from "./caption-text-measure.ts"
import { type EmojiOverlays, emojiOverlays } from "./emoji-overlays.ts"
import { DEFAULT_X264_PRESET, x264Args } from "./ffmpeg-engine.ts"
import { AAC_ARGS, QUIET, filterValue, lastError, progressLines, spawnTool } from "./ffmpeg-process.ts"
import { evenSize } from "../../domain/even-pixels.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const GREEN: PlainVisual = { _tag: "Colour", hex: "#00FF00" }
const FADE_SECONDS = 0.5
/** How much further a Ken Burns zoom reaches in (1.2 = a fifth closer). */
const ZOOM_GAIN = 0.2
const MAX_ZOOM = 1 + ZOOM_GAIN
const AUDIO_RATE = 48_000
/** drawtext takes a family here (fontconfig picks the regular face); the border carries the weight. */
const TEXT_FONT = "DejaVu Sans"

const hex = (colour: string): string => `0x${colour.slice(1)}`

/** A filter graph under construction: inputs, chains, and the files they read. */
interface Graph {
  readonly frameRate: number
  readonly workDir: string
  readonly inputs: Array<ReadonlyArray<string>>
  readonly chains: Array<string>
  readonly files: Array<{ readonly path: string; readonly content: string | Buffer }>
  /** The animations the timeline may play, by name. */
  readonly animations: ReadonlyMap<string, AnimatedFrames>
  /** The animations played, each with its input, in the order of their pipes (the first is ffmpeg's pipe:3). */
  readonly played: Map<AnimatedFrames, number>
  labels: number
}

const addInput = (graph: Graph, args: ReadonlyArray<string>): number => graph.inputs.push(args) - 1
const newLabel = (graph: Graph, prefix: string): string => `${prefix}${graph.labels++}`
/** Appends `filters`, fed by `from` (labels; none for a source filter), and returns the new output label. */
const addChain = (graph: Graph, from: ReadonlyArray<string>, filters: string, prefix = "c"): string => {
  const out = newLabel(graph, prefix)
  graph.chains.push(`${from.map((l) => `[${l}]`).join("")}${filters}[${out}]`)
  return out
}

/**
 * A Ken Burns move over a still at the output size, as the filters that turn the one flattened picture
 * (`zoom` times the output size) into `frames` frames. A pan crops the picture, scaled once, a whole pixel
 * further each step; a zoom is zoompan on RGBA, which crops on whole pixels (on YUV 4:2:0 it would move
 * in steps of two) and scales each frame. zoompan on a canvas twice the size moved in half steps, but its
 * scaling cost four times as much: some two fifths of the encoder's time again at 1080x1920.
 */
const kenBurns = (motion: Motion, width: number, height: number, frames: number, rate: number): { zoom: number; filters: string } => {
  const repeat = `format=yuv420p,loop=loop=${frames - 1}:size=1,settb=1/${rate},setpts=N`
  const zoompan = (z: string) =>
    `format=rgba,zoompan=z='${z}':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=${frames}:s=${width}x${height}:fps=${rate}`
  const pan = (x: string) => ({ zoom: MAX_ZOOM, filters: `${repeat},crop=${width}:${height}:x='${x}':y=(ih-oh)/2:exact=1` })
  const progress = Math.max(1, frames - 1)
  switch (motion) {
    case "zoom-in":
      return { zoom: 1, filters: zoompan(`1+${ZOOM_GAIN}*on/${progress}`) }
    case "zoom-out":
      return { zoom: 1, filters: zoompan(`${MAX_ZOOM}-${ZOOM_GAIN}*on/${progress}`) }
    case "pan-left":
      return pan(`(iw-ow)*n/${progress}`)
    case "pan-right":
      return pan(`(iw-ow)*(1-n/${progress})`)
    case "none":
      return { zoom: 1, filters: repeat }
  }
}

/** Exactly `frames` frames of `visual`, cover-cropped to width x height, at the timeline's rate. */
const visualFrames = (graph: Graph, visual: PlainVisual, width: number, height: number, frames: number, background: string): string => {
  const rate = graph.frameRate
  const cover = (w: number, h: number) => `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1`
  const exact = `trim=end_frame=${frames},format=yuv420p,settb=1/${rate},setpts=N`
  switch (visual._tag) {
    case "Colour":
      return addChain(graph, [], `color=c=${hex(visual.hex)}:s=${width}x${height}:r=${rate},${exact}`)
    case "Image": {
      // A single frame in (an animated picture cut to its first), flattened once, then moved frame by frame.
      const input = addInput(graph, ["-i", visual.path])
      const { zoom, filters } = kenBurns(visual.motion, width, height, frames, rate)
      const [w, h] = [evenSize(width * zoom), evenSize(height * zoom)]
      const picture = addChain(graph, [`${input}:v`], `trim=end_frame=1,${cover(w, h)},format=rgba`)
      const canvas = addChain(graph, [], `color=c=${hex(background)}:s=${w}x${h}:r=${rate},trim=end_frame=1`)
      return addChain(
        graph,
        [canvas, picture],
        `overlay=format=auto,${filters},setsar=1,${exact}`
      )
    }
    case "Video": {
      const seek = visual.startSeconds > 0 ? ["-ss", visual.startSeconds.toFixed(3)] : []
      const input = addInput(graph, [...(visual.loop ? ["-stream_loop", "-1"] : []), ...seek, "-i", visual.path])
      // A clip that ends early holds its last frame.
      const hold = visual.loop ? "" : `,tpad=stop_mode=clone:stop_duration=${(frames / rate).toFixed(3)}`
      return addChain(graph, [`${input}:v:0`], `setpts=PTS-STARTPTS,fps=${rate},${cover(width, height)}${hold},${exact}`)
    }
    case "Animation":
      // Drawn at this size (a chat, the cards: scale only converts the pixels) or smaller (a game: scaled up).
      return animationFrames(graph, visual.animation, frames, `${cover(width, height)},format=yuv420p`)
  }
}

const inputFormat = (encoding: FrameEncoding): ReadonlyArray<string> => {
  switch (encoding._tag) {
    case "Apng":
      // The demuxer keeps a frame's delay however short (max_fps 0), so a picture can show for one frame.
      return ["-f", "apng", "-max_fps", "0"]
    case "RawRgba":
      return ["-f", "rawvideo", "-pix_fmt", "rgba", "-video_size", `${encoding.width}x${encoding.height}`, "-framerate", String(encoding.frameRate)]
  }
}

/**
 * An animation, read from its pipe as it is drawn, as exactly `frames` frames at the timeline's rate;
 * one that ends early holds its last picture. `picture` (size, pixel format) runs before fps repeats
 * the pictures, so each APNG frame is converted once however many frames it holds. An animation
 * played twice is one input (one pipe) feeding both.
 */
const animationFrames = (graph: Graph, name: string, frames: number, picture: string): string => {
  const rate = graph.frameRate
  const animation = graph.animations.get(name)
  if (animation === undefined) throw new Error(`the timeline plays an animation "${name}" the render request does not hold`)
  const input = graph.played.get(animation) ?? addInput(graph, [...inputFormat(animation.encoding), "-i", `pipe:${3 + graph.played.size}`])
  graph.played.set(animation, input)
  return addChain(
    graph,
    [`${input}:v:0`],
    `${picture},fps=${rate},tpad=stop_mode=clone:stop=${frames},trim=end_frame=${frames},settb=1/${rate},setpts=N`
  )
}

const textY = (position: TextOverlay["position"]): string => {
  switch (position) {
    case "top":
      return "h*0.1"
    case "middle":
      return "(h-text_h)/2"
    case "lower-third":
      return "h*0.75-text_h"
    case "bottom":
      return "h*0.92-text_h"
  }
}

/** `overlay` drawn over `under`, a scene of `frames` frames. */
const addOverlay = (graph: Graph, under: string, overlay: Overlay, width: number, height: number, frames: number): string => {
  switch (overlay._tag) {
    case "Text": {
      // Through a file, so the text needs no escaping and % sequences stay literal (expansion=none).
      const path = join(graph.workDir, `text-${graph.files.length}.txt`)
      graph.files.push({ path, content: overlay.text.trim() })
      const size = Math.max(1, Math.round(overlay.fontSizeRatio * height))
      return addChain(
        graph,
        [under],
        `drawtext=font=${filterValue(TEXT_FONT)}:textfile=${filterValue(path)}:expansion=none:fontsize=${size}` +
          `:fontcolor=${hex(overlay.color)}:borderw=${Math.max(1, Math.round(size * 0.1))}:bordercolor=black` +
          `:x=(w-text_w)/2:y=${textY(overlay.position)}`
      )
    }
    case "Image": {
      const input = addInput(graph, ["-i", overlay.path])
      const picture = addChain(graph, [`${input}:v`], `scale=${evenSize(overlay.width * width)}:-2,format=rgba`)
      // One frame: overlay repeats it to the end of the scene.
      return addChain(graph, [under, picture], `overlay=x=${Math.round(overlay.x * width)}:y=${Math.round(overlay.y * height)}:format=auto`)
    }
    case "Animation": {
      // yuva420p keeps the transparency and is what overlay blends onto yuv420p, so nothing converts per frame.
      const pictures = animationFrames(graph, overlay.animation, frames, "format=yuva420p")
      return addChain(graph, [under, pictures], `overlay=x=${Math.round(overlay.x * width)}:y=${Math.round(overlay.y * height)}:format=auto`)
    }
  }
}

const sceneFrames = (graph: Graph, timeline: Timeline, scene: Scene, frames: number): string => {
  const { width, height, background } = timeline
  const visual = timeline.format === "greenscreen" ? GREEN : scene.visual
  let picture: string
  if (visual._tag === "Split") {
    const top = splitTopHeight(height)
    const upper = visualFrames(graph, visual.top, width, top, frames, background)
    const lower = visualFrames(graph, visual.bottom, width, height - top, frames, background)
    picture = addChain(graph, [upper, lower], "vstack=inputs=2")
  } else {
    picture = visualFrames(graph, visual, width, height, frames, background)
  }
  return scene.overlays.reduce((under, overlay) => addOverlay(graph, under, overlay, width, height, frames), picture)
}

/** Frames of the fade into scene `i` (0 for a cut): at most half the scene. */
const fadeFrames = (scenes: ReadonlyArray<Scene>, boundaries: ReadonlyArray<number>, i: number, rate: number): number => {
  if (i === 0 || scenes[i]?.transition !== "fade") return 0
  return Math.min(Math.round(FADE_SECONDS * rate), Math.floor((boundaries[i + 1]! - boundaries[i]!) / 2))
}

/**
 * `label` cut into consecutive frame ranges, each its own stream from frame 0. Split hands every branch
 * the same frames by reference; each trim keeps its range.
 */
const cutFrames = (graph: Graph, label: string, ranges: ReadonlyArray<readonly [number, number]>): Array<string> => {
  if (ranges.length === 1) return [label]
  const branches = ranges.map(() => newLabel(graph, "s"))
  graph.chains.push(`[${label}]split=${ranges.length}${branches.map((b) => `[${b}]`).join("")}`)
  return ranges.map(([start, end], i) => addChain(graph, [branches[i]!], `trim=start_frame=${start}:end_frame=${end},setpts=N`))
}

/**
 * Scenes start on whole frames (their start times rounded), so the video has exactly the frames of
 * the timeline's duration. A fade plays over the start of the incoming scene: the outgoing one runs
 * on for the fade's length, and the total length does not change. Only the fades' own frames go
 * through xfade, which works in another pixel format and converted every frame that passed it (a
 * chain of them cost some two fifths of the encoder's time again); the rest is concatenated as it is.
 */
const videoGraph = (graph: Graph, timeline: Timeline): { label: string; frames: number } => {
  const rate = timeline.frameRate
  const boundaries = [0]
  let elapsed = 0
  for (const scene of timeline.scenes) {
    elapsed += scene.durationSeconds
    boundaries.push(Math.round(elapsed * rate))
  }
  const fades = timeline.scenes.map((_, i) => fadeFrames(timeline.scenes, boundaries, i, rate))
  const pieces: Array<string> = []
  let fadingOut: string | null = null
  timeline.scenes.forEach((scene, i) => {
    const own = boundaries[i + 1]! - boundaries[i]!
    const fadeIn = fades[i]!
    const fadeOut = fades[i + 1] ?? 0
    const ranges: Array<readonly [number, number]> = []
    if (fadeIn > 0) ranges.push([0, fadeIn])
    if (own > fadeIn) ranges.push([fadeIn, own])
    if (fadeOut > 0) ranges.push([own, own + fadeOut])
    if (ranges.length === 0) return
    const cut = cutFrames(graph, sceneFrames(graph, timeline, scene, own + fadeOut), ranges)
    if (fadeIn > 0) {
      pieces.push(addChain(graph, [fadingOut!, cut.shift()!], `xfade=transition=fade:duration=${(fadeIn / rate).toFixed(6)}:offset=0,format=yuv420p`))
    }
    if (own > fadeIn) pieces.push(cut.shift()!)
    fadingOut = fadeOut > 0 ? cut.shift()! : null
  })
  // concat counts time in microseconds: back to one tick a frame.
  const label = pieces.length === 1 ? pieces[0]! : addChain(graph, pieces, `concat=n=${pieces.length}:v=1:a=0,settb=1/${rate},setpts=N`)
  return { label, frames: boundaries[boundaries.length - 1]! }
}

/** Narration, music under it (looped), or silence; exactly `samples` long. */
const audioGraph = (graph: Graph, timeline: Timeline, samples: number): string => {
  // Timestamps by sample count: a looped input jumps by its priming delay at every restart.
  const shape = `asetpts=N/SR/TB,aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`
  const cut = `atrim=end_sample=${samples}`
  const sounds: Array<string> = []
  if (timeline.narration !== null) {
    const input = addInput(graph, ["-i", timeline.narration.path])
    sounds.push(addChain(graph, [`${input}:a:0`], `${shape},apad,${cut}`))
  }
  if (timeline.music !== null) {
    const input = addInput(graph, ["-stream_loop", "-1", "-i", timeline.music.path])
    sounds.push(addChain(graph, [`${input}:a:0`], `${shape},volume=${timeline.music.volume},${cut}`))
  }
  if (sounds.length === 0) return addChain(graph, [], `anullsrc=r=${AUDIO_RATE}:cl=stereo,${cut}`)
  if (sounds.length === 1) return sounds[0]!
  // normalize=0: the narration keeps its level; the music's volume is what sits under it.
  return addChain(graph, sounds, "amix=inputs=2:duration=first:normalize=0")
}

/** The emoji laid over the picture: their picture sequences as inputs, their overlays in the graph. */
const withEmoji = (graph: Graph, from: string, emoji: EmojiOverlays): string => {
  graph.files.push(...emoji.files)
  const first = graph.inputs.length
  emoji.inputs.forEach((args) => addInput(graph, args))
  const out = newLabel(graph, "v")
  graph.chains.push(...emoji.chains(from, (k) => first + k, out))
  return out
}

/** The whole render as ffmpeg arguments plus the files its graph reads. */
const renderCommand = (request: TimelineRenderRequest, preset: string) => {
  const { timeline, workDir, output } = request
  const graph: Graph = {
    frameRate: timeline.frameRate,
    workDir,
    inputs: [],
    chains: [],
    files: [],
    animations: request.animations ?? new Map(),
    played: new Map(),
    labels: 0
  }
  const video = videoGraph(graph, timeline)
  const finish: Array<string> = []
  let under = video.label
  if (timeline.captions !== null) {
    const path = join(workDir, "captions.ass")
    const track = { ...timeline.captions, width: timeline.width, height: timeline.height, format: timeline.format, measure: measureCaptionText }
    graph.files.push({ path, content: assSubtitles(track) })
    // The emoji go under the captions (they never overlap): ass then draws on the overlay's own copy of the frame.
    const emoji = emojiOverlays(emojiSpots(track), `${workDir}/`, timeline.frameRate)
    if (emoji !== null) under = withEmoji(graph, under, emoji)
    finish.push(assFilter(path))
  }
  finish.push("format=yuv420p")
  const picture = addChain(graph, [under], finish.join(","), "v")
  const durationSeconds = video.frames / timeline.frameRate
  const sound = addChain(graph, [audioGraph(graph, timeline, Math.round(durationSeconds * AUDIO_RATE))], "anull", "a")
  const script = join(workDir, "graph.txt")
  graph.files.push({ path: script, content: graph.chains.join(";\n") })
  const args = [
    ...QUIET, "-nostats", "-progress", "pipe:1",
    ...graph.inputs.flat(),
    "-filter_complex_script", script,
    "-map", `[${picture}]`, "-map", `[${sound}]`,
    ...x264Args(preset), "-r", String(timeline.frameRate), ...AAC_ARGS,
    "-movflags", "+faststart",
    output
  ]
  return { args, files: graph.files, played: [...graph.played.keys()], durationSeconds }
}

export const FfmpegTimelineRendererLive = Layer.effect(
  TimelineRenderer,
  Effect.gen(function* () {
    const ffmpeg = yield* Config.string("FFMPEG_PATH").pipe(Config.withDefault("ffmpeg"))
    const preset = yield* Config.string("X264_PRESET").pipe(Config.withDefault(DEFAULT_X264_PRESET))

    const render = (request: TimelineRenderRequest) =>
      Effect.gen(function* () {
        const { args, files, played, durationSeconds } = renderCommand(request, preset)
        yield* Effect.promise(async () => {
          await mkdir(request.workDir, { recursive: true })
          await Promise.all(files.map((file) => writeFile(file.path, file.content)))
        })
        const result = yield* spawnTool(ffmpeg, args, progressLines(durationSeconds, request.onProgress), played.map((animation) => animation.play))
        if (result.code !== 0) {
          return yield* new WorkFailed({ message: `Rendering the video failed: ${lastError(result.stderr)}` })
        }
      }).pipe(
        withSpan("FfmpegTimelineRenderer.render", {
          attributes: {
            output: request.output,
            scenes: request.timeline.scenes.length,
            format: request.timeline.format,
            frameRate: request.timeline.frameRate
          }
        })
      )

    return TimelineRenderer.of({ render })
  })
)
