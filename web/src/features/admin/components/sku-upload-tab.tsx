/**
 * SKU Image Uploader: images (or a .zip) for one SKU and product name, sent to
 * POST /api/admin/upload-individual-sku, then POST /api/admin/process-sku-images. The uploader comes with
 * the media feature; use `useAdminSession().adminFetch` for its calls so a 401 returns to the login screen.
 */
export default function SkuUploadTab() {
  return (
    <section aria-labelledby="sku-upload-h" className="space-y-3">
      <h2 id="sku-upload-h" className="font-display text-2xl font-bold uppercase">
        SKU Image Uploader
      </h2>
      <p className="max-w-2xl text-sm text-steel">Upload images for one SKU: choose images or a .zip and name the product.</p>
    </section>
  );
}
