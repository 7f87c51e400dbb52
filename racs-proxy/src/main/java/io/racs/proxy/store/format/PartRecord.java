package io.racs.proxy.store.format;

/**
 * The record of one uploaded part of a multipart upload, as it lies on the repositories: the part's
 * layout and when it was uploaded (the collector and heal read it to find abandoned parts' shards).
 */
public record PartRecord(PartMeta part, long uploadedMillis) {}
