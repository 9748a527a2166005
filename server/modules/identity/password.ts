import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP minimum (m = 19 MiB, t = 2, p = 1). Parameters travel inside the
// encoded hash, so raising them later only affects new hashes.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}
