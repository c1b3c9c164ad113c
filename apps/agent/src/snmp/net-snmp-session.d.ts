// net-snmp reads a session's `timeout` each time it sends a request, which its published types
// leave out; the client sets it for each attempt (snmp-client.ts, `request`).
import 'net-snmp';

declare module 'net-snmp' {
  interface Session {
    timeout: number;
  }
}
