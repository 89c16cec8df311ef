// Why Cloudbench is not signed in, when credentials were found but refused: the welcome views name
// that state (credentials of another universe, an unreachable token host, a refused sign-in)
// instead of saying "not signed in", each with the setting or step that fixes it.
import * as vscode from 'vscode';
import { CredentialsError } from '../../core/google/credentials';
import { TokenDestinationError } from '../../core/google/token-policy';

/** The context key the welcome views follow next to cloudbench.connection ('' when nothing was found). */
export const SIGN_IN_PROBLEM_KEY = 'cloudbench.signInProblem';

export type SignInProblem = '' | 'otherUniverse' | 'tokenHostUnreachable' | 'refused';

/** What kept a found credential from signing in; '' when none was found (plain "not signed in"). */
export function signInProblemOf(err: unknown): SignInProblem {
  if (err instanceof TokenDestinationError) return 'refused';
  if (!(err instanceof CredentialsError)) return '';
  switch (err.problem) {
    case 'missing':
      return '';
    case 'universe-mismatch':
      return 'otherUniverse';
    case 'unreachable':
      return 'tokenHostUnreachable';
    default:
      return 'refused';
  }
}

/** Shows `problem` to the welcome views; set before the signed-in state so no wrong text flashes. */
export function showSignInProblem(problem: SignInProblem): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', SIGN_IN_PROBLEM_KEY, problem);
}
