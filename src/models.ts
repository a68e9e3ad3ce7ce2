// `npm run models`: the whisper.cpp models command (src/models-command.ts) run on its own.
import { Command } from "@effect/cli"
import { FetchHttpClient } from "@effect/platform"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import packageJson from "../package.json" with { type: "json" }
import { models } from "./models-command.ts"

Command.run(models, { name: "models", version: packageJson.version })(process.argv).pipe(
  Effect.provide(FetchHttpClient.layer),
  Effect.provide(NodeContext.layer),
  // @effect/cli has printed what is wrong with the command line.
  Effect.catchAll(() =>
    Effect.sync(() => {
      process.exitCode = 2
    })
  ),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
