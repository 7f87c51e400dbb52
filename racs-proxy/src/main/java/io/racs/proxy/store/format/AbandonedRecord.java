package io.racs.proxy.store.format;

/**
 * The mark that an upload is over: aborted or completed by its client, or abandoned by {@link
 * io.racs.proxy.store.heal.AbandonedUploads}. It is written (as {@code <upload record>-gone}) on a
 * write quorum before the upload record is deleted, and counts as a version's removal record does
 * ({@link io.racs.proxy.store.object.MultipartUploads#markCounts}): while it counts, the upload is
 * gone however many copies of its records a repository that missed their deletion kept, and heal
 * does not copy those back. It stays until it is older than the GC grace and every repository has
 * proved the upload's records gone ({@link
 * io.racs.proxy.store.object.MultipartUploads#collectAbandoned}).
 */
public record AbandonedRecord(String bucket, String key, String uploadId, long abandonedMillis) {}
