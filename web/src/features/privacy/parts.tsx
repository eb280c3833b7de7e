import { useState } from "react";
import { ApiError } from "../../api/client";
import { FormError, TextField } from "../../components/ui/field";

/** The address a request is about, and the API's refusal of it (shown beside it until it changes). */
export function useAddressField() {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  return {
    value,
    error,
    setError,
    /** Shows the API's refusal of the address beside the field; true when `error` was one. */
    refuses: (error: unknown) => {
      const message = error instanceof ApiError ? error.field("email") : undefined;
      if (message !== undefined) setError(message);
      return message !== undefined;
    },
    change: (next: string) => {
      setValue(next);
      setError(undefined);
    },
  };
}

export function AddressField({
  label,
  field,
  disabled,
}: {
  label: string;
  field: ReturnType<typeof useAddressField>;
  disabled: boolean;
}) {
  return (
    <TextField
      label={label}
      type="email"
      value={field.value}
      onChange={(e) => field.change(e.target.value)}
      error={field.error}
      disabled={disabled}
      autoComplete="off"
    />
  );
}

/** Where a request that pages stands, in words screen readers hear as they change; a bar while it runs. */
export function RequestStatus({
  busy,
  busyLabel,
  text,
  error,
}: {
  busy: boolean;
  busyLabel: string;
  text: string;
  error?: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-2">
      {busy && <progress aria-label={busyLabel} className="w-full" />}
      <p role="status" className="text-sm font-medium">
        {text}
      </p>
      <FormError message={error} />
    </div>
  );
}
