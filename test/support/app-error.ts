import { AppError } from "../../lib/errors";

/** The AppError code `fn` throws: "no error" when it returns, a description of anything else it throws. */
export const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : `not an AppError: ${String(error)}`;
  }
  return "no error";
};

/** The AppError code `promise` rejects with: "no error" when it resolves. */
export const asyncCode = async (promise: Promise<unknown>) =>
  promise.then(
    () => "no error",
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );
