import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import type { AppError, ErrorDetail } from "../errors";

export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
};

const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function successResponse(data: unknown, statusCode = 200): HttpResult {
  return jsonResponse(statusCode, { success: true, data });
}

export function errorResponse(error: AppError, requestId?: string): HttpResult {
  const body: { code: string; message: string; details?: ErrorDetail[]; requestId?: string } = {
    code: error.code,
    message: error.message,
  };
  if (error.details?.length) body.details = error.details;
  if (error.status >= 500 && requestId) body.requestId = requestId;
  return jsonResponse(error.status, { success: false, error: body }, error.headers);
}

/** A handler result that is sent as it is (a redirect, a non-envelope body). */
export class RawResponse {
  constructor(readonly result: HttpResult) {}
}
