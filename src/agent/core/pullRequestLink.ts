// Where a finished job's pull request opens: in the GitHub Pull Requests extension (through its
// URI handler) or in the browser. The decision and the URI are pure, so Node tests hold them; the
// VS Code side (actions.ts) only reads the setting, asks whether the extension is there, and hands
// the result to openExternal.
//
// The handler (microsoft/vscode-pull-request-github, src/uriHandler.ts and src/common/uri.ts) takes
// `<uriScheme>://GitHub.vscode-pull-request-github/open-pull-request-webview?uri=<PR URL>`, reads
// `uri` with URLSearchParams and accepts only `https?://github.com/<owner>/<repo>/pull/<n>`. We
// send it less than that: only a plain https github.com pull request link, character for character,
// so that no lookalike host, user info, port, query or odd path ever leaves the browser's path.

export const PULL_REQUESTS_EXTENSION_ID = 'GitHub.vscode-pull-request-github';
const HANDLER_PATH = '/open-pull-request-webview';

export const OPEN_PULL_REQUEST_IN = ['auto', 'pullRequestsExtension', 'browser'] as const;
export type OpenPullRequestIn = (typeof OPEN_PULL_REQUEST_IN)[number];

/** The setting's value, `auto` for anything it does not name. */
export function openPullRequestInOf(value: unknown): OpenPullRequestIn {
  return (OPEN_PULL_REQUEST_IN as readonly unknown[]).includes(value) ? (value as OpenPullRequestIn) : 'auto';
}

export interface GitHubPullRequest {
  owner: string;
  repo: string;
  number: number;
}

// GitHub's own rules, as the extension checks them: an owner is letters, digits and single inner
// hyphens; a repository letters, digits, `.`, `_` and `-` (but not `.` or `..`). The whole link is
// matched as written: no decoding, no normalising, nothing before or after.
const OWNER = /[A-Za-z0-9_](?:[A-Za-z0-9_]|-(?!-))*(?<!-)/.source;
const REPO = /[A-Za-z0-9_.-]+/.source;
const NUMBER = /[1-9][0-9]{0,9}/.source;
const PR_LINK = new RegExp(`^https://github\\.com/(${OWNER})/(${REPO})/pull/(${NUMBER})$`);
// Any web host's `…/<owner>/<repo>/pull/<n>` (a GitHub Enterprise, the emulator): only for the
// link's name in the tree, never for where it opens.
const ANY_PR_LINK = new RegExp(`^https?://[^/?#@\\s]+(?:/[^?#\\s]*)?/(${OWNER})/(${REPO})/pull/(${NUMBER})/?$`);
const URI_SCHEME = /^[a-z][a-z0-9+.-]*$/;
const WEB_SCHEMES = new Set(['http', 'https', 'file', 'data', 'javascript', 'command']);

/** The pull request a link names, when it is exactly `https://github.com/<owner>/<repo>/pull/<n>`. */
export function gitHubPullRequest(url: string): GitHubPullRequest | undefined {
  return pullRequestMatching(PR_LINK, url);
}

function pullRequestMatching(link: RegExp, url: string): GitHubPullRequest | undefined {
  const m = link.exec(url);
  if (!m || m[2] === '.' || m[2] === '..') return undefined;
  return { owner: m[1]!, repo: m[2]!, number: Number(m[3]) };
}

/**
 * The pull request a web link names, read from its path alone (`…/<owner>/<repo>/pull/<n>`), so
 * that the tree can call it "Pull request #n: owner/repo". Only what these patterns allow is
 * taken from a link the service sent; any other link names no pull request.
 */
export function pullRequestOfLink(url: string): GitHubPullRequest | undefined {
  return pullRequestMatching(ANY_PR_LINK, url);
}

/** Whether `scheme` can be VS Code's own (vscode.env.uriScheme: vscode, vscode-insiders, code-oss…). */
function isAppScheme(scheme: string): boolean {
  return URI_SCHEME.test(scheme) && !WEB_SCHEMES.has(scheme);
}

/**
 * The URI that has the Pull Requests extension open `prUrl` in its pull request view. The link is
 * percent-encoded once as the `uri` query parameter; vscode.Uri.parse decodes it once, and the
 * extension's URLSearchParams reads it back unchanged.
 */
export function pullRequestsExtensionUri(uriScheme: string, prUrl: string): string {
  if (!isAppScheme(uriScheme)) throw new Error(`Not an application URI scheme: ${JSON.stringify(uriScheme)}`);
  if (!gitHubPullRequest(prUrl)) throw new Error('Not a github.com pull request link.');
  return `${uriScheme}://${PULL_REQUESTS_EXTENSION_ID}${HANDLER_PATH}?uri=${encodeURIComponent(prUrl)}`;
}

export type PullRequestTarget =
  | { kind: 'pullRequestsExtension'; uri: string }
  /** `missingExtension`: the setting asks for the extension, which is not there (say so). */
  | { kind: 'browser'; url: string; missingExtension: boolean };

export interface PullRequestTargetInput {
  url: string;
  setting: OpenPullRequestIn;
  extensionInstalled: boolean;
  /** vscode.env.uriScheme. */
  uriScheme: string;
}

/** Where `url` opens. Anything but a github.com pull request goes to the browser, silently. */
export function choosePullRequestTarget({ url, setting, extensionInstalled, uriScheme }: PullRequestTargetInput): PullRequestTarget {
  const browser = (missingExtension = false): PullRequestTarget => ({ kind: 'browser', url, missingExtension });
  if (setting === 'browser' || !gitHubPullRequest(url) || !isAppScheme(uriScheme)) return browser();
  if (!extensionInstalled) return browser(setting === 'pullRequestsExtension');
  return { kind: 'pullRequestsExtension', uri: pullRequestsExtensionUri(uriScheme, url) };
}
