import { LateNumber } from './late-number';

export default function Home() {
  return (
    <>
      <p>New patients welcome; same-day emergency appointments.</p>
      <p style={{ fontSize: 28, fontWeight: 600 }}>
        <a id="call" href="tel:+14155550100">
          (415) 555-0100
        </a>
      </p>
      <p>
        Front desk: <span id="dashes">415-555-0100</span>. Billing:{' '}
        <span id="dots">415.555.0100</span>. From abroad: <span id="intl">+1 415 555 0100</span>.
      </p>
      <LateNumber />
    </>
  );
}
