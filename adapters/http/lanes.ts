// Lanes: requests that clients repeat most (polled reads, MCP tool calls) answered without the API's
// middleware stack, each still by the operation or server the stack would reach, with the same checks,
// span, access line, metrics, request id and rate budget. The listener offers each request to the lanes
// first (node-listener.ts); whatever they decline goes to the stack. See docs/architecture.md, "Lanes".
import { Context, Effect, Layer } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * Takes a request or declines it (false: the API answers it). A lane that has not read the body may hand
 * a request it took to the API with `pass`, untouched.
 */
export type Lane = (request: IncomingMessage, response: ServerResponse, pass: () => void) => boolean

/**
 * Where the listener looks for the lanes: each is set once the API is served (read-lane.ts, mcp-lane.ts),
 * so until then every request goes to the API.
 */
export class LaneSlot extends Context.Tag("http/LaneSlot")<LaneSlot, { read: Lane | undefined; mcp: Lane | undefined }>() {}

/** Puts a lane in its place in the listener's slot while the API is served. */
export const servedLane = <E, R>(place: "read" | "mcp", make: Effect.Effect<Lane, E, R>) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const slot = yield* LaneSlot
      slot[place] = yield* make
      yield* Effect.addFinalizer(() => Effect.sync(() => slot[place] = undefined))
    })
  )
