// Reframing's arithmetic on known face samples: the window's size for each shape, a path that follows a
// moving face smoothly and holds still for a face that only jitters, a cut (not a pan) at a scene
// change, the centre where no face is found, and two faces apart drawn as a split.
import { describe, expect, it } from "vitest"
import { Either } from "effect"
import { awaitsFaces, checkCameraPaths, cropSize, DEAD_ZONE, type FaceBox, type FaceSample, type Framing, pinKey, planFraming, REFRAMED_SIZES, reshapeFraming, type SourceFaces, windowAt, windowPlaces } from "../../domain/reframe.ts"

const SOURCE = { width: 1920, height: 1080, durationSeconds: 10 }
const RATE = 30

/** A face 300 px high whose middle is at (x, y). */
const faceAt = (x: number, y = 500, size = 300): FaceBox => ({ x: x - size * 0.4, y: y - size / 2, width: size * 0.8, height: size, score: 0.8 })
const centreX = (face: FaceBox) => face.x + face.width / 2

const sampled = (seconds: number, faces: (t: number) => ReadonlyArray<FaceBox>, perSecond = 1): ReadonlyArray<FaceSample> =>
  Array.from({ length: Math.floor(seconds * perSecond) }, (_, i) => {
    const t = (i + 0.5) / perSecond
    return { seconds: t, faces: faces(t) }
  })

/** Each frame's window across the source, frame by frame. */
const framesOf = (framing: Framing, window = 0, seconds = SOURCE.durationSeconds) =>
  Array.from({ length: Math.round(seconds * RATE) }, (_, f) => windowAt(framing.paths[window]!, f / RATE))

const steps = (xs: ReadonlyArray<number>) => xs.slice(1).map((x, i) => x - xs[i]!)

describe("cropSize", () => {
  it("cuts the largest window of the output's shape out of the source", () => {
    expect(cropSize(SOURCE, REFRAMED_SIZES["9:16"])).toEqual({ width: 608, height: 1080 })
    expect(cropSize(SOURCE, REFRAMED_SIZES["1:1"])).toEqual({ width: 1080, height: 1080 })
    expect(cropSize(SOURCE, REFRAMED_SIZES["4:5"])).toEqual({ width: 864, height: 1080 })
    expect(cropSize(SOURCE, REFRAMED_SIZES["16:9"])).toEqual({ width: 1920, height: 1080 })
    expect(cropSize({ width: 1080, height: 1920 }, REFRAMED_SIZES["16:9"])).toEqual({ width: 1080, height: 608 })
  })
})

