// Why a form of the public site did not go through: read out at once (role="alert"), shown only
// while there is something to say.

export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p className="alert" role="alert">
      {message}
    </p>
  ) : null;
}
