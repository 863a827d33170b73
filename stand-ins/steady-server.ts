// Every stand-in's HTTP server. Node closes an idle keep-alive connection after 5 s; a client
// whose event loop is busy (a test run on two cores, workerd under a burst) may send its next
// request on that connection just as it closes, and gets "other side closed" or "Network
// connection lost": a fault of the test machine, not of the app. Real APIs keep connections for a
// minute or more, so the stand-ins do too.
import { createServer, type RequestListener, type Server } from 'node:http';

const KEEP_ALIVE_MS = 65_000;

export function steadyServer(handler: RequestListener): Server {
  const server = createServer(handler);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Must exceed the keep-alive timeout, or Node closes a connection between two requests first.
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  return server;
}