describe("planFraming in face mode", () => {
  it("follows a face moving across the picture smoothly, keeping it near the window's middle", () => {
    const path = (t: number) => 300 + t * 130
    const faces: SourceFaces = { samples: sampled(10, (t) => [faceAt(path(t))]), sceneCuts: [] }
    const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, faces)
    expect(framing).toMatchObject({ mode: "face", width: 1080, height: 1920, crop: { width: 608, height: 1080 } })
    const xs = framesOf(framing).map((w) => w.x)
    // Inside the middle third of the window (a third of 608 is 203: 101 px either side) once the window can follow.
    const off = xs.map((x, f) => Math.abs(x + 304 - path(f / RATE))).filter((_, f) => f / RATE >= 0.5 && path(f / RATE) < 1920 - 304)
    expect(Math.max(...off)).toBeLessThan(101)
    const speeds = steps(xs)
    expect(Math.max(...speeds.map(Math.abs))).toBeLessThanOrEqual(8)
    // Smooth: the speed changes by at most 2 px a frame from one frame to the next.
    expect(Math.max(...steps(speeds).map(Math.abs))).toBeLessThanOrEqual(2)
  })

  it("takes no box that overhangs the picture by a quarter or more for a face: it follows the one inside", () => {
    // The detector's false faces on busy patterns: larger than the real one, half above the frame or past its right side.
    const overhanging = [{ ...faceAt(1500, 100, 500), score: 0.99 }, { ...faceAt(1850, 700, 400), score: 0.99 }]
    expect(overhanging.map((f) => f.y < 0 || f.x + f.width > SOURCE.width)).toEqual([true, true])
    const faces: SourceFaces = { samples: sampled(10, () => [faceAt(500), ...overhanging]), sceneCuts: [] }
    const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, faces)
    expect(new Set(framesOf(framing).map((w) => w.x + 304))).toEqual(new Set([500]))
    // One just inside the edge still counts.
    const atEdge: SourceFaces = { samples: sampled(10, () => [faceAt(1800, 500, 400)]), sceneCuts: [] }
    expect(windowAt(planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, atEdge).paths[0]!, 5).x).toBe(1920 - 608)
  })

  it("takes no face seen on one sample only: a larger one that flashes up beside another face does not hand the window to that one", () => {
    // Two people, the window on the larger; a false face far larger flashes up beside the other for one sample.
    const people = [faceAt(500, 500, 340), faceAt(1400, 500, 300)]
    const flash = { ...faceAt(1500, 500, 500), score: 0.99 }
    const withFlash = (at: ReadonlyArray<number>): SourceFaces => ({ samples: sampled(10, (t) => (at.includes(Math.floor(t)) ? [...people, flash] : people)), sceneCuts: [] })
    const centres = (faces: SourceFaces) => new Set(framesOf(planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, faces)).map((w) => w.x + 304))
    expect(centres(withFlash([]))).toEqual(new Set([500]))
    expect(centres(withFlash([4]))).toEqual(new Set([500]))
    // Seen on two samples in a row, it counts as a face: the window goes to it, then stays with the person beside it.
    expect(windowAt(planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, withFlash([4, 5])).paths[0]!, 9).x + 304).toBe(1400)
  })

  it("holds still while a face only jitters inside the dead zone", () => {
    const jitter = [0, 25, -20, 10, -30, 15, 5, -10, 20, -25]
    const faces: SourceFaces = { samples: sampled(10, (t) => [faceAt(960 + jitter[Math.floor(t)]!)]), sceneCuts: [] }
    expect(30).toBeLessThan(608 * DEAD_ZONE)
    const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, faces)
    expect(new Set(framesOf(framing).map((w) => w.x)).size).toBe(1)
  })

  it("cuts to the new framing at a scene change instead of panning", () => {
    const faces: SourceFaces = { samples: sampled(10, (t) => [faceAt(t < 4 ? 400 : 1500)]), sceneCuts: [4] }
    const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, faces)
    expect(framing.paths[0]).toEqual([{ seconds: 0, x: 96, y: 0 }, { seconds: 4, x: 1196, y: 0, cut: true }])
    const moves = steps(framesOf(framing).map((w) => w.x)).flatMap((step, f) => (step === 0 ? [] : [[f + 1, step]]))
    expect(moves).toEqual([[4 * RATE, 1100]])
  })

  it("frames the centre of a scene where no face is found, and of a source without any", () => {
    const none = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, { samples: sampled(10, () => []), sceneCuts: [] })
    expect(none.paths).toEqual([[{ seconds: 0, x: 656, y: 0 }]])
    const second = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, { samples: sampled(10, (t) => (t < 5 ? [faceAt(300)] : [])), sceneCuts: [5] })
    expect(second.paths[0]).toEqual([{ seconds: 0, x: 0, y: 0 }, { seconds: 5, x: 656, y: 0, cut: true }])
  })

  it("keeps following the face it followed while another of at least half its size is in the picture", () => {
    const speaker = (t: number) => faceAt(500 + (t > 5 ? 200 : 0), 500, 300)
    const other = faceAt(1500, 500, 340)
    const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, {
      samples: sampled(10, (t) => (t < 1 ? [speaker(t)] : [other, speaker(t)])),
      sceneCuts: []
    })
    const xs = framesOf(framing).map((w) => w.x + 304)
    expect(Math.max(...xs)).toBeLessThan(800)
    expect(Math.abs(xs.at(-1)! - centreX(speaker(9)))).toBeLessThan(608 * DEAD_ZONE + 1)
  })

  it("follows the one speaking of two faces, told by the mouth that opens and closes, not the larger face, and cuts at a turn", () => {
    // A (left, smaller) speaks for the first 10 s, B (right, larger) for the next 10: the speaker's mouth
    // opens and shuts from sample to sample, the listener's stays nearly shut.
    const talking = (t: number, i: number) => (i % 2 === 0 ? 0.02 : 0.07) + 0.003 * Math.sin(t)
    const still = (t: number) => 0.015 + 0.002 * Math.sin(t * 3)
    const faces: SourceFaces = {
      samples: sampled(20, (t) => {
        const i = Math.floor(t)
        return [
          { ...faceAt(450, 500, 260), mouth: t < 10 ? talking(t, i) : still(t) },
          { ...faceAt(1450, 500, 340), mouth: t < 10 ? still(t) : talking(t, i) }
        ]
      }),
      sceneCuts: []
    }
    const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, { ...SOURCE, durationSeconds: 20 }, faces)
    const frames = framesOf(framing, 0, 20)
    const centreAt = (seconds: number) => frames[Math.round(seconds * RATE)]!.x + framing.crop.width / 2
    for (const t of [1, 4, 7]) expect(Math.abs(centreAt(t) - 450)).toBeLessThan(framing.crop.width * DEAD_ZONE + 1)
    // The turn is a cut: the window is on one of the two at every moment, never panning between them.
    expect(framing.paths[0]!.filter((k) => k.cut === true).map((k) => k.seconds)).toHaveLength(1)
    for (const [f, w] of frames.entries()) {
      const centre = w.x + framing.crop.width / 2
      expect(Math.min(Math.abs(centre - 450), Math.abs(centre - 1450)), `frame ${f}`).toBeLessThan(framing.crop.width * DEAD_ZONE + 1)
    }
    for (const t of [13, 15, 17, 19]) expect(Math.abs(centreAt(t) - 1450)).toBeLessThan(framing.crop.width * DEAD_ZONE + 1)
    // Without mouths measured, the larger face is followed throughout.
    const unmeasured = { ...faces, samples: faces.samples.map((s) => ({ ...s, faces: s.faces.map(({ mouth: _, ...f }) => f) })) }
    const heaviest = framesOf(planFraming({ aspectRatio: "9:16", mode: "face" }, { ...SOURCE, durationSeconds: 20 }, unmeasured), 0, 20)
    expect(Math.abs(heaviest[4 * RATE]!.x + framing.crop.width / 2 - 1450)).toBeLessThan(framing.crop.width * DEAD_ZONE + 1)
  })

  it("moves the window down to a face in a tall source made wide", () => {
    const tall = { width: 1080, height: 1920, durationSeconds: 4 }
    const framing = planFraming({ aspectRatio: "16:9", mode: "face" }, tall, { samples: sampled(4, () => [faceAt(540, 1400)]), sceneCuts: [] })
    expect(framing.crop).toEqual({ width: 1080, height: 608 })
    // The face's middle 40% down the window.
    expect(framing.paths[0]).toEqual([{ seconds: 0, x: 0, y: Math.round(1400 - 608 * 0.4) }])
  })
})

