package io.racs.proxy.s3.xml;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.XmlModel.BucketEntry;
import io.racs.proxy.s3.xml.XmlModel.DeleteError;
import io.racs.proxy.s3.xml.XmlModel.Deleted;
import io.racs.proxy.s3.xml.XmlModel.ListObjectsV1;
import io.racs.proxy.s3.xml.XmlModel.ListObjectsV2;
import io.racs.proxy.s3.xml.XmlModel.ListParts;
import io.racs.proxy.s3.xml.XmlModel.ListUploads;
import io.racs.proxy.s3.xml.XmlModel.ListVersions;
import io.racs.proxy.s3.xml.XmlModel.ObjectEntry;
import io.racs.proxy.s3.xml.XmlModel.Owner;
import io.racs.proxy.s3.xml.XmlModel.PartEntry;
import io.racs.proxy.s3.xml.XmlModel.UploadEntry;
import io.racs.proxy.s3.xml.XmlModel.VersionEntry;
import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * Proves the response documents carry what S3 clients read (names, order-independent fields, quoted
 * ETags, millisecond timestamps, namespace), that text is escaped so any key a parser can accept
 * round-trips, and that {@code encoding-type=url} keys decode back exactly.
 */
class S3XmlResponsesTest {
  private static final Instant T = Instant.parse("2026-01-02T03:04:05.006Z");
  private static final Owner OWNER = new Owner("id1", "racs");

