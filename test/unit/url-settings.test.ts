import * as assert from 'node:assert/strict';
import { hasUserInfo } from '../../src/api/url';
import { settingsWithUserInfo } from '../../src/host/vscode/urlUserInfo';

// Issue 27: a user name or password in an address setting is refused, with a message that names
// the setting (src/host/vscode/urlSettingsGuard.ts, run in the integration suite); here, which settings.

const clean = {
  baseUrl: 'https://api.example.com',
  docsSiteUrl: 'https://docs.example.com',
  mcpServerUrl: 'https://docs.example.com/mcp',
  imageOrigins: ['https://img.example.com'],
};

describe('address settings with a user name or password', () => {
  it('hasUserInfo: a name, a password or a bare @ before the host, parsed or not', () => {
    // `+` holds user info, `-` does not.
    const cases = `
      + https://alice@docs.example.com
      + https://alice:hunter2@docs.example.com/mcp
      + https://:pw@docs.example.com
      + https://@docs.example.com
      + http://u:p@127.0.0.1:3000
      + https://a b@docs.example.com
      + HTTPS://U@H.EXAMPLE
      - https://docs.example.com
      - https://docs.example.com/a@b
      - https://docs.example.com/?to=a@b
      - https://docs.example.com#a@b
      - not a url
      - acme`;
    for (const line of cases.trim().split('\n')) {
      const [, sign, raw] = /^\s*([+-]) (.*)$/.exec(line)!;
      assert.equal(hasUserInfo(` ${raw!} `), sign === '+', raw);
    }
    assert.equal(hasUserInfo(''), false);
  });

  it('names each setting that holds one, and none when they are clean', () => {
    assert.deepEqual(settingsWithUserInfo(clean), []);
    assert.deepEqual(
      settingsWithUserInfo({
        baseUrl: 'https://k:svc_x@api.example.com',
        docsSiteUrl: 'https://u@docs.example.com',
        mcpServerUrl: 'https://alice:hunter2@docs.example.com/mcp',
        imageOrigins: ['https://img.example.com', 'https://u:p@cdn.example.com'],
      }),
      ['baseUrl', 'docsSiteUrl', 'mcpServerUrl', 'chat.imageOrigins'],
    );
    assert.deepEqual(settingsWithUserInfo({ ...clean, mcpServerUrl: 'https://tok@docs.example.com/mcp' }), ['mcpServerUrl']);
  });
});
