// The parts of net-snmp 3.x that the agent uses; the package ships no types.
declare module 'net-snmp' {
  export type RawVarbind = { oid: string; type: number; value: unknown };
  export type Callback = (error: Error | null, varbinds: RawVarbind[]) => void;
  export interface Session {
    get(oids: string[], cb: Callback): void;
    getNext(oids: string[], cb: Callback): void;
    getBulk(oids: string[], nonRepeaters: number, maxRepetitions: number, cb: Callback): void;
    close(): void;
    on(event: 'error' | 'close', listener: (error?: Error) => void): void;
  }
  export type SessionOptions = {
    port?: number;
    retries?: number;
    timeout?: number;
    backoff?: number;
    transport?: 'udp4' | 'udp6';
    version?: number;
    idBitsSize?: 16 | 32;
  };
  export type User = {
    name: string;
    level: number;
    authProtocol?: number;
    authKey?: string;
    privProtocol?: number;
    privKey?: string;
  };
  export function createSession(target: string, community: string, options: SessionOptions): Session;
  export function createV3Session(target: string, user: User, options: SessionOptions): Session;
  export const Version1: number;
  export const Version2c: number;
  export const Version3: number;
  export const ObjectType: Record<string, number>;
  export const SecurityLevel: { noAuthNoPriv: number; authNoPriv: number; authPriv: number };
  export const AuthProtocols: Record<string, number>;
  export const PrivProtocols: Record<string, number>;
  export const ErrorStatus: Record<string, number>;
  const snmp: {
    createSession: typeof createSession;
    createV3Session: typeof createV3Session;
    Version1: number;
    Version2c: number;
    Version3: number;
    ObjectType: Record<string, number>;
    SecurityLevel: { noAuthNoPriv: number; authNoPriv: number; authPriv: number };
    AuthProtocols: Record<string, number>;
    PrivProtocols: Record<string, number>;
    ErrorStatus: Record<string, number>;
  };
  export default snmp;
}
