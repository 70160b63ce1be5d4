// Next.js edge route handler, copied to .tmp/runtimes/app/api/lane/route.js: POST the config, get the lane result.
import { runLane } from "../../../lanes/lane.mjs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export async function POST(request) {
  return Response.json(await runLane(await request.json()));
}
