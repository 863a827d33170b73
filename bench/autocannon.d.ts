// The part of autocannon 9's API the load generator uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    type Options = {
      url: string;
      connections?: number;
      duration?: number;
      overallRate?: number;
      headers?: Record<string, string>;
    };
    type Result = {
      requests: { total: number; average: number };
      throughput: { total: number };
      non2xx: number;
      errors: number;
      timeouts: number;
      /** Seconds the run lasted. */
      duration: number;
    };
    type Instance = {
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void,
      ): Instance;
    };
  }
  function autocannon(
    opts: autocannon.Options,
    done: (err: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  export default autocannon;
}
