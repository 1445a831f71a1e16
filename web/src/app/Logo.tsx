/** The Pipework mark: three steps joined by a pipe. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <rect width="28" height="28" rx="7" fill="#2563eb" />
      <path
        d="M7 9h6v4h8v6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="7" cy="9" r="2.2" fill="#fff" />
      <circle cx="13" cy="13" r="2.2" fill="#fff" />
      <circle cx="21" cy="19" r="2.2" fill="#fff" />
    </svg>
  );
}