describe("planFraming in the other modes", () => {
  it("centre: one fixed window in the middle, whatever the faces", () => {
    const framing = planFraming({ aspectRatio: "1:1", mode: "center" }, SOURCE, null)
    expect(framing).toMatchObject({ mode: "center", width: 1080, height: 1080, crop: { width: 1080, height: 1080 }, paths: [[{ seconds: 0, x: 420, y: 0 }]] })
  })

  it("fit: no window, the whole picture at the output's size", () => {
    expect(planFraming({ aspectRatio: "4:5", mode: "fit" }, SOURCE, null)).toMatchObject({
      mode: "fit",
      width: 1080,
      height: 1350,
      crop: { width: 1920, height: 1080 },
      paths: []
    })
  })

  it("split: two faces far apart, one window on each, the left one on top", () => {
    const faces: SourceFaces = { samples: sampled(10, (t) => [faceAt(1450 + 20 * Math.sin(t)), faceAt(420, 450)]), sceneCuts: [] }
    const framing = planFraming({ aspectRatio: "9:16", mode: "split" }, SOURCE, faces)
    expect(framing.mode).toBe("split")
    expect(framing.crop).toEqual({ width: 960, height: 854 })
    const [top, bottom] = [framesOf(framing, 0), framesOf(framing, 1)]
    for (const w of top) expect(Math.abs(w.x + 480 - 420)).toBeLessThanOrEqual(480 * DEAD_ZONE * 2 + 1)
    for (const w of bottom) expect(Math.abs(w.x + 480 - 1450)).toBeLessThan(960 * DEAD_ZONE + 20)
  })

  it("split of a source that seldom shows two faces apart is drawn as face", () => {
    const faces: SourceFaces = { samples: sampled(10, (t) => (t < 2 ? [faceAt(400), faceAt(1500)] : [faceAt(400)])), sceneCuts: [] }
    expect(planFraming({ aspectRatio: "9:16", mode: "split" }, SOURCE, faces)).toMatchObject({ mode: "face", crop: { width: 608, height: 1080 } })
  })
})

