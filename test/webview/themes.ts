// The colours and fonts VS Code's Dark Modern and Light Modern themes hand a webview as CSS
// variables: the chat page is drawn with these, as in VS Code, for screenshots and contrast checks.
// The high-contrast sets are those of VS Code's Dark High Contrast and Light High Contrast (the
// defaults in src/vs/platform/theme/common/colors/*.ts, which hc_black.json and hc_light.json do
// not override), as code-server 4.100.3 (VS Code 1.100) and 4.139.1 define them. A token the theme
// leaves out (null there) is not in the set: VS Code passes no variable for it either.

export const DARK: Record<string, string> = {
  '--vscode-foreground': '#cccccc',
  '--vscode-sideBar-background': '#181818',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-input-background': '#313131',
  '--vscode-input-foreground': '#cccccc',
  '--vscode-input-border': '#3c3c3c',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
  '--vscode-textLink-foreground': '#4daafc',
  '--vscode-textCodeBlock-background': '#2b2b2b',
  '--vscode-editor-foreground': '#cccccc',
  '--vscode-textPreformat-foreground': '#d0d0d0',
  '--vscode-textPreformat-background': '#3c3c3c',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-widget-border': '#313131',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-editorWidget-background': '#202020',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-inputValidation-errorBackground': '#5a1d1d',
  '--vscode-inputValidation-errorBorder': '#be1100',
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': 'monospace',
};
export const LIGHT: Record<string, string> = {
  ...DARK,
  '--vscode-foreground': '#3b3b3b',
  '--vscode-sideBar-background': '#f8f8f8',
  '--vscode-editor-background': '#ffffff',
  '--vscode-input-background': '#ffffff',
  '--vscode-input-foreground': '#3b3b3b',
  '--vscode-input-border': '#cecece',
  '--vscode-button-secondaryBackground': '#e5e5e5',
  '--vscode-button-secondaryForeground': '#3b3b3b',
  '--vscode-textLink-foreground': '#005fb8',
  '--vscode-textCodeBlock-background': '#f0f0f0',
  '--vscode-editor-foreground': '#3b3b3b',
  '--vscode-textPreformat-foreground': '#3b3b3b',
  '--vscode-textPreformat-background': '#0000001f',
  '--vscode-badge-background': '#cccccc',
  '--vscode-badge-foreground': '#3b3b3b',
  '--vscode-widget-border': '#e5e5e5',
  '--vscode-descriptionForeground': '#717171',
  '--vscode-editorWidget-background': '#f8f8f8',
  '--vscode-inputValidation-errorBackground': '#f2dede',
  '--vscode-inputValidation-errorBorder': '#be1100',
};

/** Dark High Contrast in VS Code 1.139: white preformatted text, and no textPreformat.background. */
export const HC_DARK: Record<string, string> = {
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': 'monospace',
  '--vscode-foreground': '#ffffff',
  '--vscode-sideBar-background': '#000000',
  '--vscode-editor-background': '#000000',
  '--vscode-editor-foreground': '#ffffff',
  '--vscode-contrastBorder': '#6fc3df',
  '--vscode-contrastActiveBorder': '#f38518',
  '--vscode-focusBorder': '#f38518',
  '--vscode-textPreformat-foreground': '#ffffff',
  '--vscode-textPreformat-border': '#6fc3df',
  '--vscode-textCodeBlock-background': '#000000',
  '--vscode-textLink-foreground': '#21a6ff',
  '--vscode-textLink-activeForeground': '#21a6ff',
  '--vscode-textBlockQuote-border': '#ffffff',
  '--vscode-descriptionForeground': '#ffffffb3',
  '--vscode-icon-foreground': '#ffffff',
  '--vscode-button-background': '#000000',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-border': '#6fc3df',
  '--vscode-button-secondaryForeground': '#ffffff',
  '--vscode-badge-background': '#000000',
  '--vscode-badge-foreground': '#ffffff',
  '--vscode-input-background': '#000000',
  '--vscode-input-foreground': '#ffffff',
  '--vscode-input-border': '#6fc3df',
  '--vscode-input-placeholderForeground': '#ffffffb3',
  '--vscode-editorWidget-background': '#0c141f',
  '--vscode-widget-border': '#6fc3df',
  '--vscode-panel-border': '#6fc3df',
  '--vscode-editorCursor-foreground': '#ffffff',
  '--vscode-errorForeground': '#f48771',
  '--vscode-charts-green': '#89d185',
  '--vscode-inputValidation-errorBackground': '#000000',
  '--vscode-inputValidation-errorBorder': '#6fc3df',
  '--vscode-inputValidation-warningBackground': '#000000',
  '--vscode-inputValidation-warningBorder': '#6fc3df',
};

