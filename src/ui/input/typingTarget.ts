/** Whether a key or paste event lands in a text field (which handles its own keys and paste). */
export function isTypingTarget(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return (
    t.isContentEditable ||
    t.tagName === 'TEXTAREA' ||
    t.tagName === 'SELECT' ||
    (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox')
  );
}
