/** The SDK's own version, sent in the `User-Agent` header. A test keeps it equal to package.json's. */
export const SDK_VERSION = "0.1.0";
