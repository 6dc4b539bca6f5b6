/**
 * The Pusoy Dos API for TypeScript apps (React Native, the web, Node): openapi-fetch over
 * the types openapi-typescript writes from the server's OpenAPI schema (`schema.ts`,
 * generated: never edit it). Paths, parameters, bodies and answers are all checked by the
 * compiler against the schema. This file adds only what every app needs and a schema
 * cannot say: the bearer token on each request, and error answers as exceptions that
 * carry the envelope's stable `code`.
 */
import createClient, { type Client } from "openapi-fetch";

import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** Every shape of the schema by name: `Schemas["PlayerState"]`, `Schemas["Move"]`, ... */
export type Schemas = components["schemas"];

/** The body of every error answer (`{"error": {...}}`); docs/api.md lists the codes. */
export type ErrorBody = Schemas["ErrorBody"];

export type PusoyClient = Client<paths>;

export interface PusoyClientOptions {
  /** The server's origin, e.g. "https://pusoy.example.com"; every path starts /api/v1/. */
  baseUrl: string;
  /**
   * The token from `auth/register` or `auth/token`. A function is asked before every
   * request, so one client can outlive a log-in or a log-out.
   */
  token?: string | (() => string | null | undefined);
  /** Another fetch (a test double, one with a timeout); the platform's by default. */
  fetch?: (request: Request) => Promise<Response>;
}

export function createPusoyClient(options: PusoyClientOptions): PusoyClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use({
    onRequest({ request }) {
      const token = typeof options.token === "function" ? options.token() : options.token;
      if (token) {
        request.headers.set("Authorization", `Bearer ${token}`);
      }
      return request;
    },
  });
  return client;
}

/**
 * An answer outside 2xx. Switch on `code` (stable, snake_case), never on `message`
 * (for people; it may change). A body that is not the API's envelope (a proxy's 502
 * page) has the code `unexpected_response`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorBody["details"];
  readonly response: Response;

  constructor(response: Response, body: ErrorBody) {
    super(`${response.status} ${body.code}: ${body.message}`);
    this.name = "ApiError";
    this.status = response.status;
    this.code = body.code;
    this.details = body.details;
    this.response = response;
  }

  /** Seconds to wait before retrying a 429 or a 503 (their `Retry-After`), if given. */
  get retryAfter(): number | undefined {
    const seconds = Number(this.response.headers.get("Retry-After"));
    return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  }
}

function isEnvelope(value: unknown): value is { error: ErrorBody } {
  const body = (value as { error?: Partial<ErrorBody> } | null)?.error;
  return typeof body === "object" && body !== null && typeof body.code === "string";
}

/**
 * The data of a 2xx answer; any other answer throws an ApiError.
 *
 *     const state = await unwrap(api.GET("/api/v1/games/{game_id}/state", {
 *       params: { path: { game_id } },
 *     }));
 */
export async function unwrap<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) {
    return data as T;
  }
  throw new ApiError(
    response,
    isEnvelope(error)
      ? error.error
      : {
          code: "unexpected_response",
          message: `${response.status} ${response.statusText}, not the API's error envelope`,
          details: { body: error },
        },
  );
}
