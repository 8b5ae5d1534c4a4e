import * as assert from 'node:assert/strict';
import {
  choosePullRequestTarget,
  gitHubPullRequest,
  openPullRequestInOf,
  pullRequestOfLink,
  pullRequestsExtensionUri,
  PULL_REQUESTS_EXTENSION_ID,
} from '../../src/agent/core/pullRequestLink';

// Where a finished job's pull request opens (issue 19): in the GitHub Pull Requests extension
// through its URI handler, or in the browser. Only a plain github.com pull request link may go to
// the extension; everything else goes to the browser, whatever the setting says.

const PR = 'https://github.com/acme/acme-docs/pull/42';
const EXT_URI = `vscode://GitHub.vscode-pull-request-github/open-pull-request-webview?uri=https%3A%2F%2Fgithub.com%2Facme%2Facme-docs%2Fpull%2F42`;

describe('pull request links: which are github.com pull requests', () => {
  it('reads owner, repository and number of a github.com pull request', () => {
    assert.deepEqual(gitHubPullRequest(PR), { owner: 'acme', repo: 'acme-docs', number: 42 });
    assert.deepEqual(gitHubPullRequest('https://github.com/my-org/my.awesome_repo/pull/7'), { owner: 'my-org', repo: 'my.awesome_repo', number: 7 });
  });

  const notPullRequests: [string, string][] = [
    ['lookalike host', 'https://github.com.evil.example/acme/acme-docs/pull/42'],
    ['host ending in github.com', 'https://notgithub.com/acme/acme-docs/pull/42'],
    ['subdomain', 'https://www.github.com/acme/acme-docs/pull/42'],
    ['enterprise host', 'https://github.acme.example/acme/acme-docs/pull/42'],
    ['GitHub Enterprise Cloud data residency', 'https://acme.ghe.com/acme/acme-docs/pull/42'],
    ['user info', 'https://user@github.com/acme/acme-docs/pull/42'],
    ['user info hiding the real host', 'https://github.com@evil.example/acme/acme-docs/pull/42'],
    ['user and password', 'https://u:p@github.com/acme/acme-docs/pull/42'],
    ['port', 'https://github.com:443/acme/acme-docs/pull/42'],
    ['plain http', 'http://github.com/acme/acme-docs/pull/42'],
    ['upper-case host', 'https://GITHUB.COM/acme/acme-docs/pull/42'],
    ['issue', 'https://github.com/acme/acme-docs/issues/42'],
    ['repository', 'https://github.com/acme/acme-docs'],
    ['pull request list', 'https://github.com/acme/acme-docs/pulls'],
    ['pull request files', 'https://github.com/acme/acme-docs/pull/42/files'],
    ['trailing slash', 'https://github.com/acme/acme-docs/pull/42/'],
    ['query', 'https://github.com/acme/acme-docs/pull/42?diff=split'],
    ['fragment', 'https://github.com/acme/acme-docs/pull/42#discussion_r1'],
    ['non-numeric number', 'https://github.com/acme/acme-docs/pull/abc'],
    ['number zero', 'https://github.com/acme/acme-docs/pull/0'],
    ['leading zero', 'https://github.com/acme/acme-docs/pull/042'],
    ['absurdly long number', 'https://github.com/acme/acme-docs/pull/12345678901234567890'],
    ['missing owner', 'https://github.com//acme-docs/pull/42'],
    ['dot-dot repository', 'https://github.com/acme/../pull/42'],
    ['dot repository', 'https://github.com/acme/./pull/42'],
    ['owner starting with a hyphen', 'https://github.com/-acme/acme-docs/pull/42'],
    ['percent-encoded path', 'https://github.com/acme/acme%2Fdocs/pull/42'],
    ['encoded slash before pull', 'https://github.com/acme/acme-docs%2Fpull/42'],
    ['backslash', 'https://github.com\\@evil.example/acme/acme-docs/pull/42'],
    ['whitespace', ' https://github.com/acme/acme-docs/pull/42'],
    ['newline', 'https://github.com/acme/acme-docs/pull/42\n'],
    ['javascript', 'javascript:alert(1)//github.com/acme/acme-docs/pull/42'],
    ['emulator link', 'http://127.0.0.1:5000/pr/acme/acme-docs/pull/1'],
  ];
  for (const [what, url] of notPullRequests) {
    it(`is not one: ${what}`, () => assert.equal(gitHubPullRequest(url), undefined, url));
  }
});

