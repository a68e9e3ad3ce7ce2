#!/usr/bin/env node
// The package's `reelwright` command. The CLI is TypeScript run without a build step, so this registers
// tsx's loader in this process and imports src/cli.ts, which reads process.argv and sets the exit code.
// tsx and the tsconfig are resolved from this package, not from the caller's working directory.
import { fileURLToPath } from "node:url"
import { register } from "tsx/esm/api"

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) })
await import("../src/cli.ts")
