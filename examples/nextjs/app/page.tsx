import { LateNumber } from './late-number';

// suppressHydrationWarning on each element holding the number: the swap script
// may change it before React hydrates, which React would otherwise report as a
// hydration error (and re-render the page with the default number).
export default function Home() {
  return (
    <>
      <p>New patients welcome; same-day emergency appointments.</p>
      <p style={{ fontSize: 28, fontWeight: 600 }}>
        <a id="call" href="tel:+14155550100" suppressHydrationWarning>
          (415) 555-0100
        </a>
      </p>
      <p>
        Front desk:{' '}
        <span id="dashes" suppressHydrationWarning>
          415-555-0100
        </span>
        . Billing:{' '}
        <span id="dots" suppressHydrationWarning>
          415.555.0100
        </span>
        . From abroad:{' '}
        <span id="intl" suppressHydrationWarning>
          +1 415 555 0100
        </span>
        .
      </p>
      <LateNumber />
    </>
  );
}
