// GET /editor-assets/:name: the editor's bundles (built in memory on first request), JASSUB's wasm and
// the caption fonts, with their types, revalidation by ETag, and 404 for anything else.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readFile } from "node:fs/promises"
import { editorAssetUrls } from "../../adapters/editor/editor-assets.ts"
import { CAPTION_FONT_FILES, CJK_FALLBACK_FONT } from "../../adapters/media/caption-fonts.ts"
import { CAPTION_FONT_FAMILIES } from "../../domain/caption-fonts.ts"
import { startApp, type TestApp } from "../support/app.ts"

describe("editor assets", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp({ worker: false })
  })
  afterAll(async () => {
    await app?.close()
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.baseUrl}${path}`, { headers })

  it("serves each asset with its type, nosniff and an ETag to revalidate with", async () => {
    const expected: ReadonlyArray<readonly [string, string]> = [
      [editorAssetUrls.previewModule, "text/javascript; charset=utf-8"],
      [editorAssetUrls.workerUrl, "text/javascript; charset=utf-8"],
      [editorAssetUrls.wasmUrl, "application/wasm"],
      [editorAssetUrls.modernWasmUrl, "application/wasm"],
      ...[...Object.values(editorAssetUrls.fonts).flat(), editorAssetUrls.cjkFallback.url].map((font) => [font, "font/ttf"] as const)
    ]
    for (const [path, type] of expected) {
      const response = await get(path)
      const body = new Uint8Array(await response.arrayBuffer())
      expect([path, response.status, response.headers.get("content-type")]).toEqual([path, 200, type])
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      expect(response.headers.get("cache-control")).toBe("public, no-cache")
      expect(body.length).toBeGreaterThan(1000)
      const etag = response.headers.get("etag")!
      const again = await get(path, { "if-none-match": etag })
      expect([again.status, (await again.arrayBuffer()).byteLength]).toEqual([304, 0])
    }
  })

  it("serves the very font files the export draws with, each family's under its name", async () => {
    expect(Object.keys(editorAssetUrls.fonts)).toEqual(CAPTION_FONT_FAMILIES.map((f) => f.family))
    const pairs = [
      ...CAPTION_FONT_FAMILIES.flatMap(({ family, weights }) => {
        const urls = editorAssetUrls.fonts[family] ?? []
        const files = CAPTION_FONT_FILES.filter((file) => file.family === family)
        expect([family, urls.length, files.length]).toEqual([family, weights.length, weights.length])
        return files.map(({ path }, k) => [urls[k]!, path] as const)
      }),
      [editorAssetUrls.cjkFallback.url, CJK_FALLBACK_FONT.path] as const
    ]
    for (const [url, file] of pairs) {
      const served = Buffer.from(await (await get(url)).arrayBuffer())
      expect([url, served.equals(await readFile(file))]).toEqual([url, true])
    }
  })

  it("bundles JASSUB without the Google Fonts lookup or the GPL polyfill", async () => {
    const preview = await (await get(editorAssetUrls.previewModule)).text()
    const worker = await (await get(editorAssetUrls.workerUrl)).text()
    expect(preview).toContain("jassub-worker")
    expect(preview).not.toContain("_rvfcpolyfillmap")
    expect(worker).not.toMatch(/googleapis|https?:\/\//)
  })

  it("answers 404 for any other name", async () => {
    for (const path of ["/editor-assets/nope.js", "/editor-assets/..%2Fpackage.json", "/editor-assets/caption-preview.ts", "/editor-assets/"]) {
      const response = await get(path)
      await response.arrayBuffer()
      expect([path, response.status]).toEqual([path, 404])
    }
  })
})
