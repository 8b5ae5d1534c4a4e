export declare const CODE_SERVER_VERSION: string;
export declare const INSTALL_DIR: string;
export declare const CODE_SERVER_BIN: string;
export declare const CODE_SERVER_CONFIG: string;
export declare function isCodeServerReady(): boolean;
export declare function ensureCodeServer(): string;
export declare function codeServerVersion(): string | undefined;
export declare const CURRENT_CODE_SERVER_VERSION: string;
export declare const NODE_24_VERSION: string;
export declare const NODE_24_DIR: string;
export declare const NODE_24_BIN: string;
export declare const CURRENT_INSTALL_DIR: string;
export declare const CURRENT_CODE_SERVER_BIN: string;
export declare const CURRENT_CODE_SERVER_CONFIG: string;
export declare const CODE_SERVER_VERSIONS: string[];
export declare const CODE_SERVER_ENV: string;
export declare function ensureNode24(): string;
export declare function isCurrentCodeServerReady(): boolean;
export declare function ensureCurrentCodeServer(): string;
export declare function selectedCodeServerVersion(env?: NodeJS.ProcessEnv): string;
export interface CodeServerTarget {
  version: string;
  /** Launcher: an executable that takes code-server's arguments. */
  bin: string;
  config: string;
  /** What `--version` printed when it was installed. */
  printed: string | undefined;
  /** Extra arguments for a run whose workbench `payload` names extensionDevelopmentPath/extensionTestsPath. */
  extensionTestArgs: string[];
}
export declare function ensureCodeServerTarget(version?: string): CodeServerTarget;
