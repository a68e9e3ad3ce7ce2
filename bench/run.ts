// `npm run bench`: every benchmark in sequence, then one table of all their figures.
import { alignment } from "./alignment.ts"
import { clipSelection } from "./clip-selection.ts"
import { captionRemoval } from "./caption-removal.ts"
import { captionRender } from "./caption-render.ts"
import { fakeTextScreenshot } from "./fake-text-screenshot.ts"
import { report } from "./figures.ts"
import { generatedVideo } from "./generated-video.ts"
import { getVideoLoad } from "./get-video-load.ts"
import { longSourceMemory } from "./long-source-memory.ts"
import { mcpCallLoad } from "./mcp-call-load.ts"
import { queueThroughput } from "./queue-throughput.ts"
import { recognition } from "./recognition.ts"
import { reframe } from "./reframe.ts"
import { telemetryCost } from "./telemetry-cost.ts"
import { trim } from "./trim.ts"
import { uploadMemory } from "./upload-memory.ts"
import { webhookThroughput } from "./webhook-throughput.ts"

const figures = [
  ...(await captionRender()),
  ...(await captionRemoval()),
  ...(await trim()),
  ...(await reframe()),
  ...(await clipSelection()),
  ...(await generatedVideo()),
  ...(await uploadMemory()),
  ...(await getVideoLoad()),
  ...(await mcpCallLoad()),
  ...(await fakeTextScreenshot()),
  ...(await queueThroughput()),
  ...(await webhookThroughput()),
  ...(await recognition()),
  ...(await alignment()),
  ...(await telemetryCost()),
  // Last: at its default lengths (10 and 60 min) it runs longer than all the others together.
  ...(await longSourceMemory())
]
await report(figures)
