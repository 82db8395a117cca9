/** A small spinning circle; decorative (the surrounding text says what is loading). */
export function Spinner({ size = 18 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}

/** A loading state with words: never a blank area while waiting. */
export function Loading({ label = 'Loading…', inline }: { label?: string; inline?: boolean }) {
  return (
    <div className={inline ? 'loading loading-inline' : 'loading'} role="status">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}
