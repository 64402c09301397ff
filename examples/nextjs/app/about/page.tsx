export default function About() {
  return (
    <p>
      Family dentistry since 1987. Book a visit:{' '}
      <a id="call" href="tel:+14155550100" suppressHydrationWarning>
        (415) 555-0100
      </a>
    </p>
  );
}
