// Types for chromium.mjs.
import type { Browser } from 'playwright-core';

export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function launchChromium(extraArgs?: readonly string[]): Promise<Browser>;
