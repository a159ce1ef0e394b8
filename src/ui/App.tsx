/** Placeholder shell; the inspector page replaces it. */
export function App() {
  return (
    <main>
      <h1>Transcript Inspector</h1>
    </main>
  );
}
