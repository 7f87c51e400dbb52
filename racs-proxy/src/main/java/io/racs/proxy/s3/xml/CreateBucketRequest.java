package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.error.S3Exception;
import java.util.Optional;

/** The body of a CreateBucket request ({@code CreateBucketConfiguration}). Thread-safe. */
public final class CreateBucketRequest {
  private CreateBucketRequest() {}

  /**
   * The {@code LocationConstraint} of a CreateBucket body; empty for an empty body or element.
   *
   * @throws S3Exception {@code MalformedXML} for a bad document
   */
  public static Optional<String> parse(byte[] body) {
    if (SafeXmlParser.isBlank(body)) {
      return Optional.empty();
    }
    String location =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.SMALL_MAX_BODY_BYTES,
            "CreateBucketConfiguration",
            r -> {
              String l = null;
              while (nextChild(r)) {
                if (r.getLocalName().equals("LocationConstraint")) {
                  l = r.getElementText().strip();
                } else {
                  skip(r);
                }
              }
              return l;
            });
    return location == null || location.isEmpty() ? Optional.empty() : Optional.of(location);
  }
}
