package io.racs.proxy.s3.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.XmlModel.CompletedPart;
import io.racs.proxy.s3.xml.XmlModel.DeleteRequest;
import io.racs.proxy.s3.xml.XmlModel.ObjectIdentifier;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Proves the request documents parse in every variant real clients send (namespace or not; ETags
 * quoted, unquoted or entity-escaped; checksums; comments and whitespace) and that malformed,
 * oversized or hostile documents (DTDs, external entities, entity expansion) fail with the S3 error
 * a client expects.
 */
class XmlRequestBodiesTest {
  private static final String NS = " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void assertCode(ThrowingCallable call, S3ErrorCode code) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void completeMultipartUpload_whenEveryClientVariant_parsesSameParts() {
    List<String> bodies =
        List.of(
            // AWS SDK v2 / boto3: namespace, quoted ETags.
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload"
                + NS
                + "><Part><ETag>\"aaa\"</ETag><PartNumber>1</PartNumber></Part>"
                + "<Part><ETag>\"bbb\"</ETag><PartNumber>2</PartNumber></Part>"
                + "</CompleteMultipartUpload>",
            // No namespace, entity-escaped quotes, PartNumber first, pretty-printed.
            "<CompleteMultipartUpload>\n  <Part>\n    <PartNumber>1</PartNumber>\n"
                + "    <ETag>&quot;aaa&quot;</ETag>\n  </Part>\n  <Part>\n"
                + "    <PartNumber>2</PartNumber>\n    <ETag>&#34;bbb&#34;</ETag>\n  </Part>\n"
                + "</CompleteMultipartUpload>\n",
            // Unquoted ETags, comments, whitespace around values, a prefix namespace.
            "<s3:CompleteMultipartUpload xmlns:s3=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + "<!-- parts --><s3:Part><s3:PartNumber> 1 </s3:PartNumber>"
                + "<s3:ETag> aaa </s3:ETag></s3:Part><s3:Part><s3:PartNumber>2</s3:PartNumber>"
                + "<s3:ETag>bbb</s3:ETag></s3:Part></s3:CompleteMultipartUpload>",
            // CDATA.
            "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag><![CDATA[\"aaa\"]]>"
                + "</ETag></Part><Part><PartNumber>2</PartNumber><ETag>bbb</ETag></Part>"
                + "</CompleteMultipartUpload>");
    for (String body : bodies) {
      List<CompletedPart> parts = CompleteMultipartUploadRequest.parse(utf8(body));
      assertThat(parts)
          .as(body)
          .containsExactly(
              new CompletedPart(1, "aaa", Map.of()), new CompletedPart(2, "bbb", Map.of()));
    }
  }

  @Test
  void completeMultipartUpload_whenChecksumsInParts_readsThem() {
    List<CompletedPart> parts =
        CompleteMultipartUploadRequest.parse(
            utf8(
                "<CompleteMultipartUpload"
                    + NS
                    + "><Part><ChecksumCRC32>AAAAAA==</ChecksumCRC32><ChecksumCRC64NVME>"
                    + "AAAAAAAAAAA=</ChecksumCRC64NVME><ETag>\"e\"</ETag><PartNumber>3</PartNumber>"
                    + "<Unknown><Nested/></Unknown></Part></CompleteMultipartUpload>"));
    assertThat(parts.get(0).partNumber()).isEqualTo(3);
    assertThat(parts.get(0).checksums())
        .containsEntry(ChecksumAlgorithm.CRC32, "AAAAAA==")
        .containsEntry(ChecksumAlgorithm.CRC64NVME, "AAAAAAAAAAA=");
  }

  @Test
  void completeMultipartUpload_whenPartsOutOfOrderOrRepeated_invalidPartOrder() {
    String two =
        "<CompleteMultipartUpload><Part><PartNumber>2</PartNumber><ETag>a</ETag></Part>"
            + "<Part><PartNumber>%d</PartNumber><ETag>b</ETag></Part></CompleteMultipartUpload>";
    assertCode(
        () -> CompleteMultipartUploadRequest.parse(utf8(two.formatted(1))),
        S3ErrorCode.INVALID_PART_ORDER);
    assertCode(
        () -> CompleteMultipartUploadRequest.parse(utf8(two.formatted(2))),
        S3ErrorCode.INVALID_PART_ORDER);
    assertThat(CompleteMultipartUploadRequest.parse(utf8(two.formatted(7)))).hasSize(2);
  }

  @Test
  void completeMultipartUpload_whenPartNumberOutOfRange_invalidArgument() {
    for (String n : List.of("0", "10001", "-1", "x", "")) {
      assertCode(
          () ->
              CompleteMultipartUploadRequest.parse(
                  utf8(
                      "<CompleteMultipartUpload><Part><PartNumber>"
                          + n
                          + "</PartNumber><ETag>a</ETag></Part></CompleteMultipartUpload>")),
          S3ErrorCode.INVALID_ARGUMENT);
    }
  }

  @Test
  void completeMultipartUpload_whenMalformed_malformedXml() {
    for (String body :
        List.of(
            "",
            "   ",
            "<CompleteMultipartUpload/>",
            "<CompleteMultipartUpload></CompleteMultipartUpload>",
            "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part>"
                + "</CompleteMultipartUpload>",
            "<CompleteMultipartUpload><Part><ETag>a</ETag></Part></CompleteMultipartUpload>",
            "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>",
            "<Delete><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part></Delete>",
            "<CompleteMultipartUpload>text<Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>"
                + "</CompleteMultipartUpload>",
            "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>"
                + "</CompleteMultipartUpload><Extra/>",
            "not xml at all")) {
      assertCode(() -> CompleteMultipartUploadRequest.parse(utf8(body)), S3ErrorCode.MALFORMED_XML);
    }
  }

  @Test
  void completeMultipartUpload_whenDtdOrExternalEntity_malformedXmlWithoutResolving() {
    String xxe =
        "<?xml version=\"1.0\"?><!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
            + "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&x;</ETag></Part>"
            + "</CompleteMultipartUpload>";
    String laughs =
        "<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\">"
            + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;\">]>"
            + "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&c;</ETag></Part>"
            + "</CompleteMultipartUpload>";
    String undeclared =
        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&nope;</ETag></Part>"
            + "</CompleteMultipartUpload>";
    for (String body : List.of(xxe, laughs, undeclared)) {
      assertCode(() -> CompleteMultipartUploadRequest.parse(utf8(body)), S3ErrorCode.MALFORMED_XML);
    }
  }

  @Test
  void parse_whenSkippedDtdHasBadCharacter_malformedXmlNotTheParsersOwnException() {
    // Found by XmlRequestBodiesFuzzTest: the JDK's StAX parser reports this DTD, which it skips,
    // with
    // a
    // MissingResourceException (its message key has no text), which escaped as a 500.
    byte[] body = utf8("\t\t<!DOCTYPE x[ PUBLIC \"\" \"h\r\0\0\5//foTYPE x");
    assertCode(() -> CompleteMultipartUploadRequest.parse(body), S3ErrorCode.MALFORMED_XML);
    assertCode(() -> DeleteObjectsRequest.parse(body), S3ErrorCode.MALFORMED_XML);
    assertCode(() -> CreateBucketRequest.parse(body), S3ErrorCode.MALFORMED_XML);
  }

  @Test
  void completeMultipartUpload_whenOverCap_maxMessageLengthExceeded() {
    byte[] body =
        utf8("<CompleteMultipartUpload>" + " ".repeat(2000) + "</CompleteMultipartUpload>");
    assertCode(
        () -> CompleteMultipartUploadRequest.parse(body, 1024),
        S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED);
  }

  @Test
  void deleteObjects_whenQuietAndVersions_parsesKeysExactly() {
    DeleteRequest d =
        DeleteObjectsRequest.parse(
            utf8(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete"
                    + NS
                    + "><Quiet>true</Quiet><Object><Key>  spaced key  </Key></Object>"
                    + "<Object><Key>a&amp;b&lt;c&gt;&quot;&apos;</Key><VersionId>v1</VersionId>"
                    + "</Object><Object><Key>日本/é&#x9;tab&#xD;cr</Key><VersionId></VersionId>"
                    + "</Object><Object><Key></Key></Object></Delete>"));
    assertThat(d.quiet()).isTrue();
    assertThat(d.objects())
        .containsExactly(
            new ObjectIdentifier("  spaced key  ", null),
            new ObjectIdentifier("a&b<c>\"'", "v1"),
            new ObjectIdentifier("日本/é\ttab\rcr", null),
            new ObjectIdentifier("", null));
  }

  @Test
  void deleteObjects_whenNoQuiet_notQuiet() {
    DeleteRequest d =
        DeleteObjectsRequest.parse(utf8("<Delete><Object><Key>k</Key></Object></Delete>"));
    assertThat(d.quiet()).isFalse();
    assertThat(d.objects()).containsExactly(new ObjectIdentifier("k", null));
  }

  @Test
  void deleteObjects_whenEmptyTooManyOrKeyless_malformedXml() {
    assertCode(() -> DeleteObjectsRequest.parse(utf8("<Delete/>")), S3ErrorCode.MALFORMED_XML);
    assertCode(
        () -> DeleteObjectsRequest.parse(utf8("<Delete><Object/></Delete>")),
        S3ErrorCode.MALFORMED_XML);
    assertCode(
        () ->
            DeleteObjectsRequest.parse(
                utf8("<Delete><Quiet>maybe</Quiet><Object><Key>k</Key></Object></Delete>")),
        S3ErrorCode.MALFORMED_XML);
    String thousand = "<Object><Key>k</Key></Object>".repeat(1000);
    assertThat(DeleteObjectsRequest.parse(utf8("<Delete>" + thousand + "</Delete>")).objects())
        .hasSize(1000);
    assertCode(
        () ->
            DeleteObjectsRequest.parse(
                utf8("<Delete>" + thousand + "<Object><Key>k</Key></Object></Delete>")),
        S3ErrorCode.MALFORMED_XML);
  }

  @Test
  void createBucketConfiguration_whenPresentEmptyOrAbsent_readsLocation() {
    assertThat(
            CreateBucketRequest.parse(
                utf8(
                    "<CreateBucketConfiguration"
                        + NS
                        + "><LocationConstraint>eu-west-1</LocationConstraint>"
                        + "</CreateBucketConfiguration>")))
        .contains("eu-west-1");
    assertThat(
            CreateBucketRequest.parse(
                utf8(
                    "<CreateBucketConfiguration><LocationConstraint/></CreateBucketConfiguration>")))
        .isEmpty();
    assertThat(CreateBucketRequest.parse(new byte[0])).isEmpty();
    assertCode(() -> CreateBucketRequest.parse(utf8("<Bucket/>")), S3ErrorCode.MALFORMED_XML);
  }
}
