/**
 * MSW 2 handlers over the mock core. Imported only by `index.ts` (msw is an optional peer dependency;
 * the server and the CLI never load this module).
 *
 * @module
 */

import { HttpResponse, http, type RequestHandler } from "msw";
import { fromWebRequest, type RawRequest, type RawResponse } from "./http.js";

/** Builds the MSW handlers that answer every request to `baseUrl` with the mock. */
export function createMswHandlers(
  baseUrl: () => string,
  dispatch: (req: RawRequest) => Promise<RawResponse>,
): RequestHandler[] {
  return [
    http.all(`${baseUrl()}/*`, async ({ request }) => {
      const res = await dispatch(await fromWebRequest(request));
      if (res.drop) return HttpResponse.error();
      return new HttpResponse(res.body === "" ? null : res.body, {
        status: res.status,
        headers: res.headers,
      });
    }),
  ];
}
