import { defineConfig } from "vitest/config"

/**
 * Test files that run one at a time in forked processes: they call the HTTPS test servers (the test CA
 * in NODE_EXTRA_CA_CERTS is read only as a process starts, so a worker thread of the runner does not
 * trust it), spawn the service's processes or Chromium, count the process's descriptors, or use most
 * of the machine (renders, speech recognition over several clips, media filters).
 */
const OWN_PROCESS = [
  // HTTPS test servers (the reliability suites' webhooks too), and the service as processes.
  "test/reliability/**/*.test.ts",
  "test/webhooks/**/*.test.ts",
  "test/outbound/outbound-client.test.ts",
  "test/outbound/source-fetcher.test.ts",
  "test/oauth/oauth-flow.test.ts",
  "test/e2e/caption-editing.test.ts",
  "test/e2e/caption-removal.test.ts",
  "test/e2e/clips.test.ts",
  "test/e2e/processes.test.ts",
  "test/e2e/structured-logs.test.ts",
  "test/e2e/telemetry.test.ts",
  "test/e2e/video-lifecycle.test.ts",
  "test/e2e/webhook-schedule.test.ts",
  "test/e2e/webhooks.test.ts",
  // Chromium.
  "test/browser/caption-preview.test.ts",
  "test/browser/editor-app.test.ts",
  "test/browser/oauth-pages.test.ts",
  // Open descriptors of this process.
  "test/abuse/hostile-requests.test.ts",
  // npm and the CLI as child processes.
  "test/deploy/install.test.ts",
  "test/e2e/cli.test.ts",
  // Renders and media work that keep both cores busy. (Pocketsphinx, the timeline renders and the wipe run
  // in the thread lane: in forks they made this lane the longer by about two minutes.)
  "test/e2e/ai-video.test.ts",
  "test/e2e/caption-video.test.ts",
  "test/e2e/fake-text-video.test.ts",
  "test/e2e/gameplay-video.test.ts",
  "test/e2e/media-limits.test.ts",
  "test/e2e/quiz-video.test.ts",
  "test/e2e/render.test.ts",
  "test/media/caption-removal-check-frames.test.ts",
  "test/media/ffmpeg-engine.test.ts"
]

const shared = {
  // The suite's speech is festival's and its figures are pocketsphinx's: a model a developer installed
  // (TRANSCRIBER=auto would take it), or an OPENAI_API_KEY (CLIP_SCORER=auto would score clips with a chat model), must not change what the tests measure. Tests of the choice set their own.
  env: { TRANSCRIBER: process.env.TRANSCRIBER ?? "pocketsphinx", CLIP_SCORER: process.env.CLIP_SCORER ?? "offline" },
  testTimeout: 120_000,
  hookTimeout: 120_000
}

// Two lanes side by side, each one file at a time on a 2-core machine (a pool's default there): the
// files above in forked processes, every other file in a worker thread. The second lane's files are
// mostly single-threaded (and so is each file's start, its imports), so they use the core the first
// lane leaves idle, while two heavy files never run at once. A new file runs in a thread unless listed.
export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    env: shared.env,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      { test: { ...shared, name: "own-process", include: OWN_PROCESS, pool: "forks" } },
      { test: { ...shared, name: "in-thread", include: ["test/**/*.test.ts"], exclude: OWN_PROCESS, pool: "threads" } }
    ]
  }
})
