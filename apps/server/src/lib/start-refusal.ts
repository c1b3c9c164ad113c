/**
 * A start the server refuses for a reason the operator fixes (a bad or wrong secret key, …):
 * main.ts writes its message alone, without a stack, since nothing in the code went wrong.
 */
export class StartRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusal';
  }
}
