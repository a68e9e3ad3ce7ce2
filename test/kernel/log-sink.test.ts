// Log lines leave stdout in one write per turn of the event loop, in order, each ending in a newline.
import { describe, expect, it } from "vitest"
import { makeLineSink } from "../../src/kernel/log-sink.ts"

describe("makeLineSink", () => {
  it("writes the lines of one turn in one write, in order, and the next turn's in the next", async () => {
    const writes: Array<string> = []
    const sink = makeLineSink({ write: (text) => writes.push(text) })
    sink.write('{"n":1}')
    sink.write('{"n":2}')
    expect(writes).toEqual([])
    await new Promise((done) => setImmediate(done))
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n'])
    sink.write('{"n":3}')
    await new Promise((done) => setImmediate(done))
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n'])
  })

  it("writes what waits at once when flushed (as at exit), and nothing when nothing waits", () => {
    const writes: Array<string> = []
    const sink = makeLineSink({ write: (text) => writes.push(text) })
    sink.flush()
    sink.write("last words")
    sink.flush()
    expect(writes).toEqual(["last words\n"])
  })
})
