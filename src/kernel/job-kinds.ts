// Names of the background jobs; each has one handler registered in the job runner.
export const GENERATE_CAPTIONS = "caption-video.generate"
export const RENDER_VIDEO = "video.render"
export const GENERATE_VIDEO = "generated-video.generate"
export const DELIVER_WEBHOOK = "webhook.deliver"
