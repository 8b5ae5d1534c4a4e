// A sample source file: select these lines and ask the docs about them.
export interface RelayOptions {
  connectTimeout?: number;
  idleTimeout?: number;
  maxRetries?: number;
}

export function withDefaults(options: RelayOptions = {}): Required<RelayOptions> {
  return {
    connectTimeout: options.connectTimeout ?? 30_000,
    idleTimeout: options.idleTimeout ?? 60_000,
    maxRetries: options.maxRetries ?? 3,
  };
}