/** Dark High Contrast in VS Code 1.100: black preformatted text on white, no textPreformat.border. */
export const HC_DARK_1_100: Record<string, string> = {
  ...Object.fromEntries(Object.entries(HC_DARK).filter(([k]) => k !== '--vscode-textPreformat-border')),
  '--vscode-textPreformat-foreground': '#000000',
  '--vscode-textPreformat-background': '#ffffff',
};

/** Light High Contrast (the same in VS Code 1.100 and 1.139). */
export const HC_LIGHT: Record<string, string> = {
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': 'monospace',
  '--vscode-foreground': '#292929',
  '--vscode-sideBar-background': '#ffffff',
  '--vscode-editor-background': '#ffffff',
  '--vscode-editor-foreground': '#292929',
  '--vscode-contrastBorder': '#0f4a85',
  '--vscode-contrastActiveBorder': '#006bbd',
  '--vscode-focusBorder': '#006bbd',
  '--vscode-textPreformat-foreground': '#ffffff',
  '--vscode-textPreformat-background': '#09345f',
  '--vscode-textCodeBlock-background': '#f2f2f2',
  '--vscode-textLink-foreground': '#0f4a85',
  '--vscode-textLink-activeForeground': '#0f4a85',
  '--vscode-textBlockQuote-border': '#292929',
  '--vscode-descriptionForeground': '#292929b3',
  '--vscode-icon-foreground': '#292929',
  '--vscode-button-background': '#0f4a85',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-border': '#0f4a85',
  '--vscode-button-secondaryBackground': '#ffffff',
  '--vscode-button-secondaryForeground': '#292929',
  '--vscode-badge-background': '#0f4a85',
  '--vscode-badge-foreground': '#ffffff',
  '--vscode-input-background': '#ffffff',
  '--vscode-input-foreground': '#292929',
  '--vscode-input-border': '#0f4a85',
  '--vscode-input-placeholderForeground': '#292929b3',
  '--vscode-editorWidget-background': '#ffffff',
  '--vscode-widget-border': '#0f4a85',
  '--vscode-panel-border': '#0f4a85',
  '--vscode-editorCursor-foreground': '#0f4a85',
  '--vscode-errorForeground': '#b5200d',
  '--vscode-charts-green': '#374e06',
  '--vscode-inputValidation-errorBackground': '#ffffff',
  '--vscode-inputValidation-errorBorder': '#0f4a85',
  '--vscode-inputValidation-warningBackground': '#ffffff',
  '--vscode-inputValidation-warningBorder': '#0f4a85',
};

/**
 * What VS Code's webview frame adds to every page (pre/index.html) and that bears on colours and
 * links: its own `code` colours and link decoration, in a cascade layer under the page's styles.
 * A test puts it on the page (addWebviewDefaults) to see the page as VS Code shows it.
 */
export const WEBVIEW_DEFAULTS = `@layer vscode-default {
  body { color: var(--vscode-editor-foreground); }
  a, a code { color: var(--vscode-textLink-foreground); }
  p > a { text-decoration: var(--text-link-decoration); }
  code { color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); }
}`;
