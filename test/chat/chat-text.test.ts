// Wrapping message text: breaks after spaces, keeps punctuation with its word, breaks CJK between
// words, and splits a word wider than the line.
import { createCanvas } from "@napi-rs/canvas"
import { describe, expect, it } from "vitest"
import { isRightToLeft, measureLine, wrapText } from "../../adapters/chat/chat-text.ts"

const ctx = createCanvas(1, 1).getContext("2d")
const style = { size: 40, weight: "normal" } as const
const lines = (text: string, width: number) => wrapText(ctx, text, style, width).map((l) => l.runs.map((r) => r.text).join(""))

describe("wrapText", () => {
  it("breaks after spaces and never inside a word or before its punctuation", () => {
    const width = measureLine(ctx, "is it still a secret", style)
    const wrapped = lines("is it still a secret?? he keeps asking", width)
    expect(wrapped.length).toBeGreaterThan(1)
    expect(wrapped.some((l) => l.startsWith("?"))).toBe(false)
    expect(wrapped.join(" ")).toBe("is it still a secret?? he keeps asking")
    for (const l of wrapped) expect(measureLine(ctx, l, style)).toBeLessThanOrEqual(width)
  })

  it("breaks Chinese between words and splits an over-long word", () => {
    const width = measureLine(ctx, "你好你好", style)
    const chinese = lines("你好，明天见，我们一起去公园吧", width)
    expect(chinese.length).toBeGreaterThan(2)
    expect(chinese.join("")).toBe("你好，明天见，我们一起去公园吧")
    expect(lines("a".repeat(60), measureLine(ctx, "aaaaaaaaaa", style)).length).toBe(6)
  })

  it("keeps emoji in their own runs, and tells right-to-left paragraphs", () => {
    const [line] = wrapText(ctx, "ok 😂👍🏽 done", style, 2000)
    expect(line!.runs.map((r) => [r.text, r.emoji])).toEqual([["ok ", false], ["😂👍🏽", true], [" done", false]])
    expect(isRightToLeft("שלום world")).toBe(true)
    expect(isRightToLeft("123 مرحبا")).toBe(true)
    expect(isRightToLeft("hello שלום")).toBe(false)
  })
})
