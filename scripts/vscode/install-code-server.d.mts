export declare const CODE_SERVER_VERSION: string;
export declare const INSTALL_DIR: string;
export declare const CODE_SERVER_BIN: string;
export declare const CODE_SERVER_CONFIG: string;
export declare function isCodeServerReady(): boolean;
export declare function ensureCodeServer(): string;
export declare function codeServerVersion(): string | undefined;
