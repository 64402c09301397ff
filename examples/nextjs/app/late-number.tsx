'use client';
import { useState } from 'react';

/** Content rendered after load, as client-side navigation does: the swap script follows it. */
export function LateNumber() {
  const [open, setOpen] = useState(false);
  return open ? (
    <p>
      After hours:{' '}
      <a id="late-call" href="tel:+14155550100">
        415.555.0100
      </a>
    </p>
  ) : (
    <button id="more" type="button" onClick={() => setOpen(true)}>
      After hours
    </button>
  );
}
