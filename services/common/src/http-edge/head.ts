import type { IncomingMessage } from 'node:http';

/**
 * The method a route table matches: HEAD is answered by GET's route, a request without a method
 * as GET. The answer is GET's (status, headers, Content-Length) without the body: `bodyFor`.
 */
export function routeMethod(request: IncomingMessage): string {
  const method = request.method;
  return method === 'HEAD' || method === undefined ? 'GET' : method;
}

/** The body to end an answer with: none for HEAD, whose headers still describe GET's body. */
export function bodyFor<B>(request: IncomingMessage, body: B): B | undefined {
  return request.method === 'HEAD' ? undefined : body;
}
