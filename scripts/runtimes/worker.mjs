// workerd and the edge-runtime VM: a fetch handler that runs the lane with the config given as the request's body.
import { runLane } from "./lane.mjs";

export default {
  async fetch(request) {
    const result = await runLane(await request.json());
    return Response.json(result);
  },
};
