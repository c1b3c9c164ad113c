import { hash } from '@node-rs/argon2';

/** argon2id with the library's defaults; sign-in, password restore, the users' form and the seed share it. */
export const hashPassword = (password: string) => hash(password);
