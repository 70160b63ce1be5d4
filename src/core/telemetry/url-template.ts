/**
 * The route template of a request path (`/v1/payments/{id}/status` for `/v1/payments/pay_1/status`), for span names,
 * `url.template` and the duration histogram: low cardinality, no ids. The templates are the interface document's
 * (`service-interface.md`), placeholders included; a test holds them against the mock's route table.
 *
 * @module
 */

/** Every route the SDK calls, as the interface document writes it. */
export const URL_TEMPLATES: readonly string[] = [
  "/v1/merchants",
  "/v1/merchants/{merchantId}",
  "/v1/merchants/{merchantId}/settlements",
  "/v1/merchants/{merchantId}/settlements/crypto",
  "/v1/merchants/{merchantId}/settlements/crypto/{id}",
  "/v1/payments",
  "/v1/payments/{id}/status",
  "/v1/payments/{id}/cancel",
  "/v1/merchant/payment",
  "/v1/merchant/payment/{paymentId}/status",
  "/v1/gateway/payment/{id}/fetch",
];

const SPLIT = URL_TEMPLATES.map((template) => ({ template, segments: template.split("/") }));

/**
 * The template matching `path` (ids are single encoded segments, so a placeholder matches exactly one), or
 * `undefined` for a path no template matches: then no template is reported rather than a raw path with ids.
 */
export function urlTemplateOf(path: string): string | undefined {
  const segments = path.split("/");
  for (const candidate of SPLIT) {
    if (candidate.segments.length !== segments.length) continue;
    const matches = candidate.segments.every(
      (segment, i) => segment === segments[i] || (segment.startsWith("{") && segments[i] !== ""),
    );
    if (matches) return candidate.template;
  }
  return undefined;
}
