/** Failures the server answers with an HTTP status and the OpenAI error body. */
import type { ZodError } from "zod";
import type { ApiError } from "./schema.js";

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error",
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }

  body(): ApiError {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }

  /** A 400 naming the first offending field of a failed zod parse (`messages.0.role`), and every issue in the message. */
  static fromZod(e: ZodError): ApiFailure {
    const path = (p: (string | number)[]) => p.map((k, i) => (typeof k === "number" ? `[${k}]` : i ? `.${k}` : k)).join("");
    const first = e.issues[0];
    const what = e.issues.map((i) => {
      const at = path(i.path);
      const unknown = i.code === "unrecognized_keys" ? `unrecognized request argument(s): ${i.keys.join(", ")}` : i.message;
      return at ? `'${at}': ${unknown}` : unknown;
    });
    const param = first ? (first.code === "unrecognized_keys" ? path([...first.path, first.keys[0]!]) : path(first.path)) || null : null;
    return new ApiFailure(400, `Invalid request: ${what.join("; ")}`, "invalid_request_error", param, first?.code === "unrecognized_keys" ? "unknown_parameter" : "invalid_value");
  }
}
