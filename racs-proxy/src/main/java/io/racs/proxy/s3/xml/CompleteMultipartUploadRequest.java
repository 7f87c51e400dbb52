package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.XmlModel.CompletedPart;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The body of a CompleteMultipartUpload request: the parts to join, in order. Thread-safe. */
public final class CompleteMultipartUploadRequest {
  /** The most parts of a multipart upload. */
  public static final int MAX_PARTS = 10_000;

  private CompleteMultipartUploadRequest() {}

  /**
   * The parts of a CompleteMultipartUpload body, in the order given: part numbers 1 to 10,000,
   * strictly ascending; ETags with surrounding quotes (plain or entity-escaped) and whitespace
   * removed; checksum elements per part.
   *
   * @throws S3Exception {@code MalformedXML} (no parts, missing elements, bad document), {@code
   *     InvalidArgument} (part number out of range), {@code InvalidPartOrder} (not ascending)
   */
  public static List<CompletedPart> parse(byte[] body, int maxBodyBytes) {
    List<CompletedPart> parts =
        SafeXmlParser.parse(
            body,
            maxBodyBytes,
            "CompleteMultipartUpload",
            r -> {
              List<CompletedPart> read = new ArrayList<>();
              while (nextChild(r)) {
                if (!r.getLocalName().equals("Part")) {
                  skip(r);
                  continue;
                }
                Integer number = null;
                String etag = null;
                Map<ChecksumAlgorithm, String> checksums = new EnumMap<>(ChecksumAlgorithm.class);
                while (nextChild(r)) {
                  String name = r.getLocalName();
                  if (name.equals("PartNumber")) {
                    number = partNumber(r.getElementText());
                  } else if (name.equals("ETag")) {
                    etag = unquote(r.getElementText());
                  } else if (name.startsWith("Checksum")) {
                    String value = r.getElementText().strip();
                    Optional<ChecksumAlgorithm> a =
                        ChecksumAlgorithm.fromName(name.substring("Checksum".length()));
                    a.ifPresent(alg -> checksums.put(alg, value));
                  } else {
                    skip(r);
                  }
                }
                if (number == null || etag == null) {
                  throw malformed();
                }
                if (!read.isEmpty() && read.get(read.size() - 1).partNumber() >= number) {
                  throw S3Exception.of(S3ErrorCode.INVALID_PART_ORDER);
                }
                if (read.size() == MAX_PARTS) {
                  throw malformed();
                }
                read.add(new CompletedPart(number, etag, checksums));
              }
              return read;
            });
    if (parts.isEmpty()) {
      throw malformed();
    }
    return parts;
  }

  /** {@link #parse(byte[], int)} with the default cap. */
  public static List<CompletedPart> parse(byte[] body) {
    return parse(body, SafeXmlParser.DEFAULT_MAX_BODY_BYTES);
  }

  private static int partNumber(String text) {
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= 1 && n <= MAX_PARTS) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw S3Exception.of(
            S3ErrorCode.INVALID_ARGUMENT,
            "Part number must be an integer between 1 and 10000, inclusive")
        .withDetail("ArgumentName", "partNumber")
        .withDetail("ArgumentValue", text.strip());
  }

  /** Strips whitespace and one pair of surrounding double quotes. */
  static String unquote(String etag) {
    String e = etag.strip();
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1).strip();
    }
    return e;
  }
}
