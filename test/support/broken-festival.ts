// An app whose festival starts (it answers `--version`, so its voices are offered) but fails every
// speech: for the paths that must answer a speech engine's failure with a readable error.
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { startApp, type TestApp } from "./app.ts"

/** What the stand-in festival says on every speech. */
export const FESTIVAL_FAILURE = "SIOD ERROR: out of memory"

export const startAppWithBrokenFestival = async (dir: string, options: { readonly worker: boolean }): Promise<TestApp> => {
  const festival = join(dir, "broken-festival")
  await writeFile(festival, `#!/bin/sh\n[ "$1" = --version ] && exit 0\necho '${FESTIVAL_FAILURE}' >&2\nexit 1\n`, { mode: 0o755 })
  // The speech engines read FESTIVAL_PATH once, as the app starts.
  const previous = process.env.FESTIVAL_PATH
  process.env.FESTIVAL_PATH = festival
  try {
    return await startApp(options)
  } finally {
    if (previous === undefined) delete process.env.FESTIVAL_PATH
    else process.env.FESTIVAL_PATH = previous
  }
}
