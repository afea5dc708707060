import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum parameters (19 MiB, 2 passes): ~30 ms here.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string): Promise<string> => hash(plain, OPTIONS);

export const verifyPassword = async (stored: string, plain: string): Promise<boolean> => {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
};

/** Used when the account does not exist, so timing does not reveal which accounts exist. */
let dummyHash: Promise<string> | undefined;
export const burnPasswordCheck = async (plain: string): Promise<void> => {
  dummyHash ??= hashPassword('dummy-password-1');
  await verifyPassword(await dummyHash, plain);
};
