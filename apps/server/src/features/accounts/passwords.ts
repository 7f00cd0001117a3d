import { passwordProblem } from '@cohort/shared/password-strength';
import { hash, verify } from '@node-rs/argon2';
import { badRequest } from '../../http/errors.ts';

// OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane.
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, options);

// Verifying against a real hash when the account does not exist keeps the timing the same,
// so response time does not reveal which e-mails have accounts.
let dummyHash: Promise<string> | undefined;
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('cohort-timing-equaliser');
    await verify(await dummyHash, password);
    return false;
  }
  return verify(passwordHash, password);
}

/**
 * The password rule of signup, reset and change (packages/shared/src/password-strength.ts, the same
 * check the web forms run): a 400 naming `field`, with zxcvbn's reason. The person's name and
 * address count as easy words.
 */
export async function assertStrongPassword(password: string, userInputs: string[], field: string) {
  const problem = await passwordProblem(password, userInputs);
  if (problem) throw badRequest(problem, field);
}
