package io.racs.bench.object.target.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.http.PercentCodec;
import java.util.Arrays;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Proves the client-side signer reproduces the worked examples of the Amazon S3 documentation (GET
 * with a range, PUT with a precomputed payload hash and an escaped key, ListObjects with a query,
 * and the aws-chunked upload with its seed and chunk signatures), byte for byte.
 */
class S3SignerTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String DATE = "20130524T000000Z";
  private static final String CREDENTIAL =
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,";

  private static S3Signer signer() {
    return new S3Signer("AKIAIOSFODNN7EXAMPLE", SECRET, "us-east-1");
  }

  private static TreeMap<String, String> headers(String... pairs) {
    TreeMap<String, String> h = new TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      h.put(pairs[i], pairs[i + 1]);
    }
    return h;
  }

  @Test
  void sign_whenGetObjectExample_matchesTheDocumentation() {
    S3Signer.Signature s =
        signer()
            .sign(
                "GET",
                "/test.txt",
                "",
                headers(
                    "host",
                    "examplebucket.s3.amazonaws.com",
                    "range",
                    "bytes=0-9",
                    "x-amz-content-sha256",
                    SigV4.EMPTY_SHA256,
                    "x-amz-date",
                    DATE),
                DATE);
    assertThat(s.authorization())
        .isEqualTo(
            CREDENTIAL
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }

  @Test
  void sign_whenPutObjectExampleWithEscapedKey_matchesTheDocumentation() {
    S3Signer.Signature s =
        signer()
            .sign(
                "PUT",
                "/" + PercentCodec.uriEncodePath("test$file.text"),
                "",
                headers(
                    "date", "Fri, 24 May 2013 00:00:00 GMT",
                    "host", "examplebucket.s3.amazonaws.com",
                    "x-amz-content-sha256",
                        "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
                    "x-amz-date", DATE,
                    "x-amz-storage-class", "REDUCED_REDUNDANCY"),
                DATE);
    assertThat(s.signature())
        .isEqualTo("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  }

  @Test
  void sign_whenListObjectsExample_matchesTheDocumentation() {
    S3Signer.Signature s =
        signer()
            .sign(
                "GET",
                "/",
                "max-keys=2&prefix=J",
                headers(
                    "host",
                    "examplebucket.s3.amazonaws.com",
                    "x-amz-content-sha256",
                    SigV4.EMPTY_SHA256,
                    "x-amz-date",
                    DATE),
                DATE);
    assertThat(s.signature())
        .isEqualTo("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  }

  @Test
  void chunkSignature_whenChunkedUploadExample_matchesTheDocumentation() {
    S3Signer signer = signer();
    S3Signer.Signature seed =
        signer.sign(
            "PUT",
            "/examplebucket/chunkObject.txt",
            "",
            headers(
                "content-encoding", "aws-chunked",
                "content-length", "66824",
                "host", "s3.amazonaws.com",
                "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                "x-amz-date", DATE,
                "x-amz-decoded-content-length", "66560",
                "x-amz-storage-class", "REDUCED_REDUNDANCY"),
            DATE);
    assertThat(seed.signature())
        .isEqualTo("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
    byte[] a = new byte[65_536];
    Arrays.fill(a, (byte) 'a');
    String first = signer.chunkSignature(DATE, seed.signature(), a, 0, 65_536);
    String second = signer.chunkSignature(DATE, first, a, 100, 1_024);
    String last = signer.chunkSignature(DATE, second, a, 0, 0);
    assertThat(first).isEqualTo("ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648");
    assertThat(second)
        .isEqualTo("0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497");
    assertThat(last).isEqualTo("b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
    // 65,536 + 1,024 bytes in 64 KiB chunks: the example's Content-Length.
    assertThat(S3HttpClient.encodedLength(66_560)).isEqualTo(66_824);
  }

  @Test
  void sign_whenTheDayChanges_derivesTheNewDaysKey() {
    S3Signer signer = signer();
    TreeMap<String, String> h =
        headers(
            "host", "examplebucket.s3.amazonaws.com",
            "range", "bytes=0-9",
            "x-amz-content-sha256", SigV4.EMPTY_SHA256,
            "x-amz-date", "20130525T000000Z");
    S3Signer.Signature nextDay = signer.sign("GET", "/test.txt", "", h, "20130525T000000Z");
    assertThat(nextDay.authorization()).contains("/20130525/us-east-1/s3/aws4_request,");
    h.put("x-amz-date", DATE);
    assertThat(signer.sign("GET", "/test.txt", "", h, DATE).signature())
        .isEqualTo("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }
}
