/**
 * The password rule the server applies (packages/shared/src/password-strength.ts), run in the
 * browser before a form is sent. The strength dictionaries are a large chunk of their own: they load
 * on first use (or when a password field gets focus), never with a route's initial JavaScript.
 */
let loading: Promise<typeof import('@cohort/shared/password-strength')> | undefined;

function load() {
  loading ??= import('@cohort/shared/password-strength');
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Starts fetching the checker so the first submit does not wait for it. */
export function preloadPasswordCheck() {
  load().catch(() => {
    // Offline: the check runs (and the server checks anyway) on submit.
  });
}

/**
 * Why this password will be refused (shown under the field), or null. If the checker cannot load
 * (offline), the form is sent and the server's answer is shown instead.
 */
export async function passwordProblemOf(password: string, userInputs: string[]): Promise<string | null> {
  try {
    const { passwordProblem } = await load();
    return await passwordProblem(password, userInputs);
  } catch {
    return null;
  }
}
