import { describe, expect, it } from "vitest"
import { parseTranscript } from "../../domain/transcript.ts"

describe("parseTranscript", () => {
  it("reads plain text as one untimed cue of its words, punctuation kept", () => {
    expect(parseTranscript("Hello, world!\nIt's 2024.")).toEqual({
      ok: true,
      format: "plain",
      cues: [{ words: ["Hello,", "world!", "It's", "2024."], start: null, end: null }]
    })
  })

  it("reads SRT cues with their times, markup removed, numbers and blank lines tolerated", () => {
    const srt = "\uFEFF1\r\n00:00:01,500 --> 00:00:03,000\r\n<i>Hello</i> there\r\n\r\n2\r\n00:00:03,200 --> 00:01:04,250\r\n{\\an8}General &amp; Kenobi\r\n"
    expect(parseTranscript(srt)).toEqual({
      ok: true,
      format: "srt",
      cues: [
        { words: ["Hello", "there"], start: 1.5, end: 3 },
        { words: ["General", "&", "Kenobi"], start: 3.2, end: 64.25 }
      ]
    })
  })

  it("reads WebVTT, skipping its header, NOTE blocks and cue settings", () => {
    const vtt = "WEBVTT - a title\nKind: captions\n\nNOTE a comment\n\nintro\n00:01.000 --> 00:02.500 align:start\n<v Roger>Hi <00:01.500>you\n"
    expect(parseTranscript(vtt)).toEqual({ ok: true, format: "vtt", cues: [{ words: ["Hi", "you"], start: 1, end: 2.5 }] })
  })

  it("refuses a malformed file naming the line", () => {
    expect(parseTranscript("1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:0x,000 --> 00:00:04,000\nyou\n")).toMatchObject({ ok: false, reason: expect.stringMatching(/^line 6: /) })
    expect(parseTranscript("1\nHello\n00:00:01,000 --> 00:00:02,000\n")).toMatchObject({ ok: false, reason: expect.stringMatching(/^line 1: expected a timing line/) })
    expect(parseTranscript("WEBVTT\n\n00:02.000 --> 00:01.000\nx\n")).toMatchObject({ ok: false, reason: "line 3: the cue ends before it starts" })
    expect(parseTranscript("1\n00:00:01,000 --> 00:00:02,000\n\n")).toMatchObject({ ok: false, reason: "the file has no cue with words" })
    expect(parseTranscript(" \n\t")).toEqual({ ok: false, reason: "the transcript has no words" })
  })
})
