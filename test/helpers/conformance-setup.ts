/**
 * Setup file of the HTTP suites: a test fails when an answer it caused (or that its file's
 * `beforeAll` caused) does not match the published OpenAPI document (conformance.ts).
 */
import { afterAll, afterEach } from 'vitest';
import { formatViolations, takeViolations } from './conformance.js';

function failOnViolations(): void {
  const v = takeViolations();
  if (v.length > 0) throw new Error(formatViolations(v));
}

afterEach(failOnViolations);
afterAll(failOnViolations);
