package io.racs.proxy.s3.bridge;

import java.util.List;

/** A multipart upload and its parts uploaded so far, by number, as ListParts answers with them. */
public record PartListing(MultipartUpload upload, List<UploadedPart> parts) {
  /** Copies the parts. */
  public PartListing {
    parts = List.copyOf(parts);
  }
}
