import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive action asked twice: the first press shows the question with the action's own button (same name)
 * and Cancel, focus on Cancel; Escape or Cancel goes back. No window.confirm: the page stays in one document.
 */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  busy = false,
  describedBy,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
  describedBy?: string;
}) {
  const [asking, setAsking] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
    else if (wasAsking.current) triggerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button ref={triggerRef} type="button" class="danger" onClick={() => setAsking(true)} disabled={busy} aria-describedby={describedBy}>
        {label}
      </button>
    );
  }
  return (
    <div
      class="confirm"
      role="alertdialog"
      aria-label={question}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setAsking(false);
      }}
    >
      <p>{question}</p>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {label}
      </button>
      <button ref={cancelRef} type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  );
}
