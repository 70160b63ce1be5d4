/**
 * True for `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`: addresses that never leave this machine. Takes a
 * `URL`'s `hostname`, where URL parsing has already written any IPv4 address as four decimal numbers up to 255.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(\.\d+){3}$/.test(host)
  );
}
