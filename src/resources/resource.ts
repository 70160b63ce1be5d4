/**
 * The base of the namespaced sub-clients (`client.payments`, …): each holds the client's one transport.
 *
 * @module
 */
import type { Transport } from "../core/transport.js";

/** Base of the namespaced sub-clients: each holds the client's one transport and describes its operations. */
export abstract class APIResource {
  /** @internal */
  protected readonly transport: Transport;

  /** @internal Sub-clients are created by `MerchantPaymentsClient`. */
  constructor(transport: Transport) {
    this.transport = transport;
  }
}
