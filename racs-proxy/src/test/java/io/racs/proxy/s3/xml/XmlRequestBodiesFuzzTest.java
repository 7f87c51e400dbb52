package io.racs.proxy.s3.xml;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.lifecycle.LifecycleConfiguration;
import io.racs.proxy.s3.lifecycle.LifecycleConfigurationRequest;
import io.racs.proxy.s3.tagging.TagSet;
import io.racs.proxy.s3.xml.XmlModel.CompletedPart;
import io.racs.proxy.s3.xml.XmlModel.DeleteRequest;
import io.racs.proxy.s3.xml.XmlModel.ObjectIdentifier;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the parsers of the S3 request documents (CompleteMultipartUpload, DeleteObjects,
 * CreateBucketConfiguration; Tagging and LifecycleConfiguration in {@link #parseConfiguration}).
 * Whatever the bytes: the only failure is the S3 error the parser documents; a parsed document
 * keeps the S3 limits (1 to 10,000 ascending parts, 1 to 1,000 keys); and nothing comes out that
 * was not in the input: the strings parsed are never longer, in total, than the document, so no
 * entity (internal or external) was expanded. Each input must finish within the timeout, so no
 * document makes the parser work without bound.
 */
class XmlRequestBodiesFuzzTest {
  private static final Set<S3ErrorCode> PARSER_ERRORS =
      Set.of(
          S3ErrorCode.MALFORMED_XML,
          S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED,
          S3ErrorCode.INVALID_ARGUMENT,
          S3ErrorCode.INVALID_PART_ORDER);

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse(FuzzedDataProvider data) {
    int which = data.consumeInt(0, 2);
    int maxBodyBytes = data.consumeBoolean() ? SafeXmlParser.DEFAULT_MAX_BODY_BYTES : 512;
    byte[] body = data.consumeRemainingAsBytes();
    try {
      switch (which) {
        case 0 -> checkParts(CompleteMultipartUploadRequest.parse(body, maxBodyBytes), body);
        case 1 -> checkDelete(DeleteObjectsRequest.parse(body, maxBodyBytes), body);
        default -> checkLocation(CreateBucketRequest.parse(body), body);
      }
    } catch (S3Exception e) {
      assertThat(e.code()).as(e.toString()).isIn(PARSER_ERRORS);
      if (e.code() == S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED) {
        assertThat(body.length).isGreaterThan(maxBodyBytes);
      }
    }
  }

  private static final Set<S3ErrorCode> CONFIGURATION_ERRORS =
      Set.of(
          S3ErrorCode.MALFORMED_XML,
          S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED,
          S3ErrorCode.INVALID_ARGUMENT,
          S3ErrorCode.INVALID_REQUEST,
          S3ErrorCode.NOT_IMPLEMENTED,
          S3ErrorCode.INVALID_TAG,
          S3ErrorCode.BAD_REQUEST);

  /**
   * The configuration documents (Tagging, LifecycleConfiguration): any body is a valid
   * configuration or one of the errors S3 answers for it, and a valid one renders to a document
   * that parses back to the same configuration (what Get returns is what Put accepted).
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parseConfiguration(FuzzedDataProvider data) {
    boolean lifecycle = data.consumeBoolean();
    byte[] body = data.consumeRemainingAsBytes();
    try {
      if (lifecycle) {
        LifecycleConfiguration c = LifecycleConfigurationRequest.parse(body);
        assertThat(LifecycleConfigurationRequest.parse(c.toXml())).isEqualTo(c);
      } else {
        TagSet tags = TagSet.of(TaggingRequest.parse(body), TagSet.MAX_BUCKET_TAGS);
        assertThat(TagSet.of(TaggingRequest.parse(tags.toXml()), TagSet.MAX_BUCKET_TAGS))
            .isEqualTo(tags);
      }
    } catch (S3Exception e) {
      assertThat(e.code()).as(e.toString()).isIn(CONFIGURATION_ERRORS);
    }
  }

  private static void checkParts(List<CompletedPart> parts, byte[] body) {
    assertThat(parts)
        .isNotEmpty()
        .hasSizeLessThanOrEqualTo(CompleteMultipartUploadRequest.MAX_PARTS);
    long chars = 0;
    int previous = 0;
    for (CompletedPart p : parts) {
      assertThat(p.partNumber())
          .isBetween(1, CompleteMultipartUploadRequest.MAX_PARTS)
          .isGreaterThan(previous);
      previous = p.partNumber();
      assertThat(p.etag()).isNotNull();
      chars += p.etag().length();
      for (String checksum : p.checksums().values()) {
        chars += checksum.length();
      }
    }
    assertThat(chars).as("characters parsed").isLessThanOrEqualTo(body.length);
  }

  private static void checkDelete(DeleteRequest delete, byte[] body) {
    assertThat(delete.objects())
        .isNotEmpty()
        .hasSizeLessThanOrEqualTo(DeleteObjectsRequest.MAX_DELETE_OBJECTS);
    long chars = 0;
    for (ObjectIdentifier o : delete.objects()) {
      assertThat(o.key()).isNotNull();
      chars += o.key().length();
      if (o.versionId() != null) {
        assertThat(o.versionId()).isNotEmpty();
        chars += o.versionId().length();
      }
    }
    assertThat(chars).as("characters parsed").isLessThanOrEqualTo(body.length);
  }

  private static void checkLocation(Optional<String> location, byte[] body) {
    location.ifPresent(l -> assertThat(l).isNotEmpty().hasSizeLessThanOrEqualTo(body.length));
  }
}
