// Runs once before the test workers start. Workers inherit the environment set here.
export default function setup(): void {
  process.env.OUTBOUND_ALLOW_LOOPBACK = "1"
}
