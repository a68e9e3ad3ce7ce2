// What a picture may cost to decode. A file's size says little about it: a few KB of H.264 or PNG
// can hold an 8192x8192 picture that takes gigabytes to decode. So media are bounded by their sides,
// their pixels and (moving ones) their frame rate, as a probe reads them before anything decodes them.

/** A still picture is decoded once; a moving one (video, gif) frame after frame. */
export type Motion = "still" | "moving"

export interface PictureLimit {
  readonly maxSide: number
  readonly maxPixels: number
}

export const PICTURE_LIMITS: Readonly<Record<Motion, PictureLimit>> = {
  // HEVC level 5's largest picture (4096x2176): DCI 4K and UHD fit, portrait or landscape.
  moving: { maxSide: 4096, maxPixels: 4096 * 2176 },
  still: { maxSide: 8192, maxPixels: 40_000_000 }
}

export const MAX_FRAME_RATE = 120

/** No decoder is given a picture above this, whatever its kind: the largest any kind may have. */
export const MAX_DECODED_PIXELS = Math.max(PICTURE_LIMITS.still.maxPixels, PICTURE_LIMITS.moving.maxPixels)

const NAMES: Readonly<Record<Motion, string>> = { moving: "a video or gif", still: "a still image" }

/** Rounded down to 0.1, so a limit never reads as more than it is. */
const megapixels = (pixels: number): string => String(Math.floor(pixels / 100_000) / 10)

/** A kind's limit as a person reads it, after "may be at most"; with its widest picture when that is whole. */
export const pictureLimitText = (motion: Motion): string => {
  const { maxSide, maxPixels } = PICTURE_LIMITS[motion]
  const example = maxPixels % maxSide === 0 ? ` (${maxSide}x${maxPixels / maxSide})` : ""
  return `${maxSide} pixels on a side and ${megapixels(maxPixels)} megapixels${example}`
}

const SCALE_DOWN = "Scale it down and send it again."

/**
 * Why a picture costs too much to decode, or null when it is within its kind's limits. `what` names
 * it in the sentence ("The source", "The image").
 */
export const pictureProblem = (
  what: string,
  motion: Motion,
  picture: { readonly width: number; readonly height: number; readonly frameRate?: number }
): string | null => {
  const limit = PICTURE_LIMITS[motion]
  const { width, height } = picture
  if (Math.max(width, height) > limit.maxSide || width * height > limit.maxPixels) {
    return `${what} is ${width}x${height} pixels; ${NAMES[motion]} may be at most ${pictureLimitText(motion)}. ${SCALE_DOWN}`
  }
  if (motion === "moving" && picture.frameRate !== undefined && picture.frameRate > MAX_FRAME_RATE) {
    return `${what} plays at ${picture.frameRate} frames per second; the limit is ${MAX_FRAME_RATE}. ` +
      "Re-encode it at 60 or 30 and send it again."
  }
  return null
}

/** A picture above MAX_DECODED_PIXELS, refused before its kind is known. Kept short: refusals are cut at 200 characters. */
export const tooLargeToDecode = (width: number, height: number): string => {
  const { moving, still } = PICTURE_LIMITS
  return `The picture is ${width}x${height} pixels, too large to decode: ${NAMES.moving} may be at most ${moving.maxSide} pixels ` +
    `on a side and ${megapixels(moving.maxPixels)} megapixels, ${NAMES.still} ${still.maxSide} and ${megapixels(still.maxPixels)}. Scale it down.`
}
