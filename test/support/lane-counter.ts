// A lane of the listener (adapters/http/lanes.ts) wrapped to count what it takes and what it hands on;
// `off` takes it out of its slot, so that the same request can be asked of the API's stack, and `on` puts it back.
import { type Lane, LaneSlot } from "../../adapters/http/lanes.ts"
import type { TestApp } from "./app.ts"

export interface Counted {
  taken: number
  passed: number
}

export const countLane = async (app: TestApp, which: "read" | "mcp") => {
  const slot = await app.runtime.runPromise(LaneSlot)
  const lane = slot[which]
  if (lane === undefined) throw new Error(`the served API put no ${which} lane in the listener's slot`)
  const counted: Counted = { taken: 0, passed: 0 }
  const counting: Lane = (request, response, pass) => {
    const took = lane(request, response, () => {
      counted.passed++
      pass()
    })
    if (took) counted.taken++
    return took
  }
  slot[which] = counting
  return {
    counted,
    off: () => slot[which] = undefined,
    on: () => slot[which] = counting
  }
}
