import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // The suite's speech is festival's and its figures are pocketsphinx's: a model a developer installed
    // (TRANSCRIBER=auto would take it) must not change what the tests measure. Tests of the choice set their own.
    env: { TRANSCRIBER: process.env.TRANSCRIBER ?? "pocketsphinx" },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", "./test/support/summary-reporter.ts"]
  }
})
