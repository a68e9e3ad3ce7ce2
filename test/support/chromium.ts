// Debian's Chromium for the browser tests, driven by playwright-core: where it is, whether a suite may
// skip (only outside CI: in CI a missing browser fails the suite), how it is launched with no traffic
// of its own, and screenshots taken once a page has stopped drawing.
import { existsSync } from "node:fs"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { type Browser, chromium, type Locator, type Page } from "playwright-core"
import { type Frame, readFrame } from "./clips.ts"

export const CHROMIUM = "/usr/bin/chromium"

/** Whether a suite skips: only when the browser is missing and this is not CI (it warns, naming the suite). */
export const skipWithoutChromium = (suite: string): boolean => {
  const skip = !existsSync(CHROMIUM) && process.env.CI === undefined
  if (skip) console.warn(`Skipping ${suite}: ${CHROMIUM} is missing (apt-get install chromium). In CI it always runs.`)
  return skip
}

/** The closed network refuses Chromium's background connections: they are turned off rather than left to fail. */
export const launchChromium = (options: { readonly media?: boolean } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync",
      ...(options.media === true ? ["--mute-audio", "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required"] : [])
    ]
  })

/** A PNG's size, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

/**
 * An element's screenshot once two in a row are the same (a caption canvas is drawn off the page's
 * thread), written to `dir` and read back as a frame (of the screenshot's own size unless given).
 */
export const settledShot = async (
  page: Page,
  element: Locator,
  shot: { readonly dir: string; readonly name: string; readonly width?: number; readonly height?: number }
): Promise<Frame> => {
  let previous: Buffer | undefined
  for (let attempt = 0; attempt < 30; attempt++) {
    const png = await element.screenshot({ type: "png" })
    if (previous !== undefined && png.equals(previous)) {
      const path = join(shot.dir, `${shot.name}.png`)
      await writeFile(path, png)
      const size = pngSize(png)
      return readFrame(path, 0, shot.width ?? size.width, shot.height ?? size.height)
    }
    previous = png
    await page.waitForTimeout(150)
  }
  throw new Error(`${shot.name}: the picture never settled`)
}