describe("windowPlaces: where the output draws each window", () => {
  it("all of the output for one window, a split's top window above its bottom one on even pixels, none for fit", () => {
    expect(windowPlaces({ mode: "face", width: 1080, height: 1920 })).toEqual([{ x: 0, y: 0, width: 1080, height: 1920 }])
    expect(windowPlaces({ mode: "center", width: 1080, height: 1080 })).toEqual([{ x: 0, y: 0, width: 1080, height: 1080 }])
    expect(windowPlaces({ mode: "split", width: 1080, height: 1920 })).toEqual([
      { x: 0, y: 0, width: 1080, height: 960 },
      { x: 0, y: 960, width: 1080, height: 960 }
    ])
    // 1350 / 2 is 675: the top half takes 676, the bottom the 674 left.
    expect(windowPlaces({ mode: "split", width: 1080, height: 1350 }).map((place) => [place.y, place.height])).toEqual([[0, 676], [676, 674]])
    expect(windowPlaces({ mode: "fit", width: 1080, height: 1350 })).toEqual([])
  })
})

describe("windowAt", () => {
  const path = [
    { seconds: 0, x: 100, y: 0 },
    { seconds: 1, x: 100, y: 0 },
    { seconds: 2, x: 300, y: 0 },
    { seconds: 3, x: 500, y: 0 },
    { seconds: 4, x: 500, y: 0 },
    { seconds: 6, x: 50, y: 0, cut: true }
  ]

  it("holds, starts and stops at rest, runs steadily along a pan, and never overshoots a key", () => {
    expect(windowAt(path, 0.5)).toEqual({ x: 100, y: 0 })
    expect(windowAt(path, 2)).toEqual({ x: 300, y: 0 })
    expect(windowAt(path, 3.5)).toEqual({ x: 500, y: 0 })
    expect(windowAt(path, 1.02).x - 100).toBeLessThan(2)
    const xs = Array.from({ length: 121 }, (_, f) => windowAt(path, 1 + f / 60).x)
    expect(steps(xs).every((s) => s >= 0)).toBe(true)
    expect(Math.max(...xs)).toBe(500)
  })

  it("jumps at a cut key and holds before it", () => {
    expect(windowAt(path, 5.99)).toEqual({ x: 500, y: 0 })
    expect(windowAt(path, 6)).toEqual({ x: 50, y: 0 })
    expect(windowAt(path, 60)).toEqual({ x: 50, y: 0 })
  })
})

