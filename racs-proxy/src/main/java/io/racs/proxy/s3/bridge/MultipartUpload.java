package io.racs.proxy.s3.bridge;

import java.time.Instant;

/** A multipart upload in progress, as ListMultipartUploads answers with it. */
public record MultipartUpload(String key, String uploadId, Instant initiated) {}