  private static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static Document parse(byte[] xml) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
  }

  private static String text(Document d, String element, int index) {
    return d.getElementsByTagName(element).item(index).getTextContent();
  }

  @Test
  void errorXml_whenErrorWithResourceAndDetails_rendersS3ErrorBody() {
    S3Exception e =
        S3Exception.of(S3ErrorCode.INVALID_RANGE)
            .withDetail("ActualObjectSize", "10")
            .withResource("/b/k&1");
    assertThat(s(ErrorXml.render(e, "req-1")))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>InvalidRange</Code>"
                + "<Message>The requested range is not satisfiable</Message>"
                + "<ActualObjectSize>10</ActualObjectSize><Resource>/b/k&amp;1</Resource>"
                + "<RequestId>req-1</RequestId></Error>");
    assertThat(ErrorXml.render(S3Exception.of(S3ErrorCode.NOT_MODIFIED), "r")).isEmpty();
  }

  @Test
  void escape_whenSpecialAndControlCharacters_usesEntitiesAndReferences() {
    assertThat(XmlWriter.escape("a&b<c>\"d'e")).isEqualTo("a&amp;b&lt;c&gt;&quot;d&apos;e");
    assertThat(XmlWriter.escape("\t\n\r\u0001\u001f\u007f"))
        .isEqualTo("&#x9;&#xA;&#xD;&#x1;&#x1F;&#x7F;");
    assertThat(XmlWriter.escape("日本😀")).isEqualTo("日本😀");
    assertThat(XmlWriter.escape("x\uD800y")).isEqualTo("x\uFFFDy");
  }

  @Test
  void listObjectsV2_whenParsed_yieldsKeysSizesAndCounts() throws Exception {
    String key = "dir/a&b <c> \"q\" 'a'\t\r\n日本";
    byte[] xml =
        S3XmlResponses.listObjectsV2(
            new ListObjectsV2(
                "bucket",
                "dir/",
                "/",
                1000,
                true,
                "tok",
                "next",
                null,
                List.of(new ObjectEntry(key, T, "abc", 12, "STANDARD", null)),
                List.of("dir/sub/"),
                false));
    Document d = parse(xml);
    assertThat(d.getDocumentElement().getNamespaceURI()).isEqualTo(XmlWriter.S3_NAMESPACE);
    assertThat(text(d, "Key", 0)).isEqualTo(key);
    assertThat(text(d, "LastModified", 0)).isEqualTo("2026-01-02T03:04:05.006Z");
    assertThat(text(d, "ETag", 0)).isEqualTo("\"abc\"");
    assertThat(text(d, "Size", 0)).isEqualTo("12");
    assertThat(text(d, "KeyCount", 0)).isEqualTo("2");
    assertThat(text(d, "NextContinuationToken", 0)).isEqualTo("next");
    assertThat(text(d, "Prefix", 1)).isEqualTo("dir/sub/");
    assertThat(d.getElementsByTagName("Owner").getLength()).isZero();
    assertThat(d.getElementsByTagName("EncodingType").getLength()).isZero();
  }

  @Test
  void listObjectsV1_whenUrlEncoded_keysDecodeBackExactly() throws Exception {
    long seed = 0x0e1L;
    Random r = new Random(seed);
    String alphabet = "aZ9 +%&/=?#~*'\"<>\u0001\u0007\t\r\n日é😀";
    for (int i = 0; i < 200; i++) {
      StringBuilder k = new StringBuilder();
      for (int j = 0; j < 1 + r.nextInt(20); j++) {
        k.appendCodePoint(
            alphabet.codePointAt(
                alphabet.offsetByCodePoints(
                    0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
      }
      String key = k.toString();
      byte[] xml =
          S3XmlResponses.listObjectsV1(
              new ListObjectsV1(
                  "b",
                  key,
                  "/",
                  key,
                  2,
                  true,
                  key,
                  List.of(new ObjectEntry(key, T, "e", 1, "STANDARD", OWNER)),
                  List.of(key),
                  true));
      Document d = parse(xml);
      for (String element : List.of("Key", "Prefix", "Marker", "NextMarker")) {
        String encoded = text(d, element, 0);
        assertThat(URLDecoder.decode(encoded, StandardCharsets.UTF_8))
            .as("seed " + seed + " " + element + " " + encoded)
            .isEqualTo(key);
      }
      assertThat(text(d, "EncodingType", 0)).isEqualTo("url");
      assertThat(text(d, "ID", 0)).isEqualTo("id1");
    }
  }

  @Test
  void listVersions_whenUnversionedEntry_saysNullVersionAndLatest() throws Exception {
    byte[] xml =
        S3XmlResponses.listVersions(
            new ListVersions(
                "b",
                null,
                null,
                null,
                null,
                1000,
                false,
                null,
                null,
                List.of(
                    VersionEntry.unversioned(new ObjectEntry("k", T, "e", 5, "STANDARD", OWNER))),
                List.of(),
                false));
    Document d = parse(xml);
    assertThat(d.getDocumentElement().getLocalName()).isEqualTo("ListVersionsResult");
    assertThat(text(d, "VersionId", 0)).isEqualTo("null");
    assertThat(text(d, "IsLatest", 0)).isEqualTo("true");
    assertThat(text(d, "IsTruncated", 0)).isEqualTo("false");
  }

  @Test
  void multipartDocuments_whenParsed_carryTheirFields() throws Exception {
    Document init = parse(S3XmlResponses.initiateMultipartUpload("b", "k", "u1"));
    assertThat(text(init, "UploadId", 0)).isEqualTo("u1");
    Document complete =
        parse(
            S3XmlResponses.completeMultipartUpload(
                "http://h/b/k", "b", "k", "abc-2", Map.of(ChecksumAlgorithm.CRC32, "AAAAAA==-2")));
    assertThat(text(complete, "ETag", 0)).isEqualTo("\"abc-2\"");
    assertThat(text(complete, "ChecksumCRC32", 0)).isEqualTo("AAAAAA==-2");
    Document parts =
        parse(
            S3XmlResponses.listParts(
                new ListParts(
                    "b",
                    "k",
                    "u1",
                    0,
                    2,
                    1000,
                    false,
                    List.of(new PartEntry(1, T, "p1", 5_242_880, Map.of())),
                    OWNER,
                    "STANDARD",
                    null,
                    null)));
    assertThat(text(parts, "PartNumber", 0)).isEqualTo("1");
    assertThat(text(parts, "Size", 0)).isEqualTo("5242880");
    Document uploads =
        parse(
            S3XmlResponses.listMultipartUploads(
                new ListUploads(
                    "b",
                    "",
                    null,
                    null,
                    null,
                    1000,
                    false,
                    null,
                    null,
                    List.of(new UploadEntry("k", "u1", T, OWNER, "STANDARD")),
                    List.of(),
                    false)));
    assertThat(text(uploads, "Initiated", 0)).isEqualTo("2026-01-02T03:04:05.006Z");
  }

  @Test
  void otherDocuments_whenRendered_matchS3Shapes() throws Exception {
    assertThat(s(S3XmlResponses.locationConstraint("us-east-1")))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><LocationConstraint"
                + " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"></LocationConstraint>");
    assertThat(text(parse(S3XmlResponses.locationConstraint("eu-west-1")), "LocationConstraint", 0))
        .isEqualTo("eu-west-1");
    Document copy = parse(S3XmlResponses.copyObject(T, "e", Map.of()));
    assertThat(copy.getDocumentElement().getLocalName()).isEqualTo("CopyObjectResult");
    assertThat(parse(S3XmlResponses.copyPart(T, "e", Map.of())).getDocumentElement().getLocalName())
        .isEqualTo("CopyPartResult");
    Document del =
        parse(
            S3XmlResponses.deleteResult(
                List.of(new Deleted("a", null, false, null)),
                List.of(new DeleteError("b", null, "AccessDenied", "Access Denied"))));
    assertThat(text(del, "Key", 0)).isEqualTo("a");
    assertThat(text(del, "Code", 0)).isEqualTo("AccessDenied");
    Document buckets = parse(S3XmlResponses.listBuckets(OWNER, List.of(new BucketEntry("b1", T))));
    assertThat(text(buckets, "Name", 0)).isEqualTo("b1");
    assertThat(text(buckets, "CreationDate", 0)).isEqualTo("2026-01-02T03:04:05.006Z");
  }
}
