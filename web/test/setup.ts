/**
 * Set-up of the web component tests (vitest project "web", jsdom): the jest-dom matchers, the MSW server's life
 * cycle, and a clean page (DOM, storage) after every test.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './msw-server.ts';

// What jsdom does not implement and the components call: scrolling (the header search keeps its highlighted option
// in view; the quote list page scrolls to the top after sending).
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

// Uploads (a parts list, a catalogue file) go out as FormData. jsdom's FormData, File and Blob do not survive Node's
// fetch, which MSW answers (the file arrives as "blob" with no content); a browser's do. So the tests use Node's own
// classes, which behave as the browser's.
// React reads a submitted form with `new FormData(form, submitter)`: that still goes through jsdom's.
const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
const JsdomFormData = window.FormData;
class BrowserFormData extends NodeFormData {
  constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
    super();
    if (!form) return;
    for (const [name, value] of new JsdomFormData(form, submitter)) {
      if (typeof value === 'string') this.append(name, value);
      else if (value instanceof NodeBlob) this.append(name, value as Blob);
    }
  }
}
Object.assign(globalThis, { FormData: BrowserFormData, File: NodeFile, Blob: NodeBlob });

// findBy… and waitFor wait for the page to get there, not for a deadline: their default second was a clock the test
// raced (a lazy screen's first render under a CI machine's load took longer once). Ten seconds only bounds a hang.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());
