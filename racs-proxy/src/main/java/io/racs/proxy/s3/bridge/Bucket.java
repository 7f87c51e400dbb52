package io.racs.proxy.s3.bridge;

import java.time.Instant;

/** A bucket, as ListBuckets answers with it. */
public record Bucket(String name, Instant created) {}
