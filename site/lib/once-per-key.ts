// Build-time work shared by every page that asks for it: each key's promise is made once per
// build (the build is one process) and handed to every later caller, a failed one too, which
// fails the build anyway.
export function oncePerKey() {
  const made = new Map<string, Promise<unknown>>();
  return <T>(key: string, make: () => Promise<T>): Promise<T> => {
    let out = made.get(key) as Promise<T> | undefined;
    if (!out) made.set(key, (out = make()));
    return out;
  };
}
