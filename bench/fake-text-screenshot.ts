// Fake-text screenshot latency: 100 sequential POST /v1/fake-text-screenshots (a 9-message chat,
// 1080x1920, iMessage light) on one service process (embedded defaults), after a warm-up; p50 and
// p99 of the answers. Baseline: the same png painted 100 times in this process by the painter alone,
// so the gap is what the service adds (validation, credits, storing the file).
import { Effect } from "effect"
import { performance } from "node:perf_hooks"
import { paintChat } from "../adapters/chat/canvas-chat-painter.ts"
import { chatTheme } from "../domain/chat-themes.ts"
import { SAMPLE_CONVERSATION } from "../scripts/sample-conversation.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { startService } from "./service-process.ts"

const BENCH = "fake-text-screenshot"
const REQUESTS = 100
const WARMUP = 10
const TARGET_P99_MS = 300


const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const timed = async (times: number, once: () => Promise<void>): Promise<ReadonlyArray<number>> => {
  const ms: Array<number> = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    await once()
    ms.push(performance.now() - start)
  }
  return ms.sort((a, b) => a - b)
}

const figuresOf = (name: string, sorted: ReadonlyArray<number>, target: boolean): ReadonlyArray<Figure> => [
  { bench: BENCH, name: `${name}: p50 latency`, value: percentile(sorted, 50), unit: "ms" },
  {
    bench: BENCH,
    name: `${name}: p99 latency`,
    value: percentile(sorted, 99),
    unit: "ms",
    ...(target ? { target: { atMost: TARGET_P99_MS } } : {})
  }
]

export const fakeTextScreenshot = async (): Promise<ReadonlyArray<Figure>> => {
  const paintOnce = async () => {
    await Effect.runPromise(paintChat({
      conversation: SAMPLE_CONVERSATION,
      theme: chatTheme("imessage-light"),
      images: new Map(),
      width: 1080,
      height: 1920,
      state: { visible: SAMPLE_CONVERSATION.messages.length, scroll: null, typing: null }
    }))
  }
  await timed(WARMUP, paintOnce)
  const painted = await timed(REQUESTS, paintOnce)

  const service = await startService()
  try {
    const post = async () => {
      const response = await fetch(`${service.baseUrl}/v1/fake-text-screenshots`, {
        method: "POST",
        headers: { authorization: `Bearer ${service.token}`, "content-type": "application/json" },
        body: JSON.stringify(SAMPLE_CONVERSATION)
      })
      const text = await response.text()
      if (response.status !== 200) throw new Error(`POST /v1/fake-text-screenshots answered ${response.status}: ${text.slice(0, 300)}`)
    }
    await timed(WARMUP, post)
    const served = await timed(REQUESTS, post)
    console.log(`${BENCH}: service p99 ${percentile(served, 99).toFixed(0)} ms, painter alone p99 ${percentile(painted, 99).toFixed(0)} ms`)
    return [
      ...figuresOf(`POST /v1/fake-text-screenshots (${REQUESTS} sequential)`, served, true),
      ...figuresOf("baseline: painting the same png in process", painted, false)
    ]
  } finally {
    await service.stop()
  }
}

if (isEntryPoint(import.meta.url)) await report(await fakeTextScreenshot())
