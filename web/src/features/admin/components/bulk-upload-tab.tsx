/**
 * Bulk Upload: one .zip holding a folder per SKU with its images, sent to POST /api/admin/upload-bulk-zip.
 * The uploader comes with the media feature; use `useAdminSession().adminFetch` for its calls.
 */
export default function BulkUploadTab() {
  return (
    <section aria-labelledby="bulk-upload-h" className="space-y-3">
      <h2 id="bulk-upload-h" className="font-display text-2xl font-bold uppercase">
        Bulk Upload
      </h2>
      <p className="max-w-2xl text-sm text-steel">
        Upload a .zip holding one folder per SKU, each with that SKU&apos;s images inside.
      </p>
    </section>
  );
}
