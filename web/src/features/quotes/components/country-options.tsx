import { quoteCountries } from '@forgeline/site-config/countries';

/** The country <select>'s options of the quote dialog and the no-JavaScript quote form: the name is the value. */
export function CountryOptions() {
  return (
    <>
      <option value="">Select your country</option>
      {quoteCountries.map((c) => (
        <option key={c.code} value={c.name}>
          {c.name} ({c.dialCode})
        </option>
      ))}
    </>
  );
}