describe('pull request links: what a link is named in the tree (issue 29)', () => {
  it('reads the number and repository of any web host that ends in /<owner>/<repo>/pull/<n>', () => {
    assert.deepEqual(pullRequestOfLink(PR), { owner: 'acme', repo: 'acme-docs', number: 42 });
    assert.deepEqual(pullRequestOfLink('https://github.acme.example/acme/acme-docs/pull/42/'), { owner: 'acme', repo: 'acme-docs', number: 42 });
    // The emulator serves its pull requests under /pr/<owner>/<repo>/pull/<n>.
    assert.deepEqual(pullRequestOfLink('http://127.0.0.1:3000/pr/acme/acme-docs/pull/3'), { owner: 'acme', repo: 'acme-docs', number: 3 });
  });
  it('names nothing from a link of another shape, a scheme other than the web, user info, a query or odd parts', () => {
    for (const url of [
      'https://github.com/acme/acme-docs/issues/42',
      'https://github.com/acme/acme-docs/pull/0',
      'https://github.com/acme/acme-docs/pull/42?x=1',
      'https://github.com/acme/acme-docs/pull/42#top',
      'https://github.com@evil.example/acme/acme-docs/pull/42',
      'javascript:alert(1)//github.com/acme/acme-docs/pull/42',
      'https://github.com/acme/../pull/42',
      'https://github.com/acme/<b>x</b>/pull/42',
      'https://github.com/ac me/acme-docs/pull/42',
    ])
      assert.equal(pullRequestOfLink(url), undefined, url);
  });
});

describe('pull request links: the Pull Requests extension URI', () => {
  it('is the extension handler path with the pull request encoded as its uri query', () => {
    assert.equal(pullRequestsExtensionUri('vscode', PR), EXT_URI);
    assert.equal(
      pullRequestsExtensionUri('vscode-insiders', PR),
      'vscode-insiders://GitHub.vscode-pull-request-github/open-pull-request-webview?uri=https%3A%2F%2Fgithub.com%2Facme%2Facme-docs%2Fpull%2F42',
    );
    assert.equal(PULL_REQUESTS_EXTENSION_ID, 'GitHub.vscode-pull-request-github');
  });

  it('decodes back to exactly the pull request, as the extension reads it (URLSearchParams of the query)', () => {
    const built = new URL(pullRequestsExtensionUri('code-oss', PR));
    assert.equal(built.protocol, 'code-oss:');
    assert.equal(built.host.toLowerCase(), 'github.vscode-pull-request-github');
    assert.equal(built.pathname, '/open-pull-request-webview');
    assert.deepEqual([...new URLSearchParams(built.search.slice(1))], [['uri', PR]]);
  });

  it('refuses to build one for anything but a github.com pull request, or with an odd scheme', () => {
    assert.throws(() => pullRequestsExtensionUri('vscode', 'https://github.com.evil.example/a/b/pull/1'));
    assert.throws(() => pullRequestsExtensionUri('https', PR));
    assert.throws(() => pullRequestsExtensionUri('vscode://evil', PR));
    assert.throws(() => pullRequestsExtensionUri('', PR));
  });
});

describe('pull request links: the setting', () => {
  it('is auto unless it names one of the other two', () => {
    assert.equal(openPullRequestInOf(undefined), 'auto');
    assert.equal(openPullRequestInOf('auto'), 'auto');
    assert.equal(openPullRequestInOf('browser'), 'browser');
    assert.equal(openPullRequestInOf('pullRequestsExtension'), 'pullRequestsExtension');
    assert.equal(openPullRequestInOf('PullRequestsExtension'), 'auto');
    assert.equal(openPullRequestInOf(42), 'auto');
  });
});

describe('pull request links: where a link opens', () => {
  const ext = { kind: 'pullRequestsExtension', uri: EXT_URI } as const;
  const browser = (url: string, missingExtension = false) => ({ kind: 'browser', url, missingExtension });
  const choose = (url: string, setting: 'auto' | 'pullRequestsExtension' | 'browser', installed: boolean) =>
    choosePullRequestTarget({ url, setting, extensionInstalled: installed, uriScheme: 'vscode' });

  it('auto: the extension when it is installed, else the browser, without a word', () => {
    assert.deepEqual(choose(PR, 'auto', true), ext);
    assert.deepEqual(choose(PR, 'auto', false), browser(PR));
  });

  it('pullRequestsExtension: the extension; when it is missing, the browser, and says so', () => {
    assert.deepEqual(choose(PR, 'pullRequestsExtension', true), ext);
    assert.deepEqual(choose(PR, 'pullRequestsExtension', false), browser(PR, true));
  });

  it('browser: always the browser', () => {
    assert.deepEqual(choose(PR, 'browser', true), browser(PR));
    assert.deepEqual(choose(PR, 'browser', false), browser(PR));
  });

  it('a link that is not a github.com pull request goes to the browser whatever the setting, and nothing is said', () => {
    for (const url of [
      'https://github.com.evil.example/acme/acme-docs/pull/42',
      'https://github.acme.example/acme/acme-docs/pull/42',
      'http://127.0.0.1:5000/pr/acme/acme-docs/pull/1',
    ]) {
      for (const setting of ['auto', 'pullRequestsExtension', 'browser'] as const) {
        for (const installed of [true, false]) assert.deepEqual(choose(url, setting, installed), browser(url), `${url} ${setting} ${installed}`);
      }
    }
  });

  it('an odd uriScheme falls back to the browser rather than building a link to somewhere else', () => {
    assert.deepEqual(choosePullRequestTarget({ url: PR, setting: 'pullRequestsExtension', extensionInstalled: true, uriScheme: 'https' }), browser(PR));
    assert.deepEqual(choosePullRequestTarget({ url: PR, setting: 'auto', extensionInstalled: true, uriScheme: '' }), browser(PR));
  });
});
