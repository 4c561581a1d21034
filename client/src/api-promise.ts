import { AvatarVideoError } from "./errors.js";

/** A call's resource with the HTTP answer it came in. */
export interface WithResponse<T> {
  data: T;
  /** The final answer, after any retries: status and headers (its body is already read into `data`). */
  response: Response;
  /** The answer's X-Request-ID. */
  requestId: string | undefined;
}

/**
 * What every single-resource call returns: awaited, the resource; `.withResponse()` resolves with the resource
 * and the HTTP answer, for its headers (X-Request-ID, RateLimit-*). The request is sent once either way.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #answered: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(answered: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#answered = answered;
  }

  withResponse(): Promise<WithResponse<T>> {
    return this.#answered;
  }

  #result(): Promise<T> {
    this.#data ??= this.#answered.then((answer) => answer.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: it is a promise; awaiting it reads the resource
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature, so `.catch((e) => e.code)` reads as usual
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result().then(onFulfilled, onRejected);
  }

  // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature
  override catch<B = never>(onRejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#result().catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#result().finally(onFinally);
  }
}

/** An openapi-fetch call as an ApiPromise: `pick` of its data, or the AvatarVideoError of its non-2xx answer. */
export function request<D, T = D>(
  call: Promise<{ data?: D; error?: unknown; response: Response }>,
  pick: (data: D) => T = (data) => data as unknown as T,
): ApiPromise<T> {
  return new ApiPromise(
    call.then(({ data, error, response }) => {
      if (!response.ok) throw AvatarVideoError.fromResponse(response, error);
      return { data: pick(data as D), response, requestId: response.headers.get("X-Request-ID") ?? undefined };
    }),
  );
}
