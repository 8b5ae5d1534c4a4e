export declare function writeFileAtomically(file: string, text: string): void;