describe("keys a person places", () => {
  const framing = planFraming({ aspectRatio: "9:16", mode: "center" }, { width: 1920, height: 1080, durationSeconds: 10 }, null)
  const path = [{ seconds: 0, x: 656, y: 0 }, { seconds: 4, x: 656, y: 0 }, { seconds: 6, x: 100, y: 0, cut: true }]

  it("makes the path pass through the window where it was dragged, replacing a key at the same moment and keeping its cut", () => {
    const pinned = pinKey(framing, path, { seconds: 2, x: 900.4, y: 30 })
    expect(pinned).toEqual([{ seconds: 0, x: 656, y: 0 }, { seconds: 2, x: 900, y: 0 }, { seconds: 4, x: 656, y: 0 }, { seconds: 6, x: 100, y: 0, cut: true }])
    expect(windowAt(pinned, 2)).toEqual({ x: 900, y: 0 })
    expect(pinKey(framing, path, { seconds: 6.01, x: 5000, y: 0 })).toEqual([...path.slice(0, 2), { seconds: 6, x: 1920 - 608, y: 0, cut: true }])
  })

  it("takes paths sent in place of the planned ones only when every window stays inside the source, in time order", () => {
    expect(Either.getOrThrow(checkCameraPaths(framing, [path], 10)).paths).toEqual([path])
    const problem = (paths: Framing["paths"]) => Either.match(checkCameraPaths(framing, paths, 10), { onLeft: (p) => p.field, onRight: () => null })
    expect(problem([path, path])).toBe("framing.paths")
    expect(problem([[]])).toBe("framing.paths.0")
    expect(problem([[{ seconds: 0, x: 1313, y: 0 }]])).toBe("framing.paths.0.0.x")
    expect(problem([[{ seconds: 0, x: 0, y: 1 }]])).toBe("framing.paths.0.0.y")
    expect(problem([[{ seconds: 2, x: 0, y: 0 }, { seconds: 2, x: 0, y: 0 }]])).toBe("framing.paths.0.1.seconds")
    expect(problem([[{ seconds: 11, x: 0, y: 0 }]])).toBe("framing.paths.0.0.seconds")
  })
})

