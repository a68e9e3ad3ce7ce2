// The art styles: enough of them, each distinct, and their public records valid.
import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { ART_STYLES, ArtStyleRecord, artStyleRecord } from "../../domain/art-styles.ts"

describe("ART_STYLES", () => {
  it("has the eight named styles with unique kebab-case ids", () => {
    const ids = ART_STYLES.map((s) => s.id)
    expect(ids).toEqual(expect.arrayContaining(["watercolor", "anime", "comic", "clay-3d", "pixel-art", "noir", "vaporwave", "paper-cut"]))
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  it("gives each style its own palette, prompt suffix and texture", () => {
    for (const field of ["promptSuffix", "texture"] as const) {
      expect(new Set(ART_STYLES.map((s) => s[field])).size).toBe(ART_STYLES.length)
    }
    expect(new Set(ART_STYLES.map((s) => s.palette.join())).size).toBe(ART_STYLES.length)
    for (const style of ART_STYLES) {
      expect(style.palette.length).toBeGreaterThanOrEqual(5)
      expect(style.palette.length).toBeLessThanOrEqual(6)
    }
  })

  it("publishes records that match the schema and hide the rendering hints", () => {
    for (const style of ART_STYLES) {
      const record = Schema.decodeUnknownSync(ArtStyleRecord)(artStyleRecord(style))
      expect(Object.keys(record).sort()).toEqual(["description", "id", "name", "palette", "promptSuffix"])
    }
    expect(() => Schema.decodeUnknownSync(ArtStyleRecord)({ ...artStyleRecord(ART_STYLES[0]!), palette: ["red"] })).toThrow()
  })
})
