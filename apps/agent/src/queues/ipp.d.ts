// The parts of the `ipp` package (no types of its own) the IPP reader uses.
declare module 'ipp' {
  const ipp: {
    serialize(message: Record<string, unknown>): Buffer;
    parse(buffer: Buffer): Record<string, unknown>;
  };
  export default ipp;
}