describe("reshapeFraming: another shape or mode after the video was made", () => {
  const moving: SourceFaces = { samples: sampled(10, (t) => [faceAt(300 + 120 * t)]), sceneCuts: [4] }

  it("re-makes a face path's windows for the new shape around the same points, keys and cuts kept", () => {
    const before = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, moving)
    const after = reshapeFraming({ aspectRatio: "4:5", mode: "face" }, { aspectRatio: "9:16", mode: "face" }, before, SOURCE, null)
    expect(after).toMatchObject({ mode: "face", aspectRatio: "4:5", width: 1080, height: 1350, sourceWidth: 1920, sourceHeight: 1080, crop: { width: 864, height: 1080 } })
    const [old, now] = [before.paths[0]!, after.paths[0]!]
    expect(now.map((k) => [k.seconds, k.cut ?? false])).toEqual(old.map((k) => [k.seconds, k.cut ?? false]))
    // Each window is centred where the old one was, unless the source's edge holds it in.
    for (const [i, key] of now.entries()) {
      const centre = old[i]!.x + 304
      expect(key.x).toBe(Math.round(Math.min(1920 - 864, Math.max(0, centre - 432))))
    }
    expect(now.some((k) => k.x > 0 && k.x < 1920 - 864)).toBe(true)
  })

  it("keeps a split's two windows, each re-made for the new shape", () => {
    const two: SourceFaces = { samples: sampled(10, () => [faceAt(1450), faceAt(420, 450)]), sceneCuts: [] }
    const before = planFraming({ aspectRatio: "9:16", mode: "split" }, SOURCE, two)
    const after = reshapeFraming({ aspectRatio: "1:1", mode: "split" }, { aspectRatio: "9:16", mode: "split" }, before, SOURCE, null)
    expect(after.mode).toBe("split")
    expect(after.paths).toHaveLength(2)
    expect(after.crop.width * 540).toBe(after.crop.height * 1080)
    // Each window stays on its face: centred where the old one was (the left face on top).
    for (const side of [0, 1]) {
      expect(after.paths[side]![0]!.x + after.crop.width / 2).toBeCloseTo(before.paths[side]![0]!.x + before.crop.width / 2, -1)
    }
    expect(after.paths[0]![0]!.x).toBeLessThan(after.paths[1]![0]!.x)
  })

  it("plans center and fit afresh from any framing, or none", () => {
    const face = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, moving)
    expect(reshapeFraming({ aspectRatio: "1:1", mode: "center" }, { aspectRatio: "9:16", mode: "face" }, face, SOURCE, null))
      .toEqual(planFraming({ aspectRatio: "1:1", mode: "center" }, SOURCE, null))
    expect(reshapeFraming({ aspectRatio: "4:5", mode: "fit" }, null, null, SOURCE, null))
      .toEqual(planFraming({ aspectRatio: "4:5", mode: "fit" }, SOURCE, null))
  })

  it("plans the other face mode afresh from the analysis the video kept", () => {
    const two: SourceFaces = { samples: sampled(10, () => [faceAt(1450), faceAt(420, 450)]), sceneCuts: [] }
    const analysis = { source: SOURCE, faces: two }
    const face = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, two)
    const split = reshapeFraming({ aspectRatio: "9:16", mode: "split" }, { aspectRatio: "9:16", mode: "face" }, face, SOURCE, analysis)
    expect(split).toEqual(planFraming({ aspectRatio: "9:16", mode: "split" }, SOURCE, two))
    expect(split.paths).toHaveLength(2)
    // Back to face, and face again after center: each planned from the same faces.
    expect(reshapeFraming({ aspectRatio: "1:1", mode: "face" }, { aspectRatio: "9:16", mode: "split" }, split, SOURCE, analysis))
      .toEqual(planFraming({ aspectRatio: "1:1", mode: "face" }, SOURCE, two))
    const centre = planFraming({ aspectRatio: "9:16", mode: "center" }, SOURCE, null)
    expect(reshapeFraming({ aspectRatio: "4:5", mode: "face" }, { aspectRatio: "9:16", mode: "center" }, centre, SOURCE, analysis))
      .toEqual(planFraming({ aspectRatio: "4:5", mode: "face" }, SOURCE, two))
    // The mode the video has keeps its paths (keys a person placed among them) whatever was kept.
    const moved = { ...face, paths: [[{ seconds: 0, x: 0, y: 0 }]] }
    expect(reshapeFraming({ aspectRatio: "9:16", mode: "face" }, { aspectRatio: "1:1", mode: "face" }, moved, SOURCE, analysis).paths)
      .toEqual([[{ seconds: 0, x: 0, y: 0 }]])
  })

  it("stands the window in the middle where the faces to follow were never kept, until a render looks for them", () => {
    const centre = planFraming({ aspectRatio: "9:16", mode: "center" }, SOURCE, null)
    const face = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, moving)
    for (const [settings, asked, before] of [
      [{ aspectRatio: "9:16", mode: "face" }, { aspectRatio: "9:16", mode: "center" }, centre],
      [{ aspectRatio: "9:16", mode: "split" }, { aspectRatio: "9:16", mode: "face" }, face],
      [{ aspectRatio: "1:1", mode: "face" }, null, null]
    ] as const) {
      const waiting = reshapeFraming(settings, asked, before, SOURCE, null)
      expect(waiting).toEqual(planFraming({ aspectRatio: settings.aspectRatio, mode: "center" }, SOURCE, null))
      expect(awaitsFaces(settings, waiting)).toBe(true)
      // Asked again while waiting (another shape): still waiting, at the new shape.
      const again = reshapeFraming({ ...settings, aspectRatio: "4:5" }, settings, waiting, SOURCE, null)
      expect([again.mode, again.width, again.height, awaitsFaces({ ...settings, aspectRatio: "4:5" }, again)]).toEqual(["center", 1080, 1350, true])
    }
    // Planned from faces, or not asked to follow any: nothing waits.
    expect(awaitsFaces({ aspectRatio: "9:16", mode: "face" }, face)).toBe(false)
    expect(awaitsFaces({ aspectRatio: "9:16", mode: "split" }, face)).toBe(false)
    expect(awaitsFaces({ aspectRatio: "9:16", mode: "center" }, centre)).toBe(false)
    expect(awaitsFaces(null, null)).toBe(false)
  })
})
