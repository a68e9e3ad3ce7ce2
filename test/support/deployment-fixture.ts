// What the process-level reliability tests share: an https receiver for webhooks, a deployment on
// Postgres + the S3 test server, and a small spoken clip; all torn down after the file.
import { afterAll, beforeAll } from "vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSpokenClip, type SpokenClip } from "./clips.ts"
import { type HttpsReceiver, startHttpsReceiver } from "./https-receiver.ts"
import { type Deployment, startDeployment } from "./service-process.ts"

export interface DeploymentFixture {
  readonly deployment: Deployment
  readonly receiver: HttpsReceiver
  readonly clip: SpokenClip
}

/** Registers the suite's set-up and tear-down; read the fields inside tests (they exist after beforeAll). */
export const useDeployment = (clipText: string): DeploymentFixture => {
  const fixture = {} as { deployment: Deployment; receiver: HttpsReceiver; clip: SpokenClip; dir: string }
  beforeAll(async () => {
    fixture.dir = await mkdtemp(join(tmpdir(), "reelwright-reliability-"))
    // One at a time, so that afterAll finds whatever started before a failure.
    fixture.receiver = await startHttpsReceiver()
    fixture.deployment = await startDeployment({ objectStore: true })
    fixture.clip = await makeSpokenClip({ text: clipText, width: 360, height: 640, fps: 30, dir: fixture.dir })
  })
  afterAll(async () => {
    await fixture.deployment?.close()
    await fixture.receiver?.close()
    if (fixture.dir !== undefined) await rm(fixture.dir, { recursive: true, force: true })
  })
  return fixture
}
